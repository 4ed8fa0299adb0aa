// OpAccessChain %base idx... → OpPtrAccessChain %base 0 idx...: element 0
// of the pointer's implicit array is the pointee itself. An in-bounds chain
// may become a plain or in-bounds pointer chain; a plain chain only a plain
// one (claiming in-bounds where nobody promised it would add undefined
// behaviour).
//
// Record: {"instruction": descriptor, "in_bounds": bool}.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// The type of the zero element index: the first index's type when it is an
// integer (consumers see one index width), else 32-bit.
uint32_t ZeroIndex(TransformContext& ctx, const spirv::Instruction& inst) {
  spirv::ModuleBuilder& mb = ctx.builder();
  uint32_t type = 0;
  if (inst.NumOperands() > 1) {
    const spirv::TypeInfo* t = ctx.types().Get(ctx.TypeOf(inst.word(1)));
    if (t != nullptr && t->op == Op::OpTypeInt) type = t->id;
  }
  if (type == 0) type = mb.IntType(32);
  return mb.IntConstant(type, 0);
}

class AccessChainToPtrAccessChainKind : public Transformation {
 public:
  std::string_view kind() const override {
    return "access_chain_to_ptr_access_chain";
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    auto pos = PickPosition(
        FindPositions(ctx,
                      [](const spirv::Instruction& inst, const InstPos&) {
                        return OpOf(inst) == Op::OpAccessChain ||
                               OpOf(inst) == Op::OpInBoundsAccessChain;
                      }),
        rng);
    if (!pos) return std::nullopt;
    const bool in_bounds =
        OpOf(ctx.At(*pos)) == Op::OpInBoundsAccessChain && rng.OneIn(2);
    return Record{{"instruction", ToJson(ctx.Describe(*pos))},
                  {"in_bounds", in_bounds}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveField(ctx, r, "instruction");
    if (!pos.ok()) return pos.status();
    const Op op = OpOf(ctx.At(*pos));
    const bool in_bounds = Field<bool>(r, "in_bounds");
    if (op != Op::OpAccessChain && op != Op::OpInBoundsAccessChain)
      return absl::FailedPreconditionError("not an OpAccessChain");
    if (in_bounds && op != Op::OpInBoundsAccessChain)
      return absl::FailedPreconditionError(
          "a plain access chain cannot become an in-bounds one");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos pos = *ResolveField(ctx, r, "instruction");
    const uint32_t zero = ZeroIndex(ctx, ctx.At(pos));
    spirv::Instruction& inst = ctx.At(pos);
    inst.set_opcode(U(Field<bool>(r, "in_bounds") ? Op::OpInBoundsPtrAccessChain
                                                  : Op::OpPtrAccessChain));
    auto& ops = inst.mutable_operands();
    ops.insert(ops.begin() + 1, spirv::IdOperand(zero));
  }
};

}  // namespace

const Transformation* AccessChainToPtrAccessChain() {
  static const AccessChainToPtrAccessChainKind* t =
      new AccessChainToPtrAccessChainKind;
  return t;
}

}  // namespace l0spv::generators::transform
