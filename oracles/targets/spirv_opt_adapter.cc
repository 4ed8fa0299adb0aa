#include "oracles/targets/spirv_opt_adapter.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oracles/targets/adapter_util.h"
#include "oracles/targets/target_registry.h"
#include "spirv-tools/optimizer.hpp"

namespace l0spv::oracles {
std::vector<std::string> SpirvOptPassFlags(const std::string& passes) {
  std::vector<std::string> flags;
  for (absl::string_view word :
       absl::StrSplit(passes, absl::ByAnyChar(", \t"), absl::SkipEmpty())) {
    flags.push_back(absl::StartsWith(word, "-") ? std::string(word)
                                                : absl::StrCat("--", word));
  }
  if (flags.empty()) flags.push_back("-O");
  return flags;
}

namespace {

// Whether the optimizer library knows every flag; the message of the first
// one it does not know otherwise.
absl::Status CheckFlags(const std::vector<std::string>& flags) {
  for (const std::string& flag : flags) {
    spvtools::Optimizer optimizer(SPV_ENV_UNIVERSAL_1_2);
    std::string diagnostic;
    optimizer.SetMessageConsumer([&diagnostic](spv_message_level_t, const char*,
                                               const spv_position_t&,
                                               const char* text) {
      if (diagnostic.empty()) diagnostic = text;
    });
    if (!optimizer.RegisterPassFromFlag(flag)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "spirv-opt: unknown pass flag '", flag, "'",
          diagnostic.empty() ? "" : absl::StrCat(" (", diagnostic, ")"),
          "; `spirv-opt --help` lists the passes; write them without the "
          "leading dashes, e.g. spirv-opt:ccp,simplify-instructions or "
          "spirv-opt:-O"));
    }
  }
  return absl::OkStatus();
}

class SpirvOptTarget : public Target {
 public:
  SpirvOptTarget(std::string name, std::vector<std::string> flags,
                 std::string program, std::string consumer,
                 const TargetOptions& options)
      : name_(std::move(name)),
        flags_(std::move(flags)),
        program_(std::move(program)),
        consumer_(std::move(consumer)),
        who_(absl::StrCat("spirv-opt ", absl::StrJoin(flags_, " "))),
        options_(options) {}

  const std::string& name() const override { return name_; }
  bool executes() const override { return true; }
  const std::string& consumer() const override { return consumer_; }

  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) override {
    const RunClock clock(limits.wall_time);
    auto dir = ScratchDir::Make(options_.scratch_dir, "l0spv-spirv-opt-");
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
    std::vector<std::string> argv = {
        program_, absl::StrCat("--target-env=spv",
                               SpirvVersionString(test_case.module_words))};
    argv.insert(argv.end(), flags_.begin(), flags_.end());
    argv.insert(argv.end(), {"module.spv", "-o", "opt.spv"});
    std::string log;
    if (auto failed = RunToolStage(argv, dir->path(), clock, limits, who_,
                                   test_case.module_words, &log)) {
      return *failed;
    }
    auto words = ReadModule(dir->path() + "/opt.spv");
    if (!words.ok()) {
      return FailedExecution(
          ExecutionStatus::kBuildFailed,
          absl::StrCat(who_, " exited 0 but wrote no usable module: ",
                       words.status().message()),
          log);
    }
    return RunOutputOnReference(test_case, *std::move(words), who_, log,
                                options_.reference, clock.Limits(limits));
  }

 private:
  std::string name_;
  std::vector<std::string> flags_;
  std::string program_, consumer_, who_;
  TargetOptions options_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeSpirvOptTarget(
    const std::string& passes, const TargetOptions& options) {
  const std::vector<std::string> flags = SpirvOptPassFlags(passes);
  if (auto s = CheckFlags(flags); !s.ok()) return s;
  std::string program, consumer;
  if (!options.program.empty()) {
    auto resolved = ResolveProgram(options.program, {}, "");
    if (!resolved.ok()) return resolved.status();
    program = consumer = *resolved;
  } else {
    auto info = DescribeTarget("spirv-opt");
    if (!info.ok()) return info.status();
    if (!info->available) return UnavailableStatus(*info);
    auto resolved = ResolveProgram("", {"spirv-opt"}, "");
    if (!resolved.ok()) return resolved.status();
    program = *resolved;
    consumer = info->consumer;
  }
  const std::string name =
      passes.empty() ? "spirv-opt" : absl::StrCat("spirv-opt:", passes);
  return std::unique_ptr<Target>(
      new SpirvOptTarget(name, flags, program, consumer, options));
}

}  // namespace l0spv::oracles
