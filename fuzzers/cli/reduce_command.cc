// `l0spv-fuzz reduce FINDING_DIR... [--reduce_time=5m]`: reduces findings to
// minimal reproducers (reducers/pipeline.h) and writes FINDING_DIR/reduced/.
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "fuzzers/cli/commands.h"
#include "fuzzers/cli/reduce_support.h"
#include "oracles/process/subprocess.h"
#include "reducers/dedup.h"
#include "reducers/known_match.h"
#include "reducers/pipeline.h"
#include "spirv/text_bytes.h"

ABSL_DECLARE_FLAG(int, timeout);
ABSL_DECLARE_FLAG(bool, json);
ABSL_FLAG(std::string, reduce_time, "5m",
          "time budget of one reduction: 90, 90s, 5m, 1h");
ABSL_FLAG(std::string, spirv_reduce, "",
          "the spirv-reduce executable (default: from PATH; without one the "
          "spirv-reduce stage is skipped as unsupported)");

namespace l0spv::fuzzers::cli {

absl::StatusOr<std::chrono::seconds> ParseDuration(const std::string& text,
                                                   const std::string& flag) {
  if (text.empty()) return absl::InvalidArgumentError(flag + " is empty");
  uint64_t scale = 1;
  std::string number = text;
  switch (text.back()) {
    case 's':
      number.pop_back();
      break;
    case 'm':
      scale = 60;
      number.pop_back();
      break;
    case 'h':
      scale = 3600;
      number.pop_back();
      break;
    default:
      break;
  }
  uint64_t value = 0;
  // Longer than a year is a typo, and would overflow the clocks.
  constexpr uint64_t kMaxSeconds = uint64_t{366} * 24 * 3600;
  if (!absl::SimpleAtoi(number, &value) || value == 0 ||
      value > kMaxSeconds / scale) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, "=", text,
                     ": expected a positive duration up to a year, such as "
                     "90s, 5m, 1h"));
  }
  return std::chrono::seconds(value * scale);
}

std::string SelfExecutable() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "l0spv-fuzz";
  // Rebuilt while a long campaign runs, the link reads "PATH (deleted)";
  // the reproducers should name PATH, where the new binary is.
  std::string path = p.string();
  constexpr std::string_view kDeleted = " (deleted)";
  if (path.ends_with(kDeleted)) path.resize(path.size() - kDeleted.size());
  return path;
}

absl::StatusOr<reducers::ReduceOptions> ReduceOptionsFromFlags() {
  reducers::ReduceOptions o;
  auto budget =
      ParseDuration(absl::GetFlag(FLAGS_reduce_time), "--reduce_time");
  if (!budget.ok()) return budget.status();
  o.budget = *budget;
  const int timeout = absl::GetFlag(FLAGS_timeout);
  if (timeout <= 0)
    return absl::InvalidArgumentError("--timeout must be a positive number");
  o.target_timeout = std::chrono::seconds(std::min(timeout, 60));
  o.spirv_reduce = absl::GetFlag(FLAGS_spirv_reduce);
  if (!o.spirv_reduce.empty() && ::access(o.spirv_reduce.c_str(), X_OK) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--spirv_reduce=", o.spirv_reduce,
                     ": not an executable file (omit the flag to use "
                     "spirv-reduce from PATH)"));
  }
  if (!o.spirv_reduce.empty()) {
    // An executable that is not spirv-reduce (/bin/false) would make the
    // stage fail silently on every finding: say so now.
    oracles::ChildLimits limits;
    limits.wall_time = std::chrono::seconds(5);
    auto r = oracles::RunCommand({o.spirv_reduce, "--version"}, limits);
    const std::string said =
        r.ok() ? r->stdout_text + r->stderr_text : std::string();
    if (!r.ok() || !r->Succeeded() || !absl::StrContains(said, "SPIRV-Tools")) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--spirv_reduce=", o.spirv_reduce, ": `", o.spirv_reduce,
          " --version` ",
          r.ok()
              ? (r->Succeeded() ? "does not name SPIRV-Tools" : r->Describe())
              : std::string(r.status().message()),
          "; is this spirv-reduce? (omit the flag to use the one in PATH)"));
    }
  }
  o.self_command = SelfExecutable();
  o.check_command = {o.self_command, "check"};
  o.log = &std::cerr;
  return o;
}

namespace {

int RunReduce(const std::vector<std::string>& positional) {
  if (positional.empty())
    return UsageError("reduce", "expected one or more FINDING_DIRs");
  auto options = ReduceOptionsFromFlags();
  if (!options.ok())
    return UsageError("reduce", std::string(options.status().message()));
  bool any_error = false;
  nlohmann::json reports = nlohmann::json::array();
  for (const std::string& dir : positional) {
    auto report = reducers::ReduceFinding(dir, *options);
    if (!report.ok()) {
      std::cerr << "l0spv-fuzz reduce: " << report.status().message() << "\n";
      any_error = true;
      continue;
    }
    // Known or new: matched against the registry on the reduced case.
    auto match = reducers::LabelFinding(dir);
    std::string label = "not matched";
    if (match.ok()) {
      label = !*match             ? "new"
              : (*match)->certain ? "known: " + (*match)->name
                                  : "new (possibly known: " + (*match)->name +
                                        ", " + (*match)->how + ")";
    }
    for (const auto& s : report->stages) {
      if (!s.unsupported.empty())
        std::cerr << "reduce: " << s.name << " unsupported: " << s.unsupported
                  << "\n";
    }
    if (absl::GetFlag(FLAGS_json)) {
      nlohmann::json j = report->ToJson();
      j["finding"] = dir;
      const bool known = match.ok() && *match && (*match)->certain;
      const bool possibly = match.ok() && *match && !(*match)->certain;
      j["known"] =
          known ? nlohmann::json((*match)->name) : nlohmann::json(nullptr);
      j["possibly_known"] =
          possibly ? nlohmann::json((*match)->name) : nlohmann::json(nullptr);
      reports.push_back(std::move(j));
    } else {
      std::cout << dir << ": " << report->instructions_before << " -> "
                << report->instructions_after << " function-body instructions, "
                << report->work_items_before << " -> "
                << report->work_items_after << " work-items, "
                << report->interestingness_runs << " checks, "
                << static_cast<uint64_t>(report->seconds) << " s"
                << (report->budget_spent ? " (budget spent)" : "") << "; "
                << label << "; " << dir << "/reduced/\n";
    }
  }
  if (absl::GetFlag(FLAGS_json))
    std::cout << spirv::DumpJson(reports, 2) << "\n";
  return any_error ? kExitUsage : kExitOk;
}

}  // namespace

Command ReduceCommand() {
  return {"reduce",
          "reduce findings to minimal reproducers (FINDING_DIR/reduced/)",
          "reduce FINDING_DIR... [--reduce_time=5m] [--timeout=S] "
          "[--spirv_reduce=PATH] [--json]\n\n"
          "Shrinks a finding's case while `check --strict` still reproduces "
          "its signature on its target: spirv-fuzz's own shrinker first for a "
          "--mutate=spirv-fuzz finding (skipped without spirv-fuzz), then "
          "ND-range and buffers, OpenCL.std "
          "calls and values to constants, statements, branches, "
          "spirv-reduce (driven as a process; skipped as unsupported when "
          "not installed), constants, unused kernel arguments — repeated to "
          "a fixed point or until --reduce_time is spent. The reference "
          "must run every candidate with no undefined behaviour. Writes "
          "FINDING_DIR/reduced/ (module.spv, module.spvasm, case.json, "
          "differences.json, repro.sh, reduction.json) and rewrites the "
          "finding's README around it. --timeout bounds each target run "
          "(at most 60 s here). Exit 0 done, 2 on bad input or a finding "
          "that does not reproduce.",
          {"reduce_time", "timeout", "spirv_reduce", "json"},
          RunReduce};
}

}  // namespace l0spv::fuzzers::cli
