// Per-instruction tests: integer/float arithmetic, comparisons, logical
// operations, composites and conversions.
#include <cmath>
#include <limits>

#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

using ::l0spv::oracles::ExecutionStatus;

// out[x] = x * 3 + 1 over 8 work-items.
TEST(ReferenceArith, GlobalIdArithmetic) {
  Execution e = RunBody("%ulong_3 = OpConstant %ulong 3\n", R"(
%m = OpIMul %ulong %x %ulong_3
%a = OpIAdd %ulong %m %ulong_1
%t = OpUConvert %uint %a
%p = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %p %t Aligned 4
)",
                        "uint", 32, 8);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0]),
            (std::vector<uint32_t>{1, 4, 7, 10, 13, 16, 19, 22}));
  EXPECT_GT(e.instructions_executed, 8u * 6);
}

struct IntCase {
  const char* op;
  const char* type;
  uint64_t a, b, expected;
};

class ReferenceIntBinary : public ::testing::TestWithParam<IntCase> {};

TEST_P(ReferenceIntBinary, Computes) {
  const IntCase& c = GetParam();
  const std::string t = c.type;
  const std::string decls = "%a = OpConstant %" + t + " " +
                            std::to_string(c.a) + "\n%b = OpConstant %" + t +
                            " " + std::to_string(c.b) + "\n";
  const std::string body =
      "%r = " + std::string(c.op) + " %" + t + " %a %b\nOpStore %out %r\n";
  Execution e = RunBody(decls, body, t, 8);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  uint64_t got = 0;
  std::memcpy(&got, e.buffers[0].data(),
              t == "uchar"    ? 1
              : t == "ushort" ? 2
              : t == "uint"   ? 4
                              : 8);
  EXPECT_EQ(got, c.expected) << c.op << " " << t;
}

INSTANTIATE_TEST_SUITE_P(
    Ops, ReferenceIntBinary,
    ::testing::Values(
        IntCase{"OpIAdd", "uchar", 200, 100, 44},
        IntCase{"OpISub", "ushort", 1, 2, 0xFFFF},
        IntCase{"OpIMul", "ushort", 65535, 65535, 1},
        IntCase{"OpIMul", "ulong", 0xFFFFFFFFFFFFFFFFull, 3,
                0xFFFFFFFFFFFFFFFDull},
        IntCase{"OpUDiv", "uint", 4000000000u, 3, 1333333333u},
        IntCase{"OpSDiv", "uint", 0xFFFFFFF9u /* -7 */, 2, 0xFFFFFFFDu},
        IntCase{"OpSRem", "uint", 0xFFFFFFF9u, 2, 0xFFFFFFFFu},
        IntCase{"OpSMod", "uint", 0xFFFFFFF9u, 2, 1},
        IntCase{"OpSMod", "uint", 7, 0xFFFFFFFEu /* -2 */, 0xFFFFFFFFu},
        IntCase{"OpUMod", "uchar", 250, 7, 5},
        IntCase{"OpShiftLeftLogical", "uchar", 0x81, 1, 0x02},
        IntCase{"OpShiftRightLogical", "uint", 0x80000000u, 31, 1},
        IntCase{"OpShiftRightArithmetic", "uint", 0x80000000u, 31, 0xFFFFFFFFu},
        IntCase{"OpShiftRightArithmetic", "ulong", 0x8000000000000000ull, 63,
                0xFFFFFFFFFFFFFFFFull},
        IntCase{"OpBitwiseAnd", "uint", 0xF0F0, 0xFF00, 0xF000},
        IntCase{"OpBitwiseOr", "uint", 0xF0F0, 0xFF00, 0xFFF0},
        IntCase{"OpBitwiseXor", "uint", 0xF0F0, 0xFF00, 0x0FF0}));

TEST(ReferenceArith, IntegerComparisonsAndSelect) {
  Execution e = RunBody(R"(
%m1 = OpConstant %uint 0xFFFFFFFF
)",
                        R"(
%lt_s = OpSLessThan %bool %m1 %uint_1
%lt_u = OpULessThan %bool %m1 %uint_1
%s1 = OpSelect %uint %lt_s %uint_7 %uint_0
%s2 = OpSelect %uint %lt_u %uint_7 %uint_0
%s = OpIAdd %uint %s1 %s2
OpStore %out %s
)",
                        "uint", 4);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0])[0], 7u);
}

TEST(ReferenceArith, VectorOpsShuffleAndDynamicIndex) {
  Execution e = RunBody(R"(
%c = OpConstantComposite %v4uint %uint_1 %uint_2 %uint_3 %uint_4
%d = OpConstantComposite %v4uint %uint_5 %uint_6 %uint_7 %uint_8
%ptr_g_v4uint = OpTypePointer CrossWorkgroup %v4uint
)",
                        R"(
%sum = OpIAdd %v4uint %c %d
%sh = OpVectorShuffle %v4uint %sum %d 3 4 0xFFFFFFFF 1
%e = OpVectorExtractDynamic %uint %sh %uint_1
%ins = OpVectorInsertDynamic %v4uint %sh %e %uint_2
%o = OpBitcast %ptr_g_v4uint %out
OpStore %o %ins Aligned 16
)",
                        "uint", 16);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  // sum = 6 8 10 12; shuffle = 12, 5, undef(0), 8; insert lane 2 = 5.
  EXPECT_EQ(As<uint32_t>(e.buffers[0]), (std::vector<uint32_t>{12, 5, 5, 8}));
}

TEST(ReferenceArith, CompositeStructInsertExtract) {
  Execution e = RunBody(R"(
%st = OpTypeStruct %uchar %ulong %uint
%uchar_9 = OpConstant %uchar 9
%ulong_77 = OpConstant %ulong 77
%sv = OpConstantComposite %st %uchar_9 %ulong_77 %uint_3
)",
                        R"(
%s2 = OpCompositeInsert %st %uint_8 %sv 2
%a = OpCompositeExtract %uchar %s2 0
%b = OpCompositeExtract %ulong %s2 1
%c = OpCompositeExtract %uint %s2 2
%a32 = OpUConvert %uint %a
%b32 = OpUConvert %uint %b
%t = OpIAdd %uint %a32 %b32
%t2 = OpIAdd %uint %t %c
OpStore %out %t2
)",
                        "uint", 4);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0])[0], 9u + 77u + 8u);
}

TEST(ReferenceArith, FloatOpsAndOrderedUnordered) {
  Execution e = RunBody(R"(
%nan = OpConstant %float 0x1.8p+128
%f3 = OpConstant %float 3
%f05 = OpConstant %float 0.5
)",
                        R"(
%a = OpFMul %float %f3 %f05
%b = OpFSub %float %a %float_2
%ord = OpFOrdLessThan %bool %nan %float_1
%unord = OpFUnordLessThan %bool %nan %float_1
%o1 = OpSelect %float %ord %float_1 %float_0
%o2 = OpSelect %float %unord %float_2 %float_0
%r = OpFAdd %float %b %o1
%r2 = OpFAdd %float %r %o2
%isn = OpIsNan %bool %nan
%o3 = OpSelect %float %isn %f3 %float_0
%r3 = OpFAdd %float %r2 %o3
%neg = OpFNegate %float %r3
OpStore %out %neg
)",
                        "float", 4);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<float>(e.buffers[0])[0], -(1.5f - 2.0f + 2.0f + 3.0f));
}

TEST(ReferenceArith, HalfArithmeticRoundsToNearestEven) {
  // 1 + 2^-11 is exactly halfway between 1 and 1 + 2^-10: rounds to 1.
  Execution e = RunBody(R"(
%h1 = OpConstant %half 1
%hsmall = OpConstant %half 0x1p-11
%h3 = OpConstant %half 3
)",
                        R"(
%a = OpFAdd %half %h1 %hsmall
%b = OpFDiv %half %h1 %h3
%p1 = OpInBoundsPtrAccessChain %ptr_g_half %out %ulong_1
OpStore %out %a
OpStore %p1 %b
)",
                        "half", 4, 1, {}, false, "OpCapability Float16\n");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto h = As<uint16_t>(e.buffers[0]);
  EXPECT_EQ(h[0], 0x3C00);  // 1.0
  EXPECT_EQ(h[1], 0x3555);  // 1/3 in half
}

TEST(ReferenceArith, LogicalAndAnyAll) {
  Execution e = RunBody(R"(
%bv = OpConstantComposite %v2bool %true %false
)",
                        R"(
%n = OpLogicalNot %v2bool %bv
%and = OpLogicalAnd %v2bool %bv %n
%any = OpAny %bool %bv
%all = OpAll %bool %bv
%none = OpAny %bool %and
%a = OpSelect %uint %any %uint_1 %uint_0
%b = OpSelect %uint %all %uint_2 %uint_0
%c = OpSelect %uint %none %uint_4 %uint_0
%s = OpBitwiseOr %uint %a %b
%s2 = OpBitwiseOr %uint %s %c
OpStore %out %s2
)",
                        "uint", 4);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0])[0], 1u);
}

TEST(ReferenceArith, Conversions) {
  Execution e = RunBody(R"(
%fneg = OpConstant %float -3.75
%big = OpConstant %ulong 0xFFFFFFFFFFFFFFFF
%m1 = OpConstant %uint 0xFFFFFFFF
%ptr_g_v4uint = OpTypePointer CrossWorkgroup %v4uint
)",
                        R"(
%a = OpConvertFToS %uint %fneg
%b = OpSConvert %ulong %m1
%bt = OpUConvert %uint %b
%f = OpConvertUToF %float %big
%fb = OpBitcast %uint %f
%c = OpUConvert %ulong %m1
%ct = OpShiftRightLogical %ulong %c %ulong_1
%cu = OpUConvert %uint %ct
%v = OpCompositeConstruct %v4uint %a %bt %fb %cu
%o = OpBitcast %ptr_g_v4uint %out
OpStore %o %v Aligned 16
)",
                        "uint", 16);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto v = As<uint32_t>(e.buffers[0]);
  EXPECT_EQ(v[0], static_cast<uint32_t>(-3));  // round toward zero
  EXPECT_EQ(v[1], 0xFFFFFFFFu);
  EXPECT_EQ(v[2], 0x5F800000u);  // 2^64 as float
  EXPECT_EQ(v[3], 0x7FFFFFFFu);
}

TEST(ReferenceArith, RoundingModeAndSaturationDecorations) {
  const std::string text = Prelude("", "",
                                   "OpDecorate %rtp FPRoundingMode RTP\n"
                                   "OpDecorate %rtn FPRoundingMode RTN\n"
                                   "OpDecorate %sat SaturatedConversion\n"
                                   "OpDecorate %sat_nan SaturatedConversion\n"
                                   "OpDecorate %rte_i FPRoundingMode RTE\n") +
                           R"(
%ptr_g_v4uint = OpTypePointer CrossWorkgroup %v4uint
%kfn = OpTypeFunction %void %ptr_g_uint
%third = OpConstant %double 0.3333333333333333
%f25 = OpConstant %float 2.5
%fbig = OpConstant %float 1e20
%fnan = OpConstant %float 0x1.8p+128
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%rtp = OpFConvert %float %third
%rtn = OpFConvert %float %third
%sat = OpConvertFToU %uint %fbig
%sat_nan = OpConvertFToS %uint %fnan
%rte_i = OpConvertFToS %uint %f25
%b0 = OpBitcast %uint %rtp
%b1 = OpBitcast %uint %rtn
%d = OpISub %uint %b0 %b1
%v = OpCompositeConstruct %v4uint %d %sat %sat_nan %rte_i
%o = OpBitcast %ptr_g_v4uint %out
OpStore %o %v Aligned 16
OpReturn
OpFunctionEnd
)";
  Execution e = RunReference(
      MakeCase(AssembleOrDie(text), {1}, std::nullopt, {Buffer(16)}), {});
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto v = As<uint32_t>(e.buffers[0]);
  EXPECT_EQ(v[0], 1u);           // rtp and rtn differ by one ulp
  EXPECT_EQ(v[1], 0xFFFFFFFFu);  // saturated
  EXPECT_EQ(v[2], 0u);           // NaN saturates to 0
  EXPECT_EQ(v[3], 2u);           // 2.5 rte -> 2
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
