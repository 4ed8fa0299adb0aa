// reducers/collapse_passes.h — reduction stages that make a kernel's shape
// simpler rather than shorter: vector computations become scalar ones and
// helper functions called once are inlined into their caller. spirv-reduce
// has neither for kernels (its inliner and structured passes assume Shader
// modules), and a driver engineer reads a scalar, single-function kernel
// fastest.
//
// Contract: each factory returns a Stage (stage.h); a step is kept only when
// the case stays interesting, so a bug that needs a vector or a call keeps
// it. Both stages strictly lower a finite measure (vector-typed body
// instructions; calls to functions called once), so a fixed point ends.
//  - fold-lane-accesses: OpCompositeExtract of one component of an
//    OpCompositeConstruct, OpCompositeInsert, OpVectorShuffle or composite
//    constant reads that component directly.
//  - vectors-to-scalars: an element-wise vector instruction whose result is
//    read only as lane k (OpCompositeExtract ... k) is computed on lane k of
//    its operands alone, with the component type as its result type; the
//    operands' lanes come from constants and constructs directly, otherwise
//    from a new extract — which makes the producing vector instruction the
//    next site, so whole vector chains collapse from their use upwards.
//  - inline-single-calls: an OpFunctionCall to a function called from
//    nowhere else is inlined (the transformation kind inline_call of
//    generators/transform, replayed as a one-record log); the callee is
//    then unused and goes in remove-functions.
#pragma once

#include <memory>

#include "reducers/stage.h"

namespace l0spv::reducers {

std::unique_ptr<Stage> MakeFoldLaneAccessesStage();
std::unique_ptr<Stage> MakeVectorsToScalarsStage();
std::unique_ptr<Stage> MakeInlineSingleCallsStage();

}  // namespace l0spv::reducers
