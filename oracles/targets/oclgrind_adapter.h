// oracles/targets/oclgrind_adapter.h — the `oclgrind` target: the Oclgrind
// OpenCL device simulator, reached through its ICD library on the SPIR path
// (SPIR-V → `llvm-spirv -r` → SPIR 1.2 bitcode), like PoCL, with its error
// reports surfaced.
//
// Contract:
//  - Runs through RunOnOpenCl in a worker whose ICD loader sees only a
//    private vendors directory listing liboclgrind-rt-icd.so
//    (OCL_ICD_VENDORS), so the system's ICDs are never loaded. Oclgrind's
//    checks are switched on through its environment (invalid memory
//    accesses and API-usage checks always; data races and uninitialized
//    values per TargetOptions) and its reports go to a per-run log file
//    (OCLGRIND_LOG), separate from kernel printf output.
//  - A run whose kernel completed but for which Oclgrind reported errors is
//    kUbDetected (never kOk): message "Oclgrind reported N error(s): <first
//    report's heading> (<its kernel/entity lines>)", hexadecimal addresses
//    normalized; buffers are kept; the full report is in `log`.
//  - An "OCLGRIND FATAL ERROR" (Oclgrind gave up: an instruction or pointer
//    size it does not implement) is kCrashed, "Oclgrind internal error:
//    ...": the simulator's failure, and the buffers are incomplete. The
//    one exception is its refusal of read_imagei/write_imagei on an
//    UnsignedInt image ("Unsupported image channel data type: 10DA..10DC"),
//    which llvm-spirv -r causes by turning read_imageui into read_imagei
//    (known-consumer-bugs/llvm_spirv_image_unsigned): kCrashed too, but the
//    message names that cause instead of "Oclgrind internal error".
//  - Otherwise statuses are RunOnOpenCl's (kBuildFailed, kCrashed, ...).
//  - MakeOclgrindTarget: FailedPrecondition when Oclgrind or its ICD library
//    is missing. TargetOptions::program may name the ICD library.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "oracles/targets/target.h"

namespace l0spv::oracles {

absl::StatusOr<std::unique_ptr<Target>> MakeOclgrindTarget(
    const TargetOptions& options);

}  // namespace l0spv::oracles
