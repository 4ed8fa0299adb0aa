#include "reducers/log_stage.h"

#include "generators/transform/engine.h"
#include "reducers/chunks.h"

namespace l0spv::reducers {
namespace {

class LogShrinkStage : public Stage {
 public:
  explicit LogShrinkStage(std::optional<spirv::TestCase> original)
      : original_(std::move(original)) {}
  std::string name() const override { return "shrink-log"; }

  bool Run(ReductionContext& ctx) override {
    if (!original_ || !ctx.current().transformation_log) return false;
    // Only while the current case is the replay of its own log.
    auto replayed = Replay(*ctx.current().transformation_log);
    if (!replayed || replayed->module_words != ctx.current().module_words)
      return false;
    auto enumerate = [&](const spirv::TestCase& tc) {
      std::vector<uint64_t> sites;
      auto r = generators::transform::LogRecords(*tc.transformation_log);
      if (r.ok())
        for (size_t i = 0; i < r->size(); ++i) sites.push_back(i);
      return sites;
    };
    auto apply =
        [&](const spirv::TestCase& tc,
            std::span<const uint64_t> drop) -> std::optional<spirv::TestCase> {
      auto r = generators::transform::LogRecords(*tc.transformation_log);
      if (!r.ok()) return std::nullopt;
      std::vector<nlohmann::json> kept;
      size_t d = 0;
      for (size_t i = 0; i < r->size(); ++i) {
        if (d < drop.size() && drop[d] == i) {
          ++d;
          continue;
        }
        kept.push_back((*r)[i]);
      }
      return Replay(
          generators::transform::MakeLog(original_->module_words, kept));
    };
    return ReduceInChunks(ctx, enumerate, apply);
  }

 private:
  // The original with `log` replayed, carrying the log (applied records).
  std::optional<spirv::TestCase> Replay(const nlohmann::json& log) {
    generators::transform::ReplayOptions options;
    options.skip_inapplicable = true;
    auto r = generators::transform::Replay(*original_, log, options);
    if (!r.ok()) return std::nullopt;
    spirv::TestCase tc = std::move(r->test_case);
    if (!r->skipped.empty()) {
      // Keep only the records that applied, so the log replays exactly.
      auto records = generators::transform::LogRecords(log);
      if (!records.ok()) return std::nullopt;
      std::vector<nlohmann::json> applied;
      size_t s = 0;
      for (size_t i = 0; i < records->size(); ++i) {
        if (s < r->skipped.size() && r->skipped[s] == i) {
          ++s;
          continue;
        }
        applied.push_back((*records)[i]);
      }
      tc.transformation_log =
          generators::transform::MakeLog(original_->module_words, applied);
    } else {
      tc.transformation_log = log;
    }
    return tc;
  }

  std::optional<spirv::TestCase> original_;
};

}  // namespace

std::unique_ptr<Stage> MakeLogShrinkStage(
    std::optional<spirv::TestCase> original) {
  return std::make_unique<LogShrinkStage>(std::move(original));
}

}  // namespace l0spv::reducers
