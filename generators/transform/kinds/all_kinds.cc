#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {

std::vector<const Transformation*> AllKinds() {
  std::vector<const Transformation*> all = {
      // Control flow.
      AddDeadBlock(),
      SplitBlock(),
      MergeBlocks(),
      ReorderBlocks(),
      InvertBranchCondition(),
      SelectToBranch(),
      SplitSwitch(),
      PermuteSwitchCases(),
      PermutePhiOperands(),
      WrapRegionInLoop(),
      DuplicateRegionUnderOpaqueTrue(),
      // Functions.
      AddParameter(),
      PermuteParameters(),
      ExportFunction(),
      RenameExportToKernel(),
      AddFunctionCalledFromDeadCode(),
      InlineCall(),
      OutlineRegion(),
      // Data flow (and IdentitySynonymKinds() below).
      ReplaceIdWithSynonym(),
      SwapCommutativeOperands(),
      MirrorComparison(),
      InvertComparison(),
      ObfuscateConstantLoad(),
      ObfuscateConstantCompute(),
      ConstantToSpecConstant(),
      VectorizeScalars(),
      ScalarizeVectorOp(),
      MoveInstruction(),
      // Memory.
      AddLocalVariable(),
      AddDeadStore(),
      AddIrrelevantLoad(),
      AddBuiltinAccessChain(),
      AddCompositeSelfCopy(),
      PhiToVariable(),
      VariableToPhi(),
      LoadViaCopyMemory(),
      AccessChainToPtrAccessChain(),
      PointerRoundTripViaInteger(),
      RoutePointerThroughGeneric(),
      AddMemoryOperand(),
      AddBarrier(),
      // Decorations and hints (and ControlHintKinds() below).
      AddFpFastMathNone(),
      AddAlignmentDecoration(),
  };
  for (const std::vector<const Transformation*>& family :
       {IdentitySynonymKinds(), ControlHintKinds()})
    all.insert(all.end(), family.begin(), family.end());
  return all;
}

}  // namespace l0spv::generators::transform
