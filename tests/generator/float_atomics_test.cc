// The generator's float atomics (float_atomics.h): emitted only where the
// profile enables them and no avoided consumer fails them, and their results
// do not depend on the order work-items run in.
#include <functional>
#include <string>

#include "generators/kernel/generator.h"
#include "gtest/gtest.h"
#include "oracles/compare/compare.h"
#include "oracles/known_bugs/registry.h"
#include "oracles/reference/interpreter.h"
#include "spirv/binary.h"
#include "spirv/type_table.h"
#include "spirv/unified1/spirv.hpp11"
#include "tests/generator/count_generated.h"
#include "tests/generator/same_results.h"

namespace l0spv::generators::kernel {
namespace {

using oracles::KnownBugId;

bool IsFloatAtomic(const spirv::Instruction& i) {
  const auto op = static_cast<spv::Op>(i.opcode());
  return op == spv::Op::OpAtomicFAddEXT || op == spv::Op::OpAtomicFMinEXT ||
         op == spv::Op::OpAtomicFMaxEXT;
}

// How many instructions of 300 cases on `profile` match.
int Count(const std::string& profile, uint32_t avoid,
          const std::function<bool(const spirv::TypeTable&,
                                   const spirv::Instruction&)>& match) {
  return CountGenerated(300, avoid, match, 0, profile);
}

bool IsHalfAdd(const spirv::TypeTable& types, const spirv::Instruction& i) {
  const spirv::TypeInfo* t = types.Get(i.type_id());
  return spirv::Is(i, spv::Op::OpAtomicFAddEXT) && t != nullptr &&
         t->width == 16;
}

TEST(FloatAtomicsTest, FollowTheProfileAndTheAvoidedConsumers) {
  const auto any = [](const spirv::TypeTable&, const spirv::Instruction& i) {
    return IsFloatAtomic(i);
  };
  const auto add = [](const spirv::TypeTable&, const spirv::Instruction& i) {
    return spirv::Is(i, spv::Op::OpAtomicFAddEXT);
  };
  const auto min_max = [](const spirv::TypeTable&,
                          const spirv::Instruction& i) {
    return spirv::Is(i, spv::Op::OpAtomicFMinEXT) ||
           spirv::Is(i, spv::Op::OpAtomicFMaxEXT);
  };
  EXPECT_GT(Count("full", 0, add), 0);
  EXPECT_GT(Count("full", 0, min_max), 0);
  EXPECT_GT(Count("pvc", 0, IsHalfAdd), 0);
  // tgllp reports no float atomics; dg2 fp32 add only.
  EXPECT_EQ(Count("tgllp", 0, any), 0);
  EXPECT_GT(Count("dg2", 0, add), 0);
  EXPECT_EQ(Count("dg2", 0, min_max), 0);
  // Consumers that fail them.
  EXPECT_EQ(Count("full",
                  oracles::ConsumersOf(KnownBugId::kOclgrindAtomicFloat), any),
            0);
  EXPECT_EQ(Count("full",
                  oracles::ConsumersOf(KnownBugId::kLlvmSpirvAtomicFloat), any),
            0);
  const uint32_t pocl =
      oracles::ConsumersOf(KnownBugId::kPoclFloatAtomicMinMax);
  EXPECT_EQ(Count("full", pocl, min_max), 0);
  EXPECT_GT(Count("full", pocl, add), 0);
  EXPECT_EQ(Count("pvc", oracles::ConsumersOf(KnownBugId::kIgcAtomicFaddF16),
                  IsHalfAdd),
            0);
  // Intel's CPU runtime lacks the fp16 add built-in: its cases keep fp16
  // min/max and wider adds.
  const uint32_t intel =
      oracles::ConsumersOf(KnownBugId::kIntelCpuAtomicFaddHalf);
  EXPECT_EQ(Count("full", intel, IsHalfAdd), 0);
  EXPECT_GT(Count("full", 0, IsHalfAdd), 0);
  EXPECT_GT(Count("full", intel, add), 0);
}

// Shared counters see every work-item's operation in some order: the final
// buffers must not depend on it.
TEST(FloatAtomicsTest, ResultsDoNotDependOnTheWorkItemOrder) {
  int checked = 0;
  for (uint64_t seed = 0; seed < 400 && checked < 15; ++seed) {
    GeneratorOptions g;
    g.seed = seed;
    g.avoid_known_bugs = 0;
    auto tc = GenerateTestCase(g);
    ASSERT_TRUE(tc.ok()) << tc.status();
    auto m = spirv::ReadModuleWords(tc->module_words);
    ASSERT_TRUE(m.ok());
    bool uses = false;
    m->ForEachInstruction(
        [&](const spirv::Instruction& i) { uses = uses || IsFloatAtomic(i); });
    if (!uses) continue;
    ++checked;
    const auto orders = ScheduleVariants({1, 2, 3});
    ExpectSameResults(*tc, "seed " + std::to_string(seed), {}, orders);
  }
  EXPECT_GE(checked, 15);
}

}  // namespace
}  // namespace l0spv::generators::kernel
