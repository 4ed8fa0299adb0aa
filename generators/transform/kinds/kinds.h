// generators/transform/kinds/kinds.h — constructors of every transformation
// kind (one responsibility per file under kinds/).
#pragma once

#include <vector>

#include "generators/transform/transformation.h"

namespace l0spv::transform {

// Every kind; the registry sorts them by name.
std::vector<const Transformation*> AllKinds();

// kinds/identity_synonyms.cc: x op identity → a synonym of x (one kind per
// identity).
std::vector<const Transformation*> IdentitySynonymKinds();
const Transformation* SwapCommutativeOperands();
const Transformation* ReplaceIdWithSynonym();
const Transformation* AddDeadBlock();
const Transformation* SplitBlock();
const Transformation* PermutePhiOperands();

// --- Data, memory and decoration kinds (kinds-data branch) ---
const Transformation* ObfuscateConstantLoad();
const Transformation* ObfuscateConstantCompute();
const Transformation* AddLocalVariable();
const Transformation* AddDeadStore();
const Transformation* AddIrrelevantLoad();
const Transformation* PhiToVariable();
const Transformation* MirrorComparison();
const Transformation* InvertComparison();
const Transformation* AddFpFastMathNone();
const Transformation* AddMemoryOperand();
const Transformation* AccessChainToPtrAccessChain();
const Transformation* VectorizeScalars();
const Transformation* ConstantToSpecConstant();
const Transformation* MoveInstruction();
const Transformation* LoadViaCopyMemory();
const Transformation* VariableToPhi();
const Transformation* PointerRoundTripViaInteger();
const Transformation* RoutePointerThroughGeneric();
const Transformation* ScalarizeVectorOp();
const Transformation* AddAlignmentDecoration();
// --- end of data, memory and decoration kinds ---
// --- Control flow and functions (one file each; cfg_util.h helpers) ---
const Transformation* InvertBranchConditionKind();
const Transformation* MergeBlocksKind();
const Transformation* ReorderBlocksKind();
const Transformation* SelectToBranchKind();
const Transformation* SplitSwitchKind();
const Transformation* PermuteSwitchCasesKind();
const Transformation* WrapRegionInLoopKind();
const Transformation* DuplicateRegionUnderOpaqueTrue();
const Transformation* AddParameterKind();
const Transformation* PermuteParametersKind();
const Transformation* AddFunctionCalledFromDeadCodeKind();
const Transformation* AddBarrierKind();
const Transformation* InlineCallKind();
const Transformation* OutlineRegionKind();
// kinds/control_hints.cc: toggle_selection_control, toggle_loop_control,
// change_function_control.
std::vector<const Transformation*> ControlHintKinds();
// Every control-flow / function kind above.
std::vector<const Transformation*> ControlFlowKinds();
// --- end control flow and functions ---

}  // namespace l0spv::transform
