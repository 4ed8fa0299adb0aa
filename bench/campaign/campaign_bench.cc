// The campaign's harness overhead per case (the goal: below 5% of the
// cheapest real target's time). A campaign job does, per case, outside any
// Target::Run: generate the case, judge the reference and each target,
// rewrite its state file twice (before and after the case) and, rarely,
// record a finding. BM_HarnessPerCase times exactly those steps with one
// target whose Run is free (it returns the reference's execution), so the
// figure is everything except the targets' own work. Compare with
// bench/targets (the cheapest real target, spirv-opt, takes ~28 ms).
#include <filesystem>
#include <string>

#include "benchmark/benchmark.h"
#include "fuzzers/campaign/stats.h"
#include "generators/kernel/generator.h"
#include "nlohmann/json.hpp"
#include "oracles/reference/interpreter.h"
#include "oracles/verdict/verdict.h"
#include "spirv/binary.h"

namespace l0spv::fuzzers::campaign {
namespace {

void BM_HarnessPerCase(benchmark::State& state) {
  const std::string dir = std::filesystem::temp_directory_path() /
                          ("l0spv_bench_campaign_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  generators::kernel::GeneratorOptions options;
  CampaignStats stats;
  // The reference's execution is computed outside the timed region: it is
  // a target's own work.
  std::vector<std::pair<spirv::TestCase, oracles::Execution>> cases;
  for (uint64_t seed = 0; seed < 64; ++seed) {
    options.seed = seed;
    auto tc = generators::kernel::GenerateTestCase(options);
    cases.emplace_back(*tc, oracles::reference::RunReference(
                                *tc, oracles::reference::ReferenceOptions{}));
  }
  uint64_t i = 0;
  for (auto _ : state) {
    const auto& [unused, reference] = cases[i % cases.size()];
    options.seed = i % cases.size();
    auto tc = generators::kernel::GenerateTestCase(options);
    const nlohmann::json before{{"next", i}, {"stats", stats.ToJson()}};
    const std::string b = before.dump(2);
    (void)spirv::WriteFileBytes(dir + "/job-0.json",
                                std::vector<uint8_t>(b.begin(), b.end()));
    const oracles::Verdict rv = oracles::JudgeReference(reference);
    stats.targets["ref"].Count(rv.kind, 0);
    const oracles::Verdict v =
        oracles::Judge(*tc, reference, "free", true, reference);
    stats.targets["free"].Count(v.kind, 0);
    ++stats.cases;
    const nlohmann::json after{
        {"next", i + 1}, {"running_seed", -1}, {"stats", stats.ToJson()}};
    const std::string a = after.dump(2);
    (void)spirv::WriteFileBytes(dir + "/job-0.json",
                                std::vector<uint8_t>(a.begin(), a.end()));
    ++i;
  }
  std::filesystem::remove_all(dir);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HarnessPerCase)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace l0spv::fuzzers::campaign

BENCHMARK_MAIN();
