// printf: the format grammar, vector specifiers and argument checks.
#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

// A kernel printing `format` (a UniformConstant i8 array) with `args`
// (ids defined in `decls`).
Execution Print(const std::string& format, const std::string& decls,
                const std::string& args) {
  std::string chars;
  for (char ch : format)
    chars += " %c" + std::to_string(static_cast<unsigned char>(ch));
  chars += " %c0";
  std::string consts;
  std::vector<int> seen(256, 0);
  for (char ch : format + std::string(1, '\0')) {
    const int v = static_cast<unsigned char>(ch);
    if (seen[v]++) continue;
    consts += "%c" + std::to_string(v) + " = OpConstant %uchar " +
              std::to_string(v) + "\n";
  }
  const std::string n = std::to_string(format.size() + 1);
  const std::string text = WrapBody(
      decls + consts + "%len = OpConstant %uint " + n +
          "\n%fmt_t = OpTypeArray %uchar %len\n"
          "%ptr_uc_fmt = OpTypePointer UniformConstant %fmt_t\n"
          "%ptr_uc_uchar = OpTypePointer UniformConstant %uchar\n"
          "%fmt_c = OpConstantComposite %fmt_t" +
          chars + "\n%fmt = OpVariable %ptr_uc_fmt UniformConstant %fmt_c\n",
      "%f0 = OpInBoundsAccessChain %ptr_uc_uchar %fmt %uint_0\n"
      "%r = OpExtInst %uint %ext printf %f0 " +
          args + "\nOpStore %out %r\n",
      "uint");
  return RunReference(
      MakeCase(AssembleOrDie(text), {1}, std::nullopt, {Buffer(4)}), {});
}

TEST(ReferencePrintf, IntegersFloatsAndFlags) {
  Execution e =
      Print("a=%d b=%5u c=%-4x| d=%08.3f e=%e %% %c\n",
            "%m5 = OpConstant %uint 0xFFFFFFFB\n%u42 = OpConstant %uint 42\n"
            "%u255 = OpConstant %uint 255\n%d = OpConstant %double 3.14159\n"
            "%chr = OpConstant %uint 65\n",
            "%m5 %u42 %u255 %d %d %chr");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(e.printf_output,
            "a=-5 b=   42 c=ff  | d=0003.142 e=3.141590e+00 % A\n");
  EXPECT_EQ(As<uint32_t>(e.buffers[0])[0], 0u);
}

TEST(ReferencePrintf, VectorsAndLengthModifiers) {
  Execution e =
      Print("%v4hhd|%v2hlx|%v4hlf|%ld\n",
            "%c1 = OpConstant %uchar 1\n%c255 = OpConstant %uchar 255\n"
            "%vc = OpConstantComposite %v4uchar %c1 %c255 %c1 %c255\n"
            "%vu = OpConstantComposite %v2uint %uint_7 %uint_8\n"
            "%vf = OpConstantComposite %v4float %float_0 %float_1 %float_2 "
            "%float_1\n"
            "%big = OpConstant %ulong 0xFFFFFFFFFFFFFFFF\n",
            "%vc %vu %vf %big");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(e.printf_output,
            "1,-1,1,-1|7,8|0.000000,1.000000,2.000000,1.000000|-1\n");
}

TEST(ReferencePrintf, MissingArgumentIsReported) {
  Execution e = Print("%d %d\n", "", "%uint_1");
  EXPECT_EQ(e.status, ExecutionStatus::kUbDetected);
  EXPECT_NE(e.message.find("too few arguments"), std::string::npos)
      << e.message;
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
