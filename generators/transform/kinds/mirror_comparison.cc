// a < b → b > a (and <=, >, >= alike) for signed, unsigned and ordered or
// unordered float comparisons: the mirrored comparison is true for exactly
// the same operands, NaNs included. Equality comparisons are
// swap_commutative_operands' business.
//
// Record: {"instruction": descriptor}.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"
#include "generators/transform/kinds/single_instruction_kind.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

std::optional<Op> Mirror(Op op) {
  static constexpr std::pair<Op, Op> kPairs[] = {
      {Op::OpSLessThan, Op::OpSGreaterThan},
      {Op::OpSLessThanEqual, Op::OpSGreaterThanEqual},
      {Op::OpULessThan, Op::OpUGreaterThan},
      {Op::OpULessThanEqual, Op::OpUGreaterThanEqual},
      {Op::OpFOrdLessThan, Op::OpFOrdGreaterThan},
      {Op::OpFOrdLessThanEqual, Op::OpFOrdGreaterThanEqual},
      {Op::OpFUnordLessThan, Op::OpFUnordGreaterThan},
      {Op::OpFUnordLessThanEqual, Op::OpFUnordGreaterThanEqual},
  };
  for (auto [a, b] : kPairs) {
    if (op == a) return b;
    if (op == b) return a;
  }
  return std::nullopt;
}

class MirrorComparisonKind : public SingleInstructionKind {
 public:
  std::string_view kind() const override { return "mirror_comparison"; }

  bool Matches(const spirv::Instruction& inst) const override {
    return Mirror(OpOf(inst)).has_value() && inst.NumOperands() == 2;
  }
  const char* requirement() const override { return "an ordering comparison"; }

  void Rewrite(TransformContext& ctx, const InstPos& pos) const override {
    spirv::Instruction& inst = ctx.At(pos);
    inst.set_opcode(U(*Mirror(OpOf(inst))));
    std::swap(inst.mutable_operands()[0], inst.mutable_operands()[1]);
  }
};

}  // namespace

const Transformation* MirrorComparison() {
  static const MirrorComparisonKind* t = new MirrorComparisonKind;
  return t;
}

}  // namespace l0spv::generators::transform
