// Transformations per second on a ~1,000-instruction generated kernel,
// precondition checks included, validation excluded (issue 6 goal:
// >= 10,000/s). Also: replaying a 200-record log, and the swarm mix.
#include <benchmark/benchmark.h>

#include "generators/kernel/generator.h"
#include "generators/transform/engine.h"
#include "spirv/binary.h"

namespace l0spv::generators::transform {
namespace {

// The first generated case (from seed 0 up) with >= 1,000 instructions.
const spirv::TestCase& LargeCase() {
  static const spirv::TestCase* tc = [] {
    for (uint64_t seed = 0;; ++seed) {
      generators::kernel::GeneratorOptions g;
      g.seed = seed;
      g.max_statements = 200;
      auto c = generators::kernel::GenerateTestCase(g);
      if (!c.ok()) continue;
      auto m = spirv::ReadModuleWords(c->module_words);
      if (m.ok() && m->InstructionCount() >= 1000 &&
          m->InstructionCount() < 1400)
        return new spirv::TestCase(*c);
    }
  }();
  return *tc;
}

// A swarm mix of kinds (as campaigns use), 200 transformations per run.
void BM_TransformAllKinds(benchmark::State& state) {
  const spirv::TestCase& tc = LargeCase();
  uint64_t applied = 0, seed = 0;
  for (auto _ : state) {
    TransformOptions o;
    o.seed = seed++;
    o.count = 200;
    o.validate_input = false;
    auto r = Transform(tc, o);
    for (const auto& [kind, n] : r->applied) applied += n;
    benchmark::DoNotOptimize(r->test_case.module_words.data());
  }
  state.counters["transformations/s"] = benchmark::Counter(
      static_cast<double>(applied), benchmark::Counter::kIsRate);
  state.counters["instructions"] = static_cast<double>(
      spirv::ReadModuleWords(tc.module_words)->InstructionCount());
}
BENCHMARK(BM_TransformAllKinds)->Unit(benchmark::kMillisecond);

void BM_ReplayLog(benchmark::State& state) {
  const spirv::TestCase& tc = LargeCase();
  TransformOptions o;
  o.seed = 1;
  o.count = 200;
  const TransformResult r = Transform(tc, o).value();
  const size_t records = r.log["records"].size();
  for (auto _ : state) {
    auto again = Replay(tc, r.log);
    benchmark::DoNotOptimize(again->test_case.module_words.data());
  }
  state.counters["records/s"] =
      benchmark::Counter(static_cast<double>(records * state.iterations()),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ReplayLog)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace l0spv::generators::transform

BENCHMARK_MAIN();
