// oracles/targets/level_zero_target.h — the `gpu` target: runs a TestCase on
// a Level Zero device through the system loader (libze_loader): Intel GPUs,
// or the l0spv reference driver (oracles/reference/level_zero) when
// ZE_ENABLE_ALT_DRIVERS points at it.
//
// Contract:
//  - All Level Zero calls happen in a worker process (RunInChild) with a
//    wall-clock and memory limit. The worker sets `environment` before
//    zeInit; the caller's ZE_ENABLE_VALIDATION_LAYER /
//    ZE_ENABLE_PARAMETER_VALIDATION are inherited, so the loader's
//    validation layer runs when the user asks for it.
//  - zeInit failing is kUnsupported "no Level Zero driver/device: ..." and
//    nothing else is called: loader 1.8.12 segfaults in zeDriverGet after a
//    failed zeInit (docs/CONSUMERS.md).
//  - Device: every device of every driver is considered; the first whose
//    name contains options.device (case-insensitive; empty = any) is used.
//    Its ze_device_module_properties_t becomes a device profile: a module
//    newer than the device's SPIR-V version, or declaring Float16 / Float64 /
//    Int64Atomics the device lacks, is kUnsupported (not a build failure).
//  - Several modules (TestCase::linked_modules): LevelZeroTargetOptions::link
//    says how; a failure names zeModuleDynamicLink or the program
//    descriptor.
//  - Module from ZE_MODULE_FORMAT_IL_SPIRV with options.build_flags; a
//    failed build is kBuildFailed (message: the first error line; log: the
//    build log). Kernel, argument count, argument values: kBuildFailed when
//    refused. Group size: the test case's local size, else
//    zeKernelSuggestGroupSize; a global size that is not a multiple of it is
//    kUnsupported (Level Zero launches whole groups), and so is a kernel
//    reading get_work_dim() when the test case's dimension count differs
//    from the one drivers derive from the sizes. A non-zero offset uses
//    zeKernelSetGlobalOffsetExp (kUnsupported when the driver lacks it).
//  - Buffers: zeMemAllocShared, written and read by the host; an empty
//    buffer is passed as a null pointer. One regular command list on an
//    asynchronous queue; zeCommandQueueSynchronize with the time limit
//    (NOT_READY -> kTimedOut; another error -> kCrashed naming it).
//  - printf and interpreter verdicts: when the driver offers the l0spv
//    reference extension (l0spv_reference_ext.h), the launch report gives
//    printf output and ub-detected / unsupported / timed-out verdicts;
//    otherwise printf output is what the worker wrote to stdout.
//  - Error Status only for harness problems and user errors: options.device
//    matching no device is NotFound listing the devices.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/execution.h"
#include "spirv/test_case.h"

namespace l0spv::oracles {

// How a case of several modules is linked: zeModuleDynamicLink of modules
// created one by one, or one zeModuleCreate with every module in a
// ze_module_program_exp_desc_t (when the driver offers
// ZE_experimental_module_program; otherwise zeModuleDynamicLink). kEither
// takes the descriptor for the cases whose module hash is odd, so a
// campaign exercises both.
enum class LevelZeroLink { kEither, kDynamicLink, kProgram };

struct LevelZeroTargetOptions {
  // Case-insensitive substring of ze_device_properties_t::name; empty = the
  // first device of the first driver.
  std::string device;
  std::chrono::milliseconds time_limit{60000};
  // RLIMIT_AS of the worker; 0 = unlimited (see kMemoryLimitsEnforced).
  uint64_t memory_limit_bytes = uint64_t{4} << 30;
  // "NAME=VALUE" entries set in the worker before zeInit, e.g.
  // ZE_ENABLE_ALT_DRIVERS=/abs/path/libze_l0spv_reference.so; a bare "NAME"
  // unsets NAME.
  std::vector<std::string> environment;
  // pBuildFlags of zeModuleCreate.
  std::string build_flags;
  LevelZeroLink link = LevelZeroLink::kEither;
};

absl::StatusOr<Execution> RunOnLevelZero(const spirv::TestCase& test_case,
                                         const LevelZeroTargetOptions& options);

}  // namespace l0spv::oracles
