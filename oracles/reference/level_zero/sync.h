// oracles/reference/level_zero/sync.h — the reference driver's one lock for
// everything that threads wait on (events, fences, queue progress).
//
// Contract: every state a host thread or a queue worker may wait for (an
// event's or fence's signaled flag, a queue's counters) is read and written
// under TheSync().mu, and every change is followed by cv.notify_all(). One
// lock keeps the waits simple and obviously race-free; nothing slow (kernel
// runs, copies) happens while it is held. The object is never destroyed, so a
// worker thread still waiting at process exit touches valid memory.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <limits>
#include <mutex>

namespace l0spv::zeref {

struct Sync {
  std::mutex mu;
  std::condition_variable cv;
};

Sync& TheSync();

// Level Zero timeouts are nanoseconds; UINT64_MAX waits forever and 0 only
// polls. Waits on TheSync().cv (lock must hold TheSync().mu) until `done()`
// is true; returns false when the timeout passed first.
template <typename Pred>
bool WaitFor(std::unique_lock<std::mutex>& lock, uint64_t timeout_ns,
             Pred done) {
  Sync& sync = TheSync();
  if (timeout_ns == std::numeric_limits<uint64_t>::max()) {
    sync.cv.wait(lock, done);
    return true;
  }
  // Clamp so the deadline cannot overflow the clock's representation.
  const uint64_t clamped =
      std::min<uint64_t>(timeout_ns, uint64_t{365} * 24 * 3600 * 1000000000);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::nanoseconds(clamped);
  return sync.cv.wait_until(lock, deadline, done);
}

}  // namespace l0spv::zeref
