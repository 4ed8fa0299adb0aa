// oracles/targets/spirv_opt_adapter.h — the `spirv-opt[:PASSES]` target:
// optimize the module with SPIRV-Tools' spirv-opt, then run the result on
// the reference interpreter. A crash, a rejection of a valid module, an
// invalid output or a different result is a finding against spirv-opt.
//
// Contract:
//  - PASSES: comma- or space-separated spirv-opt flags; a word without a
//    leading '-' gets "--" ("ccp,vector-dce" = --ccp --vector-dce; "-O", "-Os"
//    as they are; "scalar-replacement=100" takes its argument). Default: -O
//    (the performance recipe). MakeSpirvOptTarget checks every flag against the
//    SPIRV-Tools optimizer library and returns InvalidArgument naming an
//    unknown one; FailedPrecondition when spirv-opt is not installed.
//  - Run: `spirv-opt --target-env=spv1.N FLAGS module.spv -o opt.spv` (N =
//    the module's version) as a separate process under the run's limits,
//    then spirv-val of opt.spv (the reference's rules) and the reference
//    interpreter in a worker on it, within the same time budget. Statuses:
//    spirv-opt crash/hang → kCrashed/kTimedOut "spirv-opt ... crashed:
//    signal N"; spirv-opt rejecting a valid module → kBuildFailed
//    "spirv-opt -O rejected a valid module: ..."; an invalid output →
//    kBuildFailed "spirv-opt -O produced a module that fails validation:
//    ..."; otherwise the reference's Execution of the optimized module.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_name.h"

namespace l0spv::oracles {

// `name`: spirv-opt[:PASSES][@RELEASE].
absl::StatusOr<std::unique_ptr<Target>> MakeSpirvOptTarget(
    const TargetName& name, const TargetOptions& options);

// The spirv-opt command-line flags of "spirv-opt:PASSES" ("ccp,vector-dce"
// -> --ccp --vector-dce; none -> -O).
std::vector<std::string> SpirvOptPassFlags(const std::string& passes);

}  // namespace l0spv::oracles
