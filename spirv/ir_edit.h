// spirv/ir_edit.h — structural edits every pass needs: splitting a block,
// retargeting phis, cloning code under a fresh-id map, replacing uses, and
// finding the entry function.
//
// Contract:
//  - Edits keep phis naming real predecessors: an edit that moves the end
//    of a block to a new label retargets the phis of the moved terminator's
//    successors. Nothing here checks validity beyond that; block order and
//    dominance are the caller's business.
//  - Fresh ids come from the caller's `fresh` function, called once per
//    defined id, in definition order (a function's id, its parameters, then
//    per block its label and the results of its instructions). The order is
//    part of the contract: transformation logs record the ids a
//    transformation took and replay them in the same order.
//  - Clones remap every use of an id defined inside the cloned code, and of
//    any id the caller put in the map beforehand (e.g. parameters to call
//    arguments); every other id is kept.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "spirv/module.h"

namespace l0spv::spirv {

using IdMap = absl::flat_hash_map<uint32_t, uint32_t>;
using FreshIdFn = std::function<uint32_t()>;

// Replaces label `from` with `to` as a parent in every OpPhi of `block`.
void RetargetPhis(BasicBlock& block, uint32_t from, uint32_t to);
// RetargetPhis(from, to) in every block of `function` that `block` branches
// to: for a terminator that moved from block `from` to block `to`. `block`
// may be one of the function's blocks.
void RetargetSuccessorPhis(Function& function, const BasicBlock& block,
                           uint32_t from, uint32_t to);

// Drops from every OpPhi of `block` the (value, parent) pairs whose parent
// satisfies `drop` (edges that no longer exist).
void RemovePhiEntries(BasicBlock& block,
                      absl::FunctionRef<bool(uint32_t parent)> drop);

// Splits function.blocks[block] before instruction `index`: [0, index)
// stays under the old label, [index, end) moves to a new block labelled
// `new_label` inserted right after it. The old block is left without a
// terminator (the caller appends one, usually OpBranch %new_label). The
// phis of the moved terminator's successors now name `new_label`.
// Requires block < blocks.size() and index <= its instruction count.
void SplitBlockBefore(Function& function, size_t block, size_t index,
                      uint32_t new_label);

// Maps every id the instructions define (their result ids) to a fresh id,
// in order. A result already in the map is given a new fresh id.
void MapFreshIds(std::span<const Instruction> instructions,
                 const FreshIdFn& fresh, IdMap& map);
// The same for blocks: per block, its label, then its results.
void MapFreshIds(std::span<const BasicBlock> blocks, const FreshIdFn& fresh,
                 IdMap& map);
// Rewrites, through `map`, every id `inst` uses (result type included) and
// its result id; ids not in the map stay.
void RemapIds(Instruction& inst, const IdMap& map);
void RemapIds(BasicBlock& block, const IdMap& map);  // label too

// Copies of `blocks` under fresh ids (MapFreshIds, then RemapIds); the new
// ids are added to `map`.
std::vector<BasicBlock> CloneBlocks(std::span<const BasicBlock> blocks,
                                    const FreshIdFn& fresh, IdMap& map);
// A copy of `function` with a fresh function id, fresh parameters and a
// cloned body; the new ids are added to `map`. Recursive calls of the
// function call the copy.
Function CloneFunction(const Function& function, const FreshIdFn& fresh,
                       IdMap& map);

// Rewrites every use of a key id in block instructions (not in labels,
// parameters or OpFunction, nor outside functions) to its mapped id.
void ReplaceUsesInBodies(Module& module, const IdMap& map);
// Rewrites every use of `from` anywhere in the module (every section and
// every function, result types included) to `to`; definitions stay.
void ReplaceAllUses(Module& module, uint32_t from, uint32_t to);
// The same for every key of `map` at once (one walk over the module).
void ReplaceAllUses(Module& module, const IdMap& map);

// The function of the Kernel entry point named `name`
// (Module::KernelEntryPointId), or nullptr / -1.
Function* FindEntryFunction(Module& module, std::string_view name);
const Function* FindEntryFunction(const Module& module, std::string_view name);
int32_t EntryFunctionIndex(const Module& module, std::string_view name);
// Whether any OpEntryPoint names function `function_id`.
bool IsEntryPoint(const Module& module, uint32_t function_id);

// Moves every decoration group to the front of the annotations: each
// OpDecorationGroup, the decorations of its id and the OpGroupDecorate /
// OpGroupMemberDecorate applying it, in their relative order (still valid:
// a group's own decorations stay before it, its uses after). SPIRV-LLVM-
// Translator's reader takes every OpDecorate before an OpDecorationGroup as
// a member of that group (known-consumer-bugs/llvm_spirv_group_byval); no
// other decoration then precedes a group.
void HoistDecorationGroups(Module& module);

}  // namespace l0spv::spirv
