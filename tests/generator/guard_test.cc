// Each guard of the generator is necessary: with it switched off, some seed
// produces a kernel whose undefined behaviour the reference reports.
#include <algorithm>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "generators/kernel/generator.h"
#include "gtest/gtest.h"
#include "oracles/reference/interpreter.h"
#include "spirv/binary.h"
#include "spirv/unified1/OpenCL.std.h"
#include "spirv/unified1/spirv.hpp11"

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

// Operands of fmin, fmax, fclamp, maxmag, minmag, fmin_common and
// fmax_common in `seeds` cases that are not `OpFAdd x, +0.0` (which makes
// -0 +0), fclamp's bounds excepted when they are fmin/fmax results.
int SignedZeroOperands(uint64_t seeds, uint32_t disabled_guards) {
  int count = 0;
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    GeneratorOptions options;
    options.seed = seed;
    options.disabled_guards = disabled_guards;
    auto tc = GenerateTestCase(options);
    if (!tc.ok()) return -1;
    auto module = spirv::ReadModuleWords(tc->module_words);
    if (!module.ok()) return -1;
    absl::flat_hash_set<uint32_t> zeros, unsigned_zero, min_max;
    for (const spirv::Instruction& i : module->types_values) {
      if (static_cast<spv::Op>(i.opcode()) == spv::Op::OpConstantNull ||
          (static_cast<spv::Op>(i.opcode()) == spv::Op::OpConstant &&
           std::all_of(i.operand(0).words.begin(), i.operand(0).words.end(),
                       [](uint32_t w) { return w == 0; })))
        zeros.insert(i.result_id());
      if (static_cast<spv::Op>(i.opcode()) == spv::Op::OpConstantComposite) {
        bool all = true;
        for (size_t k = 0; k < i.NumOperands(); ++k)
          all = all && zeros.contains(i.operand(k).AsId());
        if (all) zeros.insert(i.result_id());
      }
    }
    for (const spirv::Function& fn : module->functions) {
      for (const spirv::BasicBlock& bb : fn.blocks) {
        for (const spirv::Instruction& i : bb.instructions) {
          const auto op = static_cast<spv::Op>(i.opcode());
          if (op == spv::Op::OpFAdd && zeros.contains(i.operand(1).AsId()))
            unsigned_zero.insert(i.result_id());
          if (op != spv::Op::OpExtInst) continue;
          const uint32_t number = i.operand(1).words[0];
          using namespace OpenCLLIB;
          const bool fclamp = number == FClamp;
          if (number == Fmin || number == Fmax) min_max.insert(i.result_id());
          if (!fclamp && number != Fmin && number != Fmax && number != Maxmag &&
              number != Minmag && number != FMin_common &&
              number != FMax_common)
            continue;
          for (size_t k = 2; k < i.NumOperands(); ++k) {
            const uint32_t arg = i.operand(k).AsId();
            if (!unsigned_zero.contains(arg) &&
                !(fclamp && k > 2 && min_max.contains(arg)))
              ++count;
          }
        }
      }
    }
  }
  return count;
}

TEST(SignedZeroGuard, NoNegativeZeroReachesAZeroSignOpenFunction) {
  EXPECT_GT(SignedZeroOperands(300, kGuardSignedZero), 0)
      << "the seeds must hold such operands";
  EXPECT_EQ(SignedZeroOperands(300, 0), 0);
}

// OpSignBitSet operands in `seeds` cases that are not
// OpSelect(OpIsNan(x), 0, x).
int NanSignOperands(uint64_t seeds, uint32_t disabled_guards) {
  int count = 0;
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    GeneratorOptions options;
    options.seed = seed;
    options.disabled_guards = disabled_guards;
    auto tc = GenerateTestCase(options);
    if (!tc.ok()) return -1;
    auto module = spirv::ReadModuleWords(tc->module_words);
    if (!module.ok()) return -1;
    absl::flat_hash_set<uint32_t> nan_tests, nan_free;
    for (const spirv::Function& fn : module->functions) {
      for (const spirv::BasicBlock& bb : fn.blocks) {
        for (const spirv::Instruction& i : bb.instructions) {
          const auto op = static_cast<spv::Op>(i.opcode());
          if (op == spv::Op::OpIsNan) nan_tests.insert(i.result_id());
          if (op == spv::Op::OpSelect &&
              nan_tests.contains(i.operand(0).AsId()))
            nan_free.insert(i.result_id());
          if (op == spv::Op::OpSignBitSet &&
              !nan_free.contains(i.operand(0).AsId()))
            ++count;
        }
      }
    }
  }
  return count;
}

TEST(NanSignGuard, NoNanReachesSignBitSet) {
  EXPECT_GT(NanSignOperands(300, kGuardNanSign), 0)
      << "the seeds must hold such operands";
  EXPECT_EQ(NanSignOperands(300, 0), 0);
}

}  // namespace
}  // namespace l0spv::generators::kernel
