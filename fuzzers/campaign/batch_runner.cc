#include "fuzzers/campaign/batch_runner.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "oracles/targets/target_name.h"
#include "oracles/verdict/verdict.h"
#include "spirv/kernel_batch.h"

namespace l0spv::fuzzers::campaign {
namespace {

using Clock = std::chrono::steady_clock;

uint64_t NanosSince(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0)
      .count();
}

class Bisector {
 public:
  Bisector(oracles::Target& target, std::span<const CaseOnTarget> cases,
           const oracles::TargetRunLimits& limits, TargetCounters& counters)
      : target_(target),
        cases_(cases),
        limits_(limits),
        counters_(counters),
        results_(cases.size()) {}

  // Runs the cases at `group` (indices into cases_).
  void Run(const std::vector<size_t>& group) {
    if (group.size() == 1 || !target_.batches()) {
      for (size_t i : group) RunAlone(i);
      return;
    }
    // Building the batch is the target's cost too: its share counts it.
    const auto t0 = Clock::now();
    std::vector<spirv::TestCase> members;
    members.reserve(group.size());
    for (size_t i : group) members.push_back(*cases_[i].test_case);
    auto launches = spirv::BatchKernels(members);
    if (!launches.ok()) {
      for (size_t i : group) RunAlone(i);
      return;
    }
    std::vector<oracles::Execution> results =
        target_.RunBatch(*launches, limits_);
    const uint64_t share = NanosSince(t0) / group.size();
    ++counters_.batches;
    std::vector<size_t> failed;
    for (size_t j = 0; j < group.size(); ++j) {
      const size_t i = group[j];
      if (j >= results.size()) {
        failed.push_back(i);
        continue;
      }
      oracles::Verdict v = JudgeCase(i, results[j]);
      // A result the target decided from the launch alone is what the case
      // gets alone too: no re-run.
      if (v.kind == oracles::VerdictKind::kOk || results[j].launch_own) {
        results_[i] = {std::move(results[j]), std::move(v), share};
      } else {
        failed.push_back(i);
      }
    }
    if (failed.empty()) return;
    counters_.reruns += failed.size();
    if (failed.size() < group.size()) {
      Run(failed);
      return;
    }
    // Every case failed: one of them may have taken the batch down.
    const size_t half = group.size() / 2;
    Run(std::vector<size_t>(group.begin(), group.begin() + half));
    Run(std::vector<size_t>(group.begin() + half, group.end()));
  }

  std::vector<TargetResult> Take() { return std::move(results_); }

 private:
  void RunAlone(size_t i) {
    const auto t0 = Clock::now();
    results_[i].execution = target_.Run(*cases_[i].test_case, limits_);
    results_[i].nanos = NanosSince(t0);
    results_[i].verdict = JudgeCase(i, results_[i].execution);
  }

  oracles::Verdict JudgeCase(size_t i, const oracles::Execution& e) const {
    return oracles::Judge(*cases_[i].test_case, *cases_[i].reference,
                          target_.name(), target_.executes(), e);
  }

  oracles::Target& target_;
  std::span<const CaseOnTarget> cases_;
  const oracles::TargetRunLimits& limits_;
  TargetCounters& counters_;
  std::vector<TargetResult> results_;
};

}  // namespace

std::vector<TargetResult> RunOnTarget(oracles::Target& target,
                                      std::span<const CaseOnTarget> cases,
                                      uint32_t batch,
                                      const oracles::TargetRunLimits& limits,
                                      TargetCounters& counters) {
  Bisector bisector(target, cases, limits, counters);
  const size_t k = batch == 0 ? 1 : batch;
  if (k == 1 || !target.batches()) {
    for (size_t i = 0; i < cases.size(); ++i) bisector.Run({i});
    return bisector.Take();
  }
  // For a target that needs it, cases batch only with cases of the same key
  // (spirv::BatchKey: module properties that change a consumer's whole
  // pipeline), in campaign order.
  std::vector<std::string> keys;
  std::vector<std::vector<size_t>> by_key;
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string key = target.batches_by_key()
                                ? spirv::BatchKey(*cases[i].test_case)
                                : std::string();
    const auto at = std::find(keys.begin(), keys.end(), key);
    if (at == keys.end()) {
      keys.push_back(key);
      by_key.push_back({i});
    } else {
      by_key[at - keys.begin()].push_back(i);
    }
  }
  // Within a key, first fit: a case joins the first open batch with room
  // that it fits (spirv::BatchFit: SPIR-V versions, a consumer's
  // one-per-module rules), else opens one.
  for (const std::vector<size_t>& same : by_key) {
    struct Open {
      std::vector<size_t> members;
      spirv::BatchFit fit;
    };
    std::vector<Open> open;
    for (size_t i : same) {
      const spirv::BatchFit own = spirv::BatchFitOf(*cases[i].test_case);
      auto fits = std::find_if(open.begin(), open.end(), [&](const Open& b) {
        return b.members.size() < k && b.fit.Meets(own);
      });
      if (fits == open.end()) {
        open.push_back({{i}, own});
      } else {
        fits->members.push_back(i);
        fits->fit = fits->fit.With(own);
      }
    }
    for (const Open& b : open) bisector.Run(b.members);
  }
  return bisector.Take();
}

}  // namespace l0spv::fuzzers::campaign
