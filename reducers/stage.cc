#include "reducers/stage.h"

#include <algorithm>

#include "reducers/chunks.h"
#include "reducers/module_edit.h"

namespace l0spv::reducers {

bool ReductionContext::Try(const spirv::TestCase& candidate) {
  if (!oracle_->IsInteresting(candidate)) return false;
  current_ = candidate;
  return true;
}

bool ReduceInChunks(ReductionContext& ctx, const EnumerateSites& enumerate,
                    const ApplySites& apply) {
  std::vector<uint64_t> keys = enumerate(ctx.current());
  bool progress = false;
  size_t size = keys.size();
  while (size > 0 && !ctx.Expired()) {
    size_t i = 0;
    while (i < keys.size() && !ctx.Expired()) {
      const size_t end = std::min(keys.size(), i + size);
      const std::span<const uint64_t> chunk(keys.data() + i, end - i);
      std::optional<spirv::TestCase> candidate = apply(ctx.current(), chunk);
      if (candidate && !SameCase(*candidate, ctx.current()) &&
          ctx.Try(*candidate)) {
        progress = true;
        // The sites after the kept chunk moved down to position i.
        keys = enumerate(ctx.current());
      } else {
        i += size;
      }
    }
    if (size == 1) break;
    size = (size + 1) / 2;
  }
  return progress;
}

namespace {

class ChunkStage : public Stage {
 public:
  ChunkStage(std::string name, EnumerateSites e, ApplySites a)
      : name_(std::move(name)),
        enumerate_(std::move(e)),
        apply_(std::move(a)) {}
  std::string name() const override { return name_; }
  bool Run(ReductionContext& ctx) override {
    return ReduceInChunks(ctx, enumerate_, apply_);
  }

 private:
  std::string name_;
  EnumerateSites enumerate_;
  ApplySites apply_;
};

}  // namespace

std::unique_ptr<Stage> MakeChunkStage(std::string name,
                                      EnumerateSites enumerate,
                                      ApplySites apply) {
  return std::make_unique<ChunkStage>(std::move(name), std::move(enumerate),
                                      std::move(apply));
}

}  // namespace l0spv::reducers
