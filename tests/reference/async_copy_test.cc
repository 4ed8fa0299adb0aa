// OpGroupAsyncCopy / OpGroupWaitEvents: the copy is recorded at the async
// copy and done at the wait naming its event (reads before the wait see
// the old bytes); strided gathers into and scatters out of __local memory;
// non-uniform arguments, unwaited copies and out-of-bounds copies are UB.
#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

// k(global uint* out, local uint* loc), one work-group of 8; %x is the
// global (= local) id, %myloc = &loc[x]. `body` runs in the entry block.
std::string AsyncKernel(const std::string& body) {
  return Prelude() + R"(
%event = OpTypeEvent
%ptr_f_event = OpTypePointer Function %event
%null_ev = OpConstantNull %event
%ulong_2 = OpConstant %ulong 2
%ulong_8 = OpConstant %ulong 8
%ulong_16 = OpConstant %ulong 16
%ulong_9 = OpConstant %ulong 9
%many = OpConstant %uint 100000
%kfn = OpTypeFunction %void %ptr_g_uint %ptr_l_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%loc = OpFunctionParameter %ptr_l_uint
%entry = OpLabel
%evv = OpVariable %ptr_f_event Function
%gidv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gidv 0
%x32 = OpUConvert %uint %x
%myloc = OpInBoundsPtrAccessChain %ptr_l_uint %loc %x
)" + body +
         R"(
OpReturn
OpFunctionEnd
)";
}

Execution RunAsync(const std::string& body, size_t out_words = 24,
                   ReferenceOptions opts = {}) {
  std::vector<uint32_t> init(out_words);
  for (size_t i = 0; i < init.size(); ++i) init[i] = static_cast<uint32_t>(i);
  return RunReference(
      MakeCase(AssembleOrDie(AsyncKernel(body)), {8}, std::vector<uint64_t>{8},
               {BufferOf(init), Local(64)}),
      opts);
}

constexpr char kStoreLocToOut16[] = R"(
%v = OpLoad %uint %myloc Aligned 4
%at = OpIAdd %ulong %x %ulong_16
%dst = OpInBoundsPtrAccessChain %ptr_g_uint %out %at
OpStore %dst %v Aligned 4
)";

TEST(ReferenceAsyncCopy, StridedGatherIntoLocal) {
  // loc[i] = out[2 i] for i < 8; then out[16 + x] = loc[x].
  ReferenceOptions all;
  all.check_uninitialized = true;
  Execution e = RunAsync(std::string(R"(
%ev = OpGroupAsyncCopy %event %uint_2 %loc %out %ulong_8 %ulong_2 %null_ev
OpStore %evv %ev
OpGroupWaitEvents %uint_2 %uint_1 %evv
)") + kStoreLocToOut16,
                         24, all);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto w = As<uint32_t>(e.buffers[0]);
  for (uint32_t x = 0; x < 8; ++x) EXPECT_EQ(w[16 + x], 2 * x) << x;
}

TEST(ReferenceAsyncCopy, StridedScatterFromLocal) {
  // loc[x] = 3 x; barrier; out[2 i] = loc[i] for i < 8.
  Execution e = RunAsync(R"(
%t = OpIMul %uint %x32 %uint_3
OpStore %myloc %t Aligned 4
OpControlBarrier %uint_2 %uint_2 %uint_264
%ev = OpGroupAsyncCopy %event %uint_2 %out %loc %ulong_8 %ulong_2 %null_ev
OpStore %evv %ev
OpGroupWaitEvents %uint_2 %uint_1 %evv
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto w = As<uint32_t>(e.buffers[0]);
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(w[2 * i], 3 * i) << i;
    EXPECT_EQ(w[2 * i + 1], 2 * i + 1) << i;  // untouched
  }
}

TEST(ReferenceAsyncCopy, TheCopyHappensAtTheWait) {
  // Reading loc before the wait sees zero; after it, the copied value.
  Execution e = RunAsync(std::string(R"(
%ev = OpGroupAsyncCopy %event %uint_2 %loc %out %ulong_8 %ulong_1 %null_ev
%early = OpLoad %uint %myloc Aligned 4
%at8 = OpIAdd %ulong %x %ulong_8
%dst8 = OpInBoundsPtrAccessChain %ptr_g_uint %out %at8
OpStore %dst8 %early Aligned 4
OpStore %evv %ev
OpGroupWaitEvents %uint_2 %uint_1 %evv
)") + kStoreLocToOut16);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto w = As<uint32_t>(e.buffers[0]);
  for (uint32_t x = 0; x < 8; ++x) {
    EXPECT_EQ(w[8 + x], 0u) << x;
    EXPECT_EQ(w[16 + x], x) << x;
  }
}

TEST(ReferenceAsyncCopy, AGivenEventJoinsTheEarlierCopy) {
  // Two copies share the first copy's event; one wait completes both.
  Execution e = RunAsync(std::string(R"(
%ev = OpGroupAsyncCopy %event %uint_2 %loc %out %ulong_2 %ulong_1 %null_ev
%hi = OpInBoundsPtrAccessChain %ptr_l_uint %loc %ulong_2
%src = OpInBoundsPtrAccessChain %ptr_g_uint %out %ulong_9
%ev2 = OpGroupAsyncCopy %event %uint_2 %hi %src %ulong_2 %ulong_1 %ev
OpStore %evv %ev2
OpGroupWaitEvents %uint_2 %uint_1 %evv
)") + kStoreLocToOut16);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto w = As<uint32_t>(e.buffers[0]);
  EXPECT_EQ(w[16], 0u);
  EXPECT_EQ(w[17], 1u);
  EXPECT_EQ(w[18], 9u);
  EXPECT_EQ(w[19], 10u);
}

TEST(ReferenceAsyncCopy, UnwaitedCopyIsUb) {
  Execution e = RunAsync(R"(
%ev = OpGroupAsyncCopy %event %uint_2 %loc %out %ulong_8 %ulong_1 %null_ev
)");
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find("async copy never waited for"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("OpGroupAsyncCopy"), std::string::npos) << e.message;
}

TEST(ReferenceAsyncCopy, NonUniformArgumentsAreUb) {
  Execution e = RunAsync(R"(
%n = OpIAdd %ulong %x %ulong_1
%ev = OpGroupAsyncCopy %event %uint_2 %loc %out %n %ulong_1 %null_ev
OpStore %evv %ev
OpGroupWaitEvents %uint_2 %uint_1 %evv
)");
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find("non-uniform OpGroupAsyncCopy arguments"),
            std::string::npos)
      << e.message;
}

TEST(ReferenceAsyncCopy, OutOfBoundsCopyIsUbAtTheWait) {
  // 16 elements do not fit the 64-byte __local buffer with stride 2 ...
  // on the global side: out has 24 words, 16 * 2 reaches past it.
  Execution e = RunAsync(R"(
%ev = OpGroupAsyncCopy %event %uint_2 %loc %out %ulong_16 %ulong_2 %null_ev
OpStore %evv %ev
OpGroupWaitEvents %uint_2 %uint_1 %evv
)");
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find("out-of-bounds"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("OpGroupWaitEvents"), std::string::npos)
      << e.message;
}

TEST(ReferenceAsyncCopy, WaitingOnTooManyEventsIsUnsupported) {
  Execution e = RunAsync(R"(
%ev = OpGroupAsyncCopy %event %uint_2 %loc %out %ulong_8 %ulong_1 %null_ev
OpStore %evv %ev
OpGroupWaitEvents %uint_2 %many %evv
)");
  EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << e.message;
  EXPECT_NE(e.message.find("too many events"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
