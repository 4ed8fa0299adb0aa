// B: ...; OpBranch %S    S: phis; body; term   →   B: ...; body; term
// when S's only predecessor is B, S is no merge or continue target and B has
// no merge instruction. S's phis have one incoming value (from B): their
// uses are rewritten to that value. S's successors' phis name B instead;
// names and decorations of the removed ids are dropped.
#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// Why B cannot absorb its successor, or OK.
absl::Status Mergeable(TransformContext& ctx, const BlockRef& ref) {
  const spirv::Function& fn = ctx.module().functions[ref.function];
  const spirv::BasicBlock& bb = fn.blocks[ref.block];
  const spirv::Instruction* term = bb.terminator();
  if (term == nullptr || OpOf(*term) != Op::OpBranch)
    return absl::FailedPreconditionError("the block does not end in OpBranch");
  if (MergeInstruction(bb) != nullptr)
    return absl::FailedPreconditionError("the block has a merge instruction");
  const uint32_t s = term->word(0);
  if (s == bb.id() || s == fn.blocks[0].id())
    return absl::FailedPreconditionError(
        "the successor is the block itself or the entry block");
  const Dominators& dom = ctx.dominators(ref.function);
  const std::vector<uint32_t>& preds = dom.Predecessors(s);
  if (preds.size() != 1 || preds[0] != bb.id())
    return absl::FailedPreconditionError(absl::StrCat(
        "the successor %", s, " has predecessors other than the block"));
  if (IsMergeOrContinueTarget(fn, s))
    return absl::FailedPreconditionError(
        absl::StrCat("the successor %", s, " is a merge or continue target"));
  auto sref = ctx.FindBlock(s);
  if (!sref) return absl::FailedPreconditionError("the successor is gone");
  const spirv::BasicBlock& sb = fn.blocks[sref->second];
  if (HasLoopMerge(sb))
    return absl::FailedPreconditionError("the successor is a loop header");
  for (const spirv::Instruction& inst : sb.instructions)
    if (OpOf(inst) == Op::OpPhi &&
        (inst.NumOperands() != 2 || inst.word(1) != bb.id()))
      return absl::FailedPreconditionError("a phi of the successor is odd");
  return absl::OkStatus();
}

class MergeBlocksKind : public Transformation {
 public:
  std::string_view kind() const override { return "merge_blocks"; }
  // Generated kernels rarely have a block whose only successor has it as
  // only predecessor; split_block makes such pairs.
  std::vector<std::string_view> enablers() const override {
    return {"split_block"};
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> labels;
    for (auto [f, b] : ReachableBlocks(ctx))
      if (Mergeable(ctx, {f, b}).ok())
        labels.push_back(ctx.module().functions[f].blocks[b].id());
    if (labels.empty()) return std::nullopt;
    return Record{
        {"block", labels[rng.Below(static_cast<uint32_t>(labels.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto ref = ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    if (!ref.ok()) return ref.status();
    return Mergeable(ctx, *ref);
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const BlockRef ref = *ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    spirv::Function& fn = ctx.module().functions[ref.function];
    const uint32_t b_label = fn.blocks[ref.block].id();
    const uint32_t s_label = fn.blocks[ref.block].instructions.back().word(0);
    const size_t s_index = ctx.FindBlock(s_label)->second;
    spirv::BasicBlock s = std::move(fn.blocks[s_index]);
    fn.blocks.erase(fn.blocks.begin() + static_cast<ptrdiff_t>(s_index));
    absl::flat_hash_map<uint32_t, uint32_t> folded;  // phi → its value
    std::vector<spirv::Instruction> body;
    for (spirv::Instruction& inst : s.instructions) {
      if (OpOf(inst) == Op::OpPhi)
        folded[inst.result_id()] = inst.word(0);
      else
        body.push_back(std::move(inst));
    }
    // Valid phis of S take values available at B's end, never other phis
    // of S, so one level of substitution suffices.
    spirv::BasicBlock& bb =
        fn.blocks[s_index < ref.block ? ref.block - 1 : ref.block];
    bb.instructions.pop_back();
    for (spirv::Instruction& inst : body) bb.instructions.push_back(inst);
    if (!folded.empty()) {
      for (spirv::BasicBlock& block : fn.blocks)
        for (spirv::Instruction& inst : block.instructions)
          inst.ForEachInId([&](uint32_t& id) {
            auto it = folded.find(id);
            if (it != folded.end()) id = it->second;
          });
    }
    spirv::RetargetSuccessorPhis(fn, bb, s_label, b_label);
    RemoveNamesAndDecorations(ctx.module(), s_label);
    for (const auto& [phi, value] : folded)
      RemoveNamesAndDecorations(ctx.module(), phi);
  }
};

}  // namespace

const Transformation* MergeBlocks() {
  static const MergeBlocksKind* t = new MergeBlocksKind;
  return t;
}

}  // namespace l0spv::generators::transform
