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

}  // namespace l0spv::transform
