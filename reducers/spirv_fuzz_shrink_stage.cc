#include "reducers/spirv_fuzz_shrink_stage.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "generators/spirv_fuzz/engine.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/consumer_probe.h"
#include "spirv/binary.h"
#include "spirv/file_io.h"

namespace l0spv::reducers {
namespace {

namespace fs = std::filesystem;

// A fresh directory under `parent` (the system temp directory when empty),
// removed with the object.
class ShrinkScratch {
 public:
  explicit ShrinkScratch(const std::string& parent) {
    std::error_code ec;
    const fs::path base =
        parent.empty() ? fs::temp_directory_path(ec) : fs::path(parent);
    std::string templ = (base / "l0spv-sfshrink-XXXXXX").string();
    if (::mkdtemp(templ.data()) != nullptr) path_ = templ;
  }
  ~ShrinkScratch() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

}  // namespace

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
  ShrinkScratch scratch(check_.scratch_parent);
  const fs::path& dir = scratch.path();
  if (dir.empty()) return false;
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

  std::vector<std::string> check = check_.check_command;
  check.push_back((dir / "case").string());
  check.push_back("--target=" + absl::StrJoin(check_.targets, ","));
  check.push_back("--signature=" + check_.signature);
  check.push_back(absl::StrCat("--timeout=", check_.target_timeout_seconds));
  check.push_back("--strict");
  check.push_back("--kernel_fixup");
  if (check_.reference_steps != 0)
    check.push_back(absl::StrCat("--ref_steps=", check_.reference_steps));
  std::vector<std::string> quoted;
  for (const std::string& w : check) quoted.push_back(ShellQuote(w));
  const uint32_t script_limit =
      check_.target_timeout_seconds * (check_.targets.size() + 1) + 5;
  const std::string best = (dir / "best.spv").string();
  const std::string runs = (dir / "runs").string();
  const std::string script_path = (dir / "interesting.sh").string();
  {
    std::ofstream f(script_path);
    f << "#!/bin/sh\n"
         "# spirv-fuzz --shrink interestingness: exit 0 iff `check` says "
         "interesting (exit 1).\n"
      << "echo >> " << ShellQuote(runs) << "\n"
      << "timeout -k 2 " << script_limit << " " << absl::StrJoin(quoted, " ")
      << " --module=\"$1\" >/dev/null 2>&1\n"
      << "[ $? -eq 1 ] || exit 1\n"
      << "cp \"$1\" " << ShellQuote(best) << "\n";
    if (!f) return false;
  }
  ::chmod(script_path.c_str(), 0755);

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
       script_path},
      limits, dir.string());
  {
    std::ifstream f(runs);
    std::string line;
    while (std::getline(f, line)) ++script_runs_;
  }
  ctx.external_runs += script_runs_;
  std::error_code ec;
  std::string chosen;
  if (result.ok() && result->Succeeded() && fs::exists(out, ec)) {
    chosen = out;
  } else if (fs::exists(best, ec)) {
    chosen = best;  // cut short by the budget: keep what it had reached
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
