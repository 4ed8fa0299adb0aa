// Copies a whole array or struct Function variable onto itself: %v = OpLoad
// of the variable, then OpStore of %v back, both optionally Volatile. The
// variable is private to the work-item and initialised by then (it has an
// initializer, or its entry block stores it whole before the point), so the
// value written is the value already there and nothing changes.
//
// Front ends access arrays element by element; spirv-fuzz mutants with
// Volatile whole-composite loads and stores found IGC crashing on a Volatile
// whole load of more than 288 bytes (known bug igc_volatile_whole_composite),
// so this kind makes the form on purpose, and ocloc/gpu campaigns leave it
// out.
//
// Record: {"before": descriptor, "variable": id, "volatile": bool}.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// Whether `var` is an array/struct Function variable of function `f`
// holding its whole value at `pos` (see the file comment).
bool WholeAt(TransformContext& ctx, uint32_t var, const InstPos& pos) {
  const spirv::Function& fn = ctx.module().functions[pos.function];
  if (fn.blocks.empty()) return false;
  const auto& entry = fn.blocks.front().instructions;
  const spirv::Instruction* decl = nullptr;
  for (const spirv::Instruction& inst : entry)
    if (Is(inst, Op::OpVariable) && inst.result_id() == var) decl = &inst;
  if (decl == nullptr ||
      decl->word(0) != static_cast<uint32_t>(spv::StorageClass::Function))
    return false;
  const spirv::TypeInfo* t = ctx.types().Get(PointeeOf(ctx, var));
  if (t == nullptr || (t->op != Op::OpTypeArray && t->op != Op::OpTypeStruct))
    return false;
  if (decl->NumOperands() > 1) return true;  // an initializer
  for (size_t i = 0; i < entry.size(); ++i) {
    if (!Is(entry[i], Op::OpStore) || entry[i].word(0) != var) continue;
    return pos.block != 0 || pos.index > i;
  }
  return false;
}

std::vector<uint32_t> WholeVariablesAt(TransformContext& ctx,
                                       const InstPos& pos) {
  std::vector<uint32_t> out;
  const spirv::Function& fn = ctx.module().functions[pos.function];
  if (fn.blocks.empty()) return out;
  for (const spirv::Instruction& inst : fn.blocks.front().instructions)
    if (Is(inst, Op::OpVariable) && WholeAt(ctx, inst.result_id(), pos))
      out.push_back(inst.result_id());
  return out;
}

spirv::Operand MemoryAccess(bool is_volatile) {
  return spirv::EnumOperand(
      spirv::OperandKind::kMemoryAccess,
      is_volatile ? static_cast<uint32_t>(spv::MemoryAccessMask::Volatile) : 0);
}

class AddCompositeSelfCopyKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_composite_self_copy"; }
  std::vector<oracles::KnownBugId> known_bugs() const override {
    return {oracles::KnownBugId::kIgcVolatileWholeComposite};
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    const std::optional<InstPos> pos =
        RandomInsertionPoint(ctx, rng, ReachableBlocks(ctx));
    if (!pos) return std::nullopt;
    const std::vector<uint32_t> vars = WholeVariablesAt(ctx, *pos);
    if (vars.empty()) return std::nullopt;
    return Record{
        {"before", ToJson(ctx.Describe(*pos))},
        {"variable", vars[rng.Below(static_cast<uint32_t>(vars.size()))]},
        {"volatile", rng.OneIn(2)}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveInsertionField(ctx, r, "before");
    if (!pos.ok()) return pos.status();
    const uint32_t var = Field<uint32_t>(r, "variable");
    if (!WholeAt(ctx, var, *pos))
      return absl::FailedPreconditionError(absl::StrCat(
          "%", var,
          " is not an array/struct Function variable of this function "
          "initialised whole before this point"));
    (void)Field<bool>(r, "volatile");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    InstPos pos = *ResolveField(ctx, r, "before");
    const uint32_t var = Field<uint32_t>(r, "variable");
    const bool is_volatile = Field<bool>(r, "volatile");
    const uint32_t value =
        EmitBefore(ctx, pos, Op::OpLoad, PointeeOf(ctx, var),
                   {spirv::IdOperand(var), MemoryAccess(is_volatile)});
    EmitBefore(ctx, pos, Op::OpStore, 0,
               {spirv::IdOperand(var), spirv::IdOperand(value),
                MemoryAccess(is_volatile)});
  }
};

}  // namespace

const Transformation* AddCompositeSelfCopy() {
  static const AddCompositeSelfCopyKind* t = new AddCompositeSelfCopyKind;
  return t;
}

}  // namespace l0spv::generators::transform
