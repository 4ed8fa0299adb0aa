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

// The case with module `i` (0: the kernel's, i > 0: linked module i - 1)
// in module_words and the kernel's module in its place: its own inverse.
spirv::TestCase WithModuleFirst(const spirv::TestCase& tc, size_t i) {
  if (i == 0) return tc;
  spirv::TestCase out = tc;
  std::swap(out.module_words, out.linked_modules[i - 1]);
  return out;
}

class ChunkStage : public Stage {
 public:
  ChunkStage(std::string name, EnumerateSites e, ApplySites a)
      : name_(std::move(name)),
        enumerate_(std::move(e)),
        apply_(std::move(a)) {}
  std::string name() const override { return name_; }
  bool Run(ReductionContext& ctx) override {
    bool progress = ReduceInChunks(ctx, enumerate_, apply_);
    for (size_t i = 1; i <= ctx.current().linked_modules.size(); ++i) {
      if (ctx.Expired()) break;
      const EnumerateSites enumerate = [&](const spirv::TestCase& tc) {
        return enumerate_(WithModuleFirst(tc, i));
      };
      const ApplySites apply = [&](const spirv::TestCase& tc,
                                   std::span<const uint64_t> sites)
          -> std::optional<spirv::TestCase> {
        auto candidate = apply_(WithModuleFirst(tc, i), sites);
        if (!candidate) return std::nullopt;
        return WithModuleFirst(*candidate, i);
      };
      progress |= ReduceInChunks(ctx, enumerate, apply);
    }
    return progress;
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
