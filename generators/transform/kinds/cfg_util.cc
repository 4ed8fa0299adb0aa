#include "generators/transform/kinds/cfg_util.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"

namespace l0spv::generators::transform {

using spv::Op;

absl::StatusOr<BlockRef> ReachableBlock(TransformContext& ctx, uint32_t label) {
  auto where = ctx.FindBlock(label);
  if (!where)
    return absl::FailedPreconditionError(
        absl::StrCat("%", label, " is not a block label"));
  if (!ctx.dominators(where->first).IsReachable(label))
    return absl::FailedPreconditionError(
        absl::StrCat("block %", label, " is unreachable"));
  return BlockRef{where->first, where->second};
}

bool IsDecorated(const spirv::Module& m, uint32_t id) {
  for (const spirv::Instruction& a : m.annotations) {
    bool hit = false;
    a.ForEachInId([&](uint32_t used) { hit = hit || used == id; });
    if (hit) return true;
  }
  return false;
}

bool UsedOnlyAsCallee(const spirv::Module& m, uint32_t function_id,
                      bool ignore_annotations) {
  bool other = false;
  auto visit = [&](const spirv::Instruction& inst) {
    if (OpOf(inst) == Op::OpName) return;
    if (ignore_annotations && spirv::AnnotatedId(inst) == function_id) return;
    const bool call = OpOf(inst) == Op::OpFunctionCall;
    for (size_t i = 0; i < inst.NumOperands(); ++i) {
      if (!spirv::IsIdKind(inst.operand(i).kind)) continue;
      if (inst.word(i) == function_id && !(call && i == 0)) other = true;
    }
  };
  m.ForEachInstruction(visit);
  return !other;
}

void RemoveNamesAndDecorations(spirv::Module& m, uint32_t id) {
  auto targets = [&](const spirv::Instruction& inst) {
    return (OpOf(inst) == Op::OpName || OpOf(inst) == Op::OpMemberName ||
            OpOf(inst) == Op::OpDecorate ||
            OpOf(inst) == Op::OpMemberDecorate ||
            OpOf(inst) == Op::OpDecorateId) &&
           inst.NumOperands() > 0 && inst.word(0) == id;
  };
  std::erase_if(m.debug_names, targets);
  std::erase_if(m.annotations, targets);
}

void SplitBlockBefore(TransformContext& ctx, BlockRef ref, size_t index,
                      uint32_t new_label) {
  spirv::Function& fn = ctx.module().functions[ref.function];
  const uint32_t old_label = fn.blocks[ref.block].id();
  spirv::SplitBlockBefore(fn, ref.block, index, new_label);
  if (ctx.facts().IsDeadBlock(old_label)) ctx.facts().AddDeadBlock(new_label);
}

spirv::BasicBlock NewBlock(uint32_t label) {
  spirv::BasicBlock bb;
  bb.label = spirv::Instruction(U(Op::OpLabel), 0, label, {});
  return bb;
}

spirv::Instruction Branch(uint32_t target) {
  return spirv::Instruction(U(Op::OpBranch), 0, 0, {spirv::IdOperand(target)});
}

}  // namespace l0spv::generators::transform

namespace l0spv::generators::transform {

namespace {
bool IsCollectiveOpcode(uint32_t opcode) {
  if (static_cast<spv::Op>(opcode) == spv::Op::OpControlBarrier) return true;
  const spirv::OpcodeInfo* info = spirv::FindOpcode(opcode);
  if (info == nullptr) return true;
  const std::string_view name = info->name;
  return name.find("Group") != std::string_view::npos ||
         name.find("Barrier") != std::string_view::npos;
}
}  // namespace

bool ReachesCollective(const spirv::Module& m, uint32_t function_id) {
  std::vector<uint32_t> work{function_id}, seen{function_id};
  while (!work.empty()) {
    const spirv::Function* fn = m.FindFunction(work.back());
    work.pop_back();
    if (fn == nullptr) continue;
    for (const spirv::BasicBlock& bb : fn->blocks)
      for (const spirv::Instruction& inst : bb.instructions) {
        if (IsCollectiveOpcode(inst.opcode())) return true;
        if (static_cast<spv::Op>(inst.opcode()) == spv::Op::OpFunctionCall &&
            std::find(seen.begin(), seen.end(), inst.word(0)) == seen.end()) {
          seen.push_back(inst.word(0));
          work.push_back(inst.word(0));
        }
      }
  }
  return false;
}

bool Reaches(const spirv::Module& m, uint32_t from, uint32_t target) {
  std::vector<uint32_t> work{from}, seen{from};
  while (!work.empty()) {
    const uint32_t id = work.back();
    work.pop_back();
    if (id == target) return true;
    const spirv::Function* fn = m.FindFunction(id);
    if (fn == nullptr) continue;
    for (const spirv::BasicBlock& bb : fn->blocks)
      for (const spirv::Instruction& inst : bb.instructions)
        if (static_cast<spv::Op>(inst.opcode()) == spv::Op::OpFunctionCall &&
            std::find(seen.begin(), seen.end(), inst.word(0)) == seen.end()) {
          seen.push_back(inst.word(0));
          work.push_back(inst.word(0));
        }
  }
  return false;
}

absl::Status CheckRun(TransformContext& ctx, const BlockRef& ref, size_t first,
                      size_t count) {
  const spirv::BasicBlock& bb =
      ctx.module().functions[ref.function].blocks[ref.block];
  if (HasLoopMerge(bb))
    return absl::FailedPreconditionError("the block is a loop header");
  const size_t last = TransformContext::LastInsertionIndex(bb);
  // count > last - first, not first + count > last: a hostile count must not
  // wrap around.
  if (count == 0 || first < TransformContext::FirstInsertionIndex(bb) ||
      first > last || count > last - first)
    return absl::FailedPreconditionError(
        "the run must be non-empty, after the phis and variables and before "
        "the merge instruction and terminator");
  for (size_t i = first; i < first + count; ++i) {
    const spirv::Instruction& inst = bb.instructions[i];
    if (IsCollectiveOpcode(inst.opcode()) ||
        static_cast<spv::Op>(inst.opcode()) == spv::Op::OpSampledImage ||
        static_cast<spv::Op>(inst.opcode()) == spv::Op::OpPhi ||
        static_cast<spv::Op>(inst.opcode()) == spv::Op::OpVariable ||
        (static_cast<spv::Op>(inst.opcode()) == spv::Op::OpFunctionCall &&
         ReachesCollective(ctx.module(), inst.word(0))))
      return absl::FailedPreconditionError(absl::StrCat(
          "the run holds ", std::string(inst.name()),
          ", which must stay where it is (collective or block-bound)"));
  }
  if (SeparatesSampledImage(bb, first) ||
      SeparatesSampledImage(bb, first + count))
    return absl::FailedPreconditionError(
        "the run's boundary separates an OpSampledImage from its use");
  return absl::OkStatus();
}

bool SeparatesSampledImage(const spirv::BasicBlock& bb, size_t index) {
  for (size_t i = 0; i < index && i < bb.instructions.size(); ++i) {
    const spirv::Instruction& def = bb.instructions[i];
    if (static_cast<spv::Op>(def.opcode()) != spv::Op::OpSampledImage) continue;
    for (size_t j = index; j < bb.instructions.size(); ++j) {
      bool uses = false;
      bb.instructions[j].ForEachInId(
          [&](uint32_t id) { uses |= id == def.result_id(); });
      if (uses) return true;
    }
  }
  return false;
}

std::optional<Run> ProposeRun(TransformContext& ctx, Rng& rng,
                              size_t max_count) {
  std::vector<std::pair<size_t, size_t>> blocks;
  for (auto [f, b] : ReachableBlocks(ctx)) {
    const spirv::BasicBlock& bb = ctx.module().functions[f].blocks[b];
    if (!HasLoopMerge(bb) && TransformContext::FirstInsertionIndex(bb) <
                                 TransformContext::LastInsertionIndex(bb))
      blocks.emplace_back(f, b);
  }
  if (blocks.empty()) return std::nullopt;
  auto [f, b] = blocks[rng.Below(static_cast<uint32_t>(blocks.size()))];
  const spirv::BasicBlock& bb = ctx.module().functions[f].blocks[b];
  const size_t lo = TransformContext::FirstInsertionIndex(bb);
  const size_t hi = TransformContext::LastInsertionIndex(bb);  // exclusive
  const size_t first =
      rng.Range(static_cast<uint32_t>(lo), static_cast<uint32_t>(hi - 1));
  const size_t most = std::min(max_count, hi - first);
  const size_t count = rng.Range(1, static_cast<uint32_t>(most));
  Run run{{f, b}, first, count};
  if (!CheckRun(ctx, run.block, first, count).ok()) return std::nullopt;
  return run;
}

absl::StatusOr<Run> RunFromRecord(TransformContext& ctx, const Record& r) {
  auto pos = ResolveField(ctx, r, "first");
  if (!pos.ok()) return pos.status();
  Run run{{pos->function, pos->block}, pos->index, Field<size_t>(r, "count")};
  if (!ctx.dominators(pos->function).IsReachable(ctx.BlockAt(*pos).id()))
    return absl::FailedPreconditionError("the run's block is unreachable");
  if (absl::Status s = CheckRun(ctx, run.block, run.first, run.count); !s.ok())
    return s;
  return run;
}

}  // namespace l0spv::generators::transform
