#include "reducers/merge_modules.h"

#include "spirv/link.h"

namespace l0spv::reducers {
namespace {

class MergeModulesStage : public Stage {
 public:
  std::string name() const override { return "merge-modules"; }

  bool Run(ReductionContext& ctx) override {
    if (ctx.current().linked_modules.empty()) return false;
    auto merged = spirv::LinkTestCase(ctx.current());
    if (merged.ok() && ctx.Try(*merged)) return true;
    bool changed = false;
    for (size_t i = ctx.current().linked_modules.size(); i-- > 0;) {
      if (ctx.Expired()) break;
      spirv::TestCase fewer = ctx.current();
      fewer.linked_modules.erase(fewer.linked_modules.begin() + i);
      if (spirv::LinkTestCase(fewer).ok() && ctx.Try(fewer)) changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Stage> MakeMergeModulesStage() {
  return std::make_unique<MergeModulesStage>();
}

}  // namespace l0spv::reducers
