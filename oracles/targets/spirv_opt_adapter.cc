#include "oracles/targets/spirv_opt_adapter.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oracles/targets/tool_adapter.h"
#include "spirv-tools/libspirv.h"
#include "spirv-tools/optimizer.hpp"
#include "spirv/spirv_tools.h"

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

// Whether `words` passes the validation spirv-opt would run first: the same
// SPIRV-Tools validator (Debian's spirv-tools builds both), the universal
// environment spirv-opt parses from `target_env` (its --target-env value),
// default options.
// Then spirv-opt may skip its own copy: it builds friendly names before it
// validates, and was measured at 30 % of spirv-opt's time on a 16-kernel
// batch (28.8 -> 19.8 ms). Our check is cheaper (no names) and usually free:
// the reference validated the case already (spirv::Validate remembers). A
// module that fails ours goes to spirv-opt unchanged, so its rejection is
// spirv-opt's own as before. A batch is made of validated cases
// (Target::RunBatch's precondition) and is not checked again: validating it
// cost 0.33 ms a case, more than spirv-opt's whole fixed cost per case.
bool ValidatedAsSpirvOptWould(const std::vector<uint32_t>& words,
                              const std::string& target_env) {
  spv_target_env env;
  if (!spvParseTargetEnv(target_env.c_str(), &env)) return false;
  return spirv::Validate(words, env).ok();
}

class SpirvOptTarget : public ToolAdapter {
 public:
  SpirvOptTarget(std::string name, std::vector<std::string> flags,
                 ToolProgram tool, const TargetOptions& options)
      : ToolAdapter(std::move(name), /*executes=*/true, std::move(tool),
                    options),
        flags_(std::move(flags)),
        who_(absl::StrCat("spirv-opt ", absl::StrJoin(flags_, " "))) {}

 protected:
  // Each module of the case is optimized on its own (exported functions
  // must survive, imported ones stay declarations); the reference links the
  // optimized modules.
  std::vector<Execution> RunInScratch(Launches launches, const std::string& dir,
                                      const RunClock& clock,
                                      const TargetRunLimits& limits) override {
    const spirv::TestCase& test_case = launches.front();
    std::string log;
    std::vector<std::string> outputs;
    for (size_t i = 0; i < NumModules(test_case); ++i) {
      const std::vector<uint32_t>& words = ModuleWords(test_case, i);
      const std::string env = absl::StrCat("spv", SpirvVersionString(words));
      std::vector<std::string> argv = {program(),
                                       absl::StrCat("--target-env=", env)};
      if (launches.size() > 1 || ValidatedAsSpirvOptWould(words, env))
        argv.push_back("--skip-validation");
      argv.insert(argv.end(), flags_.begin(), flags_.end());
      const std::string out = absl::StrCat("opt-", ModuleFile(i));
      argv.insert(argv.end(), {ModuleFile(i), "-o", out});
      const std::string who = NumModules(test_case) > 1
                                  ? absl::StrCat(who_, " (", ModuleFile(i), ")")
                                  : who_;
      if (auto failed =
              RunToolStage(argv, dir, clock, limits, who, words, &log)) {
        return ForEveryLaunch(*failed, launches.size());
      }
      outputs.push_back(absl::StrCat(dir, "/", out));
    }
    return RunProducedModules(launches, outputs, who_, log, clock, limits);
  }

  // -O on a batch holding decoration groups or unknown extensions leaves
  // every kernel of it nearly unoptimized (fuzzers/campaign/batch_runner.cc).
  bool batches_by_key() const override { return true; }

 private:
  std::vector<std::string> flags_;
  std::string who_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeSpirvOptTarget(
    const TargetName& name, const TargetOptions& options) {
  const std::vector<std::string> flags = SpirvOptPassFlags(name.param);
  if (auto s = CheckFlags(flags); !s.ok()) return s;
  auto tool = ResolveTool(name.full, options);
  if (!tool.ok()) return tool.status();
  return std::make_unique<SpirvOptTarget>(name.full, flags, *std::move(tool),
                                          options);
}

}  // namespace l0spv::oracles
