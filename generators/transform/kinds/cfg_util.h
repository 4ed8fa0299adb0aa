// generators/transform/kinds/cfg_util.h — control-flow and function helpers
// shared by the control-flow / function transformation kinds.
//
// Contract: lookups return nullptr / nullopt / false when the thing is not
// there; edits keep phis naming real predecessors (callers still keep block
// order "after dominators").
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "generators/transform/context.h"
#include "generators/transform/transformation.h"

namespace l0spv::generators::transform {

// A block found by label: its function and block indices.
struct BlockRef {
  size_t function = 0;
  size_t block = 0;
};

// The block labelled `label` if it is reachable from its function's entry;
// FailedPrecondition naming the label otherwise.
absl::StatusOr<BlockRef> ReachableBlock(TransformContext& ctx, uint32_t label);

// Structured-control-flow queries of spirv/cfg.h, under the names the
// kinds use.
using spirv::HasLoopMerge;
using spirv::IsMergeOrContinueTarget;
using spirv::MergeInstruction;

// Whether any annotation (OpDecorate, OpMemberDecorate, group decorations)
// names `id` as its target or as a group member.
bool IsDecorated(const spirv::Module& m, uint32_t id);
// Whether `id` is used anywhere other than as the callee of OpFunctionCall
// and the target of OpName (functions whose signature we may change).
bool UsedOnlyAsCallee(const spirv::Module& m, uint32_t function_id,
                      bool ignore_annotations = false);
// Removes OpName / OpDecorate / OpMemberDecorate whose target is `id` (for
// ids a transformation deletes).
void RemoveNamesAndDecorations(spirv::Module& m, uint32_t id);

// spirv::SplitBlockBefore on block `ref` (B keeps [0, index) and is left
// without terminator; `new_label` gets the rest; successors' phis are
// retargeted), plus the facts: a dead block's tail is dead too.
void SplitBlockBefore(TransformContext& ctx, BlockRef ref, size_t index,
                      uint32_t new_label);

// A new block with just a label.
spirv::BasicBlock NewBlock(uint32_t label);
spirv::Instruction Branch(uint32_t target);

}  // namespace l0spv::generators::transform

namespace l0spv::generators::transform {

// Whether function `id` may execute a barrier or another work-group
// collective (directly or through calls): code that must stay where
// control flow is plainly uniform.
bool ReachesCollective(const spirv::Module& m, uint32_t function_id);
// Whether `from` is `target` or calls it, directly or through calls (a new
// call from `target` to `from` would make a recursion).
bool Reaches(const spirv::Module& m, uint32_t from, uint32_t target);
// Whether cutting block `bb` just before instruction `index` would separate
// an OpSampledImage from a use of it (SPIR-V requires both in one block).
bool SeparatesSampledImage(const spirv::BasicBlock& bb, size_t index);
// Whether a run [first, first + count) of block `ref` can be moved into new
// blocks: inside the ordinary-instruction range of a block that is no loop
// header, with no collective (barrier, group operation) and no
// OpSampledImage (whose uses must share its block), nor a run boundary
// between an OpSampledImage and a use.
absl::Status CheckRun(TransformContext& ctx, const BlockRef& ref, size_t first,
                      size_t count);
// Proposes a run in a random reachable block (function, block, first,
// count), or nullopt.
struct Run {
  BlockRef block;
  size_t first = 0, count = 0;
};
std::optional<Run> ProposeRun(TransformContext& ctx, Rng& rng,
                              size_t max_count);
// The run's record fields {"first": descriptor, "count": n} and back.
absl::StatusOr<Run> RunFromRecord(TransformContext& ctx, const Record& r);

}  // namespace l0spv::generators::transform
