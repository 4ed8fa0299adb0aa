#include "oracles/process/fork_server.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "oracles/process/frames.h"

namespace l0spv::oracles {
namespace {

using frames::Clock;
using frames::Put;
using frames::PutString;
using frames::RecvFrame;
using frames::SendFrame;
using frames::Take;
using frames::TakeString;

int ThreadCount() {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  int n = 0;
  while (const dirent* e = readdir(dir))
    if (e->d_name[0] != '.') ++n;
  closedir(dir);
  return n;
}

[[noreturn]] void Serve(int fd, const ForkServer::WarmUp& warm_up,
                        const ForkServer::Handler& handler) {
  // Warm-up chatter and stray writes go nowhere; requests have their own
  // captured stdout and stderr (RunInChild).
  const int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, STDIN_FILENO);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
  std::string hello;
  if (absl::Status s = warm_up(); !s.ok()) {
    hello = absl::StrCat("warm-up failed: ", s.message());
  } else if (const int threads = ThreadCount(); threads != 1) {
    hello = absl::StrCat("warm-up left ", threads,
                         " threads; the server must fork from one");
  }
  if (!SendFrame(fd, hello) || !hello.empty()) _exit(0);
  std::string request;
  while (RecvFrame(fd, &request, Clock::time_point::max())) {
    size_t at = 0;
    int64_t wall_ms = 0;
    uint64_t memory = 0, max_output = 0;
    std::string payload;
    if (!Take(request, at, &wall_ms) || !Take(request, at, &memory) ||
        !Take(request, at, &max_output) || !TakeString(request, at, &payload))
      _exit(3);
    ChildLimits limits;
    limits.wall_time = std::chrono::milliseconds(wall_ms);
    limits.memory_bytes = memory;
    limits.max_output_bytes = max_output;
    auto r = RunInChild([&] { return handler(payload); }, limits);
    std::string reply;
    Put<uint8_t>(reply, r.ok() ? 1 : 0);
    if (!r.ok()) {
      PutString(reply, std::string(r.status().message()));
    } else {
      Put<int32_t>(reply, static_cast<int32_t>(r->ending));
      Put<int32_t>(reply, r->exit_code);
      Put<int32_t>(reply, r->signal);
      Put<int64_t>(reply, r->wall_time.count());
      PutString(reply, r->stdout_text);
      PutString(reply, r->stderr_text);
    }
    if (!SendFrame(fd, reply)) break;
  }
  _exit(0);
}

}  // namespace

absl::StatusOr<std::unique_ptr<ForkServer>> ForkServer::Start(
    WarmUp warm_up, Handler handler, uint64_t memory_bytes) {
  auto peer = frames::ForkPeer([&](int fd) {
    if (memory_bytes != 0 && kMemoryLimitsEnforced) {
      rlimit rl{memory_bytes, memory_bytes};
      setrlimit(RLIMIT_AS, &rl);
    }
    Serve(fd, warm_up, handler);
  });
  if (!peer.ok()) return peer.status();
  const int socket = peer->second;
  std::unique_ptr<ForkServer> server(new ForkServer(peer->first, socket));
  // The server says it is warm (an empty frame) or why it is not; a
  // warm-up that hangs is given up after a minute.
  std::string hello;
  if (!RecvFrame(socket, &hello, Clock::now() + std::chrono::seconds(60)))
    return absl::UnavailableError(
        "the fork server ended or hung during its warm-up");
  if (!hello.empty()) return absl::FailedPreconditionError(hello);
  return server;
}

absl::StatusOr<ChildResult> ForkServer::Run(const std::string& request,
                                            const ChildLimits& limits) {
  if (pid_ <= 0) return absl::UnavailableError("the fork server is stopped");
  std::string frame;
  Put<int64_t>(frame, limits.wall_time.count());
  Put<uint64_t>(frame, limits.memory_bytes);
  Put<uint64_t>(frame, limits.max_output_bytes);
  PutString(frame, request);
  // RunInChild in the server enforces the wall time; the grace covers
  // reaping and sending a large reply.
  const auto deadline =
      Clock::now() + limits.wall_time + std::chrono::seconds(30);
  std::string reply;
  if (!SendFrame(socket_, frame) || !RecvFrame(socket_, &reply, deadline)) {
    Stop();
    return absl::UnavailableError(
        "the fork server ended or did not reply in time");
  }
  size_t at = 0;
  uint8_t ok = 0;
  if (!Take(reply, at, &ok)) {
    Stop();
    return absl::UnavailableError("the fork server's reply is unreadable");
  }
  if (!ok) {
    std::string why;
    TakeString(reply, at, &why);
    return absl::ResourceExhaustedError(
        absl::StrCat("the fork server could not fork: ", why));
  }
  ChildResult r;
  int32_t ending = 0;
  int64_t wall_ms = 0;
  if (!Take(reply, at, &ending) || !Take(reply, at, &r.exit_code) ||
      !Take(reply, at, &r.signal) || !Take(reply, at, &wall_ms) ||
      !TakeString(reply, at, &r.stdout_text) ||
      !TakeString(reply, at, &r.stderr_text) || ending < 0 || ending > 2) {
    Stop();
    return absl::UnavailableError("the fork server's reply is unreadable");
  }
  r.ending = static_cast<ChildResult::Ending>(ending);
  r.wall_time = std::chrono::milliseconds(wall_ms);
  ++served_;
  return r;
}

void ForkServer::Stop() {
  if (socket_ >= 0) {
    close(socket_);  // the server's loop ends on EOF
    socket_ = -1;
  }
  if (pid_ > 0) {
    // A server that does not end within a second of EOF is killed.
    for (int i = 0; i < 100; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return;
      }
      usleep(10'000);
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
}

ForkServer::~ForkServer() { Stop(); }

}  // namespace l0spv::oracles
