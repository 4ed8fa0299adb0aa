// Stores an available value of the right type into a Function variable
// whose pointee is irrelevant (add_local_variable's variables): no result
// reads it, and the variable is private to the work-item, so no other
// work-item can observe the store.
//
// Record: {"before": descriptor, "pointer": variable id, "value": id}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

class AddDeadStoreKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_dead_store"; }
  // It stores only into the irrelevant-pointee locals add_local_variable adds.
  std::vector<std::string_view> enablers() const override {
    return {"add_local_variable"};
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    const auto& pointees = ctx.facts().irrelevant_pointees();
    if (pointees.empty()) return std::nullopt;
    const uint32_t pointer =
        pointees[rng.Below(static_cast<uint32_t>(pointees.size()))];
    const DefSite* d = ctx.Def(pointer);
    if (d == nullptr || d->function < 0) return std::nullopt;
    const size_t f = static_cast<size_t>(d->function);
    std::vector<std::pair<size_t, size_t>> blocks;
    for (auto fb : ReachableBlocks(ctx))
      if (fb.first == f) blocks.push_back(fb);
    const std::optional<InstPos> at = RandomInsertionPoint(ctx, rng, blocks);
    if (!at) return std::nullopt;
    const InstPos pos = *at;
    if (!IsIrrelevantLocal(ctx, pointer, pos)) return std::nullopt;
    const uint32_t type = PointeeOf(ctx, pointer);
    std::vector<uint32_t> values;
    for (const spirv::Instruction& inst : ctx.module().types_values)
      if (inst.type_id() == type && (OpOf(inst) == Op::OpConstant ||
                                     OpOf(inst) == Op::OpConstantComposite ||
                                     OpOf(inst) == Op::OpConstantNull))
        values.push_back(inst.result_id());
    const spirv::Function& fn = ctx.module().functions[f];
    for (const spirv::Instruction& p : fn.parameters)
      if (p.type_id() == type) values.push_back(p.result_id());
    for (const spirv::BasicBlock& block : fn.blocks)
      for (const spirv::Instruction& inst : block.instructions)
        if (inst.type_id() == type && inst.result_id() != 0 &&
            OpOf(inst) != Op::OpUndef &&
            ctx.IsAvailableAt(inst.result_id(), pos))
          values.push_back(inst.result_id());
    if (values.empty()) return std::nullopt;
    return Record{
        {"before", ToJson(ctx.Describe(pos))},
        {"pointer", pointer},
        {"value", values[rng.Below(static_cast<uint32_t>(values.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveInsertionField(ctx, r, "before");
    if (!pos.ok()) return pos.status();
    const uint32_t pointer = Field<uint32_t>(r, "pointer");
    if (!IsIrrelevantLocal(ctx, pointer, *pos))
      return absl::FailedPreconditionError(absl::StrCat(
          "%", pointer,
          " is not an irrelevant-pointee Function variable available there"));
    const uint32_t value = Field<uint32_t>(r, "value");
    if (!ctx.IsAvailableAt(value, *pos) || IsUndef(ctx, value) ||
        ctx.TypeOf(value) != PointeeOf(ctx, pointer))
      return absl::FailedPreconditionError(absl::StrCat(
          "%", value, " is not an available value of the pointee type"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    InstPos pos = *ResolveField(ctx, r, "before");
    EmitBefore(ctx, pos, Op::OpStore, 0,
               {spirv::IdOperand(Field<uint32_t>(r, "pointer")),
                spirv::IdOperand(Field<uint32_t>(r, "value"))});
  }
};

}  // namespace

const Transformation* AddDeadStore() {
  static const AddDeadStoreKind* t = new AddDeadStoreKind;
  return t;
}

}  // namespace l0spv::generators::transform
