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
  return all;
}

}  // namespace l0spv::transform
