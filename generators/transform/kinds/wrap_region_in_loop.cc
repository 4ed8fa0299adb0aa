// B: pre; run; post; term
//   →  B: pre; OpBranch %H
//      H: run; %c = <opaque false>; OpLoopMerge %M %H None;
//         OpBranchConditional %c %H %M
//      M: post; term
// A single-block loop that runs once: the back edge is taken only when an
// input-derived condition, false on the test case's inputs, holds. The run
// holds no barrier or group operation (a loop around those is not plainly
// uniform) and B is no loop header. B's merge instruction moves to M with
// the terminator; M's successors' phis name M.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"
#include "generators/transform/opaque.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

class WrapRegionInLoopKind : public Transformation {
 public:
  std::string_view kind() const override { return "wrap_region_in_loop"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::optional<Run> run = ProposeRun(ctx, rng, 8);
    if (!run) return std::nullopt;
    const InstPos first{run->block.function, run->block.block, run->first};
    return Record{
        {"first", ToJson(ctx.Describe(first))},
        {"count", run->count},
        {"condition", ProposeOpaqueSource(ctx, rng, run->block.function)}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto run = RunFromRecord(ctx, r);
    if (!run.ok()) return run.status();
    return CheckOpaqueSource(ctx, ObjectField(r, "condition"),
                             run->block.function);
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const Run run = *RunFromRecord(ctx, r);
    const uint32_t h = ctx.NewId(), m = ctx.NewId();
    SplitBlockBefore(ctx, run.block, run.first + run.count, m);
    SplitBlockBefore(ctx, run.block, run.first, h);
    spirv::Function& fn = ctx.module().functions[run.block.function];
    fn.blocks[run.block.block].instructions.push_back(Branch(h));
    InstPos pos{run.block.function, run.block.block + 1,
                fn.blocks[run.block.block + 1].instructions.size()};
    const uint32_t cond =
        EmitOpaqueBool(ctx, ObjectField(r, "condition"), pos, false);
    auto& insts = ctx.module()
                      .functions[run.block.function]
                      .blocks[run.block.block + 1]
                      .instructions;
    insts.push_back(spirv::Instruction(
        U(Op::OpLoopMerge), 0, 0,
        {spirv::IdOperand(m), spirv::IdOperand(h),
         spirv::EnumOperand(spirv::OperandKind::kLoopControl, 0)}));
    insts.push_back(spirv::Instruction(
        U(Op::OpBranchConditional), 0, 0,
        {spirv::IdOperand(cond), spirv::IdOperand(h), spirv::IdOperand(m)}));
  }
};

}  // namespace

const Transformation* WrapRegionInLoop() {
  static const WrapRegionInLoopKind* t = new WrapRegionInLoopKind;
  return t;
}

}  // namespace l0spv::generators::transform
