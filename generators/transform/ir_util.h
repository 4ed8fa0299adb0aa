// generators/transform/ir_util.h — small IR queries and edits that many
// transformation kinds share.
//
// Contract: positions are InstPos values of the context's module and are
// invalidated by the edits here like by any other edit.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "generators/transform/context.h"
#include "generators/transform/transformation.h"
#include "spirv/cfg.h"
#include "spirv/instruction.h"
#include "spirv/ir_edit.h"
#include "spirv/opcode_traits.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::generators::transform {

using spirv::OpOf;
inline uint32_t U(spv::Op op) { return static_cast<uint32_t>(op); }

// Opcode properties (purity, commutativity, ...) are spirv/opcode_traits.h
// queries; CFG queries and block edits are spirv/cfg.h and spirv/ir_edit.h.

// Every reachable-block instruction position matching `pred(inst, pos)`, in
// module order. Unreachable blocks are skipped.
template <typename Pred>
std::vector<InstPos> FindPositions(TransformContext& ctx, Pred&& pred) {
  std::vector<InstPos> out;
  spirv::Module& m = ctx.module();
  for (size_t f = 0; f < m.functions.size(); ++f) {
    const spirv::Function& fn = m.functions[f];
    if (fn.blocks.empty()) continue;
    const Dominators& dom = ctx.dominators(f);
    for (size_t b = 0; b < fn.blocks.size(); ++b) {
      if (!dom.IsReachable(fn.blocks[b].id())) continue;
      const auto& insts = fn.blocks[b].instructions;
      for (size_t i = 0; i < insts.size(); ++i) {
        const InstPos pos{f, b, i};
        if (pred(insts[i], pos)) out.push_back(pos);
      }
    }
  }
  return out;
}

// A uniformly chosen element of `positions`, or nullopt when empty.
std::optional<InstPos> PickPosition(const std::vector<InstPos>& positions,
                                    Rng& rng);

// Reachable blocks as (function, block) pairs, in module order.
std::vector<std::pair<size_t, size_t>> ReachableBlocks(TransformContext& ctx);

// A place for a new ordinary instruction: one of `blocks` drawn uniformly,
// then an index between its FirstInsertionIndex and LastInsertionIndex;
// nullopt when `blocks` is empty or the drawn block has no such place.
std::optional<InstPos> RandomInsertionPoint(
    TransformContext& ctx, Rng& rng,
    const std::vector<std::pair<size_t, size_t>>& blocks);

// Inserts `inst` before `pos` and returns the position it now has.
InstPos InsertBefore(TransformContext& ctx, const InstPos& pos,
                     spirv::Instruction inst);

// Reads a record field holding an instruction descriptor and resolves it;
// FailedPrecondition when the instruction is gone, InvalidArgument when the
// field is malformed.
absl::StatusOr<InstPos> ResolveField(TransformContext& ctx, const Record& r,
                                     const char* field);

// ResolveField for a position where new instructions go before: also
// FailedPrecondition (with `why`, or a default saying where inserting is
// not allowed) when it lies among the block's phis and variables or after
// its last insertion point (merge instruction and terminator).
absl::StatusOr<InstPos> ResolveInsertionField(TransformContext& ctx,
                                              const Record& r,
                                              const char* field,
                                              const char* why = nullptr);

}  // namespace l0spv::generators::transform
