// oracles/execution.h — the Execution shape (DESIGN.md): what running a
// TestCase on one target produced.
//
// Contract: plain value. `buffers[i]` holds the final contents of argument i
// when it is a buffer argument and is empty otherwise. `message` explains any
// status other than kOk in words a driver engineer can act on (for kUbDetected:
// the check, work-item, function, instruction and address).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace l0spv::oracles {

enum class ExecutionStatus {
  kOk,
  kBuildFailed,
  kCrashed,
  kTimedOut,
  kUbDetected,
  kUnsupported,
};

const char* ExecutionStatusName(ExecutionStatus status);

struct Execution {
  ExecutionStatus status = ExecutionStatus::kOk;
  std::string message;
  std::vector<std::vector<uint8_t>> buffers;
  std::string printf_output;
  std::string log;  // build log / stderr
  uint64_t instructions_executed = 0;
  std::chrono::nanoseconds wall_time{0};
  // Set by a target that decided this result from the launch alone, before
  // running anything of its batch (a refusal of what the launch itself asks,
  // e.g. OpenCL printf of a float on a device with doubles): the same result
  // as the case run alone, so a batch runner takes it as final instead of
  // re-running the case (fuzzers/campaign/batch_runner.h).
  bool launch_own = false;
};

}  // namespace l0spv::oracles
