#include "oracles/targets/spirv_link_adapter.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "oracles/targets/tool_adapter.h"

namespace l0spv::oracles {
namespace {

class SpirvLinkTarget : public ToolAdapter {
 public:
  SpirvLinkTarget(std::string name, ToolProgram tool,
                  const TargetOptions& options)
      : ToolAdapter(std::move(name), /*executes=*/true, std::move(tool),
                    options) {}

 protected:
  std::vector<Execution> RunInScratch(Launches launches, const std::string& dir,
                                      const RunClock& clock,
                                      const TargetRunLimits& limits) override {
    const spirv::TestCase& test_case = launches.front();
    // The newest input version: spirv-link reads every input in one
    // environment (its output takes the inputs' newest version anyway).
    const std::vector<uint32_t>* newest = &test_case.module_words;
    for (const auto& words : test_case.linked_modules)
      if (words.size() > 1 && newest->size() > 1 && words[1] > (*newest)[1])
        newest = &words;
    std::vector<std::string> argv = {
        program(), "--target-env",
        absl::StrCat("spv", SpirvVersionString(*newest)), "module.spv"};
    for (size_t i = 0; i < test_case.linked_modules.size(); ++i)
      argv.push_back(spirv::LinkedModuleFile(i));
    argv.insert(argv.end(), {"-o", "linked.spv"});
    std::string log;
    if (auto failed = RunToolStage(argv, dir, clock, limits, "spirv-link",
                                   test_case.module_words, &log)) {
      return ForEveryLaunch(*failed, launches.size());
    }
    return RunProducedModules(launches, {dir + "/linked.spv"}, "spirv-link",
                              log, clock, limits);
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeSpirvLinkTarget(
    const TargetName& name, const TargetOptions& options) {
  auto tool = ResolveTool(name.full, options);
  if (!tool.ok()) return tool.status();
  return std::make_unique<SpirvLinkTarget>(name.full, *std::move(tool),
                                           options);
}

}  // namespace l0spv::oracles
