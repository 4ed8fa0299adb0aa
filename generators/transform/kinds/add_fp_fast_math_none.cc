// Decorates a float arithmetic result FPFastMathMode None: a decoration
// that grants no fast-math freedom, so it changes nothing on any consumer,
// but exercises their decoration handling. (NoContraction, the other
// float-result decoration, needs the Shader capability, which no Level Zero
// profile has: lint rejects it in a kernel module.) Results that already
// carry an FPFastMathMode are left alone.
//
// Record: {"target": result id}.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

bool IsFloatArithmetic(Op op) {
  switch (op) {
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFRem:
    case Op::OpFMod:
    case Op::OpFNegate:
      return true;
    default:
      return false;
  }
}

constexpr uint32_t kFPFastMathMode =
    static_cast<uint32_t>(spv::Decoration::FPFastMathMode);

bool HasFastMathMode(const spirv::Module& m, uint32_t id) {
  for (const spirv::Instruction& a : m.annotations)
    if (OpOf(a) == Op::OpDecorate && a.word(0) == id &&
        a.word(1) == kFPFastMathMode)
      return true;
  return false;
}

// Undecorated float arithmetic results in reachable blocks, in module order.
std::vector<uint32_t> Candidates(TransformContext& ctx) {
  std::vector<uint32_t> out;
  FindPositions(ctx, [&](const spirv::Instruction& inst, const InstPos&) {
    if (IsFloatArithmetic(OpOf(inst)) &&
        !HasFastMathMode(ctx.module(), inst.result_id()))
      out.push_back(inst.result_id());
    return false;
  });
  return out;
}

class AddFpFastMathNoneKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_fp_fast_math_none"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> ids = Candidates(ctx);
    if (ids.empty()) return std::nullopt;
    return Record{
        {"target", ids[rng.Below(static_cast<uint32_t>(ids.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t target = Field<uint32_t>(r, "target");
    const DefSite* d = ctx.Def(target);
    if (d == nullptr || d->function < 0 || d->is_label ||
        !IsFloatArithmetic(static_cast<Op>(d->opcode)) ||
        !ctx.dominators(d->function).IsReachable(d->block) ||
        HasFastMathMode(ctx.module(), target))
      return absl::FailedPreconditionError(absl::StrCat(
          "%", target,
          " is not a float arithmetic result without FPFastMathMode"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    ctx.module().annotations.push_back(spirv::Instruction(
        U(Op::OpDecorate), 0, 0,
        {spirv::IdOperand(Field<uint32_t>(r, "target")),
         spirv::EnumOperand(spirv::OperandKind::kDecoration, kFPFastMathMode),
         spirv::EnumOperand(spirv::OperandKind::kFPFastMathMode, 0)}));
  }
};

}  // namespace

const Transformation* AddFpFastMathNone() {
  static const AddFpFastMathNoneKind* t = new AddFpFastMathNoneKind;
  return t;
}

}  // namespace l0spv::generators::transform
