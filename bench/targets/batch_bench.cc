// bench/targets/batch_bench.cc — a consumer's fixed cost per module and its
// marginal cost per extra kernel, from Target::RunBatch on K
// generated kernels merged into one module (spirv/kernel_batch.h), for
// K = 1, 2, 4, 8, 16. Every target here builds the batch once and runs each
// launch (the reference stage of spirv-opt/llvm-spirv per launch, in its
// own worker). items_per_second is cases/s; bench/run derives the
// marginal cost (T(16) - T(1)) / 15 and the fixed cost T(1) - marginal.
// Kernels are generated as a campaign on that target would (its known bugs
// avoided); the same K seeds for every target. A consumer that is missing,
// or a batch that does not come back ok, reports an error. BM_BatchRunCold:
// the OpenCL targets without warm workers, at K = 1 and 16.
// BM_SpirvOptProcess: the spirv-opt process alone, nothing of ours, on the
// same 16 cases one module at a time (1) and as one batch (16): what bounds
// batching spirv-opt.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "generators/kernel/generator.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_kinds.h"
#include "spirv/kernel_batch.h"
#include "spirv/spirv_tools.h"

namespace l0spv::bench {
namespace {

// K generated cases for `target`, seeds 1000.. (kernels of every size the
// generator draws; the same seeds for every K, so T(K) grows by whole cases).
std::vector<spirv::TestCase> Cases(const std::string& target, int k) {
  generators::kernel::GeneratorOptions g;
  g.avoid_known_bugs = oracles::ConsumersOfTarget(target);
  g.max_spirv_version = oracles::NewestSpirvVersionOfTarget(target);
  // ocloc:DEVICE campaigns generate for the device's profile (--profile=auto).
  if (target.rfind("ocloc:", 0) == 0) g.profile = target.substr(6);
  std::vector<spirv::TestCase> cases;
  for (uint64_t seed = 1000; cases.size() < static_cast<size_t>(k); ++seed) {
    g.seed = seed;
    auto tc = generators::kernel::GenerateTestCase(g);
    if (tc.ok()) cases.push_back(*std::move(tc));
  }
  return cases;
}

void BM_BatchRunWith(benchmark::State& state, const std::string& name,
                     bool warm) {
  const int k = static_cast<int>(state.range(0));
  oracles::TargetOptions options;
  options.warm_workers = warm;
  auto target = oracles::MakeTarget(name, options);
  if (!target.ok()) {
    state.SkipWithError(std::string(target.status().message()).c_str());
    return;
  }
  const std::vector<spirv::TestCase> cases = Cases(name, k);
  auto launches = spirv::BatchKernels(cases);
  if (!launches.ok()) {
    state.SkipWithError(std::string(launches.status().message()).c_str());
    return;
  }
  oracles::TargetRunLimits limits;
  for (auto _ : state) {
    // New to the campaign, as in bench/targets/target_bench: a new
    // generator word, so neither the module nor a consumer's output (spirv-opt
    // keeps the word) is a validation spirv::Validate remembers; a single
    // case was validated by the reference first (untimed: not this target's
    // work); a batch is not validated again (Target::RunBatch).
    state.PauseTiming();
    for (spirv::TestCase& l : *launches) ++l.module_words[2];
    if (k == 1) (void)spirv::Validate(launches->front().module_words);
    state.ResumeTiming();
    const std::vector<oracles::Execution> results =
        (*target)->RunBatch(*launches, limits);
    for (const oracles::Execution& e : results) {
      if (e.status != oracles::ExecutionStatus::kOk) {
        state.SkipWithError(e.message.c_str());
        return;
      }
    }
    benchmark::DoNotOptimize(results.data());
  }
  // items_per_second: cases per second of this consumer alone.
  state.SetItemsProcessed(state.iterations() * k);
}

void BM_BatchRun(benchmark::State& state, const std::string& name) {
  BM_BatchRunWith(state, name, /*warm=*/true);
}

// The OpenCL targets with every batch's worker forked from the caller, as
// before warm workers (OpenClWarmWorker): the difference is the ICD's load
// and platform set-up per batch.
void BM_BatchRunCold(benchmark::State& state, const std::string& name) {
  BM_BatchRunWith(state, name, /*warm=*/false);
}

// `spirv-opt --target-env=spvV --skip-validation -O in -o out`, started as
// the spirv-opt target starts it (oracles/process RunCommand) on modules it
// validated: on each of 16 single-kernel modules (arg 1) or on the module
// batching them (arg 16). No reference run of the output and no validation:
// how much of spirv-opt's own time a batch removes. Its start-up (~1.6 ms)
// is shared; -O on each kernel (~1.2-1.8 ms) is not.
void BM_SpirvOptProcess(benchmark::State& state) {
  constexpr int kCases = 16;
  const int k = static_cast<int>(state.range(0));
  auto program = oracles::FindProgram("spirv-opt");
  if (!program) {
    state.SkipWithError("spirv-opt is not installed");
    return;
  }
  const std::vector<spirv::TestCase> cases = Cases("spirv-opt", kCases);
  std::vector<std::vector<uint32_t>> modules;
  if (k == 1) {
    for (const spirv::TestCase& c : cases) modules.push_back(c.module_words);
  } else {
    auto batch = spirv::BatchKernels(cases);
    if (!batch.ok()) {
      state.SkipWithError(std::string(batch.status().message()).c_str());
      return;
    }
    modules.push_back(batch->front().module_words);
  }
  char dir_template[] = "/tmp/l0spv-opt-bench-XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  std::vector<std::vector<std::string>> commands;
  for (size_t i = 0; i < modules.size(); ++i) {
    const std::string in = absl::StrCat(dir, "/in-", i, ".spv");
    std::ofstream out(in, std::ios::binary);
    out.write(reinterpret_cast<const char*>(modules[i].data()),
              static_cast<std::streamsize>(modules[i].size() * 4));
    if (!out.flush()) {
      state.SkipWithError(absl::StrCat("cannot write ", in).c_str());
      std::filesystem::remove_all(dir);
      return;
    }
    const uint32_t v = modules[i][1];
    commands.push_back({*program,
                        absl::StrCat("--target-env=spv", (v >> 16) & 0xff, ".",
                                     (v >> 8) & 0xff),
                        "--skip-validation", "-O", in, "-o",
                        absl::StrCat(dir, "/out.spv")});
  }
  oracles::ChildLimits limits;
  for (auto _ : state) {
    for (const std::vector<std::string>& argv : commands) {
      auto r = oracles::RunCommand(argv, limits);
      if (!r.ok() || !r->Succeeded()) {
        state.SkipWithError(r.ok() ? r->stderr_text.c_str()
                                   : std::string(r.status().message()).c_str());
        break;
      }
    }
  }
  std::filesystem::remove_all(dir);
  state.SetItemsProcessed(state.iterations() * kCases);
}
BENCHMARK(BM_SpirvOptProcess)
    ->Arg(1)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

#define L0SPV_BATCH_BENCH(label, name)        \
  BENCHMARK_CAPTURE(BM_BatchRun, label, name) \
      ->RangeMultiplier(2)                    \
      ->Range(1, 16)                          \
      ->Unit(benchmark::kMillisecond)         \
      ->UseRealTime()

L0SPV_BATCH_BENCH(spirv_opt, "spirv-opt");
L0SPV_BATCH_BENCH(llvm_spirv, "llvm-spirv");
L0SPV_BATCH_BENCH(ocloc_tgllp, "ocloc:tgllp");
L0SPV_BATCH_BENCH(oclgrind, "oclgrind");
L0SPV_BATCH_BENCH(opencl_pocl, "opencl:Portable")->Iterations(3);
// Intel's OpenCL CPU runtime from PyPI (ci/install-consumers.sh), IL path.
L0SPV_BATCH_BENCH(opencl_intel_cpu, "opencl:Intel(R) OpenCL")->Iterations(3);
// Releases side by side: Debian's spirv-opt and llvm-spirv beside the bare
// names' PyPI ones.
L0SPV_BATCH_BENCH(spirv_opt_2023_1, "spirv-opt@2023.1");
L0SPV_BATCH_BENCH(llvm_spirv_14, "llvm-spirv@14");
BENCHMARK_CAPTURE(BM_BatchRunCold, oclgrind, "oclgrind")
    ->Arg(1)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_BatchRunCold, opencl_pocl, "opencl:Portable")
    ->Arg(1)
    ->Arg(16)
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace l0spv::bench
