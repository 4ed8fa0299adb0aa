#include "oracles/process/warm_worker.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "oracles/process/frames.h"
#include "oracles/process/subprocess.h"

namespace l0spv::oracles {
namespace {

[[noreturn]] void Serve(int fd, const WarmWorker::Handler& handler) {
  const int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, STDIN_FILENO);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
  std::string request;
  while (frames::RecvFrame(fd, &request, frames::Clock::time_point::max())) {
    if (!frames::SendFrame(fd, handler(request))) break;
  }
  _exit(0);
}

std::string DescribeStatus(int status) {
  if (WIFSIGNALED(status)) {
    ChildResult r;
    r.ending = ChildResult::Ending::kSignaled;
    r.signal = WTERMSIG(status);
    return r.Describe();
  }
  return absl::StrCat("exit ", WEXITSTATUS(status));
}

}  // namespace

absl::StatusOr<std::unique_ptr<WarmWorker>> WarmWorker::Start(
    Handler handler, uint64_t memory_bytes) {
  auto peer = frames::ForkPeer([&](int fd) {
    setpgid(0, 0);
    if (memory_bytes != 0 && kMemoryLimitsEnforced) {
      rlimit rl{memory_bytes, memory_bytes};
      setrlimit(RLIMIT_AS, &rl);
    }
    rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    Serve(fd, handler);
  });
  if (!peer.ok()) return peer.status();
  return std::unique_ptr<WarmWorker>(
      new WarmWorker(peer->first, peer->second, memory_bytes));
}

absl::StatusOr<std::string> WarmWorker::Run(
    const std::string& request, std::chrono::milliseconds wall_time) {
  if (pid_ <= 0) return absl::UnavailableError("the warm worker is stopped");
  const auto deadline = frames::Clock::now() + wall_time;
  std::string reply;
  if (!frames::SendFrame(socket_, request) ||
      !frames::RecvFrame(socket_, &reply, deadline)) {
    // poll's millisecond timeout may wake a hair before the deadline.
    const bool late =
        frames::Clock::now() + std::chrono::milliseconds(20) >= deadline;
    // A worker that closed the socket is ending: let it become waitable
    // (it closes its files first), so the error names how it ended. One
    // still running after that did not answer in time.
    const std::string ended =
        Stop(late ? std::chrono::milliseconds(0) : std::chrono::seconds(1));
    if (ended == "still running") {
      return absl::DeadlineExceededError(absl::StrCat(
          "the warm worker did not answer within ", wall_time.count(), " ms"));
    }
    return absl::UnavailableError(
        absl::StrCat("the warm worker ended without answering: ", ended));
  }
  ++served_;
  return reply;
}

std::string WarmWorker::Stop(std::chrono::milliseconds grace) {
  if (socket_ >= 0) {
    close(socket_);
    socket_ = -1;
  }
  if (pid_ <= 0) return "stopped";
  int status = 0;
  std::string ended = "still running";
  if (WaitForChild(pid_, &status, std::chrono::steady_clock::now() + grace)) {
    ended = DescribeStatus(status);
  } else {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
  }
  pid_ = -1;
  return ended;
}

void WarmWorker::Detach() {
  if (socket_ >= 0) close(socket_);
  socket_ = -1;
  pid_ = -1;
}

WarmWorker::~WarmWorker() { Stop(std::chrono::milliseconds(0)); }

}  // namespace l0spv::oracles
