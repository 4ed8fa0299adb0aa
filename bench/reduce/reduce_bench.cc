// Seconds per reduction of an injected-fault finding (the goal: <= 120 s per
// reduction on a 2-core machine, reduced function bodies <= 25 instructions,
// faulty operation kept). The findings are the first generated cases of
// >= 300 function-body instructions that trigger each fault of
// tests/reducer/reduce_fault_target.h (OpIMul on 16-bit vectors executed as
// OpIAdd; a crash on OpenCL.std rotate); every iteration reduces the next
// one from a fresh copy, with the full pipeline (spirv-reduce included when
// installed) and a 120 s budget. Counters: function-body instructions
// after reduction and the fraction of reduced cases still holding the
// fault. ci/reduce-bench.sh measures the same over 20 cases per fault.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "reducers/pipeline.h"
#include "spirv/test_case.h"
#include "tests/reducer/fault_findings.h"
#include "tests/reducer/reduce_fault_target.h"

namespace l0spv::reducers {
namespace {

namespace fs = std::filesystem;

constexpr size_t kFindingsPerFault = 3;

// A scratch directory for the whole run, removed at exit.
class Scratch {
 public:
  Scratch() {
    std::string t = (fs::temp_directory_path() / "l0spv-bench-reduce-XXXXXX");
    path_ = ::mkdtemp(t.data());
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

Scratch& ScratchDir() {
  static Scratch scratch;
  return scratch;
}

// Finding directories for `fault` (made once per process).
const std::vector<std::string>& Findings(const std::string& fault) {
  static std::map<std::string, std::vector<std::string>> cache;
  auto [it, inserted] = cache.try_emplace(fault);
  if (inserted) {
    testing::FaultFindingOptions o;
    o.fault = fault;
    o.count = kFindingsPerFault;
    o.last_seed = 5000;
    o.min_instructions = 300;
    it->second =
        testing::MakeFaultFindings(o, ScratchDir().path() + "/" + fault);
  }
  return it->second;
}

void BM_ReduceInjectedFault(benchmark::State& state, const char* fault) {
  const std::vector<std::string>& findings = Findings(fault);
  if (findings.empty()) {
    state.SkipWithError("no generated case triggers the fault");
    return;
  }
  ReduceOptions o;
  o.budget = std::chrono::seconds(120);
  o.target_timeout = std::chrono::seconds(10);
  o.make_target = testing::MakeReduceFaultTarget;
  o.self_command = L0SPV_FAULT_TOOL;
  if (fs::exists(L0SPV_FAULT_TOOL))
    o.check_command = {L0SPV_FAULT_TOOL, "check"};
  o.scratch_dir = ScratchDir().path();
  double after = 0, kept = 0, runs = 0;
  size_t next = 0;
  for (auto _ : state) {
    const std::string& dir = findings[next++ % findings.size()];
    state.PauseTiming();
    std::error_code ec;
    fs::remove_all(dir + "/reduced", ec);
    state.ResumeTiming();
    auto report = ReduceFinding(dir, o);
    state.PauseTiming();
    if (!report.ok()) {
      state.SkipWithError(std::string(report.status().message()).c_str());
      break;
    }
    auto reduced = spirv::ReadTestCase(dir + "/reduced");
    after += static_cast<double>(report->instructions_after);
    kept += reduced.ok() && testing::HasFault(fault, reduced->module_words);
    ++runs;
    state.ResumeTiming();
  }
  if (runs > 0) {
    state.counters["instructions_after"] = after / runs;
    state.counters["fault_kept"] = kept / runs;
  }
}

BENCHMARK_CAPTURE(BM_ReduceInjectedFault, imul16v, "fault-imul16v")
    ->Unit(benchmark::kSecond)
    ->Iterations(kFindingsPerFault);
BENCHMARK_CAPTURE(BM_ReduceInjectedFault, crash_rotate, "fault-crash-rotate")
    ->Unit(benchmark::kSecond)
    ->Iterations(kFindingsPerFault);

}  // namespace
}  // namespace l0spv::reducers

BENCHMARK_MAIN();
