#include "reducers/spirv_fuzz_shrink_stage.h"

#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "generators/spirv_fuzz/engine.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/consumer_probe.h"
#include "spirv/binary.h"
#include "spirv/file_io.h"

namespace l0spv::reducers {
namespace fs = std::filesystem;

SpirvFuzzShrinkStage::SpirvFuzzShrinkStage(
    SpirvReduceOptions check, std::optional<SpirvFuzzShrinkInput> input,
    std::string program, uint32_t step_limit)
    : check_(std::move(check)),
      input_(std::move(input)),
      program_(std::move(program)),
      step_limit_(step_limit) {
  if (!input_) {
    unsupported_ = "not a --mutate=spirv-fuzz finding";
    return;
  }
  if (program_.empty()) {
    if (auto p = oracles::FindSpirvFuzz()) {
      program_ = *p;
    } else {
      unsupported_ = oracles::kSpirvFuzzInstallHint;
    }
  }
  if (unsupported_.empty() && check_.check_command.empty())
    unsupported_ = "no interestingness command to give spirv-fuzz";
  if (unsupported_.empty() && !oracles::FindProgram("timeout"))
    unsupported_ = "coreutils `timeout` not found (needed to bound each check)";
}

bool SpirvFuzzShrinkStage::Run(ReductionContext& ctx) {
  if (!unsupported_.empty() || ctx.Expired()) return false;
  // The sequence describes the finding's mutant only: the first call sees
  // it; once anything else has changed the case, this stage is done.
  if (!mutant_) mutant_ = ctx.current().module_words;
  if (ctx.current().module_words != *mutant_) return false;
  ReduceScratch scratch(check_.scratch_parent);
  if (scratch.path().empty()) return false;
  const fs::path dir = scratch.path();
  const spirv::TestCase start = ctx.current();
  if (!spirv::WriteTestCase(start, (dir / "case").string()).ok()) return false;
  const std::string in = (dir / "original.spv").string();
  const std::string seq = (dir / "original.transformations").string();
  if (!spirv::WriteFileBytes(in,
                             spirv::WordsToBytes(input_->original.module_words,
                                                 spirv::Endianness::kLittle))
           .ok() ||
      !spirv::WriteTextFile(seq, input_->transformations).ok())
    return false;

  const std::optional<CheckScript> script = WriteCheckScript(
      check_, dir.string(), {"--kernel_fixup"}, "spirv-fuzz --shrink");
  if (!script) return false;

  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      ctx.deadline() - ReductionContext::Clock::now());
  if (left.count() <= 0) return false;
  oracles::ChildLimits limits;
  limits.wall_time = left;
  limits.memory_bytes = 0;
  const std::string out = (dir / "out.spv").string();
  auto result = oracles::RunCommand(
      {program_, in, "-o", out, "--shrink=" + seq,
       absl::StrCat("--shrinker-step-limit=", step_limit_),
       "--shrinker-temp-file-prefix=" + (dir / "temp").string(), "--",
       script->path},
      limits, dir.string());
  script_runs_ += CountLines(script->runs);
  std::error_code ec;
  std::string chosen;
  if (result.ok() && result->Succeeded() && fs::exists(out, ec)) {
    chosen = out;
  } else if (fs::exists(script->best, ec)) {
    chosen = script->best;  // cut short by the budget: keep what it had
  } else {
    return false;
  }
  auto bytes = spirv::ReadFileBytes(chosen, spirv::kMaxModuleFileBytes);
  if (!bytes.ok() || bytes->size() % 4 != 0) return false;
  std::vector<uint32_t> words(bytes->size() / 4);
  std::memcpy(words.data(), bytes->data(), bytes->size());
  generators::spirv_fuzz::Mutation m =
      generators::spirv_fuzz::FixUpOutput(start, std::move(words));
  if (m.outcome != generators::spirv_fuzz::Outcome::kMutated) return false;
  if (m.test_case.module_words == start.module_words) return false;
  return ctx.Try(m.test_case);
}

}  // namespace l0spv::reducers
