// bench/campaign/campaign_batch_bench.cc — campaign cases/s on one target,
// batched (--batch=16, what --batch=auto picks) against unbatched
// (--batch=off), measured on the campaign itself: the real
// `l0spv-fuzz campaign --target=T --jobs=1 --no_reduce` on the same seeds,
// so everything a batch does not share is in the figure — generation, the
// reference run and spirv-val of every case, the consumer's output run on
// the reference, bisection of batches that do not come back ok, the state
// file. (bench/targets/batch_bench times the consumer alone.)
//
// The time is the campaign's own job time (stats.json case_nanos: the
// groups, not the campaign's start-up, which probes every consumer), set as
// manual time, so items_per_second is cases per job-second: the campaign's
// `yield.cases_per_job_second`. Counters: batches and reruns (cases re-run
// after a batch that was not ok), and target_cases_per_s: cases per second
// of the campaign's time on the target itself (stats.json
// `targets.T.nanos`). A consumer that is missing, or a campaign that fails,
// reports an error.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "nlohmann/json.hpp"
#include "oracles/process/subprocess.h"
#include "oracles/targets/target.h"

namespace l0spv::bench {
namespace {

void BM_CampaignOnTarget(benchmark::State& state, const std::string& target,
                         int cases) {
  const int batch = static_cast<int>(state.range(0));
  if (auto t = oracles::MakeTarget(target); !t.ok()) {
    state.SkipWithError(std::string(t.status().message()).c_str());
    return;
  }
  const std::string out = std::filesystem::temp_directory_path() /
                          absl::StrCat("l0spv_bench_campaign_batch_", getpid());
  double batches = 0, reruns = 0, total_cases = 0;
  double target_runs = 0, target_seconds = 0;
  for (auto _ : state) {
    std::filesystem::remove_all(out);
    oracles::ChildLimits limits;
    limits.wall_time = std::chrono::minutes(10);
    limits.memory_bytes = 0;
    auto run = oracles::RunCommand(
        {std::string(L0SPV_BINARY_DIR) + "/l0spv-fuzz", "campaign",
         "--target=" + target, absl::StrCat("--iterations=", cases), "--jobs=1",
         "--no_reduce", "--seed=5000",
         batch == 1 ? "--batch=off" : absl::StrCat("--batch=", batch),
         "--out=" + out},
        limits);
    std::ifstream in(out + "/stats.json");
    if (!run.ok() || !in) {
      state.SkipWithError(
          run.ok() ? absl::StrCat("no stats.json: ", run->Describe(), " ",
                                  run->stderr_text.substr(0, 200))
                         .c_str()
                   : std::string(run.status().message()).c_str());
      break;
    }
    const nlohmann::json stats = nlohmann::json::parse(in, nullptr, false);
    if (!stats.is_object() || !stats.contains("case_nanos")) {
      state.SkipWithError("stats.json without case_nanos");
      break;
    }
    state.SetIterationTime(stats["case_nanos"].get<double>() * 1e-9);
    total_cases += stats["cases"].get<double>();
    const nlohmann::json& t = stats["targets"][target];
    batches += t.value("batches", 0.0);
    reruns += t.value("reruns", 0.0);
    target_runs += t.value("runs", 0.0);
    target_seconds += t.value("nanos", 0.0) * 1e-9;
  }
  std::filesystem::remove_all(out);
  state.SetItemsProcessed(static_cast<int64_t>(total_cases));
  state.counters["batches"] = benchmark::Counter(batches);
  state.counters["reruns"] = benchmark::Counter(reruns);
  // The campaign's time on this target alone (stats.json targets.T: its
  // batches' shares, building them included, and re-runs): a case's
  // generation and reference run are shared by every target of a campaign
  // on several, so this is the figure that says what batching a consumer
  // buys when the nightly runs them all.
  state.counters["target_cases_per_s"] =
      benchmark::Counter(target_seconds > 0 ? target_runs / target_seconds : 0);
}

// Cases per run: enough for several full batches (spirv-opt's groups hold
// 64 cases), few enough that the unbatched run of a slow consumer stays
// under a minute.
#define L0SPV_CAMPAIGN_BATCH_BENCH(label, target, cases)       \
  BENCHMARK_CAPTURE(BM_CampaignOnTarget, label, target, cases) \
      ->Arg(1)                                                 \
      ->Arg(16)                                                \
      ->Iterations(1)                                          \
      ->UseManualTime()                                        \
      ->Unit(benchmark::kSecond)

L0SPV_CAMPAIGN_BATCH_BENCH(spirv_opt, "spirv-opt", 640);
L0SPV_CAMPAIGN_BATCH_BENCH(llvm_spirv, "llvm-spirv", 192);
L0SPV_CAMPAIGN_BATCH_BENCH(ocloc_tgllp, "ocloc:tgllp", 96);
L0SPV_CAMPAIGN_BATCH_BENCH(oclgrind, "oclgrind", 192);
L0SPV_CAMPAIGN_BATCH_BENCH(opencl_pocl, "opencl:Portable", 48);

}  // namespace
}  // namespace l0spv::bench

BENCHMARK_MAIN();
