#include "oracles/targets/oclgrind_adapter.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oracles/targets/adapter_util.h"
#include "oracles/targets/consumer_probe.h"
#include "oracles/targets/opencl_target.h"
#include "oracles/targets/target_registry.h"

namespace l0spv::oracles {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

struct OclgrindReport {
  size_t count = 0;   // error reports in the log
  std::string first;  // the first report: heading and its detail lines
};

// Oclgrind writes each report as an unindented heading ("Invalid write of
// size 4 at global memory address 0x...") followed by indented detail lines
// (kernel, entity, instruction, source line), reports separated by blank
// lines.
OclgrindReport ParseReports(const std::string& log) {
  OclgrindReport report;
  bool in_first = false;
  std::vector<std::string> details;
  std::string heading;
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    if (absl::StripAsciiWhitespace(line).empty()) {
      in_first = false;
      continue;
    }
    const bool indented = line[0] == ' ' || line[0] == '\t';
    if (!indented) {
      ++report.count;
      if (report.count == 1) {
        heading = std::string(absl::StripAsciiWhitespace(line));
        in_first = true;
      } else {
        in_first = false;
      }
      continue;
    }
    const absl::string_view detail = absl::StripAsciiWhitespace(line);
    if (in_first && (absl::StartsWith(detail, "Kernel:") ||
                     absl::StartsWith(detail, "Entity:"))) {
      details.emplace_back(detail);
    }
  }
  if (report.count > 0) {
    report.first =
        details.empty()
            ? heading
            : absl::StrCat(heading, " (", absl::StrJoin(details, "; "), ")");
  }
  return report;
}

class OclgrindTarget : public Target {
 public:
  OclgrindTarget(std::string consumer, ScratchDir vendors,
                 const TargetOptions& options)
      : consumer_(std::move(consumer)),
        vendors_(std::move(vendors)),
        options_(options) {}

  const std::string& name() const override { return name_; }
  bool executes() const override { return true; }
  const std::string& consumer() const override { return consumer_; }

  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) override {
    auto dir = ScratchDir::Make(options_.scratch_dir, "l0spv-oclgrind-");
    if (!dir.ok()) {
      return FailedExecution(ExecutionStatus::kUnsupported,
                             absl::StrCat("harness: ", dir.status().message()));
    }
    const std::string log_path = dir->path() + "/oclgrind.log";
    OpenClTargetOptions o;
    o.platform = "Oclgrind";
    o.force_spir_path = true;
    o.time_limit = limits.wall_time;
    o.memory_limit_bytes = limits.memory_bytes;
    o.scratch_dir = dir->path();
    o.build_options = options_.build_options;
    o.environment = {
        absl::StrCat("OCL_ICD_VENDORS=", vendors_.path()),
        absl::StrCat("OCLGRIND_LOG=", log_path),
        absl::StrCat("OCLGRIND_DATA_RACES=",
                     options_.oclgrind_data_races ? "1" : "0"),
        absl::StrCat("OCLGRIND_UNINITIALIZED=",
                     options_.oclgrind_uninitialized ? "1" : "0"),
        // Precompiled headers are for OpenCL C sources; SPIR needs none.
        "OCLGRIND_DISABLE_PCH=1",
    };
    auto result = RunOnOpenCl(test_case, o);
    if (!result.ok()) {
      return FailedExecution(
          ExecutionStatus::kUnsupported,
          absl::StrCat("harness: oclgrind: ", result.status().message()));
    }
    Execution e = *std::move(result);
    const std::string oclgrind_log = ReadText(log_path);
    if (oclgrind_log.empty()) return e;
    const OclgrindReport report = ParseReports(oclgrind_log);
    e.log = absl::StrCat("[oclgrind]\n", LastLines(oclgrind_log, 200),
                         e.log.empty() ? "" : "\n", e.log);
    if (report.count > 0 && e.status == ExecutionStatus::kOk) {
      e.status = ExecutionStatus::kUbDetected;
      e.message =
          absl::StrCat("Oclgrind reported ", report.count,
                       " error(s): ", NormalizedFirstError(report.first));
    }
    return e;
  }

 private:
  std::string name_ = "oclgrind";
  std::string consumer_;
  ScratchDir vendors_;  // holds oclgrind.icd for OCL_ICD_VENDORS
  TargetOptions options_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeOclgrindTarget(
    const TargetOptions& options) {
  std::string icd;
  std::string consumer;
  if (!options.program.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(options.program, ec)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "oclgrind: ICD library ", options.program, " does not exist"));
    }
    icd = consumer = options.program;
  } else {
    auto info = DescribeTarget("oclgrind");
    if (!info.ok()) return info.status();
    if (!info->available) return UnavailableStatus(*info);
    auto found = FindOclgrindIcd();
    if (!found) {
      return absl::FailedPreconditionError(
          "oclgrind: Oclgrind's ICD library disappeared");
    }
    icd = *found;
    consumer = info->consumer;
  }
  auto vendors = ScratchDir::Make(options.scratch_dir, "l0spv-oclgrind-icd-");
  if (!vendors.ok()) return vendors.status();
  {
    std::ofstream out(vendors->path() + "/oclgrind.icd");
    out << icd << "\n";
    if (!out) {
      return absl::FailedPreconditionError(absl::StrCat(
          "oclgrind: cannot write an ICD file under ", vendors->path()));
    }
  }
  return std::unique_ptr<Target>(
      new OclgrindTarget(consumer, *std::move(vendors), options));
}

}  // namespace l0spv::oracles
