// oracles/targets/level_zero_adapter.h — the `gpu[:DEVICE]` target behind
// the Target interface (target.h): RunOnLevelZero (level_zero_target.h) on
// the first Level Zero device whose name contains DEVICE (case-insensitive;
// any device when empty).
//
// Contract: MakeLevelZeroTarget probes the loader in a child process
// (ProbeLevelZero, which never calls zeDriverGet after a failed zeInit) and
// fails with FailedPrecondition when there is no Level Zero device (the
// probe's reason: no driver, zeInit failed), NotFound listing the devices
// when none matches DEVICE. The process environment decides the drivers:
// ZE_ENABLE_ALT_DRIVERS=/abs/path/libze_l0spv_reference.so selects the
// reference driver (oracles/reference/level_zero/README.md). Run maps
// RunOnLevelZero's harness errors to kUnsupported.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "oracles/targets/target.h"

namespace l0spv::oracles {

absl::StatusOr<std::unique_ptr<Target>> MakeLevelZeroTarget(
    const std::string& device, const TargetOptions& options);

}  // namespace l0spv::oracles
