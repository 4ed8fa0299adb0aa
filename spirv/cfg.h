// spirv/cfg.h — control-flow queries over one function: successors,
// predecessors, reachability, dominators and the structured-control-flow
// declarations (merge blocks, continue targets) of headers.
//
// Contract:
//  - Successors are read from the terminator alone (OpBranch,
//    OpBranchConditional, OpSwitch); every other terminator has none.
//  - A Cfg is a snapshot: it copies labels, not pointers, so it stays
//    safe to query after the function changes, but then describes the old
//    graph (rebuild it after an edit that touches blocks or terminators).
//  - The entry is the function's first block. A block unreachable from it
//    is dominated by nothing and dominates nothing; labels that are not
//    blocks of the function are unknown to every query (false / 0 / empty),
//    never an error, so hostile or half-edited functions are safe to query.
//  - Dominators are computed with Cooper, Harvey and Kennedy's iterative
//    algorithm over the reverse post-order of a depth-first search that
//    visits successors in operand order, so results are deterministic.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "spirv/module.h"

namespace l0spv::spirv {

// Labels a terminator branches to, in operand order (OpSwitch: default,
// then each case), repeats kept; empty for any other instruction.
std::vector<uint32_t> BranchTargets(const Instruction& terminator);
// A block's successor labels: BranchTargets of its terminator with repeats
// removed (first occurrence kept).
std::vector<uint32_t> Successors(const BasicBlock& block);

// The OpSelectionMerge / OpLoopMerge of a header (the instruction just
// before the terminator, where the spec puts it), or nullptr.
const Instruction* MergeInstruction(const BasicBlock& block);
bool HasLoopMerge(const BasicBlock& block);
// The merge block a header declares, or 0 for a block that is no header.
uint32_t MergeBlockOf(const BasicBlock& header);
// The continue target a loop header declares, or 0.
uint32_t ContinueTargetOf(const BasicBlock& header);
// Whether any header of `function` names `label` as its merge block or
// continue target.
bool IsMergeOrContinueTarget(const Function& function, uint32_t label);

class Cfg {
 public:
  explicit Cfg(const Function& function);

  bool Contains(uint32_t label) const { return index_.contains(label); }
  // Successors(block) of the block; may name labels outside the function
  // (a broken module), which no other query knows.
  const std::vector<uint32_t>& Successors(uint32_t label) const;
  // Blocks of the function that branch to `label`, in function order, each
  // once.
  const std::vector<uint32_t>& Predecessors(uint32_t label) const;

  bool IsReachable(uint32_t label) const;
  // Reachable labels in reverse post-order (the entry first).
  const std::vector<uint32_t>& ReversePostOrder() const { return rpo_; }
  // Immediate dominator of a reachable block; 0 for the entry, unreachable
  // blocks and unknown labels.
  uint32_t ImmediateDominator(uint32_t label) const;
  // a dominates b (reflexive); false when either is unreachable.
  bool Dominates(uint32_t a, uint32_t b) const;
  bool StrictlyDominates(uint32_t a, uint32_t b) const {
    return a != b && Dominates(a, b);
  }

 private:
  static constexpr uint32_t kNone = ~0u;
  // Per block index (function order).
  absl::flat_hash_map<uint32_t, uint32_t> index_;  // label → block index
  std::vector<uint32_t> labels_;
  std::vector<uint32_t> idom_;  // block index; kNone when unreachable
  std::vector<std::vector<uint32_t>> succ_, pred_;  // labels
  std::vector<uint32_t> rpo_;                       // labels
};

// Removes the blocks of `function` unreachable from its entry, then the phi
// entries whose parent is a removed block and the merge instructions that
// name one. Returns every id the removed blocks defined (labels included),
// for the caller to forget (names, decorations).
absl::flat_hash_set<uint32_t> RemoveUnreachableBlocks(Function& function);

}  // namespace l0spv::spirv
