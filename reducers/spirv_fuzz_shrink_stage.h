// reducers/spirv_fuzz_shrink_stage.h — spirv-fuzz's own shrinker as the
// first reduction stage of a --mutate=spirv-fuzz finding: it drops
// transformations from the sequence spirv-fuzz applied to original/ while
// the finding still reproduces, which removes most of a mutant's ~500
// transformations at once, before our module-level stages start.
//
// Contract:
//  - Runs only while the current case is still the finding's own mutant
//    (the sequence describes that module and no other) and only when the
//    finding has original/ and spirv-fuzz/transformations.
//  - Writes the original module, the sequence and the current case (the
//    fixed mutant: its launch and arguments) to a scratch directory with an
//    interestingness script that runs `CHECK... CASE --target=...
//    --signature=... --strict --kernel_fixup --module=CANDIDATE` under
//    `timeout` and exits 0 iff it says interesting (exit 1) — spirv-fuzz's
//    convention — keeping a copy of each interesting candidate.
//  - `spirv-fuzz original.spv -o out.spv --shrink=SEQ
//    --shrinker-step-limit=N --shrinker-temp-file-prefix=DIR/temp -- SCRIPT`
//    runs with the time left; its result (or the last interesting candidate
//    when cut short) goes through the engine's fix-up and ctx.Try.
//  - Unsupported (with the reason in unsupported()) without spirv-fuzz,
//    `timeout` or a check command.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reducers/spirv_reduce_stage.h"
#include "reducers/stage.h"
#include "spirv/test_case.h"

namespace l0spv::reducers {

struct SpirvFuzzShrinkInput {
  spirv::TestCase original;     // original/
  std::string transformations;  // spirv-fuzz/transformations (protobuf)
};

class SpirvFuzzShrinkStage : public Stage {
 public:
  // `check` carries the check command, targets, signature and limits (the
  // spirv-reduce stage's options); program empty = FindSpirvFuzz().
  SpirvFuzzShrinkStage(SpirvReduceOptions check,
                       std::optional<SpirvFuzzShrinkInput> input,
                       std::string program = "", uint32_t step_limit = 250);
  std::string name() const override { return "spirv-fuzz-shrink"; }
  bool Run(ReductionContext& ctx) override;
  const std::string& unsupported() const { return unsupported_; }
  uint64_t script_runs() const { return script_runs_; }

 private:
  SpirvReduceOptions check_;
  std::optional<SpirvFuzzShrinkInput> input_;
  std::string program_;
  uint32_t step_limit_;
  std::optional<std::vector<uint32_t>> mutant_;  // the case it may run on
  std::string unsupported_;
  uint64_t script_runs_ = 0;
};

}  // namespace l0spv::reducers
