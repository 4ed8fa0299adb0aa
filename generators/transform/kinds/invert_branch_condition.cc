// B: ... OpBranchConditional %c %A %B [wA wB]
//   →  B: ... %n = OpLogicalNotEqual %bool %c %true;
//            OpBranchConditional %n %B %A [wB wA]
// The negation goes before the block's merge instruction, which stays
// immediately before the terminator and keeps naming the same merge block.
// It is `c != true`, not OpLogicalNot, which IGC cannot build
// (corpora/known-consumer-bugs/logical_not.spvasm).
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

bool EndsInConditionalBranch(const spirv::BasicBlock& bb) {
  const spirv::Instruction* term = bb.terminator();
  return term != nullptr && OpOf(*term) == Op::OpBranchConditional;
}

class InvertBranchConditionKind : public Transformation {
 public:
  std::string_view kind() const override { return "invert_branch_condition"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> labels;
    for (auto [f, b] : ReachableBlocks(ctx)) {
      const spirv::BasicBlock& bb = ctx.module().functions[f].blocks[b];
      if (EndsInConditionalBranch(bb)) labels.push_back(bb.id());
    }
    if (labels.empty()) return std::nullopt;
    return Record{
        {"block", labels[rng.Below(static_cast<uint32_t>(labels.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto ref = ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    if (!ref.ok()) return ref.status();
    if (!EndsInConditionalBranch(
            ctx.module().functions[ref->function].blocks[ref->block]))
      return absl::FailedPreconditionError(
          "the block does not end in OpBranchConditional");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const BlockRef ref = *ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    const uint32_t bool_type = ctx.builder().BoolType();
    const uint32_t true_id = ctx.builder().BoolConstant(true);
    const uint32_t negated = ctx.NewId();
    spirv::BasicBlock& bb =
        ctx.module().functions[ref.function].blocks[ref.block];
    spirv::Instruction& term = bb.instructions.back();
    const uint32_t cond = term.word(0);
    auto& ops = term.mutable_operands();
    ops[0].words[0] = negated;
    std::swap(ops[1], ops[2]);
    if (ops.size() == 5) std::swap(ops[3], ops[4]);  // branch weights
    const size_t at = TransformContext::LastInsertionIndex(bb);
    bb.instructions.insert(
        bb.instructions.begin() + static_cast<ptrdiff_t>(at),
        spirv::Instruction(
            U(Op::OpLogicalNotEqual), bool_type, negated,
            {spirv::IdOperand(cond), spirv::IdOperand(true_id)}));
  }
};

}  // namespace

const Transformation* InvertBranchCondition() {
  static const InvertBranchConditionKind* t = new InvertBranchConditionKind;
  return t;
}

}  // namespace l0spv::generators::transform
