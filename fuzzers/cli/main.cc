// l0spv-fuzz: the command. Subcommands in the manner of git (see DESIGN.md).
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "fuzzers/cli/commands.h"
#include "fuzzers/cli/flag_checks.h"

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

}  // namespace
}  // namespace l0spv::fuzzers::cli

int main(int argc, char** argv) {
  using namespace l0spv::fuzzers::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" ||
      args[0] == "help") {
    PrintOverview(args.empty() ? std::cerr : std::cout);
    return args.empty() ? kExitUsage : kExitOk;
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
    return kExitOk;
  }
  if (!positional.ok()) {
    return UsageError(name, std::string(positional.status().message()));
  }
  if (absl::Status s = CheckFlags(*command); !s.ok())
    return UsageError(name, std::string(s.message()));
  try {
    return command->run(*positional);
  } catch (const std::bad_alloc&) {
    // An input within every cap can still exceed this machine's memory
    // (or a --memory_limit_mb the tool runs under): an input problem.
    return UsageError(name,
                      "out of memory while working on this input (smaller "
                      "input, or more memory)");
  }
}
