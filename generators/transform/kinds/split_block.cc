// B: a; b; c; term  →  B: a; OpBranch %N   N: b; c; term
// Phis and entry-block variables stay in B; a selection header's merge
// moves with its terminator. Loop headers are left alone (their back edges
// name the header), nor is a block cut between an OpSampledImage and its
// use. Successors' phis now name N as the predecessor.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

class SplitBlockKind : public Transformation {
 public:
  std::string_view kind() const override { return "split_block"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    auto pos = PickPosition(
        FindPositions(
            ctx,
            [&](const spirv::Instruction&, const InstPos& p) {
              const spirv::BasicBlock& bb = ctx.BlockAt(p);
              return p.index >= TransformContext::FirstInsertionIndex(bb) &&
                     p.index <= TransformContext::LastInsertionIndex(bb) &&
                     !HasLoopMerge(bb) && !SeparatesSampledImage(bb, p.index);
            }),
        rng);
    if (!pos) return std::nullopt;
    return Record{{"before", ToJson(ctx.Describe(*pos))}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveInsertionField(
        ctx, r, "before",
        "a block splits after its phis and variables and before its merge "
        "instruction");
    if (!pos.ok()) return pos.status();
    if (HasLoopMerge(ctx.BlockAt(*pos)))
      return absl::FailedPreconditionError("loop headers are not split");
    if (SeparatesSampledImage(ctx.BlockAt(*pos), pos->index))
      return absl::FailedPreconditionError(
          "the split would separate an OpSampledImage from its use");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos pos = *ResolveField(ctx, r, "before");
    const uint32_t new_label = ctx.NewId();
    SplitBlockBefore(ctx, {pos.function, pos.block}, pos.index, new_label);
    ctx.BlockAt(pos).instructions.push_back(Branch(new_label));
  }
};

}  // namespace

const Transformation* SplitBlock() {
  static const SplitBlockKind* t = new SplitBlockKind;
  return t;
}

}  // namespace l0spv::generators::transform
