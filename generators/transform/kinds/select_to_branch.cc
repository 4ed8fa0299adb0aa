// B: pre; %r = OpSelect %T %c %a %b; post; term
//   →  B: pre; OpSelectionMerge %C None; OpBranchConditional %c %Tb %Fb
//      Tb: OpBranch %C      Fb: OpBranch %C
//      C:  %r = OpPhi %T %a %Tb %b %Fb; post; term
// for a scalar boolean condition and a scalar or vector %T. Loop headers
// are left alone (their back edges name the header); B's merge instruction
// moves to C with the terminator, and C's successors' phis name C.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

bool IsConvertibleSelect(TransformContext& ctx, const spirv::Instruction& inst,
                         const InstPos& pos) {
  if (OpOf(inst) != Op::OpSelect) return false;
  const spirv::BasicBlock& bb = ctx.BlockAt(pos);
  if (HasLoopMerge(bb) || pos.index < TransformContext::FirstInsertionIndex(bb))
    return false;
  // The block is cut at the select.
  if (SeparatesSampledImage(bb, pos.index) ||
      SeparatesSampledImage(bb, pos.index + 1))
    return false;
  const spirv::TypeTable& tt = ctx.types();
  const spirv::TypeInfo* cond = tt.Get(ctx.TypeOf(inst.word(0)));
  const spirv::TypeInfo* type = tt.Get(inst.type_id());
  if (cond == nullptr || cond->op != Op::OpTypeBool || type == nullptr)
    return false;
  const spirv::TypeInfo* scalar =
      type->op == Op::OpTypeVector ? tt.Get(type->element) : type;
  return scalar != nullptr &&
         (scalar->op == Op::OpTypeInt || scalar->op == Op::OpTypeFloat ||
          scalar->op == Op::OpTypeBool);
}

class SelectToBranchKind : public Transformation {
 public:
  std::string_view kind() const override { return "select_to_branch"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    auto pos = PickPosition(
        FindPositions(ctx,
                      [&](const spirv::Instruction& inst, const InstPos& p) {
                        return IsConvertibleSelect(ctx, inst, p);
                      }),
        rng);
    if (!pos) return std::nullopt;
    return Record{{"select", ctx.At(*pos).result_id()}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t id = Field<uint32_t>(r, "select");
    std::optional<InstPos> pos = ctx.PosOfDef(id);
    if (!pos)
      return absl::FailedPreconditionError(
          absl::StrCat("%", id, " is not defined in a block"));
    if (!ReachableBlock(ctx, ctx.BlockAt(*pos).id()).ok())
      return absl::FailedPreconditionError("the select is unreachable");
    if (!IsConvertibleSelect(ctx, ctx.At(*pos), *pos))
      return absl::FailedPreconditionError(absl::StrCat(
          "%", id,
          " is not an OpSelect of scalars/vectors on a boolean outside a "
          "loop header"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos pos = *ctx.PosOfDef(Field<uint32_t>(r, "select"));
    const spirv::Instruction select = ctx.At(pos);
    const uint32_t t_label = ctx.NewId(), f_label = ctx.NewId(),
                   c_label = ctx.NewId();
    SplitBlockBefore(ctx, {pos.function, pos.block}, pos.index, c_label);
    spirv::Function& fn = ctx.module().functions[pos.function];
    spirv::BasicBlock& bb = fn.blocks[pos.block];
    const bool dead = ctx.facts().IsDeadBlock(bb.id());
    bb.instructions.push_back(spirv::Instruction(
        U(Op::OpSelectionMerge), 0, 0,
        {spirv::IdOperand(c_label),
         spirv::EnumOperand(spirv::OperandKind::kSelectionControl, 0)}));
    bb.instructions.push_back(spirv::Instruction(
        U(Op::OpBranchConditional), 0, 0,
        {spirv::IdOperand(select.word(0)), spirv::IdOperand(t_label),
         spirv::IdOperand(f_label)}));
    spirv::BasicBlock& c = fn.blocks[pos.block + 1];
    c.instructions[0] = spirv::Instruction(
        U(Op::OpPhi), select.type_id(), select.result_id(),
        {spirv::IdOperand(select.word(1)), spirv::IdOperand(t_label),
         spirv::IdOperand(select.word(2)), spirv::IdOperand(f_label)});
    spirv::BasicBlock t = NewBlock(t_label), f = NewBlock(f_label);
    t.instructions.push_back(Branch(c_label));
    f.instructions.push_back(Branch(c_label));
    const auto at = fn.blocks.begin() + static_cast<ptrdiff_t>(pos.block) + 1;
    fn.blocks.insert(at, {std::move(t), std::move(f)});
    if (dead) {
      ctx.facts().AddDeadBlock(t_label);
      ctx.facts().AddDeadBlock(f_label);
    }
  }
};

}  // namespace

const Transformation* SelectToBranch() {
  static const SelectToBranchKind* t = new SelectToBranchKind;
  return t;
}

}  // namespace l0spv::generators::transform
