// OpenCL.std instructions: integer, exact math, vload/vstore, shuffle.
#include <bit>
#include <cmath>

#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

struct ExtCase {
  const char* inst;
  const char* args;
  uint32_t expected;
};

class ReferenceOpenClInt : public ::testing::TestWithParam<ExtCase> {};

TEST_P(ReferenceOpenClInt, Computes) {
  const ExtCase& c = GetParam();
  Execution e = RunBody(R"(
%m1 = OpConstant %uint 0xFFFFFFFF
%big = OpConstant %uint 0xF0000000
%u100 = OpConstant %uint 100
%u16 = OpConstant %uint 0x10
%pos = OpConstant %uint 0x70000000
)",
                        std::string("%r = OpExtInst %uint %ext ") + c.inst +
                            " " + c.args + "\nOpStore %out %r\n",
                        "uint", 4);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0])[0], c.expected) << c.inst;
}

INSTANTIATE_TEST_SUITE_P(
    Ops, ReferenceOpenClInt,
    ::testing::Values(ExtCase{"s_abs", "%m1", 1},
                      ExtCase{"u_add_sat", "%big %big", 0xFFFFFFFFu},
                      ExtCase{"s_add_sat", "%pos %pos", 0x7FFFFFFFu},
                      ExtCase{"u_sub_sat", "%uint_1 %uint_2", 0},
                      ExtCase{"u_hadd", "%m1 %m1", 0xFFFFFFFFu},
                      ExtCase{"s_rhadd", "%m1 %uint_2", 1},
                      ExtCase{"clz", "%u16", 27}, ExtCase{"ctz", "%u16", 4},
                      ExtCase{"popcount", "%big", 4},
                      ExtCase{"u_mul_hi", "%big %u16", 0xF},
                      ExtCase{"s_mul_hi", "%m1 %u16", 0xFFFFFFFFu},
                      ExtCase{"rotate", "%big %uint_4", 0xF},
                      ExtCase{"u_clamp", "%u100 %uint_1 %uint_8", 8},
                      ExtCase{"s_min", "%m1 %uint_1", 0xFFFFFFFFu},
                      ExtCase{"u_min", "%m1 %uint_1", 1},
                      ExtCase{"u_mad24", "%u100 %u100 %uint_1", 10001},
                      ExtCase{"u_abs_diff", "%uint_1 %m1", 0xFFFFFFFEu}));

TEST(ReferenceOpenClStd, ExactMathFunctions) {
  Execution e = RunBody(R"(
%f = OpConstant %float 2.5
%fneg = OpConstant %float -2.5
%tiny = OpConstant %float 0x1p-30
%ptr_g_v4 = OpTypePointer CrossWorkgroup %v4float
%f3 = OpConstant %float 3
)",
                        R"(
%a = OpExtInst %float %ext rint %f
%b = OpExtInst %float %ext round %fneg
%c = OpExtInst %float %ext fma %f3 %f %tiny
%d = OpExtInst %float %ext sqrt %f
%v = OpCompositeConstruct %v4float %a %b %c %d
%o = OpBitcast %ptr_g_v4 %out
OpStore %o %v Aligned 16
)",
                        "float", 16);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto v = As<float>(e.buffers[0]);
  EXPECT_EQ(v[0], 2.0f);
  EXPECT_EQ(v[1], -3.0f);
  EXPECT_EQ(v[2], std::fma(3.0f, 2.5f, std::ldexp(1.0f, -30)));
  EXPECT_EQ(v[3], std::sqrt(2.5f));
}

// powr's special cases differ from pow's (OpenCL C 6.13.2.1): NaN where
// pow() gives 1; rootn keeps the sign of a zero for odd n.
TEST(ReferenceOpenClStd, PowrAndRootnSpecialCases) {
  Execution e = RunBody(R"(
%zero = OpConstant %float 0
%nzero = OpConstant %float -0
%one = OpConstant %float 1
%two = OpConstant %float 2
%inf = OpConstant %float 0x1p+128
%m3 = OpConstant %uint 0xFFFFFFFD
%m3f = OpConstant %float -3
%ptr_g_v4 = OpTypePointer CrossWorkgroup %v4float
)",
                        R"(
%a = OpExtInst %float %ext powr %zero %zero
%b = OpExtInst %float %ext powr %one %inf
%c = OpExtInst %float %ext powr %inf %zero
%d = OpExtInst %float %ext powr %two %two
%v = OpCompositeConstruct %v4float %a %b %c %d
%o = OpBitcast %ptr_g_v4 %out
OpStore %o %v Aligned 16
%e = OpExtInst %float %ext rootn %nzero %m3
%f = OpExtInst %float %ext powr %nzero %m3f
%g = OpExtInst %float %ext pow %zero %zero
%h = OpExtInst %float %ext rootn %two %uint_2
%w = OpCompositeConstruct %v4float %e %f %g %h
%o2 = OpInBoundsPtrAccessChain %ptr_g_v4 %o %uint_1
OpStore %o2 %w Aligned 16
)",
                        "float", 32);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto v = As<float>(e.buffers[0]);
  EXPECT_TRUE(std::isnan(v[0]));  // powr(0, 0)
  EXPECT_TRUE(std::isnan(v[1]));  // powr(1, inf)
  EXPECT_TRUE(std::isnan(v[2]));  // powr(inf, 0)
  EXPECT_EQ(v[3], 4.0f);
  EXPECT_EQ(v[4], -INFINITY);  // rootn(-0, -3)
  EXPECT_EQ(v[5], INFINITY);   // powr(-0, -3) = +inf
  EXPECT_EQ(v[6], 1.0f);       // pow(0, 0) = 1
  EXPECT_EQ(v[7], std::sqrt(2.0f));
}

// sinpi/cospi/tanpi are exact at integers and half-integers (OpenCL C
// 6.13.2.1), which sin(pi * x) with an inexact pi is not.
TEST(ReferenceOpenClStd, PiFunctionsAreExactAtHalfIntegers) {
  Execution e = RunBody(R"(
%p_one = OpConstant %float 1
%p_half = OpConstant %float 0.5
%p_m15 = OpConstant %float -1.5
%p_big = OpConstant %float 24.25
%ptr_g_v4 = OpTypePointer CrossWorkgroup %v4float
)",
                        R"(
%a = OpExtInst %float %ext sinpi %p_one
%b = OpExtInst %float %ext cospi %p_half
%c = OpExtInst %float %ext tanpi %p_half
%d = OpExtInst %float %ext tanpi %p_one
%v = OpCompositeConstruct %v4float %a %b %c %d
%o = OpBitcast %ptr_g_v4 %out
OpStore %o %v Aligned 16
%e = OpExtInst %float %ext tanpi %p_m15
%f = OpExtInst %float %ext sinpi %p_m15
%g = OpExtInst %float %ext cospi %p_big
%h = OpExtInst %float %ext cospi %p_one
%w = OpCompositeConstruct %v4float %e %f %g %h
%o2 = OpInBoundsPtrAccessChain %ptr_g_v4 %o %uint_1
OpStore %o2 %w Aligned 16
)",
                        "float", 32);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto v = As<float>(e.buffers[0]);
  EXPECT_EQ(std::bit_cast<uint32_t>(v[0]), 0u);           // sinpi(1) = +0
  EXPECT_EQ(std::bit_cast<uint32_t>(v[1]), 0u);           // cospi(0.5) = +0
  EXPECT_EQ(v[2], INFINITY);                              // tanpi(0.5)
  EXPECT_EQ(std::bit_cast<uint32_t>(v[3]), 0x80000000u);  // tanpi(1) = -0
  EXPECT_EQ(v[4], INFINITY);  // tanpi(-1.5): n = -2 is even
  EXPECT_EQ(v[5], 1.0f);      // sinpi(-1.5) = 1
  EXPECT_EQ(v[6], std::sqrt(0.5f));
  EXPECT_EQ(v[7], -1.0f);
}

TEST(ReferenceOpenClStd, VloadVstoreHalfAndShuffle) {
  Execution e = RunBody(R"(
%h = OpConstant %float 1.5
%mask = OpConstantComposite %v4uint %uint_3 %uint_2 %uint_1 %uint_0
%src = OpConstantComposite %v4uint %uint_5 %uint_6 %uint_7 %uint_8
)",
                        R"(
%b = OpBitcast %ptr_g_half %out
%vs1 = OpExtInst %void %ext vstore_half %h %ulong_1 %b
%l = OpExtInst %float %ext vload_half %ulong_1 %b
%s = OpExtInst %v4uint %ext shuffle %src %mask
%vs2 = OpExtInst %void %ext vstoren %s %ulong_1 %out
%o3 = OpInBoundsPtrAccessChain %ptr_g_uint %out %ulong_0
%lb = OpBitcast %uint %l
OpStore %o3 %lb
)",
                        "uint", 32);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto v = As<uint32_t>(e.buffers[0]);
  float f;
  std::memcpy(&f, &v[0], 4);
  EXPECT_EQ(f, 1.5f);
  EXPECT_EQ(v[4], 8u);
  EXPECT_EQ(v[7], 5u);
}

TEST(ReferenceOpenClStd, ClampWithCrossedBoundsIsUb) {
  Execution e = RunBody("", R"(
%r = OpExtInst %uint %ext u_clamp %uint_1 %uint_8 %uint_2
OpStore %out %r
)",
                        "uint", 4);
  EXPECT_EQ(e.status, ExecutionStatus::kUbDetected);
}

}  // namespace
}  // namespace l0spv::oracles::reference::test

namespace l0spv::oracles::reference::test {
namespace {

// Regressions found by the PoCL differential test: step(edge, x) is 1 when
// x == edge, and a 32-bit OpConvertSToF of a negative value stays negative.
TEST(ReferenceRegressions, StepAtTheEdgeAndSignedConversion) {
  Execution e = RunBody(R"(
%half_f = OpConstant %float 0.5
%minus3 = OpConstant %uint 0xFFFFFFFD
%ptr_g_v2 = OpTypePointer CrossWorkgroup %v2float
)",
                        R"(
%s = OpExtInst %float %ext step %half_f %half_f
%c = OpConvertSToF %float %minus3
%v = OpCompositeConstruct %v2float %s %c
%o = OpBitcast %ptr_g_v2 %out
OpStore %o %v Aligned 8
)",
                        "float", 8);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto v = As<float>(e.buffers[0]);
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_EQ(v[1], -3.0f);
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
