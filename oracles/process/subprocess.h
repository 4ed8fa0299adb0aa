// oracles/process/subprocess.h — running untrusted work in a child process
// with a wall-clock limit, a memory limit and captured output.
//
// Contract: nothing a child does (crash, hang, allocation storm, writing
// megabytes to stderr) can take the caller down. Every call returns a
// ChildResult describing how the child ended; only failures to create the
// child at all (fork/pipe/exec setup) are reported as an error Status.
// Output beyond `max_output_bytes` per stream is dropped (the tail is kept,
// since crash messages come last).
//
// Nothing a child starts outlives it: each child leads a session of its
// own (so no terminal signal reaches it) and is killed if the thread that
// started it dies (PR_SET_PDEATHSIG). When it ends — by itself, at its
// timeout — everything else in its session is killed, and a daemon that
// left that session (setsid) is found among the orphans re-parented to
// this process (a child subreaper) and killed too (SweepStrays). A child
// that ends while something it started keeps its pipes open is reported
// as it ended, after 100 ms more of reading, not as a timeout.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace l0spv::oracles {

// False in AddressSanitizer builds: ASan reserves terabytes of shadow
// address space at start-up, so an RLIMIT_AS cap would kill every child
// before it runs. Memory limits are then not applied (time limits are).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kMemoryLimitsEnforced = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kMemoryLimitsEnforced = false;
#else
inline constexpr bool kMemoryLimitsEnforced = true;
#endif
#else
inline constexpr bool kMemoryLimitsEnforced = true;
#endif

struct ChildLimits {
  std::chrono::milliseconds wall_time{10000};
  // RLIMIT_AS; 0 = unlimited; ignored unless kMemoryLimitsEnforced.
  uint64_t memory_bytes = uint64_t{4} << 30;
  size_t max_output_bytes = 1 << 20;
};

struct ChildResult {
  enum class Ending { kExited, kSignaled, kTimedOut };
  Ending ending = Ending::kExited;
  int exit_code = 0;  // kExited
  int signal = 0;     // kSignaled (or the signal used to stop a timeout)
  std::string stdout_text;
  std::string stderr_text;
  std::chrono::milliseconds wall_time{0};

  bool Succeeded() const { return ending == Ending::kExited && exit_code == 0; }
  // "exit 3", "signal 11 (Segmentation fault)", "timed out after 10000 ms".
  std::string Describe() const;
};

// Runs argv[0] (searched in PATH) with the given arguments.
// `working_dir` empty = inherit; `stdin_data` is written to the child's stdin.
absl::StatusOr<ChildResult> RunCommand(
    const std::vector<std::string>& argv, const ChildLimits& limits,
    const std::string& working_dir = "", const std::string& stdin_data = "",
    const std::vector<std::string>& extra_env = {});

// Runs `body` in a forked child; whatever it returns becomes the child's
// stdout_text (exit code 0). A crash or hang in `body` is reported through the
// ChildResult like any other child. Only call from a single-threaded state.
absl::StatusOr<ChildResult> RunInChild(const std::function<std::string()>& body,
                                       const ChildLimits& limits);

// Reaps the child `pid` into `*status` (waitpid's), or returns false at
// `deadline` with the child still running. Wakes the moment it ends (a
// pidfd; a 1 ms poll loop without one).
bool WaitForChild(pid_t pid, int* status,
                  std::chrono::steady_clock::time_point deadline);

// Kills and reaps every child of this process that is neither running
// under RunCommand/RunInChild now nor in this process's own session (our
// workers and campaign jobs are): what consumers left behind. Runs after
// every child; cheap (a read of /proc/self/task/*/children).
void SweepStrays();

// SIGKILLs every running child's session. Async-signal-safe: for the
// termination handlers (fuzzers/cli), which then end the process.
void KillRunningChildren();

// Absolute path of an executable found in PATH, or nullopt.
std::optional<std::string> FindProgram(const std::string& name);

}  // namespace l0spv::oracles
