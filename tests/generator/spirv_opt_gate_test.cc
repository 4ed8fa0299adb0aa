// The generator's gate of spirv_opt_constant_branch_crash (and its duplicate
// spirv_opt_dead_branch_crash): while spirv-opt's bugs are avoided, every
// branch condition and switch selector depends on a run-time false
// (GenContext::opaque_false), so -O never sees one fold to a constant.
// Before the gate about 6% of generated cases crashed spirv-opt -O, and in a
// batch of 16 most batches held one (each then bisected). On the real
// spirv-opt (skipped without it): the same seeds crash with the gate off
// and never with it on.
#include <string>

#include "generators/kernel/generator.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_kinds.h"

namespace l0spv::generators::kernel {
namespace {

// How many of `count` generated cases spirv-opt -O crashes on.
int Crashes(oracles::Target& spirv_opt, bool gated, int count) {
  GeneratorOptions g;
  g.avoid_known_bugs = oracles::ConsumersOfTarget("spirv-opt");
  g.max_spirv_version = oracles::NewestSpirvVersionOfTarget("spirv-opt");
  if (!gated) {
    g.allowed_bugs = {oracles::KnownBugId::kSpirvOptConstantBranchCrash,
                      oracles::KnownBugId::kSpirvOptDeadBranchCrash};
  }
  int crashes = 0;
  for (int seed = 0; seed < count; ++seed) {
    g.seed = static_cast<uint64_t>(seed);
    auto tc = GenerateTestCase(g);
    EXPECT_TRUE(tc.ok()) << tc.status();
    if (!tc.ok()) continue;
    const oracles::Execution e = spirv_opt.Run(*tc, {});
    if (e.status == oracles::ExecutionStatus::kCrashed) ++crashes;
  }
  return crashes;
}

TEST(SpirvOptGate, ConditionsNeverFoldToConstants) {
  auto spirv_opt = oracles::MakeTarget("spirv-opt");
  if (!spirv_opt.ok()) GTEST_SKIP() << spirv_opt.status();
  EXPECT_GE(Crashes(**spirv_opt, /*gated=*/false, 120), 3);
  EXPECT_EQ(Crashes(**spirv_opt, /*gated=*/true, 120), 0);
}

}  // namespace
}  // namespace l0spv::generators::kernel
