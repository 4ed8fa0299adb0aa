// r = OpIAdd v4 a b (or another exact component-wise integer operation) →
// per lane i: a_i = extract a i, b_i = extract b i, r_i = op a_i b_i, and
// r' = the r_i inserted into a null vector: r' is a synonym of r. Only
// integer operations defined for every operand (add, sub, mul, bitwise,
// negate, not): float lanes could be contracted differently once split, and
// division or shifts could trap. The vector is built with OpCompositeInsert
// (OpCompositeConstruct of run-time values crashes llvm-spirv -r,
// corpora/known-consumer-bugs/composite_construct_runtime.spvasm).
//
// Record: {"instruction": descriptor}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

bool IsLaneWise(Op op) {
  switch (op) {
    case Op::OpIAdd:
    case Op::OpISub:
    case Op::OpIMul:
    case Op::OpBitwiseAnd:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpSNegate:
    case Op::OpNot:
      return true;
    default:
      return false;
  }
}

bool IsScalarizable(TransformContext& ctx, const spirv::Instruction& inst) {
  if (!IsLaneWise(OpOf(inst))) return false;
  const spirv::TypeInfo* t = ctx.types().Get(inst.type_id());
  if (t == nullptr || t->op != Op::OpTypeVector || t->count > 4) return false;
  // Every operand has the result's type (no mixed-signedness forms exist in
  // Kernel modules, but check rather than assume).
  for (size_t i = 0; i < inst.NumOperands(); ++i)
    if (ctx.TypeOf(inst.word(i)) != inst.type_id()) return false;
  return true;
}

class ScalarizeVectorOpKind : public Transformation {
 public:
  std::string_view kind() const override { return "scalarize_vector_op"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    auto pos = PickPosition(
        FindPositions(ctx,
                      [&](const spirv::Instruction& inst, const InstPos&) {
                        return IsScalarizable(ctx, inst);
                      }),
        rng);
    if (!pos) return std::nullopt;
    return Record{{"instruction", ToJson(ctx.Describe(*pos))}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveField(ctx, r, "instruction");
    if (!pos.ok()) return pos.status();
    const spirv::Instruction& inst = ctx.At(*pos);
    if (!IsScalarizable(ctx, inst))
      return absl::FailedPreconditionError(absl::StrCat(
          std::string(inst.name()),
          " is not an exact component-wise integer vector operation"));
    const spirv::BasicBlock& bb = ctx.BlockAt(*pos);
    if (pos->index + 1 > TransformContext::LastInsertionIndex(bb))
      return absl::FailedPreconditionError("no room after the instruction");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    InstPos pos = *ResolveField(ctx, r, "instruction");
    const spirv::Instruction inst = ctx.At(pos);
    ++pos.index;  // right after it
    const spirv::TypeInfo vt = *ctx.types().Get(inst.type_id());
    spirv::ModuleBuilder& mb = ctx.builder();
    uint32_t v = mb.NullConstant(inst.type_id());
    for (uint32_t lane = 0; lane < vt.count; ++lane) {
      std::vector<spirv::Operand> parts;
      for (size_t i = 0; i < inst.NumOperands(); ++i)
        parts.push_back(spirv::IdOperand(EmitBefore(
            ctx, pos, Op::OpCompositeExtract, vt.element,
            {spirv::IdOperand(inst.word(i)), spirv::LiteralOperand(lane)})));
      const uint32_t scalar =
          EmitBefore(ctx, pos, OpOf(inst), vt.element, std::move(parts));
      v = EmitBefore(ctx, pos, Op::OpCompositeInsert, inst.type_id(),
                     {spirv::IdOperand(scalar), spirv::IdOperand(v),
                      spirv::LiteralOperand(lane)});
    }
    ctx.facts().AddSynonym(inst.result_id(), v);
  }
};

}  // namespace

const Transformation* ScalarizeVectorOp() {
  static const ScalarizeVectorOpKind* t = new ScalarizeVectorOpKind;
  return t;
}

}  // namespace l0spv::generators::transform
