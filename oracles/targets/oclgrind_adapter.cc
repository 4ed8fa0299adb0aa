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
  size_t count = 0;    // reports in the log
  bool fatal = false;  // the first report is an "OCLGRIND FATAL ERROR"
  std::string first;   // the first report: heading and kernel/entity lines
};

// Oclgrind writes each report as a block of lines between blank lines: one
// or two unindented heading lines ("Invalid write of size 4 at global
// memory address 0x...", or "OCLGRIND FATAL ERROR (file:line)" then what it
// could not do), then indented details (kernel, entity, instruction, source
// line).
OclgrindReport ParseReports(const std::string& log) {
  OclgrindReport report;
  std::vector<std::string> heading, details;
  bool in_block = false;
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    if (absl::StripAsciiWhitespace(line).empty()) {
      in_block = false;
      continue;
    }
    if (!in_block) {
      in_block = true;
      ++report.count;
    }
    if (report.count != 1) continue;
    const absl::string_view text = absl::StripAsciiWhitespace(line);
    if (line[0] != ' ' && line[0] != '\t') {
      heading.emplace_back(text);
    } else if (absl::StartsWith(text, "Kernel:") ||
               absl::StartsWith(text, "Entity:")) {
      details.emplace_back(text);
    }
  }
  if (report.count > 0) {
    report.fatal = !heading.empty() &&
                   absl::StartsWith(heading[0], "OCLGRIND FATAL ERROR");
    report.first = absl::StrJoin(heading, ": ");
    if (!details.empty())
      absl::StrAppend(&report.first, " (", absl::StrJoin(details, "; "), ")");
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
        // Errors in the harness's own OpenCL API use are reported too.
        "OCLGRIND_CHECK_API=1",
        // One simulator thread: reports (which work-item is named first) and
        // results are then the same on every run.
        "OCLGRIND_NUM_THREADS=1",
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
    if (report.fatal) {
      // Oclgrind gave up on the kernel (an instruction or pointer size it
      // does not implement): its failure, not the kernel's, and the
      // buffers are incomplete.
      e.status = ExecutionStatus::kCrashed;
      e.message = absl::StrCat("Oclgrind internal error: ",
                               NormalizedFirstError(report.first));
    } else if (report.count > 0 && e.status == ExecutionStatus::kOk) {
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
