// oracles/targets/ref_adapter.h — the `ref` target: the reference
// interpreter (oracles/reference), the oracle of record.
//
// Contract: runs RunReference in a worker process under the run's limits
// (a hypothetical interpreter crash or runaway allocation cannot end a
// campaign), or in this process when TargetOptions::ref_in_process is set.
// The Execution is RunReference's, unchanged, except when the worker dies
// (kCrashed / kTimedOut, see target.h).
#pragma once

#include <memory>

#include "oracles/targets/target.h"

namespace l0spv::oracles {

std::unique_ptr<Target> MakeRefTarget(const TargetOptions& options);

}  // namespace l0spv::oracles
