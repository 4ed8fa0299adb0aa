#include "oracles/process/subprocess.h"

#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"

namespace l0spv::oracles {
namespace {

using namespace std::chrono_literals;

ChildLimits Quick() {
  ChildLimits limits;
  limits.wall_time = 5s;
  return limits;
}

TEST(RunCommand, CapturesStdoutStderrAndExitCode) {
  auto r = RunCommand({"sh", "-c", "echo out; echo err >&2; exit 3"}, Quick());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->ending, ChildResult::Ending::kExited);
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->stdout_text, "out\n");
  EXPECT_EQ(r->stderr_text, "err\n");
  EXPECT_FALSE(r->Succeeded());
  EXPECT_EQ(r->Describe(), "exit 3");
}

TEST(RunCommand, FeedsStdin) {
  auto r = RunCommand({"cat"}, Quick(), "", "hello");
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->Succeeded());
  EXPECT_EQ(r->stdout_text, "hello");
}

TEST(RunCommand, ReportsSignals) {
  auto r = RunCommand({"sh", "-c", "kill -SEGV $$"}, Quick());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ending, ChildResult::Ending::kSignaled);
  EXPECT_EQ(r->signal, SIGSEGV);
  EXPECT_NE(r->Describe().find("signal 11"), std::string::npos);
}

TEST(RunCommand, KillsHangsAndTheirChildren) {
  ChildLimits limits;
  limits.wall_time = 300ms;
  // The grandchild keeps stdout open; the timeout must still fire and kill
  // the whole process group.
  auto r = RunCommand({"sh", "-c", "sleep 30 & sleep 30"}, limits);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ending, ChildResult::Ending::kTimedOut);
  EXPECT_LT(r->wall_time, 5s);
}

TEST(RunCommand, EnforcesMemoryLimit) {
  if (!kMemoryLimitsEnforced) GTEST_SKIP() << "no RLIMIT_AS under ASan";
  ChildLimits limits = Quick();
  limits.memory_bytes = 64 << 20;
  // A shell asked to build a 256 MiB string must fail under a 64 MiB cap.
  auto r = RunCommand(
      {"sh", "-c", "x=$(head -c 268435456 /dev/zero | tr '\\0' a); echo ok"},
      limits);
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r->stdout_text, "ok\n");
}

TEST(RunCommand, MissingProgramIsExit127WithMessage) {
  auto r = RunCommand({"/nonexistent/l0spv-tool"}, Quick());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 127);
  EXPECT_NE(r->stderr_text.find("cannot execute /nonexistent/l0spv-tool"),
            std::string::npos);
}

TEST(RunCommand, AMissingNameIsSearchedInPathOnly) {
  // execvp semantics: a bare name absent from PATH is not run from the
  // working directory, even when a file of that name sits there.
  char dir[] = "/tmp/l0spv-path-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string tool = absl::StrCat(dir, "/l0spv-local-tool");
  FILE* f = fopen(tool.c_str(), "w");
  ASSERT_NE(f, nullptr);
  fputs("#!/bin/sh\necho ran\n", f);
  fclose(f);
  chmod(tool.c_str(), 0755);
  auto r = RunCommand({"l0spv-local-tool"}, Quick(), dir);
  auto by_path = RunCommand({tool}, Quick());
  unlink(tool.c_str());
  rmdir(dir);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 127);
  EXPECT_EQ(r->stdout_text, "");
  EXPECT_NE(r->stderr_text.find("cannot execute l0spv-local-tool: No such "
                                "file or directory"),
            std::string::npos)
      << r->stderr_text;
  ASSERT_TRUE(by_path.ok());
  EXPECT_EQ(by_path->stdout_text, "ran\n");
}

TEST(RunCommand, RunsInTheWorkingDirectory) {
  auto r = RunCommand({"pwd"}, Quick(), "/usr");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stdout_text, "/usr\n");
  auto missing = RunCommand({"pwd"}, Quick(), "/nonexistent/l0spv-dir");
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(missing->exit_code, 126);
}

TEST(RunCommand, ExtraEnvironmentAddsAndReplacesVariables) {
  setenv("L0SPV_TEST_REPLACED", "old", 1);
  auto r = RunCommand(
      {"sh", "-c", "echo $L0SPV_TEST_REPLACED $L0SPV_TEST_ADDED $HOME"},
      Quick(), "", "", {"L0SPV_TEST_REPLACED=new", "L0SPV_TEST_ADDED=added"});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stdout_text,
            absl::StrCat("new added ", std::getenv("HOME"), "\n"));
  // The caller's environment is untouched.
  EXPECT_STREQ(std::getenv("L0SPV_TEST_REPLACED"), "old");
  EXPECT_EQ(std::getenv("L0SPV_TEST_ADDED"), nullptr);
  unsetenv("L0SPV_TEST_REPLACED");
}

void CountSignal(int) {}

TEST(RunCommand, OurSignalHandlersAndMaskDoNotReachTheChild) {
  // The child starts between vfork and exec on our memory: a handler of
  // ours must not run there, and a signal must end the child as it would
  // any program.
  struct sigaction handler {
  }, saved{};
  handler.sa_handler = CountSignal;
  sigaction(SIGTERM, &handler, &saved);
  auto r = RunCommand({"sh", "-c", "kill -TERM $$; sleep 5"}, Quick());
  sigaction(SIGTERM, &saved, nullptr);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ending, ChildResult::Ending::kSignaled);
  EXPECT_EQ(r->signal, SIGTERM);
  // Our mask is back after the call.
  sigset_t now;
  pthread_sigmask(SIG_SETMASK, nullptr, &now);
  EXPECT_FALSE(sigismember(&now, SIGTERM));
}

TEST(RunCommand, EmptyArgvIsAnError) {
  EXPECT_FALSE(RunCommand({}, Quick()).ok());
}

TEST(RunCommand, KeepsTheTailOfHugeOutput) {
  ChildLimits limits = Quick();
  limits.max_output_bytes = 1000;
  auto r = RunCommand(
      {"sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x; echo END"}, limits);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stdout_text.size(), 1000u);
  EXPECT_EQ(r->stdout_text.substr(996), "END\n");
}

TEST(RunInChild, ReturnsTheBodysOutput) {
  auto r = RunInChild([] { return std::string("probe result"); }, Quick());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->Succeeded());
  EXPECT_EQ(r->stdout_text, "probe result");
}

TEST(RunInChild, SurvivesACrashingBody) {
  auto r = RunInChild(
      []() -> std::string {
        raise(SIGABRT);
        return "unreachable";
      },
      Quick());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ending, ChildResult::Ending::kSignaled);
  EXPECT_EQ(r->signal, SIGABRT);
}

TEST(RunInChild, TimesOutAHangingBody) {
  ChildLimits limits;
  limits.wall_time = 200ms;
  auto r = RunInChild(
      []() -> std::string {
        while (true) pause();
      },
      limits);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ending, ChildResult::Ending::kTimedOut);
}

TEST(FindProgram, FindsShellAndRejectsMissing) {
  EXPECT_TRUE(FindProgram("sh").has_value());
  EXPECT_FALSE(FindProgram("l0spv-no-such-program").has_value());
  EXPECT_EQ(FindProgram("/bin/sh"), "/bin/sh");
}

// Whether a process whose command line holds `marker` still runs (read
// from /proc: a minimal Debian has no `ps`).
bool Running(const std::string& marker) {
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "cmdline", std::ios::binary);
    std::string cmd((std::istreambuf_iterator<char>(in)), {});
    std::replace(cmd.begin(), cmd.end(), '\0', ' ');
    if (cmd.find(marker) != std::string::npos) return true;
  }
  return false;
}

TEST(RunCommand, AGrandchildHoldingThePipesEndsWithTheChild) {
  // The child exits at once; its background sleep keeps stdout open. The
  // result is the child's own (not a timeout), and the sleep is gone.
  ChildLimits limits;
  limits.wall_time = 20s;
  auto r =
      RunCommand({"sh", "-c", "sleep 3141 & echo started; exit 4"}, limits);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ending, ChildResult::Ending::kExited);
  EXPECT_EQ(r->exit_code, 4);
  EXPECT_EQ(r->stdout_text, "started\n");
  EXPECT_LT(r->wall_time, 5s);
  EXPECT_FALSE(Running("sleep 3141"));
}

TEST(RunCommand, AGrandchildThatClosedThePipesIsKilledToo) {
  auto r = RunCommand(
      {"sh", "-c", "(sleep 3142 </dev/null >/dev/null 2>&1 &); exit 0"},
      Quick());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->Succeeded());
  EXPECT_FALSE(Running("sleep 3142"));
}

TEST(RunCommand, ADaemonThatLeftTheSessionIsSweptAfterTheChild) {
  // setsid in a double fork: another session, re-parented to us.
  auto r = RunCommand({"sh", "-c",
                       "(setsid sleep 3143 </dev/null >/dev/null 2>&1 &); "
                       "sleep 0.2; exit 0"},
                      Quick());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->Succeeded());
  EXPECT_FALSE(Running("sleep 3143"));
}

TEST(RunCommand, TheChildLeadsASessionOfItsOwn) {
  // Field 6 of /proc/PID/stat is the session ("sh" holds no space).
  auto r =
      RunCommand({"sh", "-c", "cut -d' ' -f6 /proc/$$/stat; echo $$"}, Quick());
  ASSERT_TRUE(r.ok());
  std::vector<std::string> lines = absl::StrSplit(r->stdout_text, '\n');
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(std::string(absl::StripAsciiWhitespace(lines[0])), lines[1]);
}

TEST(SweepStrays, LeavesOurOwnSessionsChildrenAlone) {
  // A child of this process in our session (a worker, a campaign job) is
  // not a stray, however long it runs.
  const pid_t pid = fork();
  if (pid == 0) {
    sleep(30);
    _exit(0);
  }
  ASSERT_GT(pid, 0);
  SweepStrays();
  EXPECT_EQ(kill(pid, 0), 0);
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

}  // namespace
}  // namespace l0spv::oracles
