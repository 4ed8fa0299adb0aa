#include "generators/transform/ir_util.h"

#include "absl/strings/str_cat.h"

namespace l0spv::generators::transform {

std::optional<InstPos> PickPosition(const std::vector<InstPos>& positions,
                                    Rng& rng) {
  if (positions.empty()) return std::nullopt;
  return positions[rng.Below(static_cast<uint32_t>(positions.size()))];
}

std::vector<std::pair<size_t, size_t>> ReachableBlocks(TransformContext& ctx) {
  std::vector<std::pair<size_t, size_t>> out;
  spirv::Module& m = ctx.module();
  for (size_t f = 0; f < m.functions.size(); ++f) {
    const spirv::Function& fn = m.functions[f];
    if (fn.blocks.empty()) continue;
    const Dominators& dom = ctx.dominators(f);
    for (size_t b = 0; b < fn.blocks.size(); ++b)
      if (dom.IsReachable(fn.blocks[b].id())) out.emplace_back(f, b);
  }
  return out;
}

std::optional<InstPos> RandomInsertionPoint(
    TransformContext& ctx, Rng& rng,
    const std::vector<std::pair<size_t, size_t>>& blocks) {
  if (blocks.empty()) return std::nullopt;
  auto [f, b] = blocks[rng.Below(static_cast<uint32_t>(blocks.size()))];
  const spirv::BasicBlock& bb = ctx.module().functions[f].blocks[b];
  const size_t lo = TransformContext::FirstInsertionIndex(bb);
  const size_t hi = TransformContext::LastInsertionIndex(bb);
  if (lo > hi) return std::nullopt;
  return InstPos{
      f, b, rng.Range(static_cast<uint32_t>(lo), static_cast<uint32_t>(hi))};
}

InstPos InsertBefore(TransformContext& ctx, const InstPos& pos,
                     spirv::Instruction inst) {
  auto& insts = ctx.BlockAt(pos).instructions;
  insts.insert(insts.begin() + static_cast<ptrdiff_t>(pos.index),
               std::move(inst));
  return pos;
}

absl::StatusOr<InstPos> ResolveField(TransformContext& ctx, const Record& r,
                                     const char* field) {
  if (!r.contains(field))
    return absl::InvalidArgumentError(
        absl::StrCat("the record has no \"", field, "\""));
  auto d = InstDescriptorFromJson(r[field]);
  if (!d.ok()) return d.status();
  std::optional<InstPos> pos = ctx.Find(*d);
  if (!pos)
    return absl::FailedPreconditionError(absl::StrCat(
        "\"", field, "\" names no instruction: ", r[field].dump()));
  return *pos;
}

absl::StatusOr<InstPos> ResolveInsertionField(TransformContext& ctx,
                                              const Record& r,
                                              const char* field,
                                              const char* why) {
  auto pos = ResolveField(ctx, r, field);
  if (!pos.ok()) return pos.status();
  const spirv::BasicBlock& bb = ctx.BlockAt(*pos);
  if (pos->index < TransformContext::FirstInsertionIndex(bb) ||
      pos->index > TransformContext::LastInsertionIndex(bb))
    return absl::FailedPreconditionError(
        why != nullptr ? why
                       : "cannot insert among phis, variables or the block's "
                         "merge and terminator");
  return pos;
}

}  // namespace l0spv::generators::transform
