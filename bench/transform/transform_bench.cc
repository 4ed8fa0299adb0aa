// Transformations per second on a ~1,000-instruction generated kernel,
// precondition checks included, validation excluded (the goal:
// >= 10,000/s). Also: replaying a 200-record log, the swarm mix, and the
// case-level kinds (split_module, duplicate_linkonce) with the link a split
// case costs every reference run.
#include <benchmark/benchmark.h>

#include "generators/kernel/generator.h"
#include "generators/transform/duplicate_linkonce.h"
#include "generators/transform/engine.h"
#include "generators/transform/split_module.h"
#include "spirv/binary.h"
#include "spirv/link.h"

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

// The case-level kinds and the link every run of a split case pays (ref
// links the modules before it runs): a campaign with --split does each once
// per case. The large case, transformed (outline_region gives it helper
// functions to move), split into three modules.
const spirv::TestCase& SplitCaseInput() {
  static const spirv::TestCase* tc = [] {
    TransformOptions o;
    o.seed = 3;
    o.count = 60;
    o.kinds = {"outline_region", "split_block"};
    o.validate_input = false;
    return new spirv::TestCase(Transform(LargeCase(), o)->test_case);
  }();
  return *tc;
}

void BM_SplitModule(benchmark::State& state) {
  const spirv::TestCase& tc = SplitCaseInput();
  uint64_t seed = 0;
  for (auto _ : state) {
    auto split = SplitModule(tc, {.seed = seed++, .modules = 3});
    benchmark::DoNotOptimize(split->test_case.module_words.data());
  }
}
BENCHMARK(BM_SplitModule)->Unit(benchmark::kMicrosecond);

void BM_DuplicateLinkOnce(benchmark::State& state) {
  const spirv::TestCase split =
      SplitModule(SplitCaseInput(), {.seed = 1, .modules = 3})->test_case;
  uint64_t seed = 0;
  for (auto _ : state) {
    auto copied = DuplicateLinkOnce(split, {.seed = seed++});
    benchmark::DoNotOptimize(copied.ok());
  }
}
BENCHMARK(BM_DuplicateLinkOnce)->Unit(benchmark::kMicrosecond);

void BM_LinkSplitCase(benchmark::State& state) {
  const spirv::TestCase split =
      SplitModule(SplitCaseInput(), {.seed = 1, .modules = 3})->test_case;
  for (auto _ : state) {
    auto linked = spirv::LinkTestCase(split);
    benchmark::DoNotOptimize(linked->module_words.data());
  }
  state.counters["instructions"] =
      static_cast<double>(spirv::ReadModuleWords(SplitCaseInput().module_words)
                              ->InstructionCount());
}
BENCHMARK(BM_LinkSplitCase)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace l0spv::generators::transform

BENCHMARK_MAIN();
