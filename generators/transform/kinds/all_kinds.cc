#include "generators/transform/kinds/kinds.h"

namespace l0spv::transform {

std::vector<const Transformation*> AllKinds() {
  std::vector<const Transformation*> all = IdentitySynonymKinds();
  for (const Transformation* t :
       {SwapCommutativeOperands(), ReplaceIdWithSynonym(), AddDeadBlock(),
        SplitBlock(), PermutePhiOperands()})
    all.push_back(t);
  return all;
}

}  // namespace l0spv::transform
