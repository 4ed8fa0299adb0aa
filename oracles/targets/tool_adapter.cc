#include "oracles/targets/tool_adapter.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/target_registry.h"

namespace l0spv::oracles {

absl::StatusOr<ToolProgram> ResolveTool(const std::string& target_name,
                                        const TargetOptions& options) {
  if (!options.program.empty()) {
    // A stand-in (a custom build, a fault-injection script) is taken as it
    // is: the registry's checks (ocloc's device list) are for the real tool.
    auto found = FindProgram(options.program);
    if (!found) {
      return absl::FailedPreconditionError(absl::StrCat(
          options.program, " is not an executable program (check the path)"));
    }
    return ToolProgram{*found, *found};
  }
  auto info = DescribeTarget(target_name);
  if (!info.ok()) return info.status();
  if (!info->available) return UnavailableStatus(*info);
  return ToolProgram{info->program, info->consumer};
}

Execution AdapterBase::HarnessFailure(absl::string_view what) {
  return FailedExecution(ExecutionStatus::kUnsupported,
                         absl::StrCat("harness: ", what));
}

ToolAdapter::ToolAdapter(std::string name, bool executes, ToolProgram tool,
                         const TargetOptions& options)
    : AdapterBase(name, executes, std::move(tool.consumer), options),
      program_(std::move(tool.path)),
      tool_(std::filesystem::path(program_).filename().string()),
      scratch_prefix_(
          absl::StrCat("l0spv-", name.substr(0, name.find(':')), "-")) {}

Execution ToolAdapter::Run(const spirv::TestCase& test_case,
                           const TargetRunLimits& limits) {
  const RunClock clock(limits.wall_time);
  auto dir = ScratchDir::Make(options().scratch_dir, scratch_prefix_);
  if (!dir.ok()) return HarnessFailure(dir.status().message());
  if (auto s = WriteModule(dir->path() + "/module.spv", test_case.module_words);
      !s.ok()) {
    return HarnessFailure(s.message());
  }
  for (size_t i = 0; i < test_case.linked_modules.size(); ++i) {
    if (auto s = WriteModule(dir->path() + "/" + spirv::LinkedModuleFile(i),
                             test_case.linked_modules[i]);
        !s.ok())
      return HarnessFailure(s.message());
  }
  return RunInScratch(test_case, dir->path(), clock, limits);
}

Execution ToolAdapter::RunProducedModule(const spirv::TestCase& test_case,
                                         const std::string& output_path,
                                         const std::string& who,
                                         const std::string& log,
                                         const RunClock& clock,
                                         const TargetRunLimits& limits) const {
  auto words = ReadModule(output_path);
  if (!words.ok()) {
    return FailedExecution(
        ExecutionStatus::kBuildFailed,
        absl::StrCat(who, " exited 0 but wrote no usable module: ",
                     words.status().message()),
        log);
  }
  return RunOutputOnReference(test_case, *std::move(words), who, log,
                              options().reference, clock.Limits(limits));
}

}  // namespace l0spv::oracles
