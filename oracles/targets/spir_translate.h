// oracles/targets/spir_translate.h — SPIR-V → SPIR 1.2 LLVM bitcode through
// SPIRV-LLVM-Translator (`llvm-spirv-14 -r`), the path by which OpenCL devices
// without IL support (PoCL, Oclgrind) receive a module.
//
// Contract: the translator runs as a separate process (RunCommand) in a
// fresh directory under `scratch_dir` with a wall-clock and memory limit; the
// directory is removed afterwards. How the translator ended is a value
// (SpirTranslation::status): kOk with the bitcode, kBuildFailed when it
// rejected the module (non-zero exit), kCrashed (signal), kTimedOut. Only
// harness problems (no translator installed, scratch directory not writable,
// fork failure) are an error Status, with a message saying what to fix.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/execution.h"
#include "oracles/process/subprocess.h"

namespace l0spv::oracles {

struct SpirTranslateOptions {
  // Executable; empty = the first of llvm-spirv-14, llvm-spirv found in PATH.
  std::string translator;
  ChildLimits limits;
  // Parent of the per-call working directory; empty = the system temp dir.
  std::string scratch_dir;
};

struct SpirTranslation {
  ExecutionStatus status = ExecutionStatus::kOk;
  std::string message;  // for any status but kOk: what went wrong
  std::string log;      // the translator's stderr (tail)
  std::vector<uint8_t> bitcode;
};

absl::StatusOr<SpirTranslation> TranslateToSpir(
    const std::vector<uint32_t>& module_words,
    const SpirTranslateOptions& options);

}  // namespace l0spv::oracles
