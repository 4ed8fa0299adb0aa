// reducers/log_stage.h — transformation-log shrinking (delta debugging over
// TestCase::transformation_log), for findings of `--mutate` campaigns.
//
// Contract: given the untransformed original, the stage removes chunks of
// the log's records (halving down to single records) and replays the rest
// on the original (generators::transform::Replay, inapplicable records
// skipped); a shorter log is kept when the replayed case is still interesting.
// It runs only while the current case is exactly the replay of its log — once
// another stage has edited the module, a log no longer describes it — so
// the pipeline puts it first. Without an original or a log it does nothing.
#pragma once

#include <memory>
#include <optional>

#include "reducers/stage.h"

namespace l0spv::reducers {

std::unique_ptr<Stage> MakeLogShrinkStage(
    std::optional<spirv::TestCase> original);

}  // namespace l0spv::reducers
