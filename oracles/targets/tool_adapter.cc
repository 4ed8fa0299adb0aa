#include "oracles/targets/tool_adapter.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/target_registry.h"
#include "spirv/kernel_batch.h"

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
      scratch_prefix_(absl::StrCat(
          "l0spv-", name.substr(0, name.find_first_of(":@")), "-")) {}

Execution ToolAdapter::Run(const spirv::TestCase& test_case,
                           const TargetRunLimits& limits) {
  return RunBatch(std::span<const spirv::TestCase>(&test_case, 1), limits)
      .front();
}

std::vector<Execution> ToolAdapter::RunBatch(Launches launches,
                                             const TargetRunLimits& limits) {
  if (launches.empty()) return {};
  if (!spirv::SharesOneModule(launches))
    return Target::RunBatch(launches, limits);
  const spirv::TestCase& test_case = launches.front();
  const RunClock clock(limits.wall_time);
  auto dir = ScratchDir::Make(options().scratch_dir, scratch_prefix_);
  if (!dir.ok())
    return ForEveryLaunch(HarnessFailure(dir.status().message()),
                          launches.size());
  if (auto s = WriteModule(dir->path() + "/module.spv", test_case.module_words);
      !s.ok()) {
    return ForEveryLaunch(HarnessFailure(s.message()), launches.size());
  }
  for (size_t i = 1; i < NumModules(test_case); ++i) {
    if (auto s = WriteModule(dir->path() + "/" + ModuleFile(i),
                             ModuleWords(test_case, i));
        !s.ok())
      return ForEveryLaunch(HarnessFailure(s.message()), launches.size());
  }
  return RunInScratch(launches, dir->path(), clock, limits);
}

std::string ToolAdapter::ModuleFile(size_t i) {
  return i == 0 ? "module.spv" : spirv::LinkedModuleFile(i - 1);
}

const std::vector<uint32_t>& ToolAdapter::ModuleWords(
    const spirv::TestCase& test_case, size_t i) {
  return i == 0 ? test_case.module_words : test_case.linked_modules[i - 1];
}

std::vector<Execution> ToolAdapter::RunProducedModules(
    Launches launches, const std::vector<std::string>& output_paths,
    const std::string& who, const std::string& log, const RunClock& clock,
    const TargetRunLimits& limits) const {
  std::vector<std::vector<uint32_t>> outputs;
  for (const std::string& path : output_paths) {
    auto words = ReadModule(path);
    if (!words.ok()) {
      return ForEveryLaunch(
          FailedExecution(
              ExecutionStatus::kBuildFailed,
              absl::StrCat(who, " exited 0 but wrote no usable module: ",
                           words.status().message()),
              log),
          launches.size());
    }
    outputs.push_back(*std::move(words));
  }
  return RunOutputOnReference(launches, std::move(outputs), who, log,
                              options().reference, clock, limits);
}

}  // namespace l0spv::oracles
