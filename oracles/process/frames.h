// oracles/process/frames.h — length-prefixed frames on a stream socket or
// pipe between a process and its worker (fork_server.h, warm_worker.h).
//
// Contract: a frame is a 64-bit length, then that many bytes (at most
// kMaxFrame). SendFrame writes the whole frame or returns false (the peer
// is gone; no SIGPIPE). RecvFrame reads one whole frame or returns false at
// EOF, on error, on an oversized length or at `deadline`
// (Clock::time_point::max() waits for ever). Put/Take append and read
// fixed-width fields of a frame's bytes, PutString/TakeString
// length-prefixed strings; Take* return false past the end.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"

namespace l0spv::oracles::frames {

using Clock = std::chrono::steady_clock;

inline constexpr uint64_t kMaxFrame = uint64_t{1} << 32;

bool SendFrame(int fd, const std::string& bytes);
bool RecvFrame(int fd, std::string* bytes, Clock::time_point deadline);

template <typename T>
void Put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof value);
}
template <typename T>
bool Take(const std::string& in, size_t& at, T* value) {
  if (at + sizeof(T) > in.size()) return false;
  std::memcpy(value, in.data() + at, sizeof(T));
  at += sizeof(T);
  return true;
}
void PutString(std::string& out, const std::string& s);
bool TakeString(const std::string& in, size_t& at, std::string* s);

// A worker to exchange frames with: a socket pair (close-on-exec), then a
// fork whose child runs `child` on its end (it must not return: it ends
// with _exit). The child is killed when the caller's thread dies, even by
// SIGKILL (PR_SET_PDEATHSIG). Returns the child's pid and the caller's end.
absl::StatusOr<std::pair<pid_t, int>> ForkPeer(
    const std::function<void(int fd)>& child);

}  // namespace l0spv::oracles::frames
