// tests/campaign/fault_target.h — a test-only Target that misbehaves on
// demand, to prove the campaign's verdicts, limits, resume and dedup.
//
// Names: "fault:ok" (the reference's result), "fault:crash" (the worker
// dies of SIGSEGV), "fault:hang" (the worker sleeps past the limit),
// "fault:leak" (the worker allocates until the memory limit stops it),
// "fault:wrong" (first result byte flipped), "fault:wrong-if-transformed"
// (the same, only on cases that carry a transformation log), "fault:reject" (a
// build failure with a fixed log), "fault:kill-job-at-N" (the calling process
// itself dies of SIGSEGV on its N-th run: a crash outside any worker),
// "fault:batch-reject" (batches; a module holding a poisoned kernel —
// IsPoisoned — is rejected whole, in a batch or alone) and
// "fault:batch-wrong" (batches; a poisoned launch's first result byte is
// flipped).
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "oracles/targets/target.h"

namespace l0spv::testing {

absl::StatusOr<std::unique_ptr<oracles::Target>> MakeFaultTarget(
    const std::string& name);

// Whether the batch-* modes treat a case as poisoned (a hash of its
// arguments: about a quarter of generated cases).
bool IsPoisoned(const spirv::TestCase& tc);

}  // namespace l0spv::testing
