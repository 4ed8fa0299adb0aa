// oracles/targets/spirv_link_adapter.h — the `spirv-link` target: link the
// case's modules with SPIRV-Tools' linker, then run the result on the
// reference interpreter. `ref` links the same modules with the project's
// own linker (spirv/link.h), so a wrong link shows up as a mismatch.
//
// Contract:
//  - Run: `spirv-link --target-env spv1.N module.spv [module-1.spv ...] -o
//    linked.spv` (N = the newest version of the inputs) as a separate
//    process under the run's limits, then spirv-val of linked.spv and the
//    reference interpreter in a worker on it, within the same time budget.
//    A one-module case is linked too (spirv-link then resolves the module's
//    own LinkOnceODR copies and drops nothing else).
//  - Statuses as for spirv-opt (spirv_opt_adapter.h): a crash or hang of
//    spirv-link is kCrashed/kTimedOut, a rejection of modules `ref` links
//    is kBuildFailed "spirv-link rejected a valid module: ...", an invalid
//    output kBuildFailed "spirv-link produced a module that fails
//    validation: ...", else the reference's Execution of the linked module.
//  - FailedPrecondition when spirv-link is not installed.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_name.h"

namespace l0spv::oracles {

// `name`: spirv-link[@RELEASE].
absl::StatusOr<std::unique_ptr<Target>> MakeSpirvLinkTarget(
    const TargetName& name, const TargetOptions& options);

}  // namespace l0spv::oracles
