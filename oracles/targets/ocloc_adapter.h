// oracles/targets/ocloc_adapter.h — the `ocloc:DEVICE` target: the Intel
// Graphics Compiler (the compiler behind Level Zero on Intel GPUs) through
// the `ocloc` executable, compile-only, no GPU needed.
//
// Contract: each Run writes the module into a fresh scratch directory and
// runs `ocloc compile -spirv_input -file module.spv -device DEVICE
// [-options OPTS]` there (ocloc writes its binary into the working
// directory) under the run's limits. Verdicts:
//  - exit 0 → kOk, no buffers (executes() is false);
//  - a signal, or an internal-error text in the output ("internal compiler
//    error", "LLVM ERROR", an assertion) → kCrashed, message naming ocloc
//    and the signal or that line; ocloc's output tail in `log`;
//  - any other non-zero exit → kBuildFailed, message = the normalized first
//    error line of ocloc's output (or "ocloc rejected the module without a
//    message (exit N)"); the whole output in `log`;
//  - over the time limit → kTimedOut;
//  - a case with image or sampler arguments when DEVICE's profile
//    (oracles/validity/profiles.json) has `images: false` → kUnsupported
//    without running ocloc (devices without a profile are not judged).
// MakeOclocTarget checks that ocloc is installed (FailedPrecondition) and
// knows DEVICE (NotFound, listing the devices it knows); a
// TargetOptions::program stand-in is used as given, without the device check.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "oracles/targets/target.h"

namespace l0spv::oracles {

absl::StatusOr<std::unique_ptr<Target>> MakeOclocTarget(
    const std::string& device, const TargetOptions& options);

}  // namespace l0spv::oracles
