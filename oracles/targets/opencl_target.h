// oracles/targets/opencl_target.h — the `opencl[:PLATFORM]` target: runs a
// TestCase on an OpenCL ICD device (PoCL, Oclgrind, any vendor ICD).
//
// Contract:
//  - All OpenCL calls happen in a worker process (RunInChild) with a
//    wall-clock and memory limit: a crashing, hanging or memory-hungry driver
//    cannot take the caller down. The worker sets POCL_KERNEL_CACHE=0 and
//    points POCL_CACHE_DIR at a scratch directory before loading any ICD.
//  - Program: clCreateProgramWithIL when the device reports IL support
//    (CL_DEVICE_IL_VERSION non-empty) and !force_spir_path; otherwise SPIR
//    1.2 bitcode from `llvm-spirv-14 -r` (spir_translate.h, run in the parent
//    before forking) through clCreateProgramWithBinary, built with
//    "-x spir -spir-std=1.2".
//  - Arguments: buffers are copied in (CL_MEM_COPY_HOST_PTR) and read back
//    into Execution::buffers[i]; scalars and by-value structs are passed as
//    their bytes; local arguments as (size, NULL); images and samplers as
//    opencl_images.h says (support checked first: a format, type or size
//    the device lacks is kUnsupported naming the device and the gap;
//    every image is read back, texels tightly packed, into
//    Execution::buffers[i]). The ND-range's offset,
//    global size and local size (NULL when absent) go to
//    clEnqueueNDRangeKernel.
//  - printf: the worker's stdout (fd 1) is redirected to a file while the
//    OpenCL work runs; what the kernel printed between enqueue and finish is
//    Execution::printf_output, anything printed before it goes to the log.
//    The result travels back on the worker's stdout after fd 1 is restored,
//    behind a marker, so kernel output and the result never mix.
//  - Statuses: kOk; kBuildFailed (translation rejected, program build
//    failed — message holds the first error line, log the full build log —,
//    entry point missing, argument count/size rejected); kUnsupported (no
//    OpenCL platform, the launch is refused by the device, e.g.
//    CL_INVALID_WORK_GROUP_SIZE for non-uniform groups); kCrashed (worker or
//    translator died: signal and the tail of stderr); kTimedOut.
//    Execution::wall_time is the kernel's time from enqueue to clFinish.
//  - Error Status only for harness problems and user errors: a PLATFORM
//    substring that matches no platform (NotFound, listing the platforms),
//    no translator installed, no writable scratch directory.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/execution.h"
#include "oracles/process/fork_server.h"
#include "oracles/targets/scratch_dir.h"
#include "spirv/test_case.h"

namespace l0spv::oracles {

struct OpenClTargetOptions {
  // Case-insensitive substring of CL_PLATFORM_NAME; empty = the first
  // platform that has a device. The first device of the platform is used.
  std::string platform;
  // Use the SPIR path even when the device takes SPIR-V directly.
  bool force_spir_path = false;
  std::chrono::milliseconds time_limit{60000};
  // RLIMIT_AS of the worker; 0 = unlimited (see kMemoryLimitsEnforced).
  uint64_t memory_limit_bytes = uint64_t{4} << 30;
  // Parent of the per-run scratch directory; empty = the system temp dir.
  std::string scratch_dir;
  // "NAME=VALUE" entries set in the worker before the ICD loader runs, e.g.
  // OCL_ICD_VENDORS=/dir/with/oclgrind.icd.
  std::vector<std::string> environment;
  // Appended to the build options.
  std::string build_options;
};

absl::StatusOr<Execution> RunOnOpenCl(const spirv::TestCase& test_case,
                                      const OpenClTargetOptions& options);

// A warm OpenCL worker: a fork server (oracles/process/
// fork_server.h) that has set `environment` and loaded the ICD and its
// platforms once, so each batch's worker is forked from it instead of
// from the campaign. Loading Oclgrind's ICD is 25-40 ms of its ~48 ms fixed
// cost per module; PoCL's is ~8% of its. Isolation is unchanged: each
// batch runs in its own grandchild, started from the warmed state.
// A server is replaced after kBatchesPerServer batches or any failure to
// serve; after kMaxFailedStarts failed starts, batches run cold.
// The batch travels to the server in memory (one CBOR document on its
// socket); the batch module is parsed once, not once per launch.
class OpenClWarmWorker {
 public:
  static constexpr uint64_t kBatchesPerServer = 500;
  static constexpr int kMaxFailedStarts = 3;

  OpenClWarmWorker(std::vector<std::string> environment,
                   std::string scratch_parent);
  ~OpenClWarmWorker();

  // The running server, started when needed; nullptr: run cold.
  ForkServer* Server(uint64_t memory_bytes);
  void Retire();
  int starts() const { return starts_; }
  const std::string& last_error() const { return last_error_; }

 private:
  std::vector<std::string> environment_;
  std::string scratch_parent_;
  std::unique_ptr<ForkServer> server_;
  std::unique_ptr<ScratchDir> dir_;
  int starts_ = 0;
  int failed_starts_ = 0;
  std::string last_error_;
};

// The warm worker held in `slot`, made on first use with `environment`
// (an OpenCL target's own); nullptr when `enabled` is false (run cold).
OpenClWarmWorker* WarmWorkerIn(std::unique_ptr<OpenClWarmWorker>& slot,
                               bool enabled,
                               const std::vector<std::string>& environment,
                               const std::string& scratch_parent);

// A batch (Target::RunBatch): the launches share launches[0]'s modules,
// which one worker builds once and then launches one by one (each with its
// own kernel object and buffers, its printf output its own); one Execution
// per launch. A failure of the build or of the worker is every launch's.
// With `warm`, the worker is forked from its server (same results).
absl::StatusOr<std::vector<Execution>> RunBatchOnOpenCl(
    std::span<const spirv::TestCase> launches,
    const OpenClTargetOptions& options, OpenClWarmWorker* warm = nullptr);

}  // namespace l0spv::oracles
