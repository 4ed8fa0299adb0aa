// bench/reference/reference_bench.cc — instructions per second of the
// reference interpreter on three kernel shapes (bench_kernels.h). Runs skip
// spirv-val so the figure is interpretation speed alone.
#include <string>

#include "bench/reference/bench_kernels.h"
#include "benchmark/benchmark.h"
#include "oracles/reference/interpreter.h"

namespace l0spv::oracles::reference {
namespace {

// Which optional checks a benchmark runs with (the default options run
// with race detection on).
enum class Checks { kDefault, kNone, kAll };

void RunKernel(benchmark::State& state, bench::BenchKernel kernel,
               Checks checks = Checks::kDefault) {
  auto tc = bench::KernelCase(kernel);
  if (!tc.ok()) {
    state.SkipWithError(std::string(tc.status().message()).c_str());
    return;
  }
  ReferenceOptions opts;
  opts.skip_validation = true;
  opts.step_budget = uint64_t{1} << 40;
  if (checks == Checks::kNone) opts.check_races = false;
  if (checks == Checks::kAll) {
    opts.check_races = true;
    opts.check_uninitialized = true;
  }
  uint64_t instructions = 0;
  for (auto _ : state) {
    Execution e = RunReference(*tc, opts);
    if (e.status != ExecutionStatus::kOk) {
      state.SkipWithError(e.message.c_str());
      return;
    }
    instructions += e.instructions_executed;
    benchmark::DoNotOptimize(e.buffers);
  }
  state.SetItemsProcessed(static_cast<int64_t>(instructions));
  state.counters["instructions"] = static_cast<double>(instructions) /
                                   static_cast<double>(state.iterations());
}

void BM_ReferenceAluLoop(benchmark::State& state) {
  RunKernel(state, bench::BenchKernel::kAlu);
}
BENCHMARK(BM_ReferenceAluLoop)->Unit(benchmark::kMillisecond);

void BM_ReferenceMemoryLoop(benchmark::State& state) {
  RunKernel(state, bench::BenchKernel::kMemory);
}
BENCHMARK(BM_ReferenceMemoryLoop)->Unit(benchmark::kMillisecond);

void BM_ReferenceBarrierLoop(benchmark::State& state) {
  RunKernel(state, bench::BenchKernel::kBarrier);
}
BENCHMARK(BM_ReferenceBarrierLoop)->Unit(benchmark::kMillisecond);

void BM_ReferenceImageLoop(benchmark::State& state) {
  RunKernel(state, bench::BenchKernel::kImage);
}
BENCHMARK(BM_ReferenceImageLoop)->Unit(benchmark::kMillisecond);

// The same kernels without any optional check, and with every check on:
// the cost of race detection and uninitialised-read shadows.
void BM_ReferenceAluLoopNoChecks(benchmark::State& state) {
  RunKernel(state, bench::BenchKernel::kAlu, Checks::kNone);
}
BENCHMARK(BM_ReferenceAluLoopNoChecks)->Unit(benchmark::kMillisecond);
void BM_ReferenceMemoryLoopNoChecks(benchmark::State& state) {
  RunKernel(state, bench::BenchKernel::kMemory, Checks::kNone);
}
BENCHMARK(BM_ReferenceMemoryLoopNoChecks)->Unit(benchmark::kMillisecond);
void BM_ReferenceBarrierLoopNoChecks(benchmark::State& state) {
  RunKernel(state, bench::BenchKernel::kBarrier, Checks::kNone);
}
BENCHMARK(BM_ReferenceBarrierLoopNoChecks)->Unit(benchmark::kMillisecond);
void BM_ReferenceAluLoopAllChecks(benchmark::State& state) {
  RunKernel(state, bench::BenchKernel::kAlu, Checks::kAll);
}
BENCHMARK(BM_ReferenceAluLoopAllChecks)->Unit(benchmark::kMillisecond);
void BM_ReferenceMemoryLoopAllChecks(benchmark::State& state) {
  RunKernel(state, bench::BenchKernel::kMemory, Checks::kAll);
}
BENCHMARK(BM_ReferenceMemoryLoopAllChecks)->Unit(benchmark::kMillisecond);
void BM_ReferenceBarrierLoopAllChecks(benchmark::State& state) {
  RunKernel(state, bench::BenchKernel::kBarrier, Checks::kAll);
}
BENCHMARK(BM_ReferenceBarrierLoopAllChecks)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace l0spv::oracles::reference
