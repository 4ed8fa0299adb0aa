// Adds a load whose result nothing uses yet (fact: irrelevant id), from
// memory that is safe to read: an irrelevant-pointee Function variable
// (initialised by add_local_variable, private to the work-item) or, in the
// kernel function, an in-bounds word of a read-only input buffer (no
// work-item writes it, so no race). Never memory other work-items write,
// never uninitialised memory.
//
// Record: {"before": descriptor, "pointer": variable id} or
//         {"before": descriptor, "source": {"source": "buffer", ...}}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"
#include "generators/transform/opaque.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

class AddIrrelevantLoadKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_irrelevant_load"; }
  // Irrelevant-pointee locals come from add_local_variable (alone it still
  // loads read-only buffer words).
  std::vector<std::string_view> enablers() const override {
    return {"add_local_variable"};
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    const std::optional<InstPos> at =
        RandomInsertionPoint(ctx, rng, ReachableBlocks(ctx));
    if (!at) return std::nullopt;
    const InstPos pos = *at;
    const size_t f = pos.function;
    std::vector<uint32_t> locals;
    for (uint32_t p : ctx.facts().irrelevant_pointees())
      if (IsIrrelevantLocal(ctx, p, pos)) locals.push_back(p);
    Record r{{"before", ToJson(ctx.Describe(pos))}};
    if (!locals.empty() && rng.OneIn(2)) {
      r["pointer"] = locals[rng.Below(static_cast<uint32_t>(locals.size()))];
      return r;
    }
    Record source = ProposeOpaqueSource(ctx, rng, f);
    if (Field<std::string>(source, "source") != "buffer") {
      if (locals.empty()) return std::nullopt;
      r["pointer"] = locals[rng.Below(static_cast<uint32_t>(locals.size()))];
      return r;
    }
    r["source"] = source;
    return r;
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveInsertionField(ctx, r, "before");
    if (!pos.ok()) return pos.status();
    if (r.contains("pointer")) {
      const uint32_t pointer = Field<uint32_t>(r, "pointer");
      if (!IsIrrelevantLocal(ctx, pointer, *pos))
        return absl::FailedPreconditionError(absl::StrCat(
            "%", pointer,
            " is not an irrelevant-pointee Function variable available "
            "there"));
      return absl::OkStatus();
    }
    const Record& source = ObjectField(r, "source");
    if (Field<std::string>(source, "source") != "buffer")
      return absl::InvalidArgumentError(
          "an irrelevant load reads a variable or a buffer word");
    return CheckOpaqueSource(ctx, source, pos->function);
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    InstPos pos = *ResolveField(ctx, r, "before");
    uint32_t result = 0;
    if (r.contains("pointer")) {
      const uint32_t pointer = Field<uint32_t>(r, "pointer");
      result = EmitBefore(ctx, pos, Op::OpLoad, PointeeOf(ctx, pointer),
                          {spirv::IdOperand(pointer)});
    } else {
      result = EmitKnownValue(ctx, ObjectField(r, "source"), pos);
    }
    ctx.facts().AddIrrelevantId(result);
  }
};

}  // namespace

const Transformation* AddIrrelevantLoad() {
  static const AddIrrelevantLoadKind* t = new AddIrrelevantLoadKind;
  return t;
}

}  // namespace l0spv::generators::transform
