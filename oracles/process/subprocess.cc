#include "oracles/process/subprocess.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>

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

// The consumers running now, each the leader of a session of its own:
// what the termination handler and the stray sweep must know. A fixed
// array of atomics, because a signal handler reads it.
constexpr size_t kMaxLiveChildren = 512;
std::array<std::atomic<pid_t>, kMaxLiveChildren> g_live{};
// Held from before a child exists until it is registered, so a sweep in
// another thread never takes a starting consumer for a stray.
std::mutex g_spawn_mutex;

void Register(pid_t pid) {
  for (auto& slot : g_live) {
    pid_t expected = 0;
    if (slot.compare_exchange_strong(expected, pid)) return;
  }
  // More than kMaxLiveChildren at once: the child still runs and is
  // reaped; only the termination handler would not know it.
}

void Unregister(pid_t pid) {
  for (auto& slot : g_live) {
    pid_t expected = pid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

bool IsRegistered(pid_t pid) {
  for (const auto& slot : g_live)
    if (slot.load() == pid) return true;
  return false;
}

// Orphaned descendants (a daemon a consumer left) are re-parented to the
// nearest subreaper: this process, so the sweep can find and end them. Per
// process: the setting is not inherited by fork, and workers run consumers
// too.
void BecomeSubreaper() {
  static std::atomic<pid_t> done_for{0};
  const pid_t self = getpid();
  if (done_for.load() == self) return;
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  done_for.store(self);
}

void ApplyLimitsInChild(const ChildLimits& limits) {
  // A session (and process group) of its own: every process the consumer
  // starts is ended with it, and no terminal signal reaches it. Killed if
  // this thread dies first, even by SIGKILL.
  setsid();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
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

// Whether `pid` ended by `deadline`, leaving it unreaped (a zombie).
bool WaitForExit(pid_t pid, Clock::time_point deadline) {
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  bool ended = false;
  while (true) {
    siginfo_t info{};
    const int w = waitid(P_PID, static_cast<id_t>(pid), &info,
                         WEXITED | WNOHANG | WNOWAIT);
    // Ended, or not (any more) a child of ours: nothing to wait for.
    if ((w == 0 && info.si_pid == pid) || (w < 0 && errno != EINTR)) {
      ended = true;
      break;
    }
    const auto now = Clock::now();
    if (now >= deadline) break;
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

// The children of this process (every thread's), from /proc.
std::vector<pid_t> ChildrenOfThisProcess() {
  std::vector<pid_t> out;
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return out;
  while (const dirent* d = readdir(tasks)) {
    if (d->d_name[0] == '.') continue;
    std::ifstream in(absl::StrCat("/proc/self/task/", d->d_name, "/children"));
    pid_t pid = 0;
    while (in >> pid) out.push_back(pid);
  }
  closedir(tasks);
  return out;
}

// The session of `pid` (field 6 of /proc/PID/stat), or -1.
pid_t SessionOf(pid_t pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string stat((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  const size_t close_paren = stat.rfind(')');
  if (close_paren == std::string::npos) return -1;
  std::istringstream fields(stat.substr(close_paren + 1));
  std::string state;
  pid_t ppid = 0, pgrp = 0, session = -1;
  fields >> state >> ppid >> pgrp >> session;
  return fields ? session : -1;
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
  // The child's end is seen through a pidfd even while something it started
  // keeps the pipes open (a daemon): its output is then read for
  // kPipeGrace more, and the rest of its session is killed below.
  constexpr auto kPipeGrace = std::chrono::milliseconds(100);
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  std::optional<Clock::time_point> ended_at;
  char buf[65536];
  while (p.out[0] >= 0 || p.err[0] >= 0) {
    const auto now = Clock::now();
    if (now >= deadline) {
      timed_out = true;
      break;
    }
    if (ended_at && now >= *ended_at + kPipeGrace) break;
    pollfd fds[4];
    int n = 0;
    if (p.out[0] >= 0) fds[n++] = {p.out[0], POLLIN, 0};
    if (p.err[0] >= 0) fds[n++] = {p.err[0], POLLIN, 0};
    if (p.in[1] >= 0) fds[n++] = {p.in[1], POLLOUT, 0};
    if (pidfd >= 0) fds[n++] = {pidfd, POLLIN, 0};
    const int wait_ms = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)
            .count());
    const int ready = poll(fds, n, std::max(1, std::min(wait_ms, 1000)));
    if (ready < 0 && errno != EINTR) break;
    for (int i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == pidfd) {
        close(pidfd);
        pidfd = -1;
        ended_at = Clock::now();
        continue;
      }
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
  if (pidfd >= 0) close(pidfd);
  int status = 0;
  // Output closed (or held open by what the child left behind): the child
  // itself gets the rest of the budget to end.
  if (!timed_out) timed_out = !WaitForExit(pid, deadline);
  // Whatever else runs in its session goes with it, before the child is
  // reaped (a zombie leader keeps its group id from being reused).
  kill(-pid, SIGKILL);
  if (timed_out) kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  Unregister(pid);
  SweepStrays();
  if (timed_out) {
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
  if (!WaitForExit(pid, deadline)) return false;
  while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
  }
  return true;
}

void SweepStrays() {
  const pid_t own_session = getsid(0);
  std::lock_guard<std::mutex> lock(g_spawn_mutex);
  // Ending a stray re-parents its own children to us: look again.
  for (int round = 0; round < 8; ++round) {
    bool found = false;
    for (pid_t pid : ChildrenOfThisProcess()) {
      if (IsRegistered(pid)) continue;
      const pid_t session = SessionOf(pid);
      // Our own workers and campaign jobs share our session; a consumer
      // started here leads one of its own and is registered while it runs.
      if (session < 0 || session == own_session) continue;
      found = true;
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
    if (!found) return;
  }
}

void KillRunningChildren() {
  for (auto& slot : g_live) {
    const pid_t pid = slot.load();
    if (pid <= 0) continue;
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
  }
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
  BecomeSubreaper();
  sigset_t all, saved;
  sigfillset(&all);
  std::unique_lock<std::mutex> spawning(g_spawn_mutex);
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
  if (pid > 0) Register(pid);
  spawning.unlock();
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
  BecomeSubreaper();
  fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat("fork() failed: ", std::strerror(errno)));
  }
  if (pid > 0) Register(pid);
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
