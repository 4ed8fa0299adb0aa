// oracles/targets/llvm_spirv_adapter.h — the `llvm-spirv` target: a round
// trip through SPIRV-LLVM-Translator (SPIR-V → LLVM bitcode → SPIR-V), then
// the result on the reference interpreter. A crash, a rejection of a valid
// module, an invalid output or a different result is a finding against the
// translator.
//
// Contract: Run executes `llvm-spirv -r module.spv -o module.bc` and
// `llvm-spirv --spirv-max-version=1.N module.bc -o back.spv` (N = the
// input's version, so the output stays comparable) as separate processes
// under the run's limits, then validates back.spv with the reference's rules
// and runs it on the reference interpreter in a worker, all within one time
// budget. Statuses as for spirv-opt (spirv_opt_adapter.h), with messages
// naming the stage ("llvm-spirv-14 -r crashed: signal 6 ...", "llvm-spirv-14
// round trip produced a module that fails validation: ..."). The
// translator: TargetOptions::program, else the first of llvm-spirv-14,
// llvm-spirv-15, llvm-spirv in PATH (FailedPrecondition when none).
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_name.h"

namespace l0spv::oracles {

// `name`: llvm-spirv[@RELEASE] ("14", "dpcpp-2024.2": releases.h).
absl::StatusOr<std::unique_ptr<Target>> MakeLlvmSpirvTarget(
    const TargetName& name, const TargetOptions& options);

}  // namespace l0spv::oracles
