// oracles/reference/level_zero/engine.h — what runs command lists: a worker
// thread per command queue (and per immediate command list) executing
// commands in order, with events and fences.
//
// Contract: Submit never blocks on device work; the worker runs each command
// after every event it waits on is signaled, then signals the command's
// event (also when the command failed, so waiters never hang), and after a
// batch signals its fence. A failing command records the first error of the
// engine, which the next Synchronize returns (and clears); later commands
// still run, as on a device where one kernel faulted. Destroying an Engine
// stops its worker after the command in progress, abandoning waits on events
// that are never signaled. All waiting goes through sync.h.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "oracles/reference/level_zero/objects.h"

namespace l0spv::zeref {

class Engine {
 public:
  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Queues the commands (run as one batch) and returns the batch's ticket.
  uint64_t Submit(std::vector<Command> commands, Fence* fence);
  // Waits until every batch submitted so far (or, with a ticket, that batch)
  // has run. ZE_RESULT_NOT_READY when `timeout_ns` passes first; otherwise
  // the first error since the last call (cleared), or ZE_RESULT_SUCCESS.
  ze_result_t Synchronize(uint64_t timeout_ns, uint64_t ticket = 0);

 private:
  struct Batch {
    std::vector<Command> commands;
    Fence* fence = nullptr;
  };
  void Work();

  // Guarded by TheSync().mu.
  std::deque<Batch> pending_;
  uint64_t submitted_ = 0;
  uint64_t completed_ = 0;
  ze_result_t first_error_ = ZE_RESULT_SUCCESS;
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace l0spv::zeref
