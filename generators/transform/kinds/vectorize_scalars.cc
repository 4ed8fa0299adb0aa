// 2–4 available scalars x_i of one int or float type → a vector v built by
// OpCompositeInsert of each x_i into lane i of a null vector, then
// y_i = OpCompositeExtract v i; each y_i is a synonym of x_i
// (replace_id_with_synonym then routes uses through the vector). Inserts,
// like llvm-spirv's own output, rather than OpCompositeConstruct of run-time
// values, which crashes llvm-spirv -r (corpora/known-consumer-bugs/
// composite_construct_runtime.spvasm).
//
// Record: {"before": descriptor, "ids": [x_0, ...]}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

bool IsScalarData(TransformContext& ctx, uint32_t type) {
  const spirv::TypeInfo* t = ctx.types().Get(type);
  return t != nullptr && (t->op == Op::OpTypeInt || t->op == Op::OpTypeFloat);
}

class VectorizeScalarsKind : public Transformation {
 public:
  std::string_view kind() const override { return "vectorize_scalars"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    auto blocks = ReachableBlocks(ctx);
    if (blocks.empty()) return std::nullopt;
    auto [f, b] = blocks[rng.Below(static_cast<uint32_t>(blocks.size()))];
    const spirv::Function& fn = ctx.module().functions[f];
    const spirv::BasicBlock& bb = fn.blocks[b];
    const size_t lo = TransformContext::FirstInsertionIndex(bb);
    const size_t hi = TransformContext::LastInsertionIndex(bb);
    if (lo > hi) return std::nullopt;
    const InstPos pos{
        f, b, rng.Range(static_cast<uint32_t>(lo), static_cast<uint32_t>(hi))};
    // Available scalar values by type, in module order.
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> by_type;
    auto add = [&](uint32_t type, uint32_t id) {
      if (!IsScalarData(ctx, type) || IsUndef(ctx, id)) return;
      for (auto& [t, ids] : by_type)
        if (t == type) return ids.push_back(id);
      by_type.push_back({type, {id}});
    };
    for (const spirv::Instruction& p : fn.parameters)
      add(p.type_id(), p.result_id());
    for (const spirv::BasicBlock& block : fn.blocks)
      for (const spirv::Instruction& inst : block.instructions)
        if (inst.result_id() != 0 && ctx.IsAvailableAt(inst.result_id(), pos))
          add(inst.type_id(), inst.result_id());
    if (by_type.empty()) return std::nullopt;
    const auto& ids =
        by_type[rng.Below(static_cast<uint32_t>(by_type.size()))].second;
    std::vector<uint32_t> chosen(rng.Range(2, 4));
    for (uint32_t& id : chosen)
      id = ids[rng.Below(static_cast<uint32_t>(ids.size()))];
    return Record{{"before", ToJson(ctx.Describe(pos))}, {"ids", chosen}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveInsertionField(ctx, r, "before");
    if (!pos.ok()) return pos.status();
    const auto ids = Field<std::vector<uint32_t>>(r, "ids");
    if (ids.size() < 2 || ids.size() > 4)
      return absl::InvalidArgumentError("\"ids\" must list 2 to 4 scalars");
    const uint32_t type = ctx.TypeOf(ids[0]);
    for (uint32_t id : ids) {
      if (ctx.TypeOf(id) != type || !IsScalarData(ctx, type))
        return absl::FailedPreconditionError(
            "the ids are not int or float scalars of one type");
      if (!ctx.IsAvailableAt(id, *pos) || IsUndef(ctx, id))
        return absl::FailedPreconditionError(
            absl::StrCat("%", id, " is not available there"));
    }
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    InstPos pos = *ResolveField(ctx, r, "before");
    const auto ids = Field<std::vector<uint32_t>>(r, "ids");
    const uint32_t scalar = ctx.TypeOf(ids[0]);
    const uint32_t vtype =
        ctx.builder().VectorType(scalar, static_cast<uint32_t>(ids.size()));
    uint32_t v = ctx.builder().NullConstant(vtype);
    for (uint32_t i = 0; i < ids.size(); ++i)
      v = EmitBefore(ctx, pos, Op::OpCompositeInsert, vtype,
                     {spirv::IdOperand(ids[i]), spirv::IdOperand(v),
                      spirv::LiteralOperand(i)});
    for (uint32_t i = 0; i < ids.size(); ++i) {
      const uint32_t y =
          EmitBefore(ctx, pos, Op::OpCompositeExtract, scalar,
                     {spirv::IdOperand(v), spirv::LiteralOperand(i)});
      ctx.facts().AddSynonym(ids[i], y);
    }
  }
};

}  // namespace

const Transformation* VectorizeScalars() {
  static const VectorizeScalarsKind* t = new VectorizeScalarsKind;
  return t;
}

}  // namespace l0spv::generators::transform
