// fuzzers/campaign/batch_runner.h RunOnTarget: how cases are packed into
// batches. Cases that do not fit one module (spirv::BatchFit) go to
// different batches instead of failing together and being re-run alone.
#include "fuzzers/campaign/batch_runner.h"

#include <span>
#include <string>
#include <vector>

#include "generators/kernel/generator.h"
#include "gtest/gtest.h"
#include "oracles/reference/interpreter.h"
#include "spirv/kernel_batch.h"

namespace l0spv::fuzzers::campaign {
namespace {

// Runs every launch on ref; records each batch's size. A batch whose module
// does not validate fails whole, as a real consumer's would.
class RecordingTarget : public oracles::Target {
 public:
  const std::string& name() const override { return name_; }
  bool executes() const override { return true; }
  const std::string& consumer() const override { return name_; }
  bool batches() const override { return true; }
  oracles::Execution Run(const spirv::TestCase& tc,
                         const oracles::TargetRunLimits&) override {
    sizes.push_back(1);
    return oracles::reference::RunReference(tc, {});
  }
  std::vector<oracles::Execution> RunBatch(
      std::span<const spirv::TestCase> launches,
      const oracles::TargetRunLimits&) override {
    sizes.push_back(launches.size());
    std::vector<oracles::Execution> out;
    for (size_t i = 0; i < launches.size(); ++i) {
      if (i < refuse_first) {
        // What an OpenCL target answers for a launch it will not run.
        out.push_back({});
        out.back().status = oracles::ExecutionStatus::kUnsupported;
        out.back().message = "outside the device's contract";
        out.back().launch_own = own;
        continue;
      }
      out.push_back(oracles::reference::RunReference(launches[i], {}));
    }
    return out;
  }
  std::vector<size_t> sizes;
  size_t refuse_first = 0;  // launches of each batch answered unsupported
  bool own = true;          // ... with launch_own

 private:
  std::string name_ = "recording";
};

// Generated cases whose fit satisfies `want`, from seed 1 on.
template <typename Pred>
std::vector<spirv::TestCase> CasesWhere(size_t count, uint32_t min_version,
                                        uint32_t max_version, Pred want) {
  generators::kernel::GeneratorOptions g;
  g.min_spirv_version = min_version;
  g.max_spirv_version = max_version;
  g.max_statements = 40;
  std::vector<spirv::TestCase> cases;
  for (uint64_t seed = 1; cases.size() < count && seed < 4000; ++seed) {
    g.seed = seed;
    auto tc = generators::kernel::GenerateTestCase(g);
    if (tc.ok() && want(spirv::BatchFitOf(*tc))) cases.push_back(*tc);
  }
  return cases;
}

// Cases with their reference executions, as RunOnTarget takes them.
struct OnTarget {
  explicit OnTarget(std::vector<spirv::TestCase> c) : cases(std::move(c)) {
    for (const spirv::TestCase& tc : cases)
      references.push_back(oracles::reference::RunReference(tc, {}));
    for (size_t i = 0; i < cases.size(); ++i)
      runnable.push_back({&cases[i], &references[i]});
  }
  std::vector<spirv::TestCase> cases;
  std::vector<oracles::Execution> references;
  std::vector<CaseOnTarget> runnable;
};

TEST(RunOnTarget, CasesThatDoNotFitOneModuleGoToDifferentBatches) {
  // 1.3 cases using OpAtomicCompareExchangeWeak (removed in 1.4) and 1.4
  // cases, interleaved: one batch of all of them would be invalid.
  const std::vector<spirv::TestCase> weak =
      CasesWhere(3, 0x10300, 0x10300,
                 [](const spirv::BatchFit& f) { return f.allows == 0x10300; });
  const std::vector<spirv::TestCase> newer = CasesWhere(
      3, 0x10400, 0x10400, [](const spirv::BatchFit&) { return true; });
  ASSERT_EQ(weak.size(), 3u) << "no generated case uses the Weak exchange";
  ASSERT_EQ(newer.size(), 3u);
  std::vector<spirv::TestCase> interleaved;
  for (size_t i = 0; i < 3; ++i) {
    interleaved.push_back(weak[i]);
    interleaved.push_back(newer[i]);
  }
  const OnTarget in(std::move(interleaved));

  RecordingTarget target;
  TargetCounters counters;
  const std::vector<TargetResult> results =
      RunOnTarget(target, in.runnable, 16, {}, counters);
  ASSERT_EQ(results.size(), in.cases.size());
  for (const TargetResult& r : results)
    EXPECT_EQ(r.verdict.kind, oracles::VerdictKind::kOk)
        << r.verdict.explanation;
  EXPECT_EQ(target.sizes, (std::vector<size_t>{3, 3}));
  EXPECT_EQ(counters.batches, 2u);
  EXPECT_EQ(counters.reruns, 0u);

  // At 2 a batch: first fit keeps campaign order within each kind.
  target.sizes.clear();
  TargetCounters small;
  RunOnTarget(target, in.runnable, 2, {}, small);
  EXPECT_EQ(target.sizes, (std::vector<size_t>{2, 2, 1, 1}));
  EXPECT_EQ(small.reruns, 0u);
}

// A launch the target refused on its own account (launch_own) is final; a
// batch result without it is re-run alone, since the batch may have caused
// it.
TEST(RunOnTarget, LaunchOwnResultsAreNotReRun) {
  const OnTarget in(CasesWhere(4, 0x10200, 0x10200,
                               [](const spirv::BatchFit&) { return true; }));
  ASSERT_EQ(in.cases.size(), 4u);

  RecordingTarget target;
  target.refuse_first = 2;
  TargetCounters counters;
  std::vector<TargetResult> results =
      RunOnTarget(target, in.runnable, 16, {}, counters);
  EXPECT_EQ(target.sizes, (std::vector<size_t>{4}));
  EXPECT_EQ(counters.reruns, 0u);
  EXPECT_EQ(results[0].verdict.kind, oracles::VerdictKind::kSkipped);
  EXPECT_EQ(results[1].verdict.kind, oracles::VerdictKind::kSkipped);
  EXPECT_EQ(results[2].verdict.kind, oracles::VerdictKind::kOk);

  // Without launch_own the two are re-run: batched again (this target then
  // refuses both again), then alone, where it runs them on ref: ok.
  target.sizes.clear();
  target.own = false;
  TargetCounters again;
  results = RunOnTarget(target, in.runnable, 16, {}, again);
  EXPECT_EQ(target.sizes, (std::vector<size_t>{4, 2, 1, 1}));
  EXPECT_EQ(again.reruns, 4u);
  EXPECT_EQ(results[0].verdict.kind, oracles::VerdictKind::kOk);
}

}  // namespace
}  // namespace l0spv::fuzzers::campaign
