// r = a < b → t = a >= b; r = (t == false), for integer comparisons only
// (for floats the complement of an ordered comparison is the unordered one,
// which is easy to get wrong and is left to mirror_comparison). r keeps its
// id, so no use changes. The negation is OpLogicalEqual with false (a
// select of false/true for vectors), not OpLogicalNot, which IGC cannot
// build (corpora/known-consumer-bugs/logical_not.spvasm).
//
// Record: {"instruction": descriptor}.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"
#include "generators/transform/kinds/single_instruction_kind.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

std::optional<Op> Complement(Op op) {
  static constexpr std::pair<Op, Op> kPairs[] = {
      {Op::OpSLessThan, Op::OpSGreaterThanEqual},
      {Op::OpSGreaterThan, Op::OpSLessThanEqual},
      {Op::OpULessThan, Op::OpUGreaterThanEqual},
      {Op::OpUGreaterThan, Op::OpULessThanEqual},
      {Op::OpIEqual, Op::OpINotEqual},
  };
  for (auto [a, b] : kPairs) {
    if (op == a) return b;
    if (op == b) return a;
  }
  return std::nullopt;
}

class InvertComparisonKind : public SingleInstructionKind {
 public:
  std::string_view kind() const override { return "invert_comparison"; }

  bool Matches(const spirv::Instruction& inst) const override {
    return Complement(OpOf(inst)).has_value() && inst.NumOperands() == 2;
  }
  const char* requirement() const override { return "an integer comparison"; }

  void Rewrite(TransformContext& ctx, const InstPos& pos) const override {
    const uint32_t type = ctx.At(pos).type_id();
    spirv::ModuleBuilder& mb = ctx.builder();
    uint32_t no = mb.BoolConstant(false);
    uint32_t yes = 0;
    if (const spirv::TypeInfo* t = ctx.types().Get(type);
        t != nullptr && t->op == Op::OpTypeVector) {
      yes = mb.CompositeConstant(
          type, std::vector<uint32_t>(t->count, mb.BoolConstant(true)));
      no = mb.CompositeConstant(type, std::vector<uint32_t>(t->count, no));
    }
    spirv::Instruction& inst = ctx.At(pos);
    const uint32_t t = ctx.NewId();
    spirv::Instruction complement(U(*Complement(OpOf(inst))), type, t,
                                  inst.operands());
    if (yes == 0) {
      inst.set_opcode(U(Op::OpLogicalEqual));
      inst.mutable_operands() = {spirv::IdOperand(t), spirv::IdOperand(no)};
    } else {
      // Vectors: t ? false : true. IGC aborts on an OpCompositeInsert into
      // a bool vector from OpLogical(Not)Equal (known-consumer-bugs/
      // igc_bool_vector_insert).
      inst.set_opcode(U(Op::OpSelect));
      inst.mutable_operands() = {spirv::IdOperand(t), spirv::IdOperand(no),
                                 spirv::IdOperand(yes)};
    }
    InsertBefore(ctx, pos, std::move(complement));
  }
};

}  // namespace

const Transformation* InvertComparison() {
  static const InvertComparisonKind* t = new InvertComparisonKind;
  return t;
}

}  // namespace l0spv::generators::transform
