#include "oracles/targets/oclgrind_adapter.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oracles/targets/opencl_adapter.h"
#include "oracles/targets/target_registry.h"
#include "oracles/targets/tool_adapter.h"
#include "spirv/file_io.h"
#include "spirv/kernel_batch.h"

namespace l0spv::oracles {
namespace {

// Oclgrind's log; what is not a readable regular file (a FIFO, a
// directory in its place) reads as no report.
std::string ReadText(const std::string& path) {
  return spirv::ReadOutputFile(path, spirv::kMaxInputFileBytes).value_or("");
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
// line). Only the reports about `kernel` count (a batch runs several
// kernels, and each report names its kernel on a "Kernel: NAME" line); a
// report that names no kernel counts for every kernel.
OclgrindReport ParseReports(const std::string& log, const std::string& kernel) {
  OclgrindReport report;
  std::vector<std::string> heading, details;
  std::string block_kernel;
  bool in_block = false;
  const auto end_block = [&] {
    const bool ours = block_kernel.empty() || block_kernel == kernel;
    if (in_block && ours && ++report.count == 1) {
      report.fatal = !heading.empty() &&
                     absl::StartsWith(heading[0], "OCLGRIND FATAL ERROR");
      report.first = absl::StrJoin(heading, ": ");
      if (!details.empty())
        absl::StrAppend(&report.first, " (", absl::StrJoin(details, "; "), ")");
    }
    heading.clear();
    details.clear();
    block_kernel.clear();
    in_block = false;
  };
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    const absl::string_view text = absl::StripAsciiWhitespace(line);
    if (text.empty()) {
      end_block();
      continue;
    }
    in_block = true;
    if (line[0] != ' ' && line[0] != '\t') {
      heading.emplace_back(text);
    } else if (absl::StartsWith(text, "Kernel:") ||
               absl::StartsWith(text, "Entity:")) {
      details.emplace_back(text);
      if (absl::StartsWith(text, "Kernel:"))
        block_kernel = std::string(
            absl::StripAsciiWhitespace(text.substr(strlen("Kernel:"))));
    }
  }
  end_block();
  return report;
}

// "Unsupported image channel data type: 10DA" (CL_UNSIGNED_INT8, 16, 32).
bool IsUnsignedImageRefusal(const std::string& first) {
  for (const char* type : {"10DA", "10DB", "10DC"}) {
    if (absl::StrContains(
            first, absl::StrCat("Unsupported image channel data type: ", type)))
      return true;
  }
  return false;
}

class OclgrindTarget : public AdapterBase {
 public:
  OclgrindTarget(std::string consumer, ScratchDir vendors,
                 const TargetOptions& options)
      : AdapterBase("oclgrind", /*executes=*/true, std::move(consumer),
                    options),
        vendors_(std::move(vendors)) {}

  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) override {
    return RunBatch(std::span<const spirv::TestCase>(&test_case, 1), limits)
        .front();
  }
  bool batches() const override { return true; }

  // One worker builds the batch's module once and launches each kernel;
  // Oclgrind's log holds every launch's reports, each naming its kernel.
  std::vector<Execution> RunBatch(std::span<const spirv::TestCase> launches,
                                  const TargetRunLimits& limits) override {
    if (launches.empty()) return {};
    if (!spirv::SharesOneModule(launches))
      return Target::RunBatch(launches, limits);
    const auto every_launch = [&](const Execution& e) {
      return ForEveryLaunch(e, launches.size());
    };
    auto dir = ScratchDir::Make(options().scratch_dir, "l0spv-oclgrind-");
    if (!dir.ok()) return every_launch(HarnessFailure(dir.status().message()));
    const std::string log_path = dir->path() + "/oclgrind.log";
    OpenClTargetOptions o = OpenClRunOptions("Oclgrind", options(), limits);
    o.force_spir_path = true;
    o.scratch_dir = dir->path();
    o.environment = {
        absl::StrCat("OCL_ICD_VENDORS=", vendors_.path()),
        absl::StrCat("OCLGRIND_LOG=", log_path),
        absl::StrCat("OCLGRIND_DATA_RACES=",
                     options().oclgrind_data_races ? "1" : "0"),
        absl::StrCat("OCLGRIND_UNINITIALIZED=",
                     options().oclgrind_uninitialized ? "1" : "0"),
        // Errors in the harness's own OpenCL API use are reported too.
        "OCLGRIND_CHECK_API=1",
        // One simulator thread: reports (which work-item is named first) and
        // results are then the same on every run.
        "OCLGRIND_NUM_THREADS=1",
        // Precompiled headers are for OpenCL C sources; SPIR needs none.
        "OCLGRIND_DISABLE_PCH=1",
    };
    auto results = RunBatchOnOpenCl(launches, o, Warm(o.environment));
    if (!results.ok())
      return every_launch(HarnessFailure(
          absl::StrCat("oclgrind: ", results.status().message())));
    const std::string oclgrind_log = ReadText(log_path);
    if (oclgrind_log.empty()) return *std::move(results);
    for (size_t i = 0; i < launches.size(); ++i) {
      JudgeReports(oclgrind_log, launches[i].entry_point, (*results)[i]);
    }
    return *std::move(results);
  }

  // Turns Oclgrind's reports about `kernel` into `e`'s status.
  static void JudgeReports(const std::string& oclgrind_log,
                           const std::string& kernel, Execution& e) {
    const OclgrindReport report = ParseReports(oclgrind_log, kernel);
    e.log = absl::StrCat("[oclgrind]\n", LastLines(oclgrind_log, 200),
                         e.log.empty() ? "" : "\n", e.log);
    if (report.fatal && IsUnsignedImageRefusal(report.first)) {
      // Not Oclgrind's bug nor the kernel's: llvm-spirv -r maps every
      // integer image read/write to read_imagei/write_imagei (SPIR-V 1.2
      // carries no signedness), undefined in OpenCL C on an unsigned image,
      // and Oclgrind checks the function against the channel type. A
      // finding of the filed llvm-spirv bug (known-consumer-bugs/
      // llvm_spirv_image_unsigned), which the generator avoids; the message
      // names the cause so triage matches it.
      e.status = ExecutionStatus::kCrashed;
      e.message = absl::StrCat(
          "Oclgrind refuses read_imagei/write_imagei on an UnsignedInt image "
          "(llvm-spirv -r turns read_imageui/write_imageui into them): ",
          NormalizedFirstError(report.first));
    } else if (report.fatal) {
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
  }

 private:
  // Made with the first batch's environment: each batch sets its own
  // OCLGRIND_LOG again in its grandchild.
  OpenClWarmWorker* Warm(const std::vector<std::string>& environment) {
    return WarmWorkerIn(warm_, options().warm_workers, environment,
                        options().scratch_dir);
  }

  ScratchDir vendors_;  // holds oclgrind.icd for OCL_ICD_VENDORS
  std::unique_ptr<OpenClWarmWorker> warm_;
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
    icd = info->program;
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
  return std::make_unique<OclgrindTarget>(consumer, *std::move(vendors),
                                          options);
}

}  // namespace l0spv::oracles
