// Memory: private arrays, access chains, copies, generic pointers,
// pointer/integer round trips and the bounds/lifetime checks.
#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

TEST(ReferenceMemory, PrivateArrayWithDynamicIndex) {
  Execution e = RunBody(R"(
%uint_10 = OpConstant %uint 10
%arr = OpTypeArray %uint %uint_10
%ptr_f_arr = OpTypePointer Function %arr
)",
                        R"(
%a = OpVariable %ptr_f_arr Function
%xi = OpUConvert %uint %x
%p = OpInBoundsAccessChain %ptr_f_uint %a %xi
%xx = OpIMul %uint %xi %xi
OpStore %p %xx Aligned 4
%q = OpAccessChain %ptr_f_uint %a %xi
%v = OpLoad %uint %q Aligned 4
%o = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %o %v Aligned 4
)",
                        "uint", 16, 4);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0]), (std::vector<uint32_t>{0, 1, 4, 9}));
}

TEST(ReferenceMemory, StructLayoutAccessChain) {
  // struct { uchar c; ulong l; uint i; } : offsets 0, 8, 16; size 24.
  Execution e = RunBody(R"(
%st = OpTypeStruct %uchar %ulong %uint
%ptr_g_st = OpTypePointer CrossWorkgroup %st
%ptr_g_ulong2 = OpTypePointer CrossWorkgroup %ulong
%ulong_99 = OpConstant %ulong 99
)",
                        R"(
%s = OpBitcast %ptr_g_st %out
%e1 = OpInBoundsPtrAccessChain %ptr_g_st %s %ulong_1
%f = OpInBoundsAccessChain %ptr_g_ulong2 %e1 %uint_1
OpStore %f %ulong_99 Aligned 8
%g = OpInBoundsAccessChain %ptr_g_uint %e1 %uint_2
OpStore %g %uint_7 Aligned 4
)",
                        "uchar", 48);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto w = As<uint64_t>(e.buffers[0]);
  EXPECT_EQ(w[4], 99u);              // byte 32 = 24 + 8
  EXPECT_EQ(w[5] & 0xFFFFFFFF, 7u);  // byte 40 = 24 + 16
}

TEST(ReferenceMemory, CopyMemorySizedAndGenericRoundTrip) {
  Execution e =
      RunBody(R"(
%ptr_gen_uint = OpTypePointer Generic %uint
%ulong_8 = OpConstant %ulong 8
)",
              R"(
%src = OpVariable %ptr_f_uint Function %uint_7
%gen = OpPtrCastToGeneric %ptr_gen_uint %src
%back = OpGenericCastToPtr %ptr_f_uint %gen
%as_int = OpConvertPtrToU %ulong %back
%again = OpConvertUToPtr %ptr_f_uint %as_int
OpCopyMemorySized %out %again %ulong_4
%wrong = OpGenericCastToPtrExplicit %ptr_g_uint %gen CrossWorkgroup
%isnull = OpConvertPtrToU %ulong %wrong
%z = OpIEqual %bool %isnull %ulong_0
%flag = OpSelect %uint %z %uint_1 %uint_0
%o1 = OpInBoundsPtrAccessChain %ptr_g_uint %out %ulong_1
OpStore %o1 %flag
)",
              "uint", 8, 1, {}, false, "OpCapability GenericPointer\n");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0]), (std::vector<uint32_t>{7, 1}));
}

TEST(ReferenceMemory, OutOfBoundsStoreIsUbWithDetails) {
  Execution e = RunBody("%ulong_16 = OpConstant %ulong 16\n", R"(
%i = OpIAdd %ulong %x %ulong_16
%p = OpInBoundsPtrAccessChain %ptr_g_uint %out %i
OpStore %p %uint_1 Aligned 4
)",
                        "uint", 64, 2);
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected);
  EXPECT_NE(e.message.find("out-of-bounds store"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("global id (0, 0, 0)"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("OpStore"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("offset 64"), std::string::npos) << e.message;
}

TEST(ReferenceMemory, MisalignedLoadIsUb) {
  Execution e = RunBody("", R"(
%b = OpBitcast %ptr_g_uchar %out
%p1 = OpInBoundsPtrAccessChain %ptr_g_uchar %b %ulong_1
%u = OpBitcast %ptr_g_uint %p1
%v = OpLoad %uint %u Aligned 4
OpStore %out %v
)",
                        "uint", 16);
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected);
  EXPECT_NE(e.message.find("misaligned load"), std::string::npos) << e.message;
}

TEST(ReferenceMemory, DanglingPrivatePointerIsUb) {
  const std::string text = Prelude() + R"(
%ptr_g_ptr = OpTypePointer CrossWorkgroup %ptr_f_uint
%kfn = OpTypeFunction %void %ptr_g_uint
%leak_fn = OpTypeFunction %ptr_f_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%p = OpFunctionCall %ptr_f_uint %leak
%v = OpLoad %uint %p Aligned 4
OpStore %out %v
OpReturn
OpFunctionEnd
%leak = OpFunction %ptr_f_uint None %leak_fn
%le = OpLabel
%local = OpVariable %ptr_f_uint Function %uint_5
OpReturnValue %local
OpFunctionEnd
)";
  Execution e = RunReference(
      MakeCase(AssembleOrDie(text), {1}, std::nullopt, {Buffer(4)}), {});
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected);
  EXPECT_NE(e.message.find("dangling"), std::string::npos) << e.message;
}

TEST(ReferenceMemory, NullAndForgedPointersAreUb) {
  Execution e = RunBody("%ulong_big = OpConstant %ulong 0x0000123400000000\n",
                        R"(
%p = OpConvertUToPtr %ptr_g_uint %ulong_big
%v = OpLoad %uint %p Aligned 4
OpStore %out %v
)",
                        "uint", 4);
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected);
  EXPECT_NE(e.message.find("no allocation"), std::string::npos) << e.message;
  Execution n = RunBody("", R"(
%p = OpConvertUToPtr %ptr_g_uint %ulong_0
%v = OpLoad %uint %p Aligned 4
OpStore %out %v
)",
                        "uint", 4);
  ASSERT_EQ(n.status, ExecutionStatus::kUbDetected);
  EXPECT_NE(n.message.find("null pointer"), std::string::npos) << n.message;
}

TEST(ReferenceMemory, ConstantGlobalWithInitializerIsReadOnly) {
  Execution e = RunBody(R"(
%arr4 = OpTypeArray %uint %uint_4
%ptr_uc_arr = OpTypePointer UniformConstant %arr4
%ptr_uc_uint = OpTypePointer UniformConstant %uint
%init = OpConstantComposite %arr4 %uint_5 %uint_6 %uint_7 %uint_8
%table = OpVariable %ptr_uc_arr UniformConstant %init
)",
                        R"(
%p = OpInBoundsAccessChain %ptr_uc_uint %table %x
%v = OpLoad %uint %p Aligned 4
%o = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %o %v Aligned 4
)",
                        "uint", 16, 4);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0]), (std::vector<uint32_t>{5, 6, 7, 8}));
}

TEST(ReferenceMemory, AtomicsOnGlobalMemory) {
  Execution e = RunBody("", R"(
%old = OpAtomicIAdd %uint %out %uint_1 %uint_0 %uint_2
%o1 = OpInBoundsPtrAccessChain %ptr_g_uint %out %ulong_1
%m = OpAtomicUMax %uint %o1 %uint_1 %uint_0 %old
%o2 = OpInBoundsPtrAccessChain %ptr_g_uint %out %ulong_4
%c = OpAtomicCompareExchange %uint %o2 %uint_1 %uint_0 %uint_0 %uint_3 %uint_0
)",
                        "uint", 32, 8);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto v = As<uint32_t>(e.buffers[0]);
  EXPECT_EQ(v[0], 16u);  // 8 x 2
  EXPECT_EQ(v[1], 14u);  // max of old values 0, 2, ..., 14
  EXPECT_EQ(v[4], 3u);   // first exchange wins
}

// OpAtomicCompareExchangeWeak (up to SPIR-V 1.3) has the semantics of
// OpAtomicCompareExchange: it never fails spuriously.
TEST(ReferenceMemory, CompareExchangeWeakIsCompareExchange) {
  Execution e = RunBody("", R"(
%c = OpAtomicCompareExchangeWeak %uint %out %uint_1 %uint_0 %uint_0 %uint_3 %uint_0
%o1 = OpInBoundsPtrAccessChain %ptr_g_uint %out %ulong_1
%d = OpAtomicCompareExchangeWeak %uint %o1 %uint_1 %uint_0 %uint_0 %uint_3 %uint_1
)",
                        "uint", 32, 8);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto v = As<uint32_t>(e.buffers[0]);
  EXPECT_EQ(v[0], 3u);  // 0 == 0: the first exchange stores 3
  EXPECT_EQ(v[1], 0u);  // 0 != 1: never exchanged
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
