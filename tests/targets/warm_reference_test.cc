// oracles/targets/warm_reference.h: the reference interpreter in the warm
// worker gives what it gives in process (and what a cold worker gives), one
// worker serves many runs, a forked child gets its own, and a run that
// hangs the worker is a timeout while the next run is served again.
#include "oracles/targets/warm_reference.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "generators/kernel/generator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/execution_json.h"
#include "oracles/reference/interpreter.h"
#include "oracles/targets/adapter_util.h"
#include "spirv/kernel_batch.h"
#include "spirv/spirv_tools.h"
#include "tests/support/generated_cases.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

std::vector<spirv::TestCase> Generated(uint64_t first_seed, size_t count,
                                       const std::string& target = "") {
  return test_support::GeneratedCases(first_seed, count, target);
}

// An Execution without its wall time, for comparing runs.
std::string Comparable(Execution e) {
  e.wall_time = {};
  return ExecutionToJson(e).dump();
}

ChildLimits Limits(std::chrono::milliseconds wall = 30s) {
  ChildLimits limits;
  limits.wall_time = wall;
  return limits;
}

TEST(WarmReference, GivesWhatTheInterpreterGivesInProcess) {
  std::vector<spirv::TestCase> cases = Generated(8100, 6);
  // A case whose launch fails in the interpreter is answered, not lost.
  cases.push_back(cases.front());
  cases.back().entry_point = "no_such_kernel";
  const uint64_t served = WarmReferenceServed();
  for (const spirv::TestCase& tc : cases) {
    auto warm = RunReferenceBatchWarm({&tc, 1}, {}, Limits());
    ASSERT_TRUE(warm.ok()) << warm.status();
    EXPECT_EQ(Comparable(warm->front()),
              Comparable(reference::RunReference(tc, {})));
  }
  EXPECT_EQ(WarmReferenceServed(), served + cases.size());
  EXPECT_EQ(
      RunReferenceBatchWarm({&cases.back(), 1}, {}, Limits())->front().status,
      ExecutionStatus::kBuildFailed);
  // A batch: one request, each launch its own result.
  auto launches = spirv::BatchKernels(Generated(8200, 5));
  ASSERT_TRUE(launches.ok()) << launches.status();
  auto warm = RunReferenceBatchWarm(*launches, {}, Limits());
  ASSERT_TRUE(warm.ok()) << warm.status();
  const std::vector<Execution> here =
      reference::RunReferenceBatch(*launches, {});
  ASSERT_EQ(warm->size(), here.size());
  for (size_t i = 0; i < here.size(); ++i)
    EXPECT_EQ(Comparable((*warm)[i]), Comparable(here[i])) << "launch " << i;
}

TEST(WarmReference, OptionsTravelToTheWorker) {
  const std::vector<spirv::TestCase> cases = Generated(8300, 1);
  reference::ReferenceOptions tiny;
  tiny.step_budget = 10;  // every generated kernel runs more
  auto warm = RunReferenceBatchWarm(cases, tiny, Limits());
  ASSERT_TRUE(warm.ok()) << warm.status();
  EXPECT_EQ(warm->front().status, ExecutionStatus::kTimedOut);
  EXPECT_EQ(Comparable(warm->front()),
            Comparable(reference::RunReference(cases.front(), tiny)));
}

TEST(WarmReference, AHangingRunIsATimeoutAndTheNextRunIsServed) {
  const std::vector<spirv::TestCase> cases = Generated(8400, 1);
  reference::ReferenceOptions endless;
  endless.step_budget = ~uint64_t{0};
  // A kernel that loops for ever: the interpreter's own budget is off, so
  // only the wall time stops it.
  auto forever = spirv::Assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "spin"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
               OpLoopMerge %exit %loop None
               OpBranch %loop
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(forever.ok()) << forever.status();
  spirv::TestCase spin;
  spin.module_words = *forever;
  spin.entry_point = "spin";
  const auto start = std::chrono::steady_clock::now();
  const Execution e = RunReferenceInWorker(spin, endless, Limits(300ms));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  EXPECT_EQ(e.status, ExecutionStatus::kTimedOut) << e.message;
  EXPECT_THAT(e.message, HasSubstr("reference interpreter timed out"));
  auto next = RunReferenceBatchWarm(cases, {}, Limits());
  ASSERT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(Comparable(next->front()),
            Comparable(reference::RunReference(cases.front(), {})));
}

TEST(WarmReference, AForkedChildRunsItsOwnWorker) {
  const std::vector<spirv::TestCase> cases = Generated(8500, 1);
  ASSERT_TRUE(RunReferenceBatchWarm(cases, {}, Limits()).ok());
  const std::string expected =
      Comparable(reference::RunReference(cases.front(), {}));
  const pid_t child = fork();
  if (child == 0) {
    auto warm = RunReferenceBatchWarm(cases, {}, Limits());
    _exit(warm.ok() && Comparable(warm->front()) == expected ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  // The parent's worker still answers.
  auto warm = RunReferenceBatchWarm(cases, {}, Limits());
  ASSERT_TRUE(warm.ok()) << warm.status();
  EXPECT_EQ(Comparable(warm->front()), expected);
}

TEST(WarmReference, OffInTheEnvironmentLeavesTheColdWorker) {
  const std::vector<spirv::TestCase> cases = Generated(8600, 1);
  setenv("L0SPV_WARM_REFERENCE", "0", 1);
  auto warm = RunReferenceBatchWarm(cases, {}, Limits());
  const Execution cold = RunReferenceInWorker(cases.front(), {}, Limits());
  unsetenv("L0SPV_WARM_REFERENCE");
  EXPECT_TRUE(absl::IsUnavailable(warm.status())) << warm.status();
  EXPECT_EQ(Comparable(cold),
            Comparable(reference::RunReference(cases.front(), {})));
}

TEST(TestCaseBytes, RoundTripAndRefusal) {
  const std::vector<spirv::TestCase> cases = Generated(8700, 3);
  for (const spirv::TestCase& tc : cases) {
    auto back = spirv::TestCaseFromBytes(spirv::TestCaseToBytes(tc), "test");
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->module_words, tc.module_words);
    EXPECT_EQ(back->entry_point, tc.entry_point);
    ASSERT_EQ(back->args.size(), tc.args.size());
    for (size_t i = 0; i < tc.args.size(); ++i)
      EXPECT_EQ(back->args[i].bytes, tc.args[i].bytes) << "arg " << i;
    EXPECT_EQ(back->nd_range.global, tc.nd_range.global);
  }
  auto garbage = spirv::TestCaseFromBytes("not cbor", "the request");
  EXPECT_FALSE(garbage.ok());
  EXPECT_THAT(garbage.status().message(), HasSubstr("the request"));
}

}  // namespace
}  // namespace l0spv::oracles
