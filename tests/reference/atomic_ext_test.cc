// Atomics beyond the integer read-modify-writes: float add/min/max
// (SPV_EXT_shader_atomic_float_add / _min_max), float load/store/exchange
// and the atomic flag instructions.
#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

constexpr char kFloatAdd[] =
    "OpCapability AtomicFloat32AddEXT\n"
    "OpCapability AtomicFloat64AddEXT\n"
    "OpExtension \"SPV_EXT_shader_atomic_float_add\"\n";
constexpr char kFloatMinMax[] =
    "OpCapability AtomicFloat32MinMaxEXT\n"
    "OpExtension \"SPV_EXT_shader_atomic_float_min_max\"\n";

TEST(ReferenceAtomicFloat, AddAccumulatesAndReturnsTheOldValue) {
  // out[0] += 1.5 by 8 work-items; out[1 + x] = the value each one saw.
  Execution e = RunBody("%f15 = OpConstant %float 1.5\n", R"(
%old = OpAtomicFAddEXT %float %out %uint_1 %uint_0 %f15
%i = OpIAdd %ulong %x %ulong_1
%slot = OpInBoundsPtrAccessChain %ptr_g_float %out %i
OpStore %slot %old Aligned 4
)",
                        "float", 36, 8, {}, false, kFloatAdd);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto v = As<float>(e.buffers[0]);
  EXPECT_EQ(v[0], 12.0f);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(v[1 + i], 1.5f * i) << i;
}

TEST(ReferenceAtomicFloat, AddOnDoubleRoundsInDouble) {
  Execution e = RunBody("%d01 = OpConstant %double 0.1\n", R"(
%old = OpAtomicFAddEXT %double %out %uint_1 %uint_0 %d01
)",
                        "double", 8, 3, {}, false, kFloatAdd);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<double>(e.buffers[0])[0], (0.1 + 0.1) + 0.1);
}

TEST(ReferenceAtomicFloat, MinAndMax) {
  // out[0] = max over x of x, out[1] = min over x of -x (buffers start 0).
  Execution e = RunBody("", R"(
%xf = OpConvertUToF %float %x
%nx = OpFNegate %float %xf
%o1 = OpAtomicFMaxEXT %float %out %uint_1 %uint_0 %xf
%p1 = OpInBoundsPtrAccessChain %ptr_g_float %out %ulong_1
%o2 = OpAtomicFMinEXT %float %p1 %uint_1 %uint_0 %nx
)",
                        "float", 8, 6, {}, false, kFloatMinMax);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto v = As<float>(e.buffers[0]);
  EXPECT_EQ(v[0], 5.0f);
  EXPECT_EQ(v[1], -5.0f);
}

TEST(ReferenceAtomicFloat, LoadStoreExchangeMoveFloatBits) {
  Execution e = RunBody("%f25 = OpConstant %float 2.5\n", R"(
OpAtomicStore %out %uint_1 %uint_0 %f25
%a = OpAtomicExchange %float %out %uint_1 %uint_0 %float_1
%b = OpAtomicLoad %float %out %uint_1 %uint_0
%s = OpFAdd %float %a %b
%p1 = OpInBoundsPtrAccessChain %ptr_g_float %out %ulong_1
OpStore %p1 %s Aligned 4
)",
                        "float", 8);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto v = As<float>(e.buffers[0]);
  EXPECT_EQ(v[0], 1.0f);
  EXPECT_EQ(v[1], 3.5f);
}

TEST(ReferenceAtomicFloat, FloatAddOnAnIntegerIsRejectedByTheDecoder) {
  // Only reachable without validation: the decoder must not run it.
  ReferenceOptions o;
  o.skip_validation = true;
  Execution e = RunBody("", R"(
%old = OpAtomicFAddEXT %uint %out %uint_1 %uint_0 %uint_1
)",
                        "uint", 4, 1, o, false, kFloatAdd);
  EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << e.message;
  EXPECT_NE(e.message.find("OpAtomicFAddEXT"), std::string::npos) << e.message;
}

TEST(ReferenceAtomicFlag, TestAndSetReportsThePreviousState) {
  // Work-item x records whether the flag was already set; only the first
  // to run sees it clear.
  Execution e = RunBody("", R"(
%was = OpAtomicFlagTestAndSet %bool %out %uint_1 %uint_0
%v = OpSelect %uint %was %uint_1 %uint_0
%i = OpIAdd %ulong %x %ulong_1
%slot = OpInBoundsPtrAccessChain %ptr_g_uint %out %i
OpStore %slot %v Aligned 4
)",
                        "uint", 20, 4);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0]), (std::vector<uint32_t>{1, 0, 1, 1, 1}));
}

TEST(ReferenceAtomicFlag, ClearResetsTheFlag) {
  // Each work-item sets and clears: every one sees a clear flag.
  Execution e = RunBody("", R"(
%was = OpAtomicFlagTestAndSet %bool %out %uint_1 %uint_0
OpAtomicFlagClear %out %uint_1 %uint_0
%v = OpSelect %uint %was %uint_1 %uint_0
%i = OpIAdd %ulong %x %ulong_1
%slot = OpInBoundsPtrAccessChain %ptr_g_uint %out %i
OpStore %slot %v Aligned 4
)",
                        "uint", 20, 4);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0]), (std::vector<uint32_t>{0, 0, 0, 0, 0}));
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
