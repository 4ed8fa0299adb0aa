// generators/kernel/statements.h — the statement dispatcher and the
// control-flow statements (if/else, bounded loops, switch, calls).
//
// Contract (internal): GenStatements emits `count` statements into the
// current block of ctx.fn, choosing families by the case's swarm weights
// and respecting where each family may appear (kernel-only families,
// uniform-control-flow-only families, nesting depth). Control-flow regions
// are structured (selection/loop merges declared), reducible, and leave the
// pool holding only values whose definitions dominate the current point;
// values flowing out of a region go through OpPhi.
#pragma once

#include "generators/kernel/context.h"

namespace l0spv::generators::kernel {

void GenStatements(GenContext& ctx, uint32_t count);

bool GenIf(GenContext& ctx);
bool GenLoop(GenContext& ctx);
bool GenSwitch(GenContext& ctx);
bool GenCall(GenContext& ctx);

// Emits the helper functions the case asks for (before the kernel).
void BuildHelperFunctions(GenContext& ctx);

}  // namespace l0spv::generators::kernel
