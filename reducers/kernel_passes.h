// reducers/kernel_passes.h — kernel-level reduction stages that spirv-reduce
// lacks for OpenCL-style kernels: they shrink the launch and the arguments
// as well as the module.
//
// Contract: each factory returns a Stage (stage.h) that keeps a step only
// when the case stays interesting. Steps over many sites (instructions,
// constants, blocks) are tried in chunks that halve down to single sites
// (delta debugging), so a stage costs O(k log n) interestingness runs for
// k kept steps out of n sites.
//  - nd-range: global size to 1 per dimension, then halving; offset to 0;
//    fewer dimensions; local size kept a divisor of the global size.
//  - buffers: buffer, local and by-value argument bytes zeroed, buffers
//    halved.
//  - ext-inst-to-constant: results of OpenCL.std calls replaced by null
//    constants.
//  - value-to-constant: the same for every scalar/vector value in a body.
//  - remove-statements: stores, calls, atomics, barriers and copies removed.
//  - remove-unused: body instructions whose result nobody reads (and whose
//    only effect is that result), then unused module-scope declarations.
//    The other passes leave dead code for this one, so a crash that needs
//    an unread instruction keeps it.
//  - remove-functions: functions nobody calls (entry points stay).
//  - simplify-branches: a conditional branch or switch becomes an
//    unconditional branch to one of its targets; unreachable blocks go.
//  - shrink-constants: scalar constants toward 0, 1, then halved.
//  - drop-unused-args: kernel parameters nobody reads are removed from the
//    entry point and from the case (tolerances renumbered).
#pragma once

#include <memory>

#include "reducers/stage.h"

namespace l0spv::reducers {

std::unique_ptr<Stage> MakeNdRangeStage();
std::unique_ptr<Stage> MakeBufferStage();
std::unique_ptr<Stage> MakeExtInstToConstantStage();
std::unique_ptr<Stage> MakeValueToConstantStage();
std::unique_ptr<Stage> MakeRemoveStatementsStage();
std::unique_ptr<Stage> MakeRemoveUnusedStage();
std::unique_ptr<Stage> MakeRemoveFunctionsStage();
std::unique_ptr<Stage> MakeSimplifyBranchesStage();
std::unique_ptr<Stage> MakeShrinkConstantsStage();
std::unique_ptr<Stage> MakeDropUnusedArgsStage();

}  // namespace l0spv::reducers
