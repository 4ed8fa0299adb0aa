// bench/reference/oclgrind_bench.cc — the reference interpreter side by side
// with Oclgrind (the speed goal: >= 10x faster) on the same kernels
// (bench_kernels.h). Each iteration runs the kernel on `ref` and on Oclgrind
// (through the opencl target's SPIR path, its ICD registered via
// OCL_ICD_VENDORS); the counters give both rates in SPIR-V instructions per
// second (the count is the reference's) and the ratio.
//   ref_ips / oclgrind_ips   instructions per second of each
//   speedup                  oclgrind kernel time / ref time
//   oclgrind_total_s         Oclgrind's whole run per launch (worker start,
//                            llvm-spirv, LLVM build, kernel)
// Oclgrind's kernel time is measured from enqueue to clFinish, so its build
// is not counted against it; ref's time is the whole RunReference call
// (decode + run, validation skipped).
// BM_RefVsOclgrind compares the default configurations' checks (bounds on
// both sides, no race detection); BM_RefVsOclgrindDataRaces turns race
// detection on on both sides (ref's check_races, Oclgrind's data-race
// plugin).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench/reference/bench_kernels.h"
#include "benchmark/benchmark.h"
#include "oracles/reference/interpreter.h"
#include "oracles/targets/opencl_target.h"

namespace l0spv::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr char kOclgrindIcd[] = "/usr/lib/oclgrind/liboclgrind-rt-icd.so";

// A vendors directory holding only Oclgrind's ICD ("" when not installed).
const std::string& OclgrindVendorsDir() {
  static const std::string* dir = [] {
    if (!std::filesystem::exists(kOclgrindIcd)) return new std::string;
    const auto d = std::filesystem::temp_directory_path() /
                   ("l0spv-oclgrind-icd-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    std::ofstream(d / "oclgrind.icd") << kOclgrindIcd << "\n";
    return new std::string(d.string());
  }();
  return *dir;
}

// Which optional checks both sides run. Oclgrind always checks the bounds
// of memory accesses, as ref always does; its data-race plugin is off by
// default (OCLGRIND_DATA_RACES=1 turns it on), as is ref's race detection
// in the like-for-like comparison.
enum class Checks { kDefault, kDataRaces };

void RefVsOclgrind(benchmark::State& state, BenchKernel kernel, Checks checks) {
  if (OclgrindVendorsDir().empty()) {
    state.SkipWithError("Oclgrind not installed (apt-get install oclgrind)");
    return;
  }
  auto tc = KernelCase(kernel);
  if (!tc.ok()) {
    state.SkipWithError(std::string(tc.status().message()).c_str());
    return;
  }
  oracles::reference::ReferenceOptions ref_options;
  ref_options.skip_validation = true;
  ref_options.step_budget = uint64_t{1} << 40;
  ref_options.check_races = checks == Checks::kDataRaces;
  oracles::OpenClTargetOptions cl_options;
  cl_options.platform = "Oclgrind";
  cl_options.time_limit = std::chrono::minutes(10);
  cl_options.environment = {"OCL_ICD_VENDORS=" + OclgrindVendorsDir()};
  if (checks == Checks::kDataRaces)
    cl_options.environment.push_back("OCLGRIND_DATA_RACES=1");

  double ref_s = 0, ocl_s = 0, ocl_total_s = 0, instructions = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    const oracles::Execution ref =
        oracles::reference::RunReference(*tc, ref_options);
    const auto t1 = Clock::now();
    if (ref.status != oracles::ExecutionStatus::kOk) {
      state.SkipWithError(("ref: " + ref.message).c_str());
      return;
    }
    auto ocl = oracles::RunOnOpenCl(*tc, cl_options);
    const auto t2 = Clock::now();
    if (!ocl.ok()) {
      state.SkipWithError(std::string(ocl.status().message()).c_str());
      return;
    }
    if (ocl->status != oracles::ExecutionStatus::kOk) {
      state.SkipWithError(("oclgrind: " + ocl->message).c_str());
      return;
    }
    if (ocl->buffers != ref.buffers) {
      state.SkipWithError("ref and Oclgrind disagree on the result");
      return;
    }
    ref_s += std::chrono::duration<double>(t1 - t0).count();
    ocl_s += std::chrono::duration<double>(ocl->wall_time).count();
    ocl_total_s += std::chrono::duration<double>(t2 - t1).count();
    instructions += static_cast<double>(ref.instructions_executed);
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["instructions"] = instructions / n;
  state.counters["ref_ips"] = instructions / ref_s;
  state.counters["oclgrind_ips"] = instructions / ocl_s;
  state.counters["speedup"] = ocl_s / ref_s;
  state.counters["ref_s"] = ref_s / n;
  state.counters["oclgrind_kernel_s"] = ocl_s / n;
  state.counters["oclgrind_total_s"] = ocl_total_s / n;
}

void BM_RefVsOclgrind(benchmark::State& state, BenchKernel kernel) {
  RefVsOclgrind(state, kernel, Checks::kDefault);
}
void BM_RefVsOclgrindDataRaces(benchmark::State& state, BenchKernel kernel) {
  RefVsOclgrind(state, kernel, Checks::kDataRaces);
}

BENCHMARK_CAPTURE(BM_RefVsOclgrind, alu, BenchKernel::kAlu)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_RefVsOclgrind, memory, BenchKernel::kMemory)
    ->Unit(benchmark::kSecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_RefVsOclgrind, barrier, BenchKernel::kBarrier)
    ->Unit(benchmark::kSecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_RefVsOclgrind, image, BenchKernel::kImage)
    ->Unit(benchmark::kSecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_RefVsOclgrindDataRaces, memory, BenchKernel::kMemory)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_RefVsOclgrindDataRaces, barrier, BenchKernel::kBarrier)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

}  // namespace
}  // namespace l0spv::bench
