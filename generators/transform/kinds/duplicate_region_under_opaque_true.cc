// B: pre; run; post; term
//   →  B: pre; %c = <opaque true>; OpSelectionMerge %M None;
//         OpBranchConditional %c %T %F
//      T: run with fresh result ids; OpBranch %M
//      F: run with other fresh result ids; OpBranch %M   (never executed)
//      M: %r = OpPhi %rT %T %rF %F  (each run result used after the run,
//         keeping its id); post; term
// The run holds no barrier or group operation, no OpSampledImage, no
// lifetime marker (llvm-spirv 14 mistranslates a duplicated one) and no
// decorated result (a copy without NoContraction could round differently).
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"
#include "generators/transform/opaque.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

absl::Status NoDecoratedResults(TransformContext& ctx, const Run& run) {
  const spirv::BasicBlock& bb =
      ctx.module().functions[run.block.function].blocks[run.block.block];
  for (size_t i = run.first; i < run.first + run.count; ++i) {
    // Lifetime markers stay single: llvm-spirv 14 turns a duplicated
    // OpLifetimeStart into IR whose cast does not dominate the matching
    // OpLifetimeStop (the round trip fails LLVM's verifier).
    const Op op = OpOf(bb.instructions[i]);
    if (op == Op::OpLifetimeStart || op == Op::OpLifetimeStop)
      return absl::FailedPreconditionError("the run holds a lifetime marker");
    const uint32_t id = bb.instructions[i].result_id();
    if (id != 0 && IsDecorated(ctx.module(), id))
      return absl::FailedPreconditionError(
          absl::StrCat("run result %", id, " is decorated"));
  }
  return absl::OkStatus();
}

class DuplicateRegionUnderOpaqueTrueKind : public Transformation {
 public:
  std::string_view kind() const override {
    return "duplicate_region_under_opaque_true";
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::optional<Run> run = ProposeRun(ctx, rng, 8);
    if (!run || !NoDecoratedResults(ctx, *run).ok()) return std::nullopt;
    const InstPos first{run->block.function, run->block.block, run->first};
    return Record{
        {"first", ToJson(ctx.Describe(first))},
        {"count", run->count},
        {"condition", ProposeOpaqueSource(ctx, rng, run->block.function)}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto run = RunFromRecord(ctx, r);
    if (!run.ok()) return run.status();
    if (absl::Status s = NoDecoratedResults(ctx, *run); !s.ok()) return s;
    return CheckOpaqueSource(ctx, ObjectField(r, "condition"),
                             run->block.function);
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const Run run = *RunFromRecord(ctx, r);
    const size_t f = run.block.function, b = run.block.block;
    spirv::Function* fn = &ctx.module().functions[f];
    const std::vector<spirv::Instruction> body(
        fn->blocks[b].instructions.begin() + static_cast<ptrdiff_t>(run.first),
        fn->blocks[b].instructions.begin() +
            static_cast<ptrdiff_t>(run.first + run.count));
    // Run results used outside the run need a phi in M.
    absl::flat_hash_set<uint32_t> results, used_later;
    for (const spirv::Instruction& inst : body)
      if (inst.result_id() != 0) results.insert(inst.result_id());
    for (size_t bi = 0; bi < fn->blocks.size(); ++bi)
      for (size_t i = 0; i < fn->blocks[bi].instructions.size(); ++i) {
        if (bi == b && i >= run.first && i < run.first + run.count) continue;
        fn->blocks[bi].instructions[i].ForEachInId([&](uint32_t id) {
          if (results.contains(id)) used_later.insert(id);
        });
      }
    const uint32_t t = ctx.NewId(), fl = ctx.NewId(), m = ctx.NewId();
    SplitBlockBefore(ctx, run.block, run.first + run.count, m);
    fn = &ctx.module().functions[f];
    auto& insts = fn->blocks[b].instructions;
    insts.erase(insts.begin() + static_cast<ptrdiff_t>(run.first), insts.end());
    InstPos pos{f, b, insts.size()};
    const uint32_t cond =
        EmitOpaqueBool(ctx, ObjectField(r, "condition"), pos, true);
    absl::flat_hash_map<uint32_t, uint32_t> to_t, to_f;
    for (const spirv::Instruction& inst : body)
      if (inst.result_id() != 0) {
        to_t[inst.result_id()] = ctx.NewId();
        to_f[inst.result_id()] = ctx.NewId();
      }
    fn = &ctx.module().functions[f];
    fn->blocks[b].instructions.push_back(spirv::Instruction(
        U(Op::OpSelectionMerge), 0, 0,
        {spirv::IdOperand(m),
         spirv::EnumOperand(spirv::OperandKind::kSelectionControl, 0)}));
    fn->blocks[b].instructions.push_back(spirv::Instruction(
        U(Op::OpBranchConditional), 0, 0,
        {spirv::IdOperand(cond), spirv::IdOperand(t), spirv::IdOperand(fl)}));
    auto copy = [&](uint32_t label,
                    const absl::flat_hash_map<uint32_t, uint32_t>& ids) {
      spirv::BasicBlock block = NewBlock(label);
      for (spirv::Instruction inst : body) {
        spirv::RemapIds(inst, ids);
        block.instructions.push_back(std::move(inst));
      }
      block.instructions.push_back(Branch(m));
      return block;
    };
    std::vector<spirv::Instruction> phis;
    for (const spirv::Instruction& inst : body)
      if (used_later.contains(inst.result_id()))
        phis.push_back(spirv::Instruction(
            U(Op::OpPhi), inst.type_id(), inst.result_id(),
            {spirv::IdOperand(to_t.at(inst.result_id())), spirv::IdOperand(t),
             spirv::IdOperand(to_f.at(inst.result_id())),
             spirv::IdOperand(fl)}));
    // Results without a phi are gone: so are their names.
    for (const spirv::Instruction& inst : body)
      if (inst.result_id() != 0 && !used_later.contains(inst.result_id()))
        RemoveNamesAndDecorations(ctx.module(), inst.result_id());
    fn = &ctx.module().functions[f];
    auto& m_insts = fn->blocks[b + 1].instructions;
    m_insts.insert(m_insts.begin(), phis.begin(), phis.end());
    fn->blocks.insert(fn->blocks.begin() + static_cast<ptrdiff_t>(b) + 1,
                      {copy(t, to_t), copy(fl, to_f)});
    if (ctx.facts().IsDeadBlock(fn->blocks[b].id()))
      ctx.facts().AddDeadBlock(t);
    ctx.facts().AddDeadBlock(fl);
  }
};

}  // namespace

const Transformation* DuplicateRegionUnderOpaqueTrue() {
  static const DuplicateRegionUnderOpaqueTrueKind* t =
      new DuplicateRegionUnderOpaqueTrueKind;
  return t;
}

}  // namespace l0spv::generators::transform
