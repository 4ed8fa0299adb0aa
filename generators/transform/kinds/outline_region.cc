// Moves a run of side-effect-free instructions of one block into a new
// function:
//   B: pre; run; post   →   B: pre; %out = OpFunctionCall %T %F inputs; post
//   F(inputs): run with fresh ids; OpReturnValue %out' (or OpReturn)
// Inputs are the function-local ids the run uses but does not define (in
// first-use order); at most one run result may be used after the run, and
// the call takes over its id. Runs with decorated results are left alone
// (a decoration cannot follow the value into the callee). A function made
// of instructions that are defined on every input is recorded live-safe.
#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

constexpr size_t kMaxInputs = 16;

// What outlining a run needs to know.
struct Region {
  std::vector<uint32_t> inputs;
  uint32_t output = 0;  // run result used after the run, or 0
};

absl::StatusOr<Region> Analyse(TransformContext& ctx, const InstPos& first,
                               size_t count) {
  const spirv::Function& fn = ctx.module().functions[first.function];
  const spirv::BasicBlock& bb = fn.blocks[first.block];
  const size_t last = TransformContext::LastInsertionIndex(bb);
  if (count == 0 || first.index < TransformContext::FirstInsertionIndex(bb) ||
      first.index > last || count > last - first.index)
    return absl::FailedPreconditionError(
        "the run must be non-empty and among the block's ordinary "
        "instructions");
  Region region;
  absl::flat_hash_set<uint32_t> defined;
  for (size_t i = first.index; i < first.index + count; ++i) {
    const spirv::Instruction& inst = bb.instructions[i];
    if (!spirv::IsSideEffectFree(inst.opcode()) || inst.result_id() == 0)
      return absl::FailedPreconditionError(absl::StrCat(
          std::string(inst.name()), " in the run is not side-effect free"));
    if (IsDecorated(ctx.module(), inst.result_id()))
      return absl::FailedPreconditionError(
          absl::StrCat("run result %", inst.result_id(), " is decorated"));
    for (size_t o = 0; o < inst.NumOperands(); ++o) {
      if (!spirv::IsIdKind(inst.operand(o).kind)) continue;
      const uint32_t id = inst.word(o);
      const DefSite* d = ctx.Def(id);
      if (d == nullptr || d->function < 0 || defined.contains(id)) continue;
      if (std::find(region.inputs.begin(), region.inputs.end(), id) ==
          region.inputs.end())
        region.inputs.push_back(id);
    }
    defined.insert(inst.result_id());
  }
  if (region.inputs.size() > kMaxInputs)
    return absl::FailedPreconditionError("the run has too many inputs");
  // An input becomes a parameter, and no parameter may be a sampled image
  // (a copy of an OpSampledImage in the run, say). The type table leaves
  // image types out: ask the type's definition.
  for (uint32_t in : region.inputs) {
    const DefSite* type = ctx.Def(ctx.TypeOf(in));
    if (type != nullptr &&
        type->opcode == static_cast<uint32_t>(spv::Op::OpTypeSampledImage))
      return absl::FailedPreconditionError(absl::StrCat(
          "run input %", in, " is a sampled image (no parameter may be one)"));
  }
  absl::flat_hash_set<uint32_t> outputs;
  for (size_t b = 0; b < fn.blocks.size(); ++b)
    for (size_t i = 0; i < fn.blocks[b].instructions.size(); ++i) {
      if (b == first.block && i >= first.index && i < first.index + count)
        continue;
      fn.blocks[b].instructions[i].ForEachInId([&](uint32_t id) {
        if (defined.contains(id)) outputs.insert(id);
      });
    }
  if (outputs.size() > 1)
    return absl::FailedPreconditionError(
        "more than one run result is used after the run");
  if (!outputs.empty()) region.output = *outputs.begin();
  return region;
}

class OutlineRegionKind : public Transformation {
 public:
  std::string_view kind() const override { return "outline_region"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    // Start at a side-effect-free instruction and grow over its neighbours.
    auto start = PickPosition(
        FindPositions(ctx,
                      [&](const spirv::Instruction& inst, const InstPos& p) {
                        return spirv::IsSideEffectFree(inst.opcode()) &&
                               p.index >= TransformContext::FirstInsertionIndex(
                                              ctx.BlockAt(p));
                      }),
        rng);
    if (!start) return std::nullopt;
    const spirv::BasicBlock& bb = ctx.BlockAt(*start);
    const size_t want = rng.Range(1, 6);
    size_t count = 1;
    while (
        count < want &&
        start->index + count < TransformContext::LastInsertionIndex(bb) &&
        spirv::IsSideEffectFree(bb.instructions[start->index + count].opcode()))
      ++count;
    // Shrink until at most one result escapes.
    for (; count > 0; --count)
      if (Analyse(ctx, *start, count).ok())
        return Record{{"first", ToJson(ctx.Describe(*start))},
                      {"count", count}};
    return std::nullopt;
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveField(ctx, r, "first");
    if (!pos.ok()) return pos.status();
    if (!ctx.dominators(pos->function).IsReachable(ctx.BlockAt(*pos).id()))
      return absl::FailedPreconditionError("the run is unreachable");
    auto region = Analyse(ctx, *pos, Field<size_t>(r, "count"));
    return region.ok() ? absl::OkStatus() : region.status();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos first = *ResolveField(ctx, r, "first");
    const size_t count = Field<size_t>(r, "count");
    const Region region = *Analyse(ctx, first, count);
    std::vector<spirv::Instruction> body(
        ctx.BlockAt(first).instructions.begin() +
            static_cast<ptrdiff_t>(first.index),
        ctx.BlockAt(first).instructions.begin() +
            static_cast<ptrdiff_t>(first.index + count));
    std::vector<uint32_t> param_types;
    for (uint32_t in : region.inputs) param_types.push_back(ctx.TypeOf(in));
    spirv::ModuleBuilder& mb = ctx.builder();
    const uint32_t ret_type =
        region.output != 0 ? ctx.TypeOf(region.output) : mb.VoidType();
    const uint32_t fn_type = mb.FunctionType(ret_type, param_types);
    spirv::IdMap ids;
    spirv::Function f;
    const uint32_t f_id = ctx.NewId();
    f.def = spirv::Instruction(
        U(Op::OpFunction), ret_type, f_id,
        {spirv::EnumOperand(spirv::OperandKind::kFunctionControl, 0),
         spirv::IdOperand(fn_type)});
    for (size_t i = 0; i < region.inputs.size(); ++i) {
      const uint32_t p = ctx.NewId();
      ids[region.inputs[i]] = p;
      f.parameters.push_back(spirv::Instruction(U(Op::OpFunctionParameter),
                                                param_types[i], p, {}));
    }
    spirv::BasicBlock entry = NewBlock(ctx.NewId());
    bool pure = true;
    spirv::MapFreshIds(
        body, [&] { return ctx.NewId(); }, ids);
    for (spirv::Instruction inst : body) {
      pure = pure && spirv::IsSpeculatable(inst.opcode());
      spirv::RemapIds(inst, ids);
      entry.instructions.push_back(std::move(inst));
    }
    entry.instructions.push_back(
        region.output != 0
            ? spirv::Instruction(U(Op::OpReturnValue), 0, 0,
                                 {spirv::IdOperand(ids.at(region.output))})
            : spirv::Instruction(U(Op::OpReturn), 0, 0, {}));
    f.blocks.push_back(std::move(entry));
    f.end = spirv::Instruction(U(Op::OpFunctionEnd), 0, 0, {});
    std::vector<spirv::Operand> args{spirv::IdOperand(f_id)};
    for (uint32_t in : region.inputs) args.push_back(spirv::IdOperand(in));
    const uint32_t result = region.output != 0 ? region.output : ctx.NewId();
    auto& insts = ctx.BlockAt(first).instructions;
    insts.erase(insts.begin() + static_cast<ptrdiff_t>(first.index),
                insts.begin() + static_cast<ptrdiff_t>(first.index + count));
    insts.insert(insts.begin() + static_cast<ptrdiff_t>(first.index),
                 spirv::Instruction(U(Op::OpFunctionCall), ret_type, result,
                                    std::move(args)));
    for (const spirv::Instruction& inst : body)
      if (inst.result_id() != region.output)
        RemoveNamesAndDecorations(ctx.module(), inst.result_id());
    ctx.module().functions.push_back(std::move(f));
    if (pure) ctx.facts().AddLiveSafeFunction(f_id);
  }
};

}  // namespace

const Transformation* OutlineRegion() {
  static const OutlineRegionKind* t = new OutlineRegionKind;
  return t;
}

}  // namespace l0spv::generators::transform
