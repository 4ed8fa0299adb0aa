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
  Execution RunInScratch(const spirv::TestCase& test_case,
                         const std::string& dir, const RunClock& clock,
                         const TargetRunLimits& limits) override {
    std::string log;
    if (auto failed =
            RunToolStage({program(), "-r", "module.spv", "-o", "module.bc"},
                         dir, clock, limits, absl::StrCat(tool(), " -r"),
                         test_case.module_words, &log)) {
      return *failed;
    }
    const std::string max_version = absl::StrCat(
        "--spirv-max-version=", SpirvVersionString(test_case.module_words));
    std::vector<std::string> forward = {program(), max_version};
    if (std::string ext = AllowedExtensions(test_case.module_words);
        !ext.empty())
      forward.push_back(ext);
    for (const char* arg : {"module.bc", "-o", "back.spv"})
      forward.emplace_back(arg);
    if (auto failed = RunToolStage(forward, dir, clock, limits,
                                   absl::StrCat(tool(), " (LLVM → SPIR-V)"),
                                   test_case.module_words, &log)) {
      return *failed;
    }
    return RunProducedModule(test_case, dir + "/back.spv",
                             absl::StrCat(tool(), " round trip"), log, clock,
                             limits);
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeLlvmSpirvTarget(
    const TargetOptions& options) {
  auto tool = ResolveTool("llvm-spirv", options);
  if (!tool.ok()) return tool.status();
  return std::make_unique<LlvmSpirvTarget>("llvm-spirv", /*executes=*/true,
                                           *std::move(tool), options);
}

}  // namespace l0spv::oracles
