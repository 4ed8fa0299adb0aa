// p → u = OpConvertPtrToU p; q = OpConvertUToPtr u (same pointer type): q
// is a synonym of p. The integer is as wide as the addressing model's
// pointers (64 bits under Physical64, 32 under Physical32), so no bit is
// lost; Int64 is declared when missing (every Level Zero profile has it).
//
// Record: {"id": pointer value, "before": descriptor}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

uint32_t PointerWidth(const spirv::Module& m) {
  if (m.memory_model.empty()) return 0;
  switch (static_cast<spv::AddressingModel>(m.memory_model[0].word(0))) {
    case spv::AddressingModel::Physical64:
      return 64;
    case spv::AddressingModel::Physical32:
      return 32;
    default:
      return 0;
  }
}

class PointerRoundTripViaIntegerKind : public Transformation {
 public:
  std::string_view kind() const override {
    return "pointer_round_trip_via_integer";
  }

  // Pointers into memory with an address: not to functions or to opaque
  // handles, and not Generic (its integer value is not a plain address on
  // every consumer).
  static bool Fits(TransformContext& ctx, uint32_t type) {
    const spirv::TypeInfo* t = ctx.types().Get(type);
    if (t == nullptr || t->op != Op::OpTypePointer) return false;
    switch (t->storage_class) {
      case spv::StorageClass::CrossWorkgroup:
      case spv::StorageClass::Workgroup:
      case spv::StorageClass::Function:
        return ctx.types().SizeOf(t->element).has_value();
      default:
        return false;
    }
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    if (PointerWidth(ctx.module()) == 0) return std::nullopt;
    return ProposeValueSite(ctx, rng,
                            [&](uint32_t type) { return Fits(ctx, type); });
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    if (PointerWidth(ctx.module()) == 0)
      return absl::FailedPreconditionError(
          "the addressing model is not physical");
    return CheckValueSite(ctx, r,
                          [&](uint32_t type) { return Fits(ctx, type); });
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    InstPos pos = *ResolveField(ctx, r, "before");
    const uint32_t p = Field<uint32_t>(r, "id");
    const uint32_t type = ctx.TypeOf(p);
    const uint32_t width = PointerWidth(ctx.module());
    spirv::ModuleBuilder& mb = ctx.builder();
    if (width == 64) mb.AddCapability(spv::Capability::Int64);
    const uint32_t u = EmitBefore(ctx, pos, Op::OpConvertPtrToU,
                                  mb.IntType(width), {spirv::IdOperand(p)});
    const uint32_t q =
        EmitBefore(ctx, pos, Op::OpConvertUToPtr, type, {spirv::IdOperand(u)});
    ctx.facts().AddSynonym(p, q);
  }
};

}  // namespace

const Transformation* PointerRoundTripViaInteger() {
  static const PointerRoundTripViaIntegerKind* t =
      new PointerRoundTripViaIntegerKind;
  return t;
}

}  // namespace l0spv::generators::transform
