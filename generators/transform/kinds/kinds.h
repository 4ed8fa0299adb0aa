// generators/transform/kinds/kinds.h — the factories of every
// transformation kind, grouped by what the kinds do.
//
// Contract:
//  - One kind per file: the kind whose JSON name is `split_block` lives in
//    kinds/split_block.cc, its factory is SplitBlock() and its class
//    SplitBlockKind. A file holding a family of kinds (identity synonyms,
//    control hints) has one `...Kinds()` factory returning all of them.
//  - Every factory returns the same process-lifetime object(s) on every
//    call; AllKinds() holds each of them exactly once (the registry sorts
//    them by name, so the order here means nothing).
#pragma once

#include <vector>

#include "generators/transform/transformation.h"

namespace l0spv::generators::transform {

// Every kind below.
std::vector<const Transformation*> AllKinds();

// --- Control flow: blocks, branches, switches, regions ---
const Transformation* AddDeadBlock();
const Transformation* SplitBlock();
const Transformation* MergeBlocks();
const Transformation* ReorderBlocks();
const Transformation* InvertBranchCondition();
const Transformation* SelectToBranch();
const Transformation* SplitSwitch();
const Transformation* PermuteSwitchCases();
const Transformation* PermutePhiOperands();
const Transformation* WrapRegionInLoop();
const Transformation* DuplicateRegionUnderOpaqueTrue();

// --- Functions: parameters, calls, inlining, outlining ---
const Transformation* AddParameter();
const Transformation* PermuteParameters();
const Transformation* ExportFunction();
const Transformation* RenameExportToKernel();
const Transformation* AddFunctionCalledFromDeadCode();
const Transformation* InlineCall();
const Transformation* OutlineRegion();

// --- Data flow: synonyms, constants, comparisons, vectors ---
// kinds/identity_synonyms.cc: x op identity → a synonym of x, one kind per
// identity (add_synonym_iadd_zero, add_synonym_copy_object, ...).
std::vector<const Transformation*> IdentitySynonymKinds();
const Transformation* ReplaceIdWithSynonym();
const Transformation* SwapCommutativeOperands();
const Transformation* MirrorComparison();
const Transformation* InvertComparison();
const Transformation* ObfuscateConstantLoad();
const Transformation* ObfuscateConstantCompute();
const Transformation* ConstantToSpecConstant();
const Transformation* VectorizeScalars();
const Transformation* ScalarizeVectorOp();
const Transformation* MoveInstruction();

// --- Memory: variables, loads and stores, pointers, barriers ---
const Transformation* AddLocalVariable();
const Transformation* AddDeadStore();
const Transformation* AddIrrelevantLoad();
const Transformation* AddBuiltinAccessChain();
const Transformation* AddCompositeSelfCopy();
const Transformation* PhiToVariable();
const Transformation* VariableToPhi();
const Transformation* LoadViaCopyMemory();
const Transformation* AccessChainToPtrAccessChain();
const Transformation* PointerRoundTripViaInteger();
const Transformation* RoutePointerThroughGeneric();
const Transformation* AddMemoryOperand();
const Transformation* AddBarrier();

// --- Decorations and hints: no effect on results by definition ---
const Transformation* AddFpFastMathNone();
const Transformation* AddAlignmentDecoration();
// kinds/control_hints.cc: toggle_selection_control, toggle_loop_control,
// change_function_control.
std::vector<const Transformation*> ControlHintKinds();

}  // namespace l0spv::generators::transform
