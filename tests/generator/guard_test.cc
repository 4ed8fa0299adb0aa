// Each guard of the generator is necessary: with it switched off, some seed
// produces a kernel whose undefined behaviour the reference reports.
#include <string>

#include "generators/kernel/generator.h"
#include "gtest/gtest.h"
#include "oracles/reference/interpreter.h"

namespace l0spv::generators::kernel {
namespace {

struct GuardCase {
  Guard guard;
  const char* ub_text;  // a substring of the reference's ub message
  ImageMode images = ImageMode::kOff;
};

class GuardTest : public ::testing::TestWithParam<GuardCase> {};

TEST_P(GuardTest, DisabledGuardIsCaughtByReference) {
  const GuardCase& g = GetParam();
  oracles::reference::ReferenceOptions ref;
  ref.step_budget = 2'000'000;
  GeneratorOptions options;
  options.disabled_guards = g.guard;
  options.images = g.images;
  std::string first_ub;
  uint64_t found_seed = 0;
  for (uint64_t seed = 0; seed < 400 && first_ub.empty(); ++seed) {
    options.seed = seed;
    auto tc = GenerateTestCase(options);
    ASSERT_TRUE(tc.ok());
    const oracles::Execution e = oracles::reference::RunReference(*tc, ref);
    if (e.status == oracles::ExecutionStatus::kUbDetected &&
        e.message.find(g.ub_text) != std::string::npos) {
      first_ub = e.message;
      found_seed = seed;
    }
  }
  EXPECT_FALSE(first_ub.empty()) << "no seed in [0, 400) showed '" << g.ub_text
                                 << "' with the guard disabled";
  // The same seed with every guard on is clean.
  if (!first_ub.empty()) {
    options.disabled_guards = 0;
    options.seed = found_seed;
    auto tc = GenerateTestCase(options);
    ASSERT_TRUE(tc.ok());
    const oracles::Execution e = oracles::reference::RunReference(*tc, ref);
    EXPECT_EQ(e.status, oracles::ExecutionStatus::kOk) << e.message;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Guards, GuardTest,
    ::testing::Values(
        GuardCase{kGuardDivision, "division"},
        GuardCase{kGuardShift, "shift amount out of range"},
        GuardCase{kGuardIndex, "out"},
        GuardCase{kGuardFloatToInt, "float to integer conversion out of range"},
        GuardCase{kGuardBarrier, "data race"},
        GuardCase{kGuardImageBarrier, "read of a texel", ImageMode::kOn}),
    [](const ::testing::TestParamInfo<GuardCase>& info) {
      switch (info.param.guard) {
        case kGuardDivision:
          return std::string("Division");
        case kGuardShift:
          return std::string("Shift");
        case kGuardIndex:
          return std::string("Index");
        case kGuardFloatToInt:
          return std::string("FloatToInt");
        case kGuardBarrier:
          return std::string("Barrier");
        case kGuardImageBarrier:
          return std::string("ImageBarrier");
        default:
          return std::string("Other");
      }
    });

}  // namespace
}  // namespace l0spv::generators::kernel
