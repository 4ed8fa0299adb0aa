// oracles/targets/opencl_adapter.h — the `opencl[:PLATFORM]` target behind
// the Target interface: RunOnOpenCl (opencl_target.h) on the first device of
// the first platform whose name contains PLATFORM (case-insensitive; any
// platform with a device when empty).
//
// Contract: MakeOpenClTarget probes the ICDs (in a child process) and fails
// with FailedPrecondition when there is no OpenCL platform with a device,
// NotFound (listing the platforms) when none matches PLATFORM. Run maps
// RunOnOpenCl's harness errors to kUnsupported ("harness: opencl...: ...").
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "oracles/targets/opencl_target.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_name.h"

namespace l0spv::oracles {

// `name`: opencl[:PLATFORM][@RELEASE] (a release picks Intel's CPU runtime
// from PyPI, run through its own vendors directory: releases.h).
absl::StatusOr<std::unique_ptr<Target>> MakeOpenClTarget(
    const TargetName& name, const TargetOptions& options);

// The RunOnOpenCl options of one run on the first device of the platform
// matching `platform` (empty: any), under `limits`; shared with the
// adapters of other OpenCL consumers (oclgrind).
OpenClTargetOptions OpenClRunOptions(const std::string& platform,
                                     const TargetOptions& options,
                                     const TargetRunLimits& limits);

}  // namespace l0spv::oracles
