// bench/targets/target_bench.cc — wall time of one Target::Run (MakeTarget,
// oracles/targets/target.h) per target on the corpus kernel int_builtins
// (128 work-items, integer built-ins): what a campaign pays per case and
// target, everything included (worker fork, tool processes, scratch files,
// the consumer's own work). `ref/in_process` against `ref/worker` is the
// cost of the worker process. A target whose consumer is missing reports
// an error instead of a time.
#include <string>

#include "benchmark/benchmark.h"
#include "oracles/targets/target.h"
#include "spirv/launch_spec.h"
#include "spirv/spirv_tools.h"

namespace l0spv::bench {
namespace {

const spirv::TestCase* CorpusCase() {
  static const spirv::TestCase* tc = []() -> const spirv::TestCase* {
    auto entries = spirv::ReadCorpusManifest(std::string(L0SPV_BINARY_DIR) +
                                             "/corpora/corpus_manifest.txt");
    if (!entries.ok()) return nullptr;
    for (const spirv::CorpusEntry& e : *entries) {
      if (e.name != "int_builtins") continue;
      auto loaded = spirv::LoadSidecarCase(e.spv_path, e.json_path);
      if (loaded.ok()) return new spirv::TestCase(*std::move(loaded));
    }
    return nullptr;
  }();
  return tc;
}

void BM_TargetRun(benchmark::State& state, const std::string& name,
                  bool ref_in_process) {
  const spirv::TestCase* tc = CorpusCase();
  if (tc == nullptr) {
    state.SkipWithError("corpus kernel int_builtins not built");
    return;
  }
  oracles::TargetOptions options;
  options.ref_in_process = ref_in_process;
  auto target = oracles::MakeTarget(name, options);
  if (!target.ok()) {
    state.SkipWithError(std::string(target.status().message()).c_str());
    return;
  }
  oracles::TargetRunLimits limits;
  // A case is new to the campaign: each run changes the header's generator
  // word (any value is valid; spirv-opt keeps it in its output), so no
  // validation is answered from spirv::Validate's memory of recent passes
  // unless the campaign would have made it: the reference validates every
  // case before any other target runs, untimed here as it is not theirs.
  spirv::TestCase fresh = *tc;
  for (auto _ : state) {
    state.PauseTiming();
    ++fresh.module_words[2];
    if (name != "ref") (void)spirv::Validate(fresh.module_words);
    state.ResumeTiming();
    const oracles::Execution e = (*target)->Run(fresh, limits);
    if (e.status != oracles::ExecutionStatus::kOk) {
      state.SkipWithError(e.message.c_str());
      return;
    }
    benchmark::DoNotOptimize(e.buffers.data());
  }
}

// The capture label is the benchmark name, slash and all.
// clang-format off
BENCHMARK_CAPTURE(BM_TargetRun, ref/in_process, "ref", true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TargetRun, ref/worker, "ref", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TargetRun, spirv_opt, "spirv-opt", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TargetRun, llvm_spirv, "llvm-spirv", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TargetRun, ocloc_tgllp, "ocloc:tgllp", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TargetRun, oclgrind, "oclgrind", false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TargetRun, opencl_pocl, "opencl:Portable", false)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);
// clang-format on

}  // namespace
}  // namespace l0spv::bench
