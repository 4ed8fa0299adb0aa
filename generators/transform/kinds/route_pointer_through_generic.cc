// p (CrossWorkgroup, Workgroup or Function pointer) → g =
// OpPtrCastToGeneric p; q = OpGenericCastToPtr g (p's pointer type): q is a
// synonym of p — a generic pointer made from a pointer of a storage class
// casts back to that class unchanged. GenericPointer is declared when
// missing (every Level Zero profile has it). Oclgrind 21.10 cannot run the
// generic address space at all (corpora/known-consumer-bugs/
// oclgrind_generic_cast.spvasm): known_bugs.
//
// Record: {"id": pointer value, "before": descriptor}.
#include "absl/strings/str_cat.h"
#include "generators/kernel/generator.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

class RoutePointerThroughGenericKind : public Transformation {
 public:
  std::string_view kind() const override {
    return "route_pointer_through_generic";
  }
  std::vector<oracles::KnownBugId> known_bugs() const override {
    return {oracles::KnownBugId::kOclgrindGenericCast};
  }

  static bool Fits(TransformContext& ctx, uint32_t type) {
    const spirv::TypeInfo* t = ctx.types().Get(type);
    if (t == nullptr || t->op != Op::OpTypePointer) return false;
    return t->storage_class == spv::StorageClass::CrossWorkgroup ||
           t->storage_class == spv::StorageClass::Workgroup ||
           t->storage_class == spv::StorageClass::Function;
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    return ProposeValueSite(ctx, rng,
                            [&](uint32_t type) { return Fits(ctx, type); });
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    return CheckValueSite(ctx, r,
                          [&](uint32_t type) { return Fits(ctx, type); });
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    InstPos pos = *ResolveField(ctx, r, "before");
    const uint32_t p = Field<uint32_t>(r, "id");
    const uint32_t type = ctx.TypeOf(p);
    const uint32_t pointee = PointeeOf(ctx, p);
    spirv::ModuleBuilder& mb = ctx.builder();
    mb.AddCapability(spv::Capability::GenericPointer);
    const uint32_t generic =
        mb.PointerType(spv::StorageClass::Generic, pointee);
    const uint32_t g = EmitBefore(ctx, pos, Op::OpPtrCastToGeneric, generic,
                                  {spirv::IdOperand(p)});
    const uint32_t q = EmitBefore(ctx, pos, Op::OpGenericCastToPtr, type,
                                  {spirv::IdOperand(g)});
    ctx.facts().AddSynonym(p, q);
  }
};

}  // namespace

const Transformation* RoutePointerThroughGeneric() {
  static const RoutePointerThroughGenericKind* t =
      new RoutePointerThroughGenericKind;
  return t;
}

}  // namespace l0spv::generators::transform
