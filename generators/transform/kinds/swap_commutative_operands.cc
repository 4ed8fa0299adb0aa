// a op b → b op a for operations that commute exactly (integer and logical
// arithmetic, equality comparisons). Float add/multiply are left out: with
// two NaN operands, which payload survives depends on the operand order.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"
#include "generators/transform/kinds/single_instruction_kind.h"

namespace l0spv::transform {
namespace {

using spv::Op;

bool IsCommutative(uint32_t opcode) {
  switch (static_cast<Op>(opcode)) {
    case Op::OpIAdd:
    case Op::OpIMul:
    case Op::OpBitwiseAnd:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpLogicalAnd:
    case Op::OpLogicalOr:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpFOrdEqual:
    case Op::OpFUnordEqual:
    case Op::OpFOrdNotEqual:
    case Op::OpFUnordNotEqual:
    case Op::OpIAddCarry:
    case Op::OpUMulExtended:
    case Op::OpSMulExtended:
      return true;
    default:
      return false;
  }
}

class SwapCommutativeOperandsKind : public SingleInstructionKind {
 public:
  std::string_view kind() const override { return "swap_commutative_operands"; }
  bool Matches(const spirv::Instruction& inst) const override {
    return IsCommutative(inst.opcode()) && inst.NumOperands() == 2;
  }
  const char* requirement() const override {
    return "a commutative binary operation";
  }
  void Rewrite(TransformContext& ctx, const InstPos& pos) const override {
    spirv::Instruction& inst = ctx.At(pos);
    std::swap(inst.mutable_operands()[0], inst.mutable_operands()[1]);
  }
};

}  // namespace

const Transformation* SwapCommutativeOperands() {
  static const SwapCommutativeOperandsKind* t = new SwapCommutativeOperandsKind;
  return t;
}

}  // namespace l0spv::transform
