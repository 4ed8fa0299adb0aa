#include "oracles/execution.h"

namespace l0spv::oracles {

const char* ExecutionStatusName(ExecutionStatus status) {
  switch (status) {
    case ExecutionStatus::kOk:
      return "ok";
    case ExecutionStatus::kBuildFailed:
      return "build-failed";
    case ExecutionStatus::kCrashed:
      return "crashed";
    case ExecutionStatus::kTimedOut:
      return "timed-out";
    case ExecutionStatus::kUbDetected:
      return "ub-detected";
    case ExecutionStatus::kUnsupported:
      return "unsupported";
  }
  return "?";
}

}  // namespace l0spv::oracles
