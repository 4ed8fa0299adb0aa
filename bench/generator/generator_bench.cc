// Benchmarks of generators/kernel (the speed goal: >= 1,000 valid test
// cases per second per core at a median of ~300 instructions, generation
// alone). Each iteration generates the next seed, so the figure is an
// average over the swarm's mix of sizes and features.
#include <cstdint>

#include "benchmark/benchmark.h"
#include "generators/kernel/generator.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"

namespace l0spv::generators::kernel {
namespace {

void BM_Generate(benchmark::State& state) {
  GeneratorOptions options;
  uint64_t instructions = 0;
  for (auto _ : state) {
    auto tc = GenerateTestCase(options);
    benchmark::DoNotOptimize(tc);
    instructions += tc->module_words.size();
    ++options.seed;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["words/case"] = benchmark::Counter(
      static_cast<double>(instructions) / state.iterations());
}
BENCHMARK(BM_Generate)->Unit(benchmark::kMicrosecond);

void BM_GenerateAndValidate(benchmark::State& state) {
  GeneratorOptions options;
  for (auto _ : state) {
    auto tc = GenerateTestCase(options);
    // Universal environment: SPIRV-Tools' OpenCL 2.2 environment rejects
    // Float16/Int64Atomics, which the full profile allows
    // (oracles/validity/README.md).
    const absl::Status s =
        spirv::Validate(tc->module_words, SPV_ENV_UNIVERSAL_1_2);
    if (!s.ok()) state.SkipWithError("generated module failed spirv-val");
    ++options.seed;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GenerateAndValidate)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace l0spv::generators::kernel

BENCHMARK_MAIN();
