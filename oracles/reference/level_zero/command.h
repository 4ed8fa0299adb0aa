// oracles/reference/level_zero/command.h — one recorded command of a command
// list: the events it waits on, the event it signals and its work.
#pragma once

#include <level_zero/ze_api.h>

#include <functional>
#include <vector>

namespace l0spv::zeref {

struct Event;

struct Command {
  std::vector<Event*> waits;
  Event* signal = nullptr;
  // Empty for pure synchronization commands (barriers, waits, signals).
  // Captures everything it needs by value: Level Zero fixes a command's
  // parameters (kernel arguments included) when it is appended.
  std::function<ze_result_t()> run;
};

}  // namespace l0spv::zeref
