// The spirv-fuzz engine: every Outcome from a stand-in spirv-fuzz (a shell
// script: crash, hang, non-zero exit, an output the fix-up cannot take, a
// fixable one), AvoidKnownBugs' golden pair, and — when the real spirv-fuzz
// is installed — real mutants that are valid Kernel modules.
#include "generators/spirv_fuzz/engine.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "generators/kernel/generator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/consumer_probe.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"

namespace l0spv::generators::spirv_fuzz {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

spirv::TestCase Generated(uint64_t seed) {
  kernel::GeneratorOptions g;
  g.seed = seed;
  g.max_spirv_version = kNewestSpirvVersion;
  auto tc = kernel::GenerateTestCase(g);
  EXPECT_TRUE(tc.ok()) << tc.status();
  return *tc;
}

class SpirvFuzzEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("l0spv_sfuzz_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A stand-in spirv-fuzz running `body` (sh) in its working directory with
  // in.spv, out.spv as $1, $3.
  EngineOptions StandIn(const std::string& body) {
    const fs::path tool = dir_ / "spirv-fuzz";
    std::ofstream(tool) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(tool, fs::perms::owner_all);
    EngineOptions o;
    o.program = tool.string();
    o.scratch_dir = dir_.string();
    o.wall_time = std::chrono::seconds(5);
    return o;
  }

  fs::path dir_;
};

TEST_F(SpirvFuzzEngineTest, EveryWayTheToolEndsIsAnOutcome) {
  const spirv::TestCase tc = Generated(3);
  auto crashed = MutateWithSpirvFuzz(tc, 1, StandIn("kill -KILL $$"));
  ASSERT_TRUE(crashed.ok());
  EXPECT_EQ(crashed->outcome, Outcome::kToolCrashed);
  EXPECT_THAT(crashed->detail, HasSubstr("signal 9"));

  EngineOptions hang = StandIn("sleep 30");
  hang.wall_time = std::chrono::milliseconds(300);
  auto timed_out = MutateWithSpirvFuzz(tc, 1, hang);
  ASSERT_TRUE(timed_out.ok());
  EXPECT_EQ(timed_out->outcome, Outcome::kToolTimedOut);

  auto failed = MutateWithSpirvFuzz(
      tc, 1, StandIn("echo 'error: Initial binary is invalid' >&2; exit 1"));
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->outcome, Outcome::kToolFailed);
  EXPECT_THAT(failed->detail, HasSubstr("Initial binary is invalid"));

  auto nothing = MutateWithSpirvFuzz(tc, 1, StandIn("exit 0"));
  ASSERT_TRUE(nothing.ok());
  EXPECT_EQ(nothing->outcome, Outcome::kToolFailed);

  auto garbage = MutateWithSpirvFuzz(tc, 1, StandIn("echo junk > \"$3\""));
  ASSERT_TRUE(garbage.ok());
  EXPECT_NE(garbage->outcome, Outcome::kMutated);
}

TEST_F(SpirvFuzzEngineTest, TheSeedAndTheOutputReachTheMutant) {
  const spirv::TestCase tc = Generated(4);
  auto m = MutateWithSpirvFuzz(
      tc, 77,
      StandIn(
          "[ \"$4\" = --seed=77 ] || exit 3\n"
          "cp \"$1\" \"$3\"\n"
          "echo '{\"transformation\": [{}, {}]}' > out.transformations_json\n"
          "printf 'proto' > out.transformations"));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->outcome, Outcome::kMutated) << m->detail;
  EXPECT_EQ(m->test_case.module_words, tc.module_words);
  EXPECT_EQ(m->test_case.entry_point, tc.entry_point);
  EXPECT_EQ(m->transformation_count, 2u);
  EXPECT_EQ(m->transformations, "proto");
  EXPECT_EQ(m->raw_words, tc.module_words);
}

TEST_F(SpirvFuzzEngineTest, CasesItCannotTakeAreNotApplicable) {
  spirv::TestCase several = Generated(5);
  several.linked_modules.push_back(several.module_words);
  auto m = MutateWithSpirvFuzz(several, 1, StandIn("exit 9"));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->outcome, Outcome::kNotApplicable);
  spirv::TestCase newer = Generated(5);
  newer.module_words[1] = 0x00010400;
  m = MutateWithSpirvFuzz(newer, 1, StandIn("exit 9"));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->outcome, Outcome::kNotApplicable);
}

TEST(SpirvFuzzFixUpOutput, AFixableOutputBecomesAValidMutant) {
  const spirv::TestCase tc = Generated(6);
  auto module = spirv::ReadModuleWords(tc.module_words);
  ASSERT_TRUE(module.ok());
  // What spirv-fuzz adds: a signed int type and a NoContraction decoration.
  const uint32_t sint = module->header.bound++;
  module->types_values.insert(
      module->types_values.begin(),
      spirv::Instruction(
          static_cast<uint32_t>(spv::Op::OpTypeInt), 0, sint,
          {spirv::LiteralOperand(32), spirv::LiteralOperand(1)}));
  module->annotations.push_back(spirv::Instruction(
      static_cast<uint32_t>(spv::Op::OpDecorate), 0, 0,
      {spirv::IdOperand(sint),
       spirv::EnumOperand(
           spirv::OperandKind::kDecoration,
           static_cast<uint32_t>(spv::Decoration::NoContraction))}));
  const Mutation m = FixUpOutput(tc, spirv::EncodeModule(*module));
  EXPECT_EQ(m.outcome, Outcome::kMutated) << m.detail;
  EXPECT_EQ(m.fixups.signed_int_types, 1u);
  EXPECT_EQ(m.fixups.shader_decorations, 1u);
  EXPECT_TRUE(spirv::Validate(m.test_case.module_words).ok());
}

TEST(SpirvFuzzFixUpOutput, AnUnfixableOutputIsInvalid) {
  const spirv::TestCase tc = Generated(6);
  std::vector<uint32_t> words = tc.module_words;
  words.resize(words.size() - 1);  // OpFunctionEnd cut short
  EXPECT_EQ(FixUpOutput(tc, words).outcome, Outcome::kInvalid);
}

// The module `text` after AvoidKnownBugs for `consumers`: how many
// constructs it changed, the result's words and its disassembly (ids as
// numbers).
struct Avoided {
  size_t changes = 0;
  std::vector<uint32_t> words;
  std::string text;
};
Avoided Avoid(const std::string& text, uint32_t consumers) {
  Avoided a;
  auto words = spirv::Assemble(text);
  EXPECT_TRUE(words.ok()) << words.status();
  if (!words.ok()) return a;
  auto module = spirv::ReadModuleWords(*words);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return a;
  a.changes = AvoidKnownBugs(*module, consumers);
  a.words = spirv::EncodeModule(*module);
  auto disassembled = spirv::Disassemble(a.words, false);
  EXPECT_TRUE(disassembled.ok()) << disassembled.status();
  if (disassembled.ok()) a.text = *disassembled;
  return a;
}

TEST(SpirvFuzzAvoidKnownBugs, ScalarNullConstantsBecomeZerosForLlvmSpirv) {
  const std::string module = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %3 = OpTypeInt 64 0
          %6 = OpTypeBool
          %7 = OpTypeVector %2 2
          %8 = OpConstantNull %2
          %9 = OpConstantNull %3
         %11 = OpConstantNull %6
         %12 = OpConstantNull %7
          %4 = OpTypeFunction %1
          %5 = OpFunction %1 None %4
         %10 = OpLabel
               OpReturn
               OpFunctionEnd
)";
  EXPECT_EQ(Avoid(module, oracles::kConsumerIgc).changes, 0u);
  const Avoided a = Avoid(module, oracles::kConsumerLlvmSpirv);
  EXPECT_EQ(a.changes, 3u);
  EXPECT_THAT(a.text, HasSubstr("%8 = OpConstant %2 0"));
  EXPECT_THAT(a.text, HasSubstr("%9 = OpConstant %3 0"));
  EXPECT_THAT(a.text, HasSubstr("%11 = OpConstantFalse %6"));
  EXPECT_THAT(a.text, HasSubstr("%12 = OpConstantNull %7"));  // a vector stays
  EXPECT_TRUE(spirv::Validate(a.words).ok());
}

TEST(SpirvFuzzAvoidKnownBugs, InitializersAndMixedShufflesForLlvmSpirv) {
  const std::string module = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %3 = OpTypeVector %2 2
          %6 = OpTypeVector %2 4
          %7 = OpTypePointer Function %2
          %8 = OpConstant %2 7
          %9 = OpConstantComposite %3 %8 %8
         %11 = OpConstantComposite %6 %8 %8 %8 %8
          %4 = OpTypeFunction %1
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %12 = OpVariable %7 Function %8
         %13 = OpVectorShuffle %3 %9 %11 0 5
         %14 = OpVectorShuffle %3 %9 %9 1 2
               OpReturn
               OpFunctionEnd
)";
  const Avoided a = Avoid(module, oracles::kConsumerLlvmSpirv);
  EXPECT_EQ(a.changes, 2u);
  EXPECT_THAT(a.text, HasSubstr("%12 = OpVariable %7 Function\n"));
  EXPECT_THAT(a.text, HasSubstr("OpStore %12 %8"));
  // The mixed shuffle: component 0 of %9, component 5 - 2 = 3 of %11.
  EXPECT_THAT(a.text, HasSubstr("OpCompositeExtract %2 %9 0"));
  EXPECT_THAT(a.text, HasSubstr("OpCompositeExtract %2 %11 3"));
  EXPECT_THAT(a.text, HasSubstr("%13 = OpCompositeInsert %3"));
  EXPECT_THAT(a.text, HasSubstr("%14 = OpVectorShuffle %3 %9 %9 1 2"));
  EXPECT_TRUE(spirv::Validate(a.words).ok()) << spirv::Validate(a.words);
}

TEST(SpirvFuzzAvoidKnownBugs, UnusedBuiltInAccessChainsGoForLlvmSpirv) {
  const std::string module = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %5 "k" %20
               OpName %12 "chain"
               OpDecorate %20 BuiltIn GlobalInvocationId
          %1 = OpTypeVoid
          %2 = OpTypeInt 64 0
          %3 = OpTypeInt 32 0
          %6 = OpTypeVector %2 3
          %7 = OpTypePointer Input %6
          %8 = OpTypePointer Input %2
          %9 = OpConstant %3 0
         %20 = OpVariable %7 Input
          %4 = OpTypeFunction %1
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %12 = OpAccessChain %8 %20 %9
         %13 = OpInBoundsAccessChain %8 %20 %9
         %14 = OpLoad %2 %13
               OpReturn
               OpFunctionEnd
)";
  EXPECT_EQ(Avoid(module, oracles::kConsumerIgc).changes, 0u);
  const Avoided a = Avoid(module, oracles::kConsumerLlvmSpirv);
  EXPECT_EQ(a.changes, 1u);
  EXPECT_THAT(a.text, ::testing::Not(HasSubstr("%12 = OpAccessChain")));
  EXPECT_THAT(a.text, ::testing::Not(HasSubstr("\"chain\"")));
  EXPECT_THAT(a.text, HasSubstr("%13 = OpInBoundsAccessChain"));  // used
}

// With the real spirv-fuzz: most seeds give a usable (valid) mutant.
TEST_F(SpirvFuzzEngineTest, RealSpirvFuzzMutantsAreValidKernels) {
  const auto program = oracles::FindSpirvFuzz();
  if (!program) GTEST_SKIP() << oracles::kSpirvFuzzInstallHint;
  EngineOptions o;
  o.program = *program;
  o.scratch_dir = dir_.string();
  int mutated = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    auto m = MutateWithSpirvFuzz(Generated(seed), seed, o);
    ASSERT_TRUE(m.ok()) << m.status();
    if (m->outcome != Outcome::kMutated) continue;
    ++mutated;
    EXPECT_GT(m->transformation_count, 0u);
    // The universal environment, as for every generated case (profile
    // `full` declares Int64Atomics, which the OpenCL 2.2 environment lacks).
    const auto& w = m->test_case.module_words;
    const absl::Status valid =
        spirv::Validate(w, spirv::UniversalEnvForVersion(w[1]));
    EXPECT_TRUE(valid.ok()) << seed << ": " << valid;
  }
  EXPECT_GE(mutated, 12);
}

}  // namespace
}  // namespace l0spv::generators::spirv_fuzz
