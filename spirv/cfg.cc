#include "spirv/cfg.h"

#include <algorithm>
#include <utility>

#include "spirv/ir_edit.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {

using spv::Op;

std::vector<uint32_t> BranchTargets(const Instruction& term) {
  std::vector<uint32_t> out;
  if (Is(term, Op::OpBranch) && term.NumOperands() >= 1) {
    out.push_back(term.word(0));
  } else if (Is(term, Op::OpBranchConditional) && term.NumOperands() >= 3) {
    out = {term.word(1), term.word(2)};
  } else if (Is(term, Op::OpSwitch) && term.NumOperands() >= 2) {
    out.push_back(term.word(1));
    // Operands 2, 4, ... are case literals; 3, 5, ... their labels.
    for (size_t i = 3; i < term.NumOperands(); i += 2)
      out.push_back(term.word(i));
  }
  return out;
}

std::vector<uint32_t> Successors(const BasicBlock& block) {
  std::vector<uint32_t> out;
  const Instruction* term = block.terminator();
  if (term == nullptr) return out;
  for (uint32_t label : BranchTargets(*term))
    if (std::find(out.begin(), out.end(), label) == out.end())
      out.push_back(label);
  return out;
}

const Instruction* MergeInstruction(const BasicBlock& block) {
  if (block.instructions.size() < 2) return nullptr;
  const Instruction& m = block.instructions[block.instructions.size() - 2];
  if (Is(m, Op::OpSelectionMerge) || Is(m, Op::OpLoopMerge)) return &m;
  return nullptr;
}

bool HasLoopMerge(const BasicBlock& block) {
  const Instruction* m = MergeInstruction(block);
  return m != nullptr && Is(*m, Op::OpLoopMerge);
}

uint32_t MergeBlockOf(const BasicBlock& header) {
  const Instruction* m = MergeInstruction(header);
  return m == nullptr || m->NumOperands() < 1 ? 0 : m->word(0);
}

uint32_t ContinueTargetOf(const BasicBlock& header) {
  const Instruction* m = MergeInstruction(header);
  if (m == nullptr || !Is(*m, Op::OpLoopMerge) || m->NumOperands() < 2)
    return 0;
  return m->word(1);
}

bool IsMergeOrContinueTarget(const Function& function, uint32_t label) {
  // Every instruction, not only MergeInstruction(): a misplaced merge
  // instruction still claims its targets for spirv-val.
  for (const BasicBlock& bb : function.blocks) {
    for (const Instruction& inst : bb.instructions) {
      if (Is(inst, Op::OpSelectionMerge) && inst.NumOperands() >= 1 &&
          inst.word(0) == label)
        return true;
      if (Is(inst, Op::OpLoopMerge) && inst.NumOperands() >= 2 &&
          (inst.word(0) == label || inst.word(1) == label))
        return true;
    }
  }
  return false;
}

Cfg::Cfg(const Function& fn) {
  const size_t n = fn.blocks.size();
  if (n == 0) return;
  index_.reserve(n);
  labels_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    labels_[i] = fn.blocks[i].id();
    // A repeated label (an invalid module) keeps its first block.
    index_.try_emplace(labels_[i], static_cast<uint32_t>(i));
  }
  succ_.resize(n);
  pred_.resize(n);
  std::vector<std::vector<uint32_t>> succ_index(n), pred_index(n);
  for (size_t i = 0; i < n; ++i) {
    succ_[i] = spirv::Successors(fn.blocks[i]);
    for (uint32_t s : succ_[i]) {
      auto it = index_.find(s);
      if (it == index_.end()) continue;
      succ_index[i].push_back(it->second);
      pred_index[it->second].push_back(static_cast<uint32_t>(i));
      pred_[it->second].push_back(labels_[i]);
    }
  }
  // Post-order by an iterative depth-first search (no recursion: a hostile
  // function may have a very long chain of blocks).
  std::vector<uint32_t> post;
  post.reserve(n);
  std::vector<bool> visited(n, false);
  std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
  visited[0] = true;
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    if (next < succ_index[b].size()) {
      const uint32_t child = succ_index[b][next++];
      if (!visited[child]) {
        visited[child] = true;
        stack.push_back({child, 0});
      }
    } else {
      post.push_back(b);
      stack.pop_back();
    }
  }
  std::vector<uint32_t> order(n, kNone);  // reverse post-order number
  const std::vector<uint32_t> rpo(post.rbegin(), post.rend());
  rpo_.reserve(rpo.size());
  for (size_t i = 0; i < rpo.size(); ++i) {
    order[rpo[i]] = static_cast<uint32_t>(i);
    rpo_.push_back(labels_[rpo[i]]);
  }
  idom_.assign(n, kNone);
  idom_[0] = 0;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (order[a] > order[b]) a = idom_[a];
      while (order[b] > order[a]) b = idom_[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < rpo.size(); ++i) {
      uint32_t new_idom = kNone;
      for (uint32_t p : pred_index[rpo[i]]) {
        if (idom_[p] == kNone) continue;
        new_idom = new_idom == kNone ? p : intersect(p, new_idom);
      }
      if (new_idom != kNone && idom_[rpo[i]] != new_idom) {
        idom_[rpo[i]] = new_idom;
        changed = true;
      }
    }
  }
}

const std::vector<uint32_t>& Cfg::Successors(uint32_t label) const {
  static const std::vector<uint32_t> kEmpty;
  auto it = index_.find(label);
  return it == index_.end() ? kEmpty : succ_[it->second];
}

const std::vector<uint32_t>& Cfg::Predecessors(uint32_t label) const {
  static const std::vector<uint32_t> kEmpty;
  auto it = index_.find(label);
  return it == index_.end() ? kEmpty : pred_[it->second];
}

bool Cfg::IsReachable(uint32_t label) const {
  auto it = index_.find(label);
  return it != index_.end() && idom_[it->second] != kNone;
}

uint32_t Cfg::ImmediateDominator(uint32_t label) const {
  auto it = index_.find(label);
  if (it == index_.end()) return 0;
  const uint32_t i = it->second;
  if (idom_[i] == kNone || idom_[i] == i) return 0;
  return labels_[idom_[i]];
}

bool Cfg::Dominates(uint32_t a, uint32_t b) const {
  auto ia = index_.find(a), ib = index_.find(b);
  if (ia == index_.end() || ib == index_.end()) return false;
  const uint32_t x = ia->second;
  uint32_t y = ib->second;
  if (idom_[x] == kNone || idom_[y] == kNone) return false;
  for (;;) {
    if (y == x) return true;
    if (idom_[y] == y) return false;  // the entry
    y = idom_[y];
  }
}

absl::flat_hash_set<uint32_t> RemoveUnreachableBlocks(Function& function) {
  absl::flat_hash_set<uint32_t> removed;
  if (function.blocks.empty()) return removed;
  const Cfg cfg(function);
  absl::flat_hash_set<uint32_t> gone;
  std::vector<BasicBlock> kept;
  kept.reserve(function.blocks.size());
  for (BasicBlock& b : function.blocks) {
    if (cfg.IsReachable(b.id())) {
      kept.push_back(std::move(b));
      continue;
    }
    gone.insert(b.id());
    removed.insert(b.id());
    for (const Instruction& inst : b.instructions)
      if (inst.result_id() != 0) removed.insert(inst.result_id());
  }
  function.blocks = std::move(kept);
  if (gone.empty()) return removed;
  for (BasicBlock& b : function.blocks) {
    std::erase_if(b.instructions, [&](const Instruction& inst) {
      if (Is(inst, Op::OpSelectionMerge))
        return inst.NumOperands() >= 1 && gone.contains(inst.word(0));
      if (Is(inst, Op::OpLoopMerge))
        return inst.NumOperands() >= 2 &&
               (gone.contains(inst.word(0)) || gone.contains(inst.word(1)));
      return false;
    });
    RemovePhiEntries(b, [&](uint32_t parent) { return gone.contains(parent); });
  }
  return removed;
}

}  // namespace l0spv::spirv
