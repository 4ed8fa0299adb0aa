// The SPIRV-Tools wrappers: spirv-val diagnostics come back as statuses,
// and the validation environment follows the module's version.
#include "spirv/spirv_tools.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/spirv/test_support.h"

namespace l0spv::spirv {
namespace {

using ::testing::HasSubstr;

TEST(SpirvToolsTest, ValidateAcceptsAValidKernel) {
  auto words = test::AssembleHandWritten("opencl_std");
  ASSERT_TRUE(words.ok()) << words.status();
  EXPECT_TRUE(Validate(*words).ok()) << Validate(*words);
  EXPECT_TRUE(Validate(*words, SPV_ENV_UNIVERSAL_1_2).ok());
}

TEST(SpirvToolsTest, ValidateRejectsWithTheSpirvValMessage) {
  auto words = Assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpMemoryModel Physical64 OpenCL
          %1 = OpTypeFloat 32
          %2 = OpTypeFunction %1 %1
          %3 = OpFunction %1 None %2
          %4 = OpFunctionParameter %1
          %5 = OpLabel
          %6 = OpIAdd %1 %4 %4
               OpReturnValue %6
               OpFunctionEnd
  )");
  ASSERT_TRUE(words.ok()) << words.status();
  const absl::Status s = Validate(*words);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("spirv-val (--target-env opencl2.2)"));
  EXPECT_THAT(s.message(), HasSubstr("Expected int scalar or vector type"));
  EXPECT_THAT(s.message(), HasSubstr("IAdd"));
}

TEST(SpirvToolsTest, ValidateRejectsGarbageWithoutCrashing) {
  EXPECT_FALSE(Validate(std::vector<uint32_t>{}).ok());
  EXPECT_FALSE(Validate(std::vector<uint32_t>{1, 2, 3}).ok());
  const std::vector<uint32_t> header_only = {0x07230203, 0x00010200, 0, 1, 0};
  const absl::Status s = Validate(header_only);
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("spirv-val"));
}

TEST(SpirvToolsTest, EnvironmentFollowsTheModuleVersion) {
  // SPIRV-Tools' OpenCL 2.2 environment takes SPIR-V 1.0-1.2; later
  // versions are validated in the universal environment of that version.
  EXPECT_EQ(TargetEnvForVersion(0x00010000), SPV_ENV_OPENCL_2_2);
  EXPECT_EQ(TargetEnvForVersion(0x00010100), SPV_ENV_OPENCL_2_2);
  EXPECT_EQ(TargetEnvForVersion(0x00010200), SPV_ENV_OPENCL_2_2);
  EXPECT_EQ(TargetEnvForVersion(0x00010300), SPV_ENV_UNIVERSAL_1_3);
  EXPECT_EQ(TargetEnvForVersion(0x00010400), SPV_ENV_UNIVERSAL_1_4);
  EXPECT_EQ(TargetEnvForVersion(0x00010500), SPV_ENV_UNIVERSAL_1_5);
  EXPECT_EQ(TargetEnvForVersion(0x00010600), SPV_ENV_UNIVERSAL_1_6);
  EXPECT_EQ(TargetEnvForVersion(0x00010900), SPV_ENV_UNIVERSAL_1_6);
  EXPECT_STREQ(TargetEnvName(SPV_ENV_OPENCL_2_2), "opencl2.2");
  EXPECT_STREQ(TargetEnvName(SPV_ENV_UNIVERSAL_1_4), "spv1.4");
}

TEST(SpirvToolsTest, ValidateUsesTheVersionsEnvironment) {
  auto words = test::AssembleHandWritten("linkage");
  ASSERT_TRUE(words.ok()) << words.status();
  (*words)[1] = 0x00010400;
  const absl::Status s = Validate(*words);
  if (!s.ok()) {
    EXPECT_THAT(s.message(), HasSubstr("spv1.4"));
  }
  (*words)[1] = 0x00010900;  // no such version
  const absl::Status bad = Validate(*words);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.message(), HasSubstr("spv1.6"));
}

// Validation runs without friendly names (a whole extra pass) and repeats of
// a passing module are answered from memory; neither may change an answer.
constexpr char kNamedBadAdd[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpMemoryModel Physical64 OpenCL
               OpName %sum "sum_of_floats"
          %1 = OpTypeFloat 32
          %2 = OpTypeFunction %1 %1
          %3 = OpFunction %1 None %2
          %4 = OpFunctionParameter %1
          %5 = OpLabel
        %sum = OpIAdd %1 %4 %4
               OpReturnValue %sum
               OpFunctionEnd
)";

TEST(SpirvToolsTest, ARejectionStillNamesIdsByTheirOpName) {
  auto words = Assemble(kNamedBadAdd);
  ASSERT_TRUE(words.ok()) << words.status();
  const absl::Status s = Validate(*words);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("sum_of_floats"));
}

TEST(SpirvToolsTest, ARememberedPassIsAnExactMatchOfWordsAndEnvironment) {
  auto words = test::AssembleHandWritten("opencl_std");
  ASSERT_TRUE(words.ok()) << words.status();
  ASSERT_TRUE(Validate(*words, SPV_ENV_UNIVERSAL_1_2).ok());
  EXPECT_TRUE(Validate(*words, SPV_ENV_UNIVERSAL_1_2).ok());

  // One word changed after a pass: validated afresh, and rejected.
  std::vector<uint32_t> changed = *words;
  changed[5] = 0xFFFF0000u;  // the first instruction's opcode and length
  EXPECT_FALSE(Validate(changed, SPV_ENV_UNIVERSAL_1_2).ok());

  // The same words in an environment where they fail: Vulkan does not take
  // Kernel modules.
  EXPECT_FALSE(Validate(*words, SPV_ENV_VULKAN_1_0).ok());

  // A module that failed is not remembered as a pass.
  auto bad = Assemble(kNamedBadAdd);
  ASSERT_TRUE(bad.ok());
  EXPECT_FALSE(Validate(*bad).ok());
  EXPECT_FALSE(Validate(*bad).ok());
}

TEST(SpirvToolsTest, AssembleAndDisassemble) {
  auto words =
      Assemble("OpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n");
  ASSERT_TRUE(words.ok()) << words.status();
  EXPECT_EQ((*words)[0], 0x07230203u);
  EXPECT_EQ((*words)[1], 0x00010200u) << "SPIR-V 1.2 by default";
  auto text = Disassemble(*words);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("OpCapability Kernel"));
  EXPECT_THAT(*text, HasSubstr("OpMemoryModel Physical64 OpenCL"));

  auto bad = Assemble("OpNoSuchInstruction %1");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("spirv-as failed"));
  auto garbage = Disassemble(std::vector<uint32_t>{1, 2, 3, 4, 5, 6});
  ASSERT_FALSE(garbage.ok());
  EXPECT_THAT(garbage.status().message(), HasSubstr("spirv-dis failed"));
}

}  // namespace
}  // namespace l0spv::spirv
