// The Kernel fix-up of spirv-fuzz's output, one golden before/after pair per
// fix, and the forms it must refuse (a Private variable it cannot move).
// Every fixed module must pass spirv-val in the OpenCL environment.
#include "spirv/kernel_fixup.h"

#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"

namespace l0spv::spirv {
namespace {

constexpr char kPrologue[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
)";

Module Read(std::string_view body) {
  auto words = Assemble(std::string(kPrologue) + std::string(body));
  EXPECT_TRUE(words.ok()) << words.status();
  auto module = ReadModuleWords(*words);
  EXPECT_TRUE(module.ok()) << module.status();
  return *module;
}

// The module's instructions, one per line, ids as numbers, no comments.
std::string Text(const Module& module) {
  auto text = Disassemble(EncodeModule(module), /*friendly_names=*/false);
  EXPECT_TRUE(text.ok()) << text.status();
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, ";")) continue;
    std::vector<absl::string_view> words =
        absl::StrSplit(line, ' ', absl::SkipWhitespace());
    lines.push_back(absl::StrJoin(words, " "));
  }
  return absl::StrJoin(lines, "\n");
}

std::string Normalized(std::string_view body) { return Text(Read(body)); }

void ExpectValidKernel(const Module& module) {
  const std::vector<uint32_t> words = EncodeModule(module);
  EXPECT_TRUE(Validate(words, SPV_ENV_OPENCL_2_2).ok())
      << Validate(words, SPV_ENV_OPENCL_2_2) << "\n"
      << Text(module);
}

TEST(KernelFixup, SignedIntsBecomeUnsignedAndDuplicatesMerge) {
  Module m = Read(R"(
               OpEntryPoint Kernel %5 "k"
               OpName %3 "sint"
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %3 = OpTypeInt 32 1
          %6 = OpTypeVector %2 2
          %7 = OpTypeVector %3 2
          %4 = OpTypeFunction %1
          %8 = OpConstant %3 7
          %9 = OpConstantComposite %7 %8 %8
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %11 = OpIAdd %7 %9 %9
               OpReturn
               OpFunctionEnd
)");
  auto fixes = FixUpKernelModule(m);
  ASSERT_TRUE(fixes.ok()) << fixes.status();
  EXPECT_EQ(fixes->signed_int_types, 1u);
  EXPECT_EQ(fixes->merged_types, 2u);  // the int, then its vector
  EXPECT_EQ(Text(m), Normalized(R"(
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %6 = OpTypeVector %2 2
          %4 = OpTypeFunction %1
          %8 = OpConstant %2 7
          %9 = OpConstantComposite %6 %8 %8
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %11 = OpIAdd %6 %9 %9
               OpReturn
               OpFunctionEnd
)"));
  ExpectValidKernel(m);
}

TEST(KernelFixup, ShaderOnlyDecorationsAreDropped) {
  Module m = Read(R"(
               OpEntryPoint Kernel %5 "k"
               OpDecorate %11 NoContraction
               OpDecorate %11 RelaxedPrecision
               OpDecorate %12 FPRoundingMode RTZ
          %1 = OpTypeVoid
          %2 = OpTypeFloat 32
          %4 = OpTypeFunction %1
          %8 = OpConstant %2 1.5
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %11 = OpFMul %2 %8 %8
         %12 = OpFAdd %2 %11 %8
               OpReturn
               OpFunctionEnd
)");
  auto fixes = FixUpKernelModule(m);
  ASSERT_TRUE(fixes.ok()) << fixes.status();
  EXPECT_EQ(fixes->shader_decorations, 2u);
  EXPECT_THAT(Text(m), ::testing::Not(::testing::HasSubstr("NoContraction")));
  EXPECT_THAT(Text(m),
              ::testing::Not(::testing::HasSubstr("RelaxedPrecision")));
  // FPRoundingMode needs Kernel (or the 16-bit storage capabilities): kept.
  EXPECT_THAT(Text(m),
              ::testing::HasSubstr("OpDecorate %12 FPRoundingMode RTZ"));
  ExpectValidKernel(m);
}

TEST(KernelFixup, OneWordSixtyFourBitConstantsAreWidened) {
  Module m = Read(R"(
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeInt 64 0
          %4 = OpTypeFunction %1
          %8 = OpConstant %2 5
          %9 = OpConstant %2 6
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %11 = OpIAdd %2 %8 %9
               OpReturn
               OpFunctionEnd
)");
  // What spirv-fuzz writes: the constant %9 with one literal word.
  for (Instruction& inst : m.types_values)
    if (inst.result_id() == 9) inst.mutable_operands()[0].words.resize(1);
  auto fixes = FixUpKernelModule(m);
  ASSERT_TRUE(fixes.ok()) << fixes.status();
  EXPECT_EQ(fixes->widened_constants, 1u);
  for (const Instruction& inst : m.types_values) {
    if (inst.result_id() == 9) {
      EXPECT_EQ(inst.operand(0).AsLiteral64(), 6u);
    }
  }
  ExpectValidKernel(m);
}

TEST(KernelFixup, PrivateVariablesMoveIntoTheirFunction) {
  Module m = Read(R"(
               OpEntryPoint Kernel %5 "k"
               OpName %20 "priv"
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %4 = OpTypeFunction %1
          %8 = OpConstant %2 3
          %9 = OpConstant %2 0
         %13 = OpTypeArray %2 %8
         %14 = OpConstantNull %13
         %15 = OpTypePointer Private %13
         %16 = OpTypePointer Private %2
         %20 = OpVariable %15 Private %14
         %21 = OpVariable %16 Private %8
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %11 = OpAccessChain %16 %20 %9
               OpStore %11 %8
         %12 = OpLoad %2 %11
               OpReturn
               OpFunctionEnd
)");
  auto fixes = FixUpKernelModule(m);
  ASSERT_TRUE(fixes.ok()) << fixes.status();
  EXPECT_EQ(fixes->private_variables, 1u);
  EXPECT_EQ(fixes->unused_private_variables, 1u);
  EXPECT_THAT(Text(m), ::testing::Not(::testing::HasSubstr("Private")));
  EXPECT_THAT(Text(m),
              ::testing::HasSubstr("%20 = OpVariable %22 Function %14"));
  EXPECT_THAT(Text(m), ::testing::HasSubstr("%11 = OpAccessChain %23 %20 %9"));
  ExpectValidKernel(m);
}

TEST(KernelFixup, APrivateVariableOfTwoFunctionsGetsACopyInEach) {
  Module m = Read(R"(
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %4 = OpTypeFunction %1
          %8 = OpConstant %2 3
         %16 = OpTypePointer Private %2
         %21 = OpVariable %16 Private %8
         %30 = OpFunction %1 None %4
         %31 = OpLabel
         %33 = OpLoad %2 %21
               OpReturn
               OpFunctionEnd
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %12 = OpLoad %2 %21
         %13 = OpFunctionCall %1 %30
               OpReturn
               OpFunctionEnd
)");
  auto fixes = FixUpKernelModule(m);
  ASSERT_TRUE(fixes.ok()) << fixes.status();
  EXPECT_EQ(fixes->private_variables, 1u);
  EXPECT_EQ(fixes->private_variable_copies, 1u);
  const std::string text = Text(m);
  EXPECT_THAT(text, ::testing::Not(::testing::HasSubstr("Private")));
  // Both only read (the initializer): %30 (first) keeps %21; the kernel's
  // copy is a fresh id.
  EXPECT_THAT(text, ::testing::HasSubstr("%21 = OpVariable %34 Function %8"));
  EXPECT_THAT(text, ::testing::HasSubstr("%35 = OpVariable %34 Function %8"));
  EXPECT_THAT(text, ::testing::HasSubstr("%12 = OpLoad %2 %35"));
  ExpectValidKernel(m);
}

// spirv-fuzz's replaceParameterWithGlobal: the caller stores an argument,
// the callee loads it. Copies per function would lose the value, so the
// variable lives in the kernel and reaches the callee as a new parameter.
TEST(KernelFixup, APrivateVariableCarryingAValueIsThreadedThroughCalls) {
  Module m = Read(R"(
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %4 = OpTypeFunction %1
          %8 = OpConstant %2 3
         %16 = OpTypePointer Private %2
         %21 = OpVariable %16 Private %8
         %30 = OpFunction %1 None %4
         %31 = OpLabel
         %32 = OpLoad %2 %21
               OpReturn
               OpFunctionEnd
          %5 = OpFunction %1 None %4
         %10 = OpLabel
               OpStore %21 %8
         %13 = OpFunctionCall %1 %30
               OpReturn
               OpFunctionEnd
)");
  auto fixes = FixUpKernelModule(m);
  ASSERT_TRUE(fixes.ok()) << fixes.status();
  EXPECT_EQ(fixes->private_variables_threaded, 1u);
  EXPECT_EQ(fixes->private_variable_copies, 0u);
  const std::string text = Text(m);
  EXPECT_THAT(text, ::testing::Not(::testing::HasSubstr("Private")));
  // Bound 33: %33 the Function pointer, %34 %30's parameter, %35 its type.
  EXPECT_THAT(text, ::testing::HasSubstr("%35 = OpTypeFunction %1 %33"));
  EXPECT_THAT(text, ::testing::HasSubstr("%30 = OpFunction %1 None %35"));
  EXPECT_THAT(text, ::testing::HasSubstr("%34 = OpFunctionParameter %33"));
  EXPECT_THAT(text, ::testing::HasSubstr("%32 = OpLoad %2 %34"));
  EXPECT_THAT(text, ::testing::HasSubstr("%21 = OpVariable %33 Function %8"));
  EXPECT_THAT(text, ::testing::HasSubstr("%13 = OpFunctionCall %1 %30 %21"));
  ExpectValidKernel(m);
}

TEST(KernelFixup, RefusesAMatrixTypeInUse) {
  Module m = Read(R"(
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeFloat 32
          %3 = OpTypeVector %2 2
          %6 = OpTypeMatrix %3 2
          %7 = OpTypeMatrix %3 3
         %17 = OpTypeStruct %6
          %4 = OpTypeFunction %1
          %5 = OpFunction %1 None %4
         %10 = OpLabel
               OpReturn
               OpFunctionEnd
)");
  EXPECT_TRUE(absl::IsFailedPrecondition(FixUpKernelModule(m).status()));
}

TEST(KernelFixup, UnusedMatrixTypesGoAndOddAtomicLoadsBecomePlain) {
  Module m = Read(R"(
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeFloat 32
          %3 = OpTypeVector %2 2
          %6 = OpTypeMatrix %3 2
         %20 = OpTypeInt 32 0
         %21 = OpTypeInt 16 0
         %22 = OpTypePointer Function %21
         %23 = OpConstant %20 1
         %24 = OpConstant %20 0
          %4 = OpTypeFunction %1
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %11 = OpVariable %22 Function
         %12 = OpAtomicLoad %21 %11 %23 %24
               OpReturn
               OpFunctionEnd
)");
  auto fixes = FixUpKernelModule(m);
  ASSERT_TRUE(fixes.ok()) << fixes.status();
  EXPECT_EQ(fixes->matrix_types, 1u);
  EXPECT_EQ(fixes->atomic_loads, 1u);
  EXPECT_THAT(Text(m), ::testing::HasSubstr("%12 = OpLoad %21 %11"));
  EXPECT_THAT(Text(m), ::testing::Not(::testing::HasSubstr("Matrix")));
}

TEST(KernelFixup, OneWordConstantsAreWidenedInTheBinary) {
  Module m = Read(R"(
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeInt 64 0
          %3 = OpTypeInt 32 0
          %4 = OpTypeFunction %1
          %8 = OpConstant %2 5
          %9 = OpConstant %3 6
          %5 = OpFunction %1 None %4
         %10 = OpLabel
               OpReturn
               OpFunctionEnd
)");
  std::vector<uint32_t> good = EncodeModule(m);
  // %8 as spirv-fuzz writes it: a word count of 4, one literal word.
  std::vector<uint32_t> bad = good;
  for (size_t at = 5; at < bad.size(); at += bad[at] >> 16) {
    if ((bad[at] & 0xFFFF) == static_cast<uint32_t>(spv::Op::OpConstant) &&
        bad[at + 2] == 8) {
      bad[at] = (4u << 16) | (bad[at] & 0xFFFF);
      bad.erase(bad.begin() + static_cast<ptrdiff_t>(at + 4));
      break;
    }
  }
  ASSERT_FALSE(ReadModuleWords(bad).ok());
  EXPECT_EQ(WidenOneWordConstants(bad), 1u);
  EXPECT_EQ(bad, good);
  EXPECT_EQ(WidenOneWordConstants(good), 0u);  // 2-word and 32-bit ones stay
}

TEST(KernelFixup, RefusesAPrivatePointerParameter) {
  Module m = Read(R"(
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %8 = OpConstant %2 3
         %16 = OpTypePointer Private %2
          %4 = OpTypeFunction %1
         %17 = OpTypeFunction %1 %16
         %21 = OpVariable %16 Private %8
         %30 = OpFunction %1 None %17
         %32 = OpFunctionParameter %16
         %31 = OpLabel
               OpReturn
               OpFunctionEnd
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %13 = OpFunctionCall %1 %30 %21
               OpReturn
               OpFunctionEnd
)");
  EXPECT_TRUE(absl::IsFailedPrecondition(FixUpKernelModule(m).status()));
}

TEST(KernelFixup, AValidKernelModuleIsLeftAsItIs) {
  constexpr char kBody[] = R"(
               OpEntryPoint Kernel %5 "k"
               OpDecorate %11 FPRoundingMode RTE
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %3 = OpTypeFloat 32
          %4 = OpTypeFunction %1
          %8 = OpConstant %3 2
          %9 = OpTypePointer Function %3
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %12 = OpVariable %9 Function
         %11 = OpFAdd %3 %8 %8
               OpStore %12 %11
               OpReturn
               OpFunctionEnd
)";
  Module m = Read(kBody);
  auto fixes = FixUpKernelModule(m);
  ASSERT_TRUE(fixes.ok()) << fixes.status();
  EXPECT_EQ(fixes->Total(), 0u);
  EXPECT_EQ(Text(m), Normalized(kBody));
}

}  // namespace
}  // namespace l0spv::spirv
