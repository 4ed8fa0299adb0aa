// B: a; b; c; term  →  B: a; OpBranch %N   N: b; c; term
// Phis and entry-block variables stay in B; a selection header's merge
// moves with its terminator. Loop headers are left alone (their back edges
// name the header). Successors' phis now name N as the predecessor.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::transform {
namespace {

using spv::Op;

bool HasLoopMerge(const spirv::BasicBlock& bb) {
  for (const spirv::Instruction& inst : bb.instructions)
    if (OpOf(inst) == Op::OpLoopMerge) return true;
  return false;
}

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
                     !HasLoopMerge(bb);
            }),
        rng);
    if (!pos) return std::nullopt;
    return Record{{"before", ToJson(ctx.Describe(*pos))}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveField(ctx, r, "before");
    if (!pos.ok()) return pos.status();
    const spirv::BasicBlock& bb = ctx.BlockAt(*pos);
    if (pos->index < TransformContext::FirstInsertionIndex(bb) ||
        pos->index > TransformContext::LastInsertionIndex(bb))
      return absl::FailedPreconditionError(
          "a block splits after its phis and variables and before its merge "
          "instruction");
    if (HasLoopMerge(bb))
      return absl::FailedPreconditionError("loop headers are not split");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos pos = *ResolveField(ctx, r, "before");
    spirv::Function& fn = ctx.module().functions[pos.function];
    const uint32_t old_label = fn.blocks[pos.block].id();
    const uint32_t new_label = ctx.NewId();
    spirv::BasicBlock tail;
    tail.label = spirv::Instruction(U(Op::OpLabel), 0, new_label, {});
    auto& insts = fn.blocks[pos.block].instructions;
    tail.instructions.assign(
        std::make_move_iterator(insts.begin() +
                                static_cast<ptrdiff_t>(pos.index)),
        std::make_move_iterator(insts.end()));
    insts.erase(insts.begin() + static_cast<ptrdiff_t>(pos.index), insts.end());
    insts.push_back(spirv::Instruction(U(Op::OpBranch), 0, 0,
                                       {spirv::IdOperand(new_label)}));
    const std::vector<uint32_t> succs = SuccessorLabels(tail);
    fn.blocks.insert(fn.blocks.begin() + static_cast<ptrdiff_t>(pos.block) + 1,
                     std::move(tail));
    for (spirv::BasicBlock& s : fn.blocks)
      if (std::find(succs.begin(), succs.end(), s.id()) != succs.end())
        RetargetPhiPredecessor(s, old_label, new_label);
    if (ctx.facts().IsDeadBlock(old_label)) ctx.facts().AddDeadBlock(new_label);
  }
};

}  // namespace

const Transformation* SplitBlock() {
  static const SplitBlockKind* t = new SplitBlockKind;
  return t;
}

}  // namespace l0spv::transform
