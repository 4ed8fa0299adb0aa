// tests/reducer/reduce_fault_target.h — test-only variants of `ref` with one
// injected fault, to prove that reduction keeps the faulty operation.
//
// Names:
//  - "fault-imul16v": a miscompiling consumer — every OpIMul whose result is
//    a vector of 16-bit integers is executed as OpIAdd (the module is
//    rewritten, then run on the reference interpreter in a worker).
//  - "fault-crash-rotate": a crashing consumer — its worker dies of SIGSEGV
//    when the module calls OpenCL.std `rotate`; otherwise it is `ref`.
//  - "fault-link-rotate": a crashing linker — the same, but only when a
//    linked module (module-1.spv, ...) calls `rotate`: a finding that needs
//    two modules.
// Any other name goes to oracles::MakeTarget. HasFault() tells whether a
// module still holds the faulty operation.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/targets/target.h"

namespace l0spv::testing {

absl::StatusOr<std::unique_ptr<oracles::Target>> MakeReduceFaultTarget(
    const std::string& name, const oracles::TargetOptions& options);

// Whether `words` contains the operation fault `name` reacts to
// ("fault-imul16v" or "fault-crash-rotate").
bool HasFault(const std::string& name, const std::vector<uint32_t>& words);

}  // namespace l0spv::testing
