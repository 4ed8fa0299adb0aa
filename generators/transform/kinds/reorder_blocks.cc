// Moves a reachable non-entry block to just after another block of its
// function. Kernels have no structured-order rules, only "a block appears
// after its dominators": the block must stay after every block that
// dominates it and before every block it dominates.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

// Whether moving block `from` of `fn` to just after block `after` (an index
// into the block list without `from`) keeps blocks after their dominators.
bool OrderHolds(const spirv::Function& fn, const Dominators& dom, size_t from,
                size_t after) {
  const uint32_t x = fn.blocks[from].id();
  size_t k = 0;  // index in the list without `from`
  for (size_t i = 0; i < fn.blocks.size(); ++i) {
    if (i == from) continue;
    const uint32_t y = fn.blocks[i].id();
    const bool before_x = k <= after;
    if (before_x && dom.Dominates(x, y)) return false;
    if (!before_x && dom.Dominates(y, x)) return false;
    ++k;
  }
  return true;
}

class ReorderBlocksKind : public Transformation {
 public:
  std::string_view kind() const override { return "reorder_blocks"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<std::pair<size_t, size_t>> blocks;
    for (auto [f, b] : ReachableBlocks(ctx))
      if (b != 0) blocks.emplace_back(f, b);
    if (blocks.empty()) return std::nullopt;
    auto [f, b] = blocks[rng.Below(static_cast<uint32_t>(blocks.size()))];
    const spirv::Function& fn = ctx.module().functions[f];
    const Dominators& dom = ctx.dominators(f);
    std::vector<size_t> options;  // indices without b, never the old place
    for (size_t a = 0; a + 1 < fn.blocks.size(); ++a)
      if (a + 1 != b && OrderHolds(fn, dom, b, a)) options.push_back(a);
    if (options.empty()) return std::nullopt;
    const size_t a = options[rng.Below(static_cast<uint32_t>(options.size()))];
    const size_t after_index = a < b ? a : a + 1;
    return Record{{"block", fn.blocks[b].id()},
                  {"after", fn.blocks[after_index].id()}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t label = Field<uint32_t>(r, "block");
    const uint32_t after = Field<uint32_t>(r, "after");
    auto ref = ReachableBlock(ctx, label);
    if (!ref.ok()) return ref.status();
    if (ref->block == 0)
      return absl::FailedPreconditionError("the entry block stays first");
    auto aref = ctx.FindBlock(after);
    if (!aref || aref->first != ref->function || after == label)
      return absl::FailedPreconditionError(absl::StrCat(
          "%", after, " is not another block of the block's function"));
    const size_t a =
        aref->second < ref->block ? aref->second : aref->second - 1;
    if (!OrderHolds(ctx.module().functions[ref->function],
                    ctx.dominators(ref->function), ref->block, a))
      return absl::FailedPreconditionError(
          "the move would put a block before one of its dominators");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const BlockRef ref = *ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    spirv::Function& fn = ctx.module().functions[ref.function];
    spirv::BasicBlock moved = std::move(fn.blocks[ref.block]);
    fn.blocks.erase(fn.blocks.begin() + static_cast<ptrdiff_t>(ref.block));
    const uint32_t after = Field<uint32_t>(r, "after");
    size_t a = 0;
    while (fn.blocks[a].id() != after) ++a;
    fn.blocks.insert(fn.blocks.begin() + static_cast<ptrdiff_t>(a) + 1,
                     std::move(moved));
  }
};

}  // namespace

const Transformation* ReorderBlocks() {
  static const ReorderBlocksKind* t = new ReorderBlocksKind;
  return t;
}

}  // namespace l0spv::generators::transform
