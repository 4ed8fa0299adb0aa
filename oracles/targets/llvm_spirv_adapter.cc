#include "oracles/targets/llvm_spirv_adapter.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracles/targets/tool_adapter.h"
#include "spirv/binary.h"

namespace l0spv::oracles {
namespace {

// The translator emits an extension's instructions only when told it may
// (--spirv-ext): whatever the input module declared, the round trip may use.
std::string AllowedExtensions(const std::vector<uint32_t>& words) {
  auto m = spirv::ReadModuleWords(words);
  if (!m.ok()) return "";
  std::vector<std::string> names;
  for (const spirv::Instruction& e : m->extensions)
    if (e.NumOperands() > 0) names.push_back("+" + e.operand(0).AsString());
  return names.empty()
             ? ""
             : absl::StrCat("--spirv-ext=", absl::StrJoin(names, ","));
}

class LlvmSpirvTarget : public ToolAdapter {
 public:
  using ToolAdapter::ToolAdapter;

 protected:
  // Each module of the case makes the round trip on its own (a library
  // module, with Import/Export, as much as the kernel's); the reference links
  // what comes back.
  std::vector<Execution> RunInScratch(Launches launches, const std::string& dir,
                                      const RunClock& clock,
                                      const TargetRunLimits& limits) override {
    const spirv::TestCase& test_case = launches.front();
    std::string log;
    std::vector<std::string> outputs;
    for (size_t i = 0; i < NumModules(test_case); ++i) {
      const std::vector<uint32_t>& words = ModuleWords(test_case, i);
      const std::string in = ModuleFile(i);
      const std::string stem = in.substr(0, in.size() - 4);  // no ".spv"
      const std::string on = NumModules(test_case) > 1
                                 ? absl::StrCat(" (", in, ")")
                                 : std::string();
      if (auto failed = RunToolStage(
              {program(), "-r", in, "-o", stem + ".bc"}, dir, clock, limits,
              absl::StrCat(tool(), " -r", on), words, &log)) {
        return ForEveryLaunch(*failed, launches.size());
      }
      const std::string max_version =
          absl::StrCat("--spirv-max-version=", SpirvVersionString(words));
      std::vector<std::string> forward = {program(), max_version};
      if (std::string ext = AllowedExtensions(words); !ext.empty())
        forward.push_back(ext);
      forward.insert(forward.end(),
                     {stem + ".bc", "-o", absl::StrCat("back-", in)});
      if (auto failed = RunToolStage(
              forward, dir, clock, limits,
              absl::StrCat(tool(), " (LLVM → SPIR-V)", on), words, &log)) {
        return ForEveryLaunch(*failed, launches.size());
      }
      outputs.push_back(absl::StrCat(dir, "/back-", in));
    }
    return RunProducedModules(launches, outputs,
                              absl::StrCat(tool(), " round trip"), log, clock,
                              limits);
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeLlvmSpirvTarget(
    const TargetName& name, const TargetOptions& options) {
  auto tool = ResolveTool(name.full, options);
  if (!tool.ok()) return tool.status();
  return std::make_unique<LlvmSpirvTarget>(name.full, /*executes=*/true,
                                           *std::move(tool), options);
}

}  // namespace l0spv::oracles
