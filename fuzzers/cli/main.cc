// l0spv-fuzz: the command. Subcommands in the manner of git (see DESIGN.md).
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "fuzzers/cli/commands.h"
#include "fuzzers/cli/flag_checks.h"
#include "oracles/process/scratch_root.h"
#include "oracles/process/subprocess.h"

namespace l0spv::fuzzers::cli {
namespace {

void PrintOverview(std::ostream& out) {
  out << "usage: l0spv-fuzz <command> [flags] [args]\n\n"
         "Fuzzing and differential testing for Level Zero SPIR-V consumers.\n\n"
         "commands:\n";
  for (const Command& c : AllCommands())
    out << absl::StrFormat("  %-10s %s\n", c.name, c.summary);
  out << "\n`l0spv-fuzz <command> --help` describes a command and its flags.\n"
         "`l0spv-fuzz [--target=LIST] [--time=..]` (no command) runs the "
         "campaign.\n";
}

// SIGINT, SIGTERM, SIGHUP: the consumers running now (each a session of
// its own) go first, then the process ends by the same signal. Workers die
// with it (PR_SET_PDEATHSIG); scratch left behind is swept by the next
// command (oracles/process/scratch_root.h). The campaign installs its own
// handlers to stop gracefully.
void OnTerminationSignal(int sig) {
  l0spv::oracles::KillRunningChildren();
  signal(sig, SIG_DFL);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, sig);
  sigprocmask(SIG_UNBLOCK, &unblock, nullptr);
  raise(sig);
}

void InstallProcessGuards() {
  // A closed standard descriptor would be handed to the next file opened,
  // and our output written into it: hold the slot. Writes to a closed
  // stdout then fail (/dev/full) and are reported at exit.
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int held = open(fd == 0 ? "/dev/null" : "/dev/full", O_RDWR);
    if (held >= 0 && held != fd) {
      dup2(held, fd);
      close(held);
    }
  }
  // Scratch roots of commands that were killed go now, whatever this
  // command is (oracles/process/scratch_root.h).
  std::error_code tmp_error;
  const std::filesystem::path tmp =
      std::filesystem::temp_directory_path(tmp_error);
  if (!tmp_error) l0spv::oracles::SweepStaleScratchRoots(tmp.string());
  // Past `ulimit -f` a write fails with EFBIG, reported with the file's
  // name like a full disk, instead of SIGXFSZ ending the process.
  signal(SIGXFSZ, SIG_IGN);
  struct sigaction sa {};
  sa.sa_handler = OnTerminationSignal;
  sigemptyset(&sa.sa_mask);
  // SIGINT even when inherited ignored (a background job of a script):
  // `run` must be stoppable. SIGHUP stays ignored under nohup.
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  struct sigaction hup {};
  if (sigaction(SIGHUP, nullptr, &hup) == 0 && hup.sa_handler != SIG_IGN)
    sigaction(SIGHUP, &sa, nullptr);
}

// Whether everything written to stdout reached it; says why not.
bool StdoutWritten(const std::string& command) {
  std::cout.flush();
  errno = 0;
  const bool failed = !std::cout || fflush(stdout) != 0 || ferror(stdout);
  if (!failed) return true;
  const int err = errno;
  std::cerr << "l0spv-fuzz" << (command.empty() ? "" : " ") << command
            << ": cannot write to standard output"
            << (err != 0 ? std::string(" (") + std::strerror(err) + ")" : "")
            << ": the output is lost; redirect it to a file or a pipe that "
               "is open (>/dev/null to discard it)\n";
  return false;
}

}  // namespace
}  // namespace l0spv::fuzzers::cli

int main(int argc, char** argv) {
  using namespace l0spv::fuzzers::cli;
  InstallProcessGuards();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" ||
      args[0] == "help") {
    PrintOverview(args.empty() ? std::cerr : std::cout);
    if (args.empty()) return kExitUsage;
    return StdoutWritten("") ? kExitOk : kExitUsage;
  }
  // No command, only flags: the campaign.
  if (args[0].rfind("-", 0) == 0) args.insert(args.begin(), "campaign");
  // The campaign's default is every available target; --target=ref alone
  // is the generator/interpreter self-check.
  if (args[0] == "campaign") {
    bool has_target = false;
    for (const std::string& a : args) has_target |= a.rfind("--target", 0) == 0;
    if (!has_target) args.push_back("--target=all");
    bool has_profile = false;
    for (const std::string& a : args)
      has_profile |= a.rfind("--profile", 0) == 0;
    if (!has_profile) args.push_back("--profile=auto");
    // --mutate alone still means our transformations (it was a bool flag
    // before --mutate=spirv-fuzz).
    for (std::string& a : args)
      if (a == "--mutate") a = "--mutate=ours";
  }
  const std::string name = args[0];
  const Command* command = FindCommand(name);
  if (command == nullptr) {
    PrintOverview(std::cerr);
    return UsageError("", "unknown command '" + name + "'");
  }
  bool wants_help = false;
  auto positional = ParseArgs(
      *command, std::vector<std::string>(args.begin() + 1, args.end()),
      &wants_help);
  if (wants_help) {
    std::cout << HelpText(*command);
    return StdoutWritten(name) ? kExitOk : kExitUsage;
  }
  if (!positional.ok()) {
    return UsageError(name, std::string(positional.status().message()));
  }
  if (absl::Status s = CheckFlags(*command); !s.ok())
    return UsageError(name, std::string(s.message()));
  try {
    const int rc = command->run(*positional);
    // Results nobody received are a failure, whatever the command found.
    return StdoutWritten(name) ? rc : kExitUsage;
  } catch (const std::bad_alloc&) {
    // An input within every cap can still exceed this machine's memory
    // (or a --memory_limit_mb the tool runs under): an input problem.
    return UsageError(name,
                      "out of memory while working on this input (smaller "
                      "input, or more memory)");
  }
}
