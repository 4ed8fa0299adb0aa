// a op b → b op a for operations that commute exactly
// (spirv::IsCommutative: integer and logical arithmetic, equality
// comparisons; not float add/multiply, whose NaN payload depends on the
// operand order).
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"
#include "generators/transform/kinds/single_instruction_kind.h"

namespace l0spv::generators::transform {
namespace {

class SwapCommutativeOperandsKind : public SingleInstructionKind {
 public:
  std::string_view kind() const override { return "swap_commutative_operands"; }
  // Swapping an operand with itself changes nothing (`OpIAdd %v %x %x`).
  bool Matches(const spirv::Instruction& inst) const override {
    return spirv::IsCommutative(inst.opcode()) && inst.NumOperands() == 2 &&
           inst.word(0) != inst.word(1);
  }
  const char* requirement() const override {
    return "a commutative binary operation on two different ids";
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

}  // namespace l0spv::generators::transform
