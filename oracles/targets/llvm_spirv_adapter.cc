#include "oracles/targets/llvm_spirv_adapter.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracles/targets/adapter_util.h"
#include "oracles/targets/target_registry.h"
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

class LlvmSpirvTarget : public Target {
 public:
  LlvmSpirvTarget(std::string program, std::string consumer,
                  const TargetOptions& options)
      : program_(std::move(program)),
        consumer_(std::move(consumer)),
        tool_(std::filesystem::path(program_).filename().string()),
        options_(options) {}

  const std::string& name() const override { return name_; }
  bool executes() const override { return true; }
  const std::string& consumer() const override { return consumer_; }

  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) override {
    const RunClock clock(limits.wall_time);
    auto dir = ScratchDir::Make(options_.scratch_dir, "l0spv-llvm-spirv-");
    if (!dir.ok()) {
      return FailedExecution(ExecutionStatus::kUnsupported,
                             absl::StrCat("harness: ", dir.status().message()));
    }
    if (auto s =
            WriteModule(dir->path() + "/module.spv", test_case.module_words);
        !s.ok()) {
      return FailedExecution(ExecutionStatus::kUnsupported,
                             absl::StrCat("harness: ", s.message()));
    }
    std::string log;
    if (auto failed =
            RunToolStage({program_, "-r", "module.spv", "-o", "module.bc"},
                         dir->path(), clock, limits, absl::StrCat(tool_, " -r"),
                         test_case.module_words, &log)) {
      return *failed;
    }
    const std::string max_version = absl::StrCat(
        "--spirv-max-version=", SpirvVersionString(test_case.module_words));
    std::vector<std::string> forward = {program_, max_version};
    if (std::string ext = AllowedExtensions(test_case.module_words);
        !ext.empty())
      forward.push_back(ext);
    for (const char* arg : {"module.bc", "-o", "back.spv"})
      forward.emplace_back(arg);
    if (auto failed = RunToolStage(forward, dir->path(), clock, limits,
                                   absl::StrCat(tool_, " (LLVM → SPIR-V)"),
                                   test_case.module_words, &log)) {
      return *failed;
    }
    const std::string who = absl::StrCat(tool_, " round trip");
    auto words = ReadModule(dir->path() + "/back.spv");
    if (!words.ok()) {
      return FailedExecution(
          ExecutionStatus::kBuildFailed,
          absl::StrCat(who, " exited 0 but wrote no usable module: ",
                       words.status().message()),
          log);
    }
    return RunOutputOnReference(test_case, *std::move(words), who, log,
                                options_.reference, clock.Limits(limits));
  }

 private:
  std::string name_ = "llvm-spirv";
  std::string program_, consumer_, tool_;
  TargetOptions options_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeLlvmSpirvTarget(
    const TargetOptions& options) {
  std::string program, consumer;
  if (!options.program.empty()) {
    auto resolved = ResolveProgram(options.program, {}, "");
    if (!resolved.ok()) return resolved.status();
    program = consumer = *resolved;
  } else {
    auto info = DescribeTarget("llvm-spirv");
    if (!info.ok()) return info.status();
    if (!info->available) return UnavailableStatus(*info);
    auto resolved = ResolveProgram(
        "", {"llvm-spirv-14", "llvm-spirv-15", "llvm-spirv"}, "");
    if (!resolved.ok()) return resolved.status();
    program = *resolved;
    consumer = info->consumer;
  }
  return std::unique_ptr<Target>(
      new LlvmSpirvTarget(program, consumer, options));
}

}  // namespace l0spv::oracles
