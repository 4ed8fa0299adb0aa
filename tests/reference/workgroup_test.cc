// Work-groups: barriers with __local memory, barrier divergence,
// non-uniform work-groups, subgroups, group collectives and seeded
// schedules.
#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

// Each work-item writes its local id to local[lid], waits at a barrier and
// reads local[size - 1 - lid]: out[gid] = that value.
std::string ExchangeModule(bool divergent) {
  return Prelude("", "%lid_var %lsz_var",
                 "OpDecorate %lid_var BuiltIn LocalInvocationId\n"
                 "OpDecorate %lsz_var BuiltIn WorkgroupSize\n") +
         R"(
%lid_var = OpVariable %ptr_in_v3ulong Input
%lsz_var = OpVariable %ptr_in_v3ulong Input
%kfn = OpTypeFunction %void %ptr_g_uint %ptr_l_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%loc = OpFunctionParameter %ptr_l_uint
%entry = OpLabel
%gidv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gidv 0
%lidv = OpLoad %v3ulong %lid_var Aligned 32
%lid = OpCompositeExtract %ulong %lidv 0
%lszv = OpLoad %v3ulong %lsz_var Aligned 32
%lsz = OpCompositeExtract %ulong %lszv 0
%lid32 = OpUConvert %uint %lid
%slot = OpInBoundsPtrAccessChain %ptr_l_uint %loc %lid
OpStore %slot %lid32 Aligned 4
)" +
         (divergent ? R"(
%is0 = OpIEqual %bool %lid %ulong_0
OpSelectionMerge %join None
OpBranchConditional %is0 %skip %join
%skip = OpLabel
OpReturn
%join = OpLabel
)"
                    : "") +
         R"(
OpControlBarrier %uint_2 %uint_2 %uint_264
%last = OpISub %ulong %lsz %ulong_1
%mirror = OpISub %ulong %last %lid
%src = OpInBoundsPtrAccessChain %ptr_l_uint %loc %mirror
%v = OpLoad %uint %src Aligned 4
%dst = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %dst %v Aligned 4
OpReturn
OpFunctionEnd
)";
}

TEST(ReferenceWorkgroup, LocalExchangeThroughBarrier) {
  Execution e =
      RunReference(MakeCase(AssembleOrDie(ExchangeModule(false)), {8},
                            std::vector<uint64_t>{4}, {Buffer(32), Local(16)}),
                   {});
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0]),
            (std::vector<uint32_t>{3, 2, 1, 0, 3, 2, 1, 0}));
}

TEST(ReferenceWorkgroup, NonUniformLastGroupIsSmaller) {
  // Global 7, local 4: the second group has 3 work-items.
  Execution e =
      RunReference(MakeCase(AssembleOrDie(ExchangeModule(false)), {7},
                            std::vector<uint64_t>{4}, {Buffer(28), Local(16)}),
                   {});
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0]),
            (std::vector<uint32_t>{3, 2, 1, 0, 2, 1, 0}));
}

TEST(ReferenceWorkgroup, SeededScheduleGivesTheSameAnswer) {
  ReferenceOptions opts;
  opts.schedule_seed = 12345;
  Execution e =
      RunReference(MakeCase(AssembleOrDie(ExchangeModule(false)), {16},
                            std::vector<uint64_t>{8}, {Buffer(64), Local(32)}),
                   opts);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0])[0], 7u);
  EXPECT_EQ(As<uint32_t>(e.buffers[0])[15], 0u);
}

TEST(ReferenceWorkgroup, BarrierDivergenceIsUb) {
  Execution e =
      RunReference(MakeCase(AssembleOrDie(ExchangeModule(true)), {4},
                            std::vector<uint64_t>{4}, {Buffer(16), Local(16)}),
                   {});
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected);
  EXPECT_NE(e.message.find("barrier divergence"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("returned from the kernel"), std::string::npos)
      << e.message;
}

TEST(ReferenceWorkgroup, BuiltinsOfANonUniformTwoDimensionalRange) {
  // out[linear] = local_size.x * 100 + group.x * 10 + num_subgroups
  const std::string text =
      Prelude("", "%lsz_var %grp_var %nsg_var %lin_var",
              "OpDecorate %lsz_var BuiltIn WorkgroupSize\n"
              "OpDecorate %grp_var BuiltIn WorkgroupId\n"
              "OpDecorate %nsg_var BuiltIn NumSubgroups\n"
              "OpDecorate %lin_var BuiltIn GlobalLinearId\n") +
      R"(
%ptr_in_uint = OpTypePointer Input %uint
%ptr_in_ulong = OpTypePointer Input %ulong
%lsz_var = OpVariable %ptr_in_v3ulong Input
%grp_var = OpVariable %ptr_in_v3ulong Input
%nsg_var = OpVariable %ptr_in_uint Input
%lin_var = OpVariable %ptr_in_ulong Input
%ulong_100 = OpConstant %ulong 100
%ulong_10 = OpConstant %ulong 10
%kfn = OpTypeFunction %void %ptr_g_ulong
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_ulong
%entry = OpLabel
%lszv = OpLoad %v3ulong %lsz_var Aligned 32
%lsz = OpCompositeExtract %ulong %lszv 0
%grpv = OpLoad %v3ulong %grp_var Aligned 32
%grp = OpCompositeExtract %ulong %grpv 0
%nsg = OpLoad %uint %nsg_var Aligned 4
%nsg64 = OpUConvert %ulong %nsg
%lin = OpLoad %ulong %lin_var Aligned 8
%a = OpIMul %ulong %lsz %ulong_100
%b = OpIMul %ulong %grp %ulong_10
%c = OpIAdd %ulong %a %b
%d = OpIAdd %ulong %c %nsg64
%p = OpInBoundsPtrAccessChain %ptr_g_ulong %out %lin
OpStore %p %d Aligned 8
OpReturn
OpFunctionEnd
)";
  ReferenceOptions opts;
  opts.subgroup_size = 2;
  Execution e =
      RunReference(MakeCase(AssembleOrDie(text), {5, 2},
                            std::vector<uint64_t>{3, 2}, {Buffer(80)}),
                   opts);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto v = As<uint64_t>(e.buffers[0]);
  // Row 0: x = 0..4 -> groups 0 (size 3, 6 items, 3 subgroups) and 1
  // (size 2, 4 items, 2 subgroups).
  EXPECT_EQ(v[0], 303u);
  EXPECT_EQ(v[2], 303u);
  EXPECT_EQ(v[3], 212u);
  EXPECT_EQ(v[9], 212u);
}

TEST(ReferenceWorkgroup, GroupReduceAndScan) {
  const std::string text =
      Prelude("OpCapability Groups\n", "%lid_var",
              "OpDecorate %lid_var BuiltIn LocalInvocationId\n") +
      R"(
%lid_var = OpVariable %ptr_in_v3ulong Input
%kfn = OpTypeFunction %void %ptr_g_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%gidv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gidv 0
%x32 = OpUConvert %uint %x
%sum = OpGroupIAdd %uint %uint_2 Reduce %x32
%ex = OpGroupIAdd %uint %uint_3 ExclusiveScan %x32
%mx = OpGroupUMax %uint %uint_2 Reduce %x32
%bc = OpGroupBroadcast %uint %uint_2 %x32 %ulong_1
%t1 = OpIMul %uint %sum %uint_8
%t2 = OpIAdd %uint %t1 %ex
%t3 = OpIMul %uint %t2 %uint_8
%t4 = OpIAdd %uint %t3 %mx
%t5 = OpIMul %uint %t4 %uint_8
%t6 = OpIAdd %uint %t5 %bc
%p = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %p %t6 Aligned 4
OpReturn
OpFunctionEnd
)";
  ReferenceOptions opts;
  opts.subgroup_size = 2;
  Execution e = RunReference(MakeCase(AssembleOrDie(text), {4},
                                      std::vector<uint64_t>{4}, {Buffer(16)}),
                             opts);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  auto v = As<uint32_t>(e.buffers[0]);
  auto pack = [](uint32_t s, uint32_t ex, uint32_t mx, uint32_t bc) {
    return ((s * 8 + ex) * 8 + mx) * 8 + bc;
  };
  EXPECT_EQ(v[0], pack(6, 0, 3, 1));
  EXPECT_EQ(v[1], pack(6, 0, 3, 1));
  EXPECT_EQ(v[2], pack(6, 0, 3, 1));
  EXPECT_EQ(v[3], pack(6, 2, 3, 1));
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
