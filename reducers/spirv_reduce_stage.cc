#include "reducers/spirv_reduce_stage.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/scratch_dir.h"
#include "reducers/module_edit.h"
#include "spirv/binary.h"
#include "spirv/text_bytes.h"

namespace l0spv::reducers {

namespace fs = std::filesystem;

SpirvReduceStage::SpirvReduceStage(SpirvReduceOptions options)
    : options_(std::move(options)) {
  if (options_.program.empty()) {
    if (auto p = oracles::FindProgram("spirv-reduce")) {
      options_.program = *p;
    } else {
      unsupported_ =
          "spirv-reduce not found in PATH (install Debian's spirv-tools)";
    }
  } else if (::access(options_.program.c_str(), X_OK) != 0) {
    unsupported_ = absl::StrCat(options_.program, " is not executable");
  }
  if (unsupported_.empty() && options_.check_command.empty())
    unsupported_ = "no interestingness command to give spirv-reduce";
  if (unsupported_.empty() && !oracles::FindProgram("timeout"))
    unsupported_ = "coreutils `timeout` not found (needed to bound each check)";
}

ReduceScratch::ReduceScratch(const std::string& parent) {
  // Under the process's scratch root when `parent` is empty: a reduction
  // killed half-way leaves nothing the next command does not sweep.
  if (auto dir = oracles::MakeScratchDir(parent, "l0spv-reduce-"); dir.ok())
    path_ = *dir;
}

ReduceScratch::~ReduceScratch() {
  std::error_code ec;
  if (!path_.empty()) fs::remove_all(path_, ec);
}

std::optional<CheckScript> WriteCheckScript(
    const SpirvReduceOptions& options, const std::string& dir,
    const std::vector<std::string>& extra_flags, const std::string& who) {
  std::vector<std::string> check = options.check_command;
  check.push_back(dir + "/case");
  check.push_back("--target=" + absl::StrJoin(options.targets, ","));
  check.push_back("--signature=" + options.signature);
  check.push_back(absl::StrCat("--timeout=", options.target_timeout_seconds));
  check.push_back("--strict");
  check.insert(check.end(), extra_flags.begin(), extra_flags.end());
  if (options.reference_steps != 0)
    check.push_back(absl::StrCat("--ref_steps=", options.reference_steps));
  std::vector<std::string> quoted;
  for (const std::string& w : check) quoted.push_back(spirv::ShellQuote(w));
  // ref + every target, each under the per-target limit, plus start-up.
  const uint32_t script_limit =
      options.target_timeout_seconds * (options.targets.size() + 1) + 5;
  CheckScript s{dir + "/interesting.sh", dir + "/best.spv", dir + "/runs"};
  {
    std::ofstream f(s.path);
    f << "#!/bin/sh\n# " << who
      << " interestingness: exit 0 iff `check` says interesting (exit 1).\n"
      << "echo >> " << spirv::ShellQuote(s.runs) << "\n"
      << "timeout -k 2 " << script_limit << " " << absl::StrJoin(quoted, " ")
      << " --module=\"$1\" >/dev/null 2>&1\n"
      << "[ $? -eq 1 ] || exit 1\n"
      << "cp \"$1\" " << spirv::ShellQuote(s.best) << "\n";
    if (!f) return std::nullopt;
  }
  ::chmod(s.path.c_str(), 0755);
  return s;
}

uint64_t CountLines(const std::string& path) {
  std::ifstream f(path);
  std::string line;
  uint64_t n = 0;
  while (std::getline(f, line)) ++n;
  return n;
}

bool SpirvReduceStage::Run(ReductionContext& ctx) {
  if (!unsupported_.empty() || ctx.Expired()) return false;
  ReduceScratch scratch(options_.scratch_parent);
  if (scratch.path().empty()) return false;
  const fs::path dir = scratch.path();
  std::error_code ec;

  const spirv::TestCase start = ctx.current();
  if (!spirv::WriteTestCase(start, (dir / "case").string()).ok()) return false;
  const std::string in = (dir / "in.spv").string();
  if (!spirv::WriteFileBytes(
           in,
           spirv::WordsToBytes(start.module_words, spirv::Endianness::kLittle))
           .ok())
    return false;

  const std::optional<CheckScript> script =
      WriteCheckScript(options_, dir.string(), {}, "spirv-reduce");
  if (!script) return false;

  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      ctx.deadline() - ReductionContext::Clock::now());
  if (left.count() <= 0) return false;
  oracles::ChildLimits limits;
  limits.wall_time = left;
  limits.memory_bytes = 0;
  const std::string out = (dir / "out.spv").string();
  auto result = oracles::RunCommand(
      {options_.program, absl::StrCat("--step-limit=", options_.step_limit),
       "--temp-file-prefix=" + (dir / "temp_").string(), in, "-o", out, "--",
       script->path},
      limits, dir.string());
  script_runs_ += CountLines(script->runs);
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
  auto module = spirv::ReadModule(*bytes);
  if (!module.ok()) return false;
  spirv::TestCase candidate = WithModule(start, *module);
  if (FunctionBodyInstructionCount(candidate.module_words) >=
          FunctionBodyInstructionCount(start.module_words) &&
      candidate.module_words.size() >= start.module_words.size())
    return false;
  if (SameCase(candidate, ctx.current())) return false;
  return ctx.Try(candidate);
}

}  // namespace l0spv::reducers
