#include "oracles/reference/level_zero/engine.h"

#include <chrono>

#include "oracles/reference/level_zero/sync.h"

namespace l0spv::zeref {
namespace {

uint64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Engine::Engine() : worker_([this] { Work(); }) {}

Engine::~Engine() {
  {
    std::lock_guard<std::mutex> lock(TheSync().mu);
    stop_ = true;
  }
  TheSync().cv.notify_all();
  worker_.join();
}

uint64_t Engine::Submit(std::vector<Command> commands, Fence* fence) {
  uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(TheSync().mu);
    pending_.push_back(Batch{std::move(commands), fence});
    ticket = ++submitted_;
  }
  TheSync().cv.notify_all();
  return ticket;
}

ze_result_t Engine::Synchronize(uint64_t timeout_ns, uint64_t ticket) {
  std::unique_lock<std::mutex> lock(TheSync().mu);
  const uint64_t target = ticket ? ticket : submitted_;
  if (!WaitFor(lock, timeout_ns, [&] { return completed_ >= target; }))
    return ZE_RESULT_NOT_READY;
  const ze_result_t r = first_error_;
  first_error_ = ZE_RESULT_SUCCESS;
  return r;
}

void Engine::Work() {
  Sync& sync = TheSync();
  std::unique_lock<std::mutex> lock(sync.mu);
  while (true) {
    sync.cv.wait(lock, [&] { return stop_ || !pending_.empty(); });
    if (stop_) return;
    Batch batch = std::move(pending_.front());
    pending_.pop_front();
    for (Command& c : batch.commands) {
      sync.cv.wait(lock, [&] {
        if (stop_) return true;
        for (const Event* e : c.waits)
          if (!e->signaled) return false;
        return true;
      });
      if (stop_) return;
      if (c.run) {
        const uint64_t start = NowNs();
        lock.unlock();
        const ze_result_t r = c.run();
        lock.lock();
        if (r != ZE_RESULT_SUCCESS && first_error_ == ZE_RESULT_SUCCESS)
          first_error_ = r;
        if (c.signal) {
          c.signal->start_ns = start;
          c.signal->end_ns = NowNs();
        }
      }
      if (c.signal) c.signal->signaled = true;
      sync.cv.notify_all();
    }
    if (batch.fence) batch.fence->signaled = true;
    ++completed_;
    sync.cv.notify_all();
  }
}

}  // namespace l0spv::zeref
