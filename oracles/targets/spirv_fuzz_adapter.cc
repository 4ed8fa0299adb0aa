#include "oracles/targets/spirv_fuzz_adapter.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "oracles/targets/adapter_util.h"
#include "oracles/targets/consumer_probe.h"
#include "oracles/targets/scratch_dir.h"
#include "oracles/targets/tool_adapter.h"
#include "spirv/binary.h"
#include "spirv/file_io.h"
#include "spirv/kernel_fixup.h"

namespace l0spv::oracles {
namespace {

class SpirvFuzzTarget : public ToolAdapter {
 public:
  SpirvFuzzTarget(std::string name, SpirvFuzzTargetParam param,
                  ToolProgram tool, const TargetOptions& options)
      : ToolAdapter(std::move(name), /*executes=*/true, std::move(tool),
                    options),
        param_(param),
        who_(absl::StrCat("spirv-fuzz --seed=", param.seed,
                          param.kernel_fixup ? " (+ Kernel fix-up)" : "")) {}

 protected:
  std::vector<Execution> RunInScratch(Launches launches, const std::string& dir,
                                      const RunClock& clock,
                                      const TargetRunLimits& limits) override {
    const spirv::TestCase& test_case = launches.front();
    std::string log;
    std::vector<std::vector<uint32_t>> outputs;
    for (size_t i = 0; i < NumModules(test_case); ++i) {
      const std::string sub = absl::StrCat(dir, "/fuzz-", i);
      std::error_code ec;
      std::filesystem::create_directory(sub, ec);
      auto run = RunSpirvFuzz(program(), ModuleWords(test_case, i), param_.seed,
                              sub, clock.Limits(limits));
      if (!run.ok())
        return ForEveryLaunch(HarnessFailure(run.status().message()),
                              launches.size());
      const ChildResult& child = run->child;
      const std::string output =
          absl::StrCat(child.stderr_text, child.stdout_text);
      if (!output.empty())
        absl::StrAppend(&log, "[", who_, "]\n", LastLines(output, 100));
      if (child.ending != ChildResult::Ending::kExited) {
        Execution e = AbnormalEnding(child, "spirv-fuzz");
        e.log = log;
        return ForEveryLaunch(e, launches.size());
      }
      if (child.exit_code != 0 || run->words.empty()) {
        return ForEveryLaunch(
            FailedExecution(
                ExecutionStatus::kBuildFailed,
                absl::StrCat(
                    child.exit_code != 0
                        ? "spirv-fuzz rejected a valid module: "
                        : "spirv-fuzz exited 0 but wrote no usable module: ",
                    NormalizedFirstError(output, sub)),
                log),
            launches.size());
      }
      std::vector<uint32_t> words = std::move(run->words);
      if (param_.kernel_fixup) {
        auto module = spirv::ReadModuleWords(words);
        absl::StatusOr<spirv::KernelFixups> fixed =
            module.ok() ? spirv::FixUpKernelModule(*module)
                        : absl::StatusOr<spirv::KernelFixups>(module.status());
        if (!fixed.ok()) {
          return ForEveryLaunch(
              FailedExecution(ExecutionStatus::kUnsupported,
                              absl::StrCat("the Kernel fix-up cannot take "
                                           "spirv-fuzz's output: ",
                                           fixed.status().message()),
                              log),
              launches.size());
        }
        words = spirv::EncodeModule(*module);
      }
      outputs.push_back(std::move(words));
    }
    return RunOutputOnReference(launches, std::move(outputs), who_, log,
                                options().reference, clock, limits);
  }

 private:
  SpirvFuzzTargetParam param_;
  std::string who_;
};

}  // namespace

absl::StatusOr<SpirvFuzzRun> RunSpirvFuzz(const std::string& program,
                                          std::span<const uint32_t> words,
                                          uint64_t seed, const std::string& dir,
                                          const ChildLimits& limits) {
  if (auto s = WriteModule(dir + "/in.spv",
                           std::vector<uint32_t>(words.begin(), words.end()));
      !s.ok())
    return s;
  if (auto s = spirv::WriteTextFile(dir + "/donors.txt", ""); !s.ok()) return s;
  auto child =
      RunCommand({program, "in.spv", "-o", "out.spv",
                  absl::StrCat("--seed=", seed), "--donors=donors.txt"},
                 limits, dir);
  if (!child.ok()) return child.status();
  SpirvFuzzRun run;
  run.child = *std::move(child);
  if (!run.child.Succeeded()) return run;
  if (auto out = ReadModule(dir + "/out.spv"); out.ok())
    run.words = *std::move(out);
  if (auto t = spirv::ReadTextFile(dir + "/out.transformations"); t.ok())
    run.transformations = *std::move(t);
  if (auto j = spirv::ReadTextFile(dir + "/out.transformations_json"); j.ok())
    run.transformations_json = *std::move(j);
  return run;
}

absl::StatusOr<SpirvFuzzTargetParam> ParseSpirvFuzzParam(
    const std::string& param) {
  SpirvFuzzTargetParam p;
  if (param.empty()) return p;
  // '+', not ',': a comma separates targets in --target lists.
  std::vector<std::string> words = absl::StrSplit(param, '+');
  bool seeded = false;
  for (const std::string& w : words) {
    if (w == "fixup") {
      p.kernel_fixup = true;
    } else if (!seeded && absl::SimpleAtoi(w, &p.seed)) {
      seeded = true;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("spirv-fuzz:", param,
                       ": expected spirv-fuzz:SEED or "
                       "spirv-fuzz:SEED+fixup (SEED a decimal number), got '",
                       w, "'"));
    }
  }
  return p;
}

absl::StatusOr<std::unique_ptr<Target>> MakeSpirvFuzzTarget(
    const std::string& param, const TargetOptions& options) {
  auto parsed = ParseSpirvFuzzParam(param);
  if (!parsed.ok()) return parsed.status();
  const std::string name =
      param.empty() ? "spirv-fuzz" : absl::StrCat("spirv-fuzz:", param);
  auto tool = ResolveTool(name, options);
  if (!tool.ok()) return tool.status();
  return std::make_unique<SpirvFuzzTarget>(name, *parsed, *std::move(tool),
                                           options);
}

}  // namespace l0spv::oracles
