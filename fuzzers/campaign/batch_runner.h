// fuzzers/campaign/batch_runner.h — runs a campaign's cases on one target,
// in batches when the target builds a batch once (Target::batches(),
// spirv/kernel_batch.h), and bisects any batch that does not come back ok,
// so every finding is a single case's.
//
// Contract:
//  - RunOnTarget returns, for each case, the Execution the target gave it:
//    from a batch when the case's result there was ok (Judge against its
//    reference says kOk) or the target decided it from the launch alone
//    (Execution::launch_own), else from a smaller batch, down to the case
//    run alone with Target::Run. A batch whose every case failed is halved;
//    otherwise the cases that failed are batched again. A result that is
//    not ok is therefore always the case's own, never a batch artifact, and
//    a verdict recorded from it names exactly that case.
//  - A batch holds at most `batch` cases that fit together
//    (spirv::BatchFit), packed first fit in campaign order; for a
//    target that batches_by_key() (spirv-opt), only cases of one
//    spirv::BatchKey.
//  - `batch` <= 1, a target that does not batch, or cases BatchKernels
//    refuses (several modules): each case runs alone, as without batching.
//  - Each result carries its verdict (Judge against the case's reference)
//    and its run time: its share of the batch it last ran in (`nanos`);
//    counters go to `counters` (batches, reruns; the caller counts the
//    verdicts).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fuzzers/campaign/stats.h"
#include "oracles/execution.h"
#include "oracles/targets/target.h"
#include "oracles/verdict/verdict.h"
#include "spirv/test_case.h"

namespace l0spv::fuzzers::campaign {

struct CaseOnTarget {
  const spirv::TestCase* test_case = nullptr;
  const oracles::Execution* reference = nullptr;
};

struct TargetResult {
  oracles::Execution execution;
  oracles::Verdict verdict;
  uint64_t nanos = 0;
};

std::vector<TargetResult> RunOnTarget(oracles::Target& target,
                                      std::span<const CaseOnTarget> cases,
                                      uint32_t batch,
                                      const oracles::TargetRunLimits& limits,
                                      TargetCounters& counters);

}  // namespace l0spv::fuzzers::campaign
