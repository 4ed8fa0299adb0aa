// bench/reference/bench_kernels.h — the SPIR-V assembly kernels the
// reference benchmarks run (an ALU-bound loop, a memory-bound loop, a
// barrier-heavy kernel and an image-sampling kernel) and their launches, shared
// by the reference-only and the reference-vs-Oclgrind benchmarks.
//
// Contract: every kernel has entry point "k"; KernelCase assembles the
// prelude plus the body (or returns the assembler's error).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "spirv/test_case.h"

namespace l0spv::bench {

enum class BenchKernel { kAlu, kMemory, kBarrier, kImage };
const char* BenchKernelName(BenchKernel kernel);

// The module and launch used by the benchmarks for `kernel`.
absl::StatusOr<spirv::TestCase> KernelCase(BenchKernel kernel);

}  // namespace l0spv::bench
