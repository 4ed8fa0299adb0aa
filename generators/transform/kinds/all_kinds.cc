#include "generators/transform/kinds/kinds.h"

namespace l0spv::transform {

std::vector<const Transformation*> AllKinds() {
  std::vector<const Transformation*> all = IdentitySynonymKinds();
  for (const Transformation* t :
       {SwapCommutativeOperands(), ReplaceIdWithSynonym(), AddDeadBlock(),
        SplitBlock(), PermutePhiOperands()})
    all.push_back(t);
  // --- Data, memory and decoration kinds (kinds-data branch) ---
  for (const Transformation* t : {ObfuscateConstantLoad(),
                                  ObfuscateConstantCompute(),
                                  AddLocalVariable(),
                                  AddDeadStore(),
                                  AddIrrelevantLoad(),
                                  PhiToVariable(),
                                  MirrorComparison(),
                                  InvertComparison(),
                                  AddFpFastMathNone(),
                                  AddMemoryOperand(),
                                  AccessChainToPtrAccessChain(),
                                  VectorizeScalars(),
                                  ConstantToSpecConstant(),
                                  MoveInstruction(),
                                  LoadViaCopyMemory(),
                                  VariableToPhi(),
                                  PointerRoundTripViaInteger(),
                                  RoutePointerThroughGeneric(),
                                  ScalarizeVectorOp(),
                                  AddAlignmentDecoration()})
    all.push_back(t);
  // --- end of data, memory and decoration kinds ---
  // Control flow and functions.
  for (const Transformation* t : ControlFlowKinds()) all.push_back(t);
  return all;
}

// --- Control flow and functions ---
std::vector<const Transformation*> ControlFlowKinds() {
  std::vector<const Transformation*> out = ControlHintKinds();
  for (const Transformation* t :
       {InvertBranchConditionKind(), MergeBlocksKind(), ReorderBlocksKind(),
        SelectToBranchKind(), SplitSwitchKind(), PermuteSwitchCasesKind(),
        WrapRegionInLoopKind(), DuplicateRegionUnderOpaqueTrue(),
        AddParameterKind(), PermuteParametersKind(),
        AddFunctionCalledFromDeadCodeKind(), AddBarrierKind(), InlineCallKind(),
        OutlineRegionKind()})
    out.push_back(t);
  return out;
}
// --- end control flow and functions ---

}  // namespace l0spv::transform
