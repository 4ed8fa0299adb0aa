#include "reducers/merge_modules.h"

#include <optional>
#include <vector>

#include "spirv/binary.h"
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
    // Two modules of three or more into one (a partial link: what neither
    // defines stays imported), until no pair merges.
    for (bool merged_pair = true; merged_pair && !ctx.Expired();) {
      merged_pair = false;
      const size_t n = 1 + ctx.current().linked_modules.size();
      for (size_t a = 0; a < n && !merged_pair && n > 2; ++a) {
        for (size_t b = a + 1; b < n && !merged_pair; ++b) {
          if (ctx.Expired()) break;
          auto fewer = MergePair(ctx.current(), a, b);
          if (fewer && ctx.Try(*fewer)) merged_pair = changed = true;
        }
      }
    }
    return changed;
  }

 private:
  // The case with modules a < b (0: module.spv) partially linked into a.
  static std::optional<spirv::TestCase> MergePair(const spirv::TestCase& tc,
                                                  size_t a, size_t b) {
    const auto words = [&](size_t i) -> const std::vector<uint32_t>& {
      return i == 0 ? tc.module_words : tc.linked_modules[i - 1];
    };
    auto ma = spirv::ReadModuleWords(words(a));
    auto mb = spirv::ReadModuleWords(words(b));
    if (!ma.ok() || !mb.ok()) return std::nullopt;
    const spirv::LinkInput inputs[] = {{"a", &*ma}, {"b", &*mb}};
    auto merged = spirv::LinkModules(inputs, {.partial = true});
    if (!merged.ok()) return std::nullopt;
    spirv::TestCase out = tc;
    (a == 0 ? out.module_words : out.linked_modules[a - 1]) =
        spirv::EncodeModule(*merged);
    out.linked_modules.erase(out.linked_modules.begin() + (b - 1));
    if (!spirv::LinkTestCase(out).ok()) return std::nullopt;
    return out;
  }
};

}  // namespace

std::unique_ptr<Stage> MakeMergeModulesStage() {
  return std::make_unique<MergeModulesStage>();
}

}  // namespace l0spv::reducers
