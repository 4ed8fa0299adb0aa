// SPV_INTEL_subgroups: OpSubgroupShuffle{,Down,Up,Xor}INTEL (also in
// non-uniform control flow) and OpSubgroupBlock{Read,Write}INTEL on
// buffers. Eight work-items in one work-group, subgroups of four.
#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

constexpr char kCaps[] =
    "OpCapability SubgroupShuffleINTEL\n"
    "OpCapability SubgroupBufferBlockIOINTEL\n"
    "OpExtension \"SPV_INTEL_subgroups\"\n";

// %lane = x % 4, %x32 = x; `body` stores what it wants.
constexpr char kDecls[] = R"(
%uint_100 = OpConstant %uint 100
%uint_520 = OpConstant %uint 520
%ulong_8 = OpConstant %ulong 8
%ulong_16 = OpConstant %ulong 16
)";
constexpr char kLane[] = R"(
%x32 = OpUConvert %uint %x
%lane = OpUMod %uint %x32 %uint_4
%myout = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
)";

Execution RunSg(const std::string& body, size_t out_words = 8) {
  ReferenceOptions o;
  o.subgroup_size = 4;
  return RunBody(kDecls, std::string(kLane) + body, "uint", out_words * 4, 8, o,
                 false, kCaps);
}

std::vector<uint32_t> Words(const Execution& e) {
  return As<uint32_t>(e.buffers[0]);
}

TEST(ReferenceIntelSubgroups, ShuffleByInvocationId) {
  Execution e = RunSg(R"(
%src = OpISub %uint %uint_3 %lane
%v = OpSubgroupShuffleINTEL %uint %x32 %src
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{3, 2, 1, 0, 7, 6, 5, 4}));
}

TEST(ReferenceIntelSubgroups, ShuffleXor) {
  Execution e = RunSg(R"(
%v = OpSubgroupShuffleXorINTEL %uint %x32 %uint_1
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{1, 0, 3, 2, 5, 4, 7, 6}));
}

TEST(ReferenceIntelSubgroups, ShuffleDownTakesNextPastTheEnd) {
  Execution e = RunSg(R"(
%next = OpIAdd %uint %x32 %uint_100
%v = OpSubgroupShuffleDownINTEL %uint %x32 %next %uint_1
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{1, 2, 3, 100, 5, 6, 7, 104}));
}

TEST(ReferenceIntelSubgroups, ShuffleUpTakesPreviousBeforeTheStart) {
  Execution e = RunSg(R"(
%prev = OpIAdd %uint %x32 %uint_100
%v = OpSubgroupShuffleUpINTEL %uint %prev %x32 %uint_1
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{103, 0, 1, 2, 107, 4, 5, 6}));
}

TEST(ReferenceIntelSubgroups, ShuffleOfAVector) {
  // Lane l gets the (x, x + 100) pair of lane l ^ 2; out[x] = sum.
  Execution e = RunSg(R"(
%hi = OpIAdd %uint %x32 %uint_100
%pair = OpCompositeConstruct %v2uint %x32 %hi
%v = OpSubgroupShuffleXorINTEL %v2uint %pair %uint_2
%a = OpCompositeExtract %uint %v 0
%b = OpCompositeExtract %uint %v 1
%s = OpIAdd %uint %a %b
OpStore %myout %s Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e),
            (std::vector<uint32_t>{104, 106, 100, 102, 112, 114, 108, 110}));
}

constexpr char kEvenLanesShuffle[] = R"(
%bit = OpBitwiseAnd %uint %lane %uint_1
%even = OpIEqual %bool %bit %uint_0
OpSelectionMerge %join None
OpBranchConditional %even %do %join
%do = OpLabel
%v = OpSubgroupShuffleXorINTEL %uint %x32 %MASK
OpStore %myout %v Aligned 4
OpBranch %join
%join = OpLabel
)";

std::string EvenLanes(const std::string& mask) {
  std::string s = kEvenLanesShuffle;
  s.replace(s.find("%MASK"), 5, mask);
  return s;
}

TEST(ReferenceIntelSubgroups, ShuffleInNonUniformControlFlow) {
  // Only even lanes shuffle (xor 2: even with even).
  Execution e = RunSg(EvenLanes("%uint_2"));
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{2, 0, 0, 0, 6, 0, 4, 0}));
}

TEST(ReferenceIntelSubgroups, ShuffleFromAnInactiveInvocationIsUb) {
  Execution e = RunSg(EvenLanes("%uint_1"));
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find("subgroup shuffle out of range"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("did not reach"), std::string::npos) << e.message;
}

TEST(ReferenceIntelSubgroups, ShuffleIndexOutsideTheSubgroupIsUb) {
  Execution e = RunSg(R"(
%v = OpSubgroupShuffleINTEL %uint %x32 %uint_7
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find("outside the subgroup"), std::string::npos)
      << e.message;
}

TEST(ReferenceIntelSubgroups, BlockReadInterleavesBySubgroupSize) {
  // out[x] = 10 x; barrier; every lane block-reads a uint2 at out[0]
  // (lane i gets out[i], out[4 + i]) and stores the pair at out[8 + 2x].
  Execution e = RunSg(R"(
%ten = OpIMul %uint %x32 %uint_8
%tx = OpIAdd %uint %ten %x32
%t2 = OpIAdd %uint %tx %x32
OpStore %myout %t2 Aligned 4
OpControlBarrier %uint_2 %uint_2 %uint_520
%v = OpSubgroupBlockReadINTEL %v2uint %out
%x2 = OpIMul %ulong %x %ulong_1
%xx = OpIAdd %ulong %x2 %x
%at = OpIAdd %ulong %xx %ulong_8
%dst = OpInBoundsPtrAccessChain %ptr_g_uint %out %at
%a = OpCompositeExtract %uint %v 0
%b = OpCompositeExtract %uint %v 1
OpStore %dst %a Aligned 4
%at1 = OpIAdd %ulong %at %ulong_1
%dst1 = OpInBoundsPtrAccessChain %ptr_g_uint %out %at1
OpStore %dst1 %b Aligned 4
)",
                      24);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto w = Words(e);
  for (uint32_t x = 0; x < 8; ++x) {
    const uint32_t lane = x % 4;
    EXPECT_EQ(w[8 + 2 * x], 10 * lane) << x;
    EXPECT_EQ(w[9 + 2 * x], 10 * (4 + lane)) << x;
  }
}

TEST(ReferenceIntelSubgroups, BlockWriteInterleavesBySubgroupSize) {
  // Subgroup s writes (x, x + 100) of each lane at out[8 s ..].
  Execution e = RunSg(R"(
%sgi = OpUDiv %ulong %x %ulong_4
%base = OpIMul %ulong %sgi %ulong_8
%p = OpInBoundsPtrAccessChain %ptr_g_uint %out %base
%hi = OpIAdd %uint %x32 %uint_100
%pair = OpCompositeConstruct %v2uint %x32 %hi
OpSubgroupBlockWriteINTEL %p %pair
)",
                      16);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{0, 1, 2, 3, 100, 101, 102, 103, 4,
                                             5, 6, 7, 104, 105, 106, 107}));
}

TEST(ReferenceIntelSubgroups, MisalignedBlockWriteIsUb) {
  Execution e = RunSg(R"(
%p = OpInBoundsPtrAccessChain %ptr_g_uint %out %ulong_1
OpSubgroupBlockWriteINTEL %p %x32
)",
                      16);
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find("misaligned subgroup block write"),
            std::string::npos)
      << e.message;
}

TEST(ReferenceIntelSubgroups, BlockReadOutOfBoundsIsUb) {
  Execution e = RunSg(R"(
%p = OpInBoundsPtrAccessChain %ptr_g_uint %out %ulong_4
%v = OpSubgroupBlockReadINTEL %v2uint %p
)",
                      8);
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find("out-of-bounds"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
