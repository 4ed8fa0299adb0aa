#include "oracles/process/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace l0spv::oracles {
namespace {

using Clock = std::chrono::steady_clock;

void AppendBounded(std::string& out, const char* data, size_t n, size_t cap) {
  out.append(data, n);
  if (out.size() > cap) {
    // Keep the tail: crash reports and error summaries come last.
    out.erase(0, out.size() - cap);
  }
}

void ApplyLimitsInChild(const ChildLimits& limits) {
  setpgid(0, 0);
  if (kMemoryLimitsEnforced && limits.memory_bytes != 0) {
    struct rlimit rl {
      limits.memory_bytes, limits.memory_bytes
    };
    setrlimit(RLIMIT_AS, &rl);
  }
  struct rlimit no_core {
    0, 0
  };  // crashing consumers must not litter cores
  setrlimit(RLIMIT_CORE, &no_core);
}

struct Pipes {
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
  ~Pipes() {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]})
      if (fd >= 0) close(fd);
  }
};

// Parent side: feeds stdin, drains stdout/stderr, enforces the deadline and
// reaps the child.
ChildResult Supervise(pid_t pid, Pipes& p, const std::string& stdin_data,
                      const ChildLimits& limits) {
  const auto start = Clock::now();
  const auto deadline = start + limits.wall_time;
  ChildResult result;
  close(p.in[0]);
  p.in[0] = -1;
  close(p.out[1]);
  p.out[1] = -1;
  close(p.err[1]);
  p.err[1] = -1;
  size_t written = 0;
  if (stdin_data.empty()) {
    close(p.in[1]);
    p.in[1] = -1;
  } else {
    fcntl(p.in[1], F_SETFL, O_NONBLOCK);
  }
  bool timed_out = false;
  char buf[65536];
  while (p.out[0] >= 0 || p.err[0] >= 0) {
    const auto now = Clock::now();
    if (now >= deadline) {
      timed_out = true;
      break;
    }
    pollfd fds[3];
    int n = 0;
    if (p.out[0] >= 0) fds[n++] = {p.out[0], POLLIN, 0};
    if (p.err[0] >= 0) fds[n++] = {p.err[0], POLLIN, 0};
    if (p.in[1] >= 0) fds[n++] = {p.in[1], POLLOUT, 0};
    const int wait_ms = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)
            .count());
    const int ready = poll(fds, n, std::max(1, std::min(wait_ms, 1000)));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == p.in[1]) {
        const ssize_t w = write(p.in[1], stdin_data.data() + written,
                                stdin_data.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 || written == stdin_data.size()) {
          close(p.in[1]);
          p.in[1] = -1;
        }
        continue;
      }
      const ssize_t r = read(fds[i].fd, buf, sizeof buf);
      if (r > 0) {
        std::string& target =
            fds[i].fd == p.out[0] ? result.stdout_text : result.stderr_text;
        AppendBounded(target, buf, static_cast<size_t>(r),
                      limits.max_output_bytes);
      } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
        int& fd = fds[i].fd == p.out[0] ? p.out[0] : p.err[0];
        close(fd);
        fd = -1;
      }
    }
  }
  int status = 0;
  if (!timed_out) {
    // Output closed; the child may still linger (e.g. a daemonised
    // grandchild kept nothing open). Wait out the remaining budget.
    timed_out = !WaitForChild(pid, &status, deadline);
  }
  if (timed_out) {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    result.ending = ChildResult::Ending::kTimedOut;
    result.signal = SIGKILL;
  } else if (WIFSIGNALED(status)) {
    result.ending = ChildResult::Ending::kSignaled;
    result.signal = WTERMSIG(status);
  } else {
    result.ending = ChildResult::Ending::kExited;
    result.exit_code = WEXITSTATUS(status);
  }
  result.wall_time = std::chrono::duration_cast<std::chrono::milliseconds>(
      Clock::now() - start);
  return result;
}

absl::Status MakePipes(Pipes& p) {
  if (pipe2(p.in, O_CLOEXEC) != 0 || pipe2(p.out, O_CLOEXEC) != 0 ||
      pipe2(p.err, O_CLOEXEC) != 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("pipe() failed: ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

void RedirectInChild(Pipes& p) {
  dup2(p.in[0], STDIN_FILENO);
  dup2(p.out[1], STDOUT_FILENO);
  dup2(p.err[1], STDERR_FILENO);
}

// The environment with each NAME=VALUE of `extra` set (replacing NAME's
// current value), as putenv would make it; the pointers stay valid while
// `extra` and environ do.
std::vector<char*> EnvironmentWith(const std::vector<std::string>& extra) {
  std::vector<char*> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const absl::string_view entry(*e);
    const absl::string_view name = entry.substr(0, entry.find('=') + 1);
    const bool replaced = std::any_of(
        extra.begin(), extra.end(),
        [&](const std::string& kv) { return absl::StartsWith(kv, name); });
    if (!replaced) env.push_back(*e);
  }
  for (const std::string& kv : extra)
    env.push_back(const_cast<char*>(kv.c_str()));
  env.push_back(nullptr);
  return env;
}

// In a vfork child before exec: handlers we installed go back to the
// default (the child has its own table, but exec would only reset them
// after a signal could have run ours on our memory), then the caller's
// mask returns. System calls only.
void ResetSignalsInChild(const sigset_t& mask) {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) != 0) continue;
    if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)
      sigaction(sig, &dfl, nullptr);
  }
  pthread_sigmask(SIG_SETMASK, &mask, nullptr);
}

}  // namespace

// Reaps `pid` into `status`, or returns false at `deadline`. A child closes
// its pipes before it becomes waitable, so the first look usually finds it
// still running; a pidfd (Linux 5.3) wakes us the moment it ends. The
// 1 ms sleep-and-look loop this replaces cost about a millisecond a child:
// 2.6 of a spirv-opt case's 8 ms unbatched (the tool and the reference
// worker each) before it. Without pidfds, the loop is the fallback.
bool WaitForChild(pid_t pid, int* status,
                  std::chrono::steady_clock::time_point deadline) {
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  bool ended = true;
  while (true) {
    const pid_t w = waitpid(pid, status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    const auto now = Clock::now();
    if (now >= deadline) {
      ended = false;
      break;
    }
    if (pidfd >= 0) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)
              .count();
      pollfd f{pidfd, POLLIN, 0};
      poll(&f, 1, static_cast<int>(std::clamp<int64_t>(left, 1, 1000)));
    } else {
      usleep(1000);
    }
  }
  if (pidfd >= 0) close(pidfd);
  return ended;
}

std::string ChildResult::Describe() const {
  switch (ending) {
    case Ending::kExited:
      return absl::StrCat("exit ", exit_code);
    case Ending::kSignaled:
      return absl::StrCat("signal ", signal, " (", strsignal(signal), ")");
    case Ending::kTimedOut:
      return absl::StrCat("timed out after ", wall_time.count(), " ms");
  }
  return "?";
}

absl::StatusOr<ChildResult> RunCommand(
    const std::vector<std::string>& argv, const ChildLimits& limits,
    const std::string& working_dir, const std::string& stdin_data,
    const std::vector<std::string>& extra_env) {
  if (argv.empty()) return absl::InvalidArgumentError("RunCommand: empty argv");
  Pipes p;
  if (auto s = MakePipes(p); !s.ok()) return s;
  // Everything the child needs is made here: between vfork and exec it
  // shares our memory and must not allocate.
  // execvp's search, done here: a name without a slash is looked up in
  // PATH only ("" when absent, so exec fails with ENOENT as execvp would).
  const std::string program = FindProgram(argv[0]).value_or(
      argv[0].find('/') == std::string::npos ? "" : argv[0]);
  std::vector<char*> args;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> env = EnvironmentWith(extra_env);
  const std::string exec_failed =
      absl::StrCat("cannot execute ", argv[0], ": ");
  // vfork, not fork: fork copies the page tables of this (large) process and
  // then takes a copy-on-write fault for each page either side touches
  // before the exec, ~0.8 ms a child of a campaign job; the tools are
  // started once a case when unbatched and on every reduction step.
  // Signals are blocked across it so no handler of ours runs in the child.
  sigset_t all, saved;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &saved);
  const pid_t pid = vfork();
  if (pid == 0) {
    RedirectInChild(p);
    ApplyLimitsInChild(limits);
    if (!working_dir.empty() && chdir(working_dir.c_str()) != 0) _exit(126);
    ResetSignalsInChild(saved);
    execve(program.c_str(), args.data(), env.data());
    const int error = errno;
    (void)!write(STDERR_FILENO, exec_failed.data(), exec_failed.size());
    const char* why = strerrordesc_np(error);
    (void)!write(STDERR_FILENO, why, strlen(why));
    (void)!write(STDERR_FILENO, "\n", 1);
    _exit(127);
  }
  const int vfork_error = errno;
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  if (pid < 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("vfork() failed: ", std::strerror(vfork_error)));
  }
  return Supervise(pid, p, stdin_data, limits);
}

absl::StatusOr<ChildResult> RunInChild(const std::function<std::string()>& body,
                                       const ChildLimits& limits) {
  Pipes p;
  if (auto s = MakePipes(p); !s.ok()) return s;
  fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("fork() failed: ", std::strerror(errno)));
  }
  if (pid == 0) {
    RedirectInChild(p);
    ApplyLimitsInChild(limits);
    const std::string out = body();
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t w =
          write(STDOUT_FILENO, out.data() + done, out.size() - done);
      if (w <= 0) break;
      done += static_cast<size_t>(w);
    }
    _exit(0);
  }
  return Supervise(pid, p, "", limits);
}

std::optional<std::string> FindProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (access(name.c_str(), X_OK) == 0) return name;
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  for (absl::string_view dir :
       absl::StrSplit(path ? path : "/usr/bin:/bin", ':')) {
    if (dir.empty()) continue;
    const std::string candidate = absl::StrCat(dir, "/", name);
    struct stat st;
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return std::nullopt;
}

}  // namespace l0spv::oracles
