#include "oracles/process/frames.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "absl/strings/str_cat.h"

namespace l0spv::oracles::frames {
namespace {

bool SendAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    const ssize_t w = send(fd, data, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

// Reads n bytes; a deadline of Clock::time_point::max() waits for ever.
bool RecvAll(int fd, char* data, size_t n, Clock::time_point deadline) {
  while (n > 0) {
    if (deadline != Clock::time_point::max()) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - Clock::now());
      if (left.count() <= 0) return false;
      pollfd p{fd, POLLIN, 0};
      const int ready = poll(&p, 1, static_cast<int>(left.count()));
      if (ready < 0 && errno == EINTR) continue;
      if (ready <= 0) return false;
    }
    const ssize_t r = recv(fd, data, n, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    data += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

}  // namespace

bool SendFrame(int fd, const std::string& bytes) {
  const uint64_t n = bytes.size();
  return SendAll(fd, reinterpret_cast<const char*>(&n), sizeof n) &&
         SendAll(fd, bytes.data(), bytes.size());
}

bool RecvFrame(int fd, std::string* bytes, Clock::time_point deadline) {
  uint64_t n = 0;
  if (!RecvAll(fd, reinterpret_cast<char*>(&n), sizeof n, deadline) ||
      n > kMaxFrame)
    return false;
  bytes->resize(n);
  return RecvAll(fd, bytes->data(), n, deadline);
}

void PutString(std::string& out, const std::string& s) {
  Put<uint64_t>(out, s.size());
  out += s;
}

bool TakeString(const std::string& in, size_t& at, std::string* s) {
  uint64_t n = 0;
  if (!Take(in, at, &n) || at + n > in.size()) return false;
  s->assign(in, at, n);
  at += n;
  return true;
}

absl::StatusOr<std::pair<pid_t, int>> ForkPeer(
    const std::function<void(int fd)>& child) {
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return absl::ResourceExhaustedError(
        absl::StrCat("socketpair() failed: ", std::strerror(errno)));
  fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return absl::ResourceExhaustedError(
        absl::StrCat("fork() failed: ", std::strerror(errno)));
  }
  if (pid == 0) {
    // Gone with its caller, even one killed with SIGKILL (a campaign job
    // killed at its deadline, a `run` interrupted).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(0);
    close(fds[0]);
    child(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  return std::make_pair(pid, fds[0]);
}

}  // namespace l0spv::oracles::frames
