// The optional checks: data races (check_races) and reads of
// uninitialised memory (check_uninitialized). Each racy or uninitialised
// kernel is also run with the check off, where it must succeed, so the
// verdict comes from the check and nothing else.
#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

// A kernel k(global uint* out, local uint* loc) whose entry block defines
// %x (global id 0), %lid (local id 0) and %lsz (local size 0), all ulong,
// then runs `body`.
std::string GroupKernel(const std::string& body,
                        const std::string& decls = "") {
  return Prelude("", "%lid_var %lsz_var",
                 "OpDecorate %lid_var BuiltIn LocalInvocationId\n"
                 "OpDecorate %lsz_var BuiltIn WorkgroupSize\n") +
         R"(
%lid_var = OpVariable %ptr_in_v3ulong Input
%lsz_var = OpVariable %ptr_in_v3ulong Input
%uint_520 = OpConstant %uint 520
%uint_776 = OpConstant %uint 776
%uint_16 = OpConstant %uint 16
%ulong_2 = OpConstant %ulong 2
%ulong_3 = OpConstant %ulong 3
%st = OpTypeStruct %uchar %uint
%ptr_f_st = OpTypePointer Function %st
)" + decls +
         R"(
%kfn = OpTypeFunction %void %ptr_g_uint %ptr_l_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%loc = OpFunctionParameter %ptr_l_uint
%entry = OpLabel
%pv = OpVariable %ptr_f_uint Function
%sv = OpVariable %ptr_f_st Function
%pv2 = OpVariable %ptr_f_uint Function
%gidv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gidv 0
%lidv = OpLoad %v3ulong %lid_var Aligned 32
%lid = OpCompositeExtract %ulong %lidv 0
%lszv = OpLoad %v3ulong %lsz_var Aligned 32
%lsz = OpCompositeExtract %ulong %lszv 0
%lid32 = OpUConvert %uint %lid
%myloc = OpInBoundsPtrAccessChain %ptr_l_uint %loc %lid
%myout = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
%next = OpIAdd %ulong %lid %ulong_1
%wrap = OpUMod %ulong %next %lsz
%nextloc = OpInBoundsPtrAccessChain %ptr_l_uint %loc %wrap
%loc0 = OpInBoundsPtrAccessChain %ptr_l_uint %loc %ulong_0
%out0 = OpInBoundsPtrAccessChain %ptr_g_uint %out %ulong_0
)" + body +
         R"(
OpReturn
OpFunctionEnd
)";
}

Execution RunGroup(const std::string& body, uint64_t global, uint64_t local,
                   const ReferenceOptions& opts,
                   const std::string& decls = "") {
  return RunReference(
      MakeCase(AssembleOrDie(GroupKernel(body, decls)), {global},
               std::vector<uint64_t>{local}, {Buffer(global * 4), Local(64)}),
      opts);
}

ReferenceOptions Races(bool on) {
  ReferenceOptions o;
  o.check_races = on;
  return o;
}

ReferenceOptions Uninit(bool on) {
  ReferenceOptions o;
  o.check_uninitialized = on;
  return o;
}

// Expects a race verdict with `kind` when checked, success otherwise.
void ExpectRace(const std::string& body, uint64_t global, uint64_t local,
                const std::string& kind, ReferenceOptions on = Races(true)) {
  Execution e = RunGroup(body, global, local, on);
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find("data race (" + kind + ")"), std::string::npos)
      << e.message;
  on.check_races = false;
  Execution off = RunGroup(body, global, local, on);
  EXPECT_EQ(off.status, ExecutionStatus::kOk) << off.message;
}

void ExpectNoRace(const std::string& body, uint64_t global, uint64_t local,
                  ReferenceOptions on = Races(true)) {
  Execution e = RunGroup(body, global, local, on);
  EXPECT_EQ(e.status, ExecutionStatus::kOk) << e.message;
}

constexpr char kWriteThenReadNeighbour[] = R"(
OpStore %myloc %lid32 Aligned 4
%v = OpLoad %uint %nextloc Aligned 4
OpStore %myout %v Aligned 4
)";

TEST(ReferenceRace, LocalReadAfterWriteWithoutBarrier) {
  // Item 0 runs first and reads loc[1]; item 1 then writes loc[1] in the
  // same barrier interval.
  ExpectRace(kWriteThenReadNeighbour, 4, 4, "write-after-read");
}

TEST(ReferenceRace, MessageNamesBothWorkItemsInstructionAndAddress) {
  Execution e = RunGroup(kWriteThenReadNeighbour, 4, 4, Races(true));
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  // The writer (item 1) meets the earlier read by item 0.
  EXPECT_NE(e.message.find("work-item global id (1, 0, 0)"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("work-item global id (0, 0, 0)"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("instruction OpStore"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("offset 4 of Workgroup allocation"),
            std::string::npos)
      << e.message;
}

TEST(ReferenceRace, LocalBarrierOrdersTheExchange) {
  ExpectNoRace(R"(
OpStore %myloc %lid32 Aligned 4
OpControlBarrier %uint_2 %uint_2 %uint_264
%v = OpLoad %uint %nextloc Aligned 4
OpStore %myout %v Aligned 4
)",
               8, 4);
}

TEST(ReferenceRace, GlobalOnlyFenceDoesNotOrderLocalMemory) {
  // 520 = AcquireRelease | CrossWorkgroupMemory: no WorkgroupMemory fence.
  ExpectRace(R"(
OpStore %myloc %lid32 Aligned 4
OpControlBarrier %uint_2 %uint_2 %uint_520
%v = OpLoad %uint %nextloc Aligned 4
OpStore %myout %v Aligned 4
)",
             4, 4, "read-after-write");
}

TEST(ReferenceRace, LocalOnlyFenceDoesNotOrderGlobalMemory) {
  // Item lid writes out[x], then reads its neighbour's out slot after a
  // barrier that fences only Workgroup memory.
  ExpectRace(R"(
OpStore %myout %lid32 Aligned 4
OpControlBarrier %uint_2 %uint_2 %uint_264
%nx = OpIAdd %ulong %x %ulong_1
%nw = OpUMod %ulong %nx %lsz
%no = OpInBoundsPtrAccessChain %ptr_g_uint %out %nw
%v = OpLoad %uint %no Aligned 4
OpStore %myloc %v Aligned 4
)",
             4, 4, "read-after-write");
  // With both fences (776 = AcquireRelease | Workgroup | CrossWorkgroup)
  // the same exchange is ordered.
  ExpectNoRace(R"(
OpStore %myout %lid32 Aligned 4
OpControlBarrier %uint_2 %uint_2 %uint_776
%nx = OpIAdd %ulong %x %ulong_1
%nw = OpUMod %ulong %nx %lsz
%no = OpInBoundsPtrAccessChain %ptr_g_uint %out %nw
%v = OpLoad %uint %no Aligned 4
OpStore %myloc %v Aligned 4
)",
               4, 4);
}

TEST(ReferenceRace, WriteAfterWriteToOneLocalWord) {
  ExpectRace("OpStore %loc0 %lid32 Aligned 4\n", 2, 2, "write-after-write");
}

TEST(ReferenceRace, ReadAfterWriteByAnotherItem) {
  // Item 0 writes loc[0]; item 1 reads it in the same interval.
  ExpectRace(R"(
%is0 = OpIEqual %bool %lid %ulong_0
OpSelectionMerge %join None
OpBranchConditional %is0 %w %r
%w = OpLabel
OpStore %loc0 %uint_7 Aligned 4
OpBranch %join
%r = OpLabel
%v = OpLoad %uint %loc0 Aligned 4
OpStore %myout %v Aligned 4
OpBranch %join
%join = OpLabel
)",
             2, 2, "read-after-write");
}

TEST(ReferenceRace, SeveralReadersThenAWriter) {
  // Items 0..2 read loc[0], item 3 writes it.
  Execution e = RunGroup(R"(
%is3 = OpIEqual %bool %lid %ulong_3
OpSelectionMerge %join None
OpBranchConditional %is3 %w %r
%w = OpLabel
OpStore %loc0 %uint_7 Aligned 4
OpBranch %join
%r = OpLabel
%v = OpLoad %uint %loc0 Aligned 4
OpStore %myout %v Aligned 4
OpBranch %join
%join = OpLabel
)",
                         4, 4, Races(true));
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find("write-after-read"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("several work-items"), std::string::npos)
      << e.message;
}

TEST(ReferenceRace, ReadsAloneNeverRace) {
  ExpectNoRace(R"(
%v = OpLoad %uint %loc0 Aligned 4
%w = OpLoad %uint %out0 Aligned 4
%s = OpIAdd %uint %v %w
OpStore %pv %s Aligned 4
)",
               8, 4);
}

TEST(ReferenceRace, AtomicsAreExcluded) {
  ExpectNoRace(R"(
%o = OpAtomicIAdd %uint %out0 %uint_1 %uint_0 %uint_1
%l = OpAtomicIAdd %uint %loc0 %uint_2 %uint_0 %uint_1
)",
               8, 4);
}

TEST(ReferenceRace, GlobalWordWrittenByTwoWorkGroups) {
  Execution e = RunGroup("OpStore %out0 %lid32 Aligned 4\n", 2, 1, Races(true));
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find("write-after-write"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("earlier work-group"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("work-group (0, 0, 0)"), std::string::npos)
      << e.message;
  EXPECT_EQ(
      RunGroup("OpStore %out0 %lid32 Aligned 4\n", 2, 1, Races(false)).status,
      ExecutionStatus::kOk);
}

TEST(ReferenceRace, GlobalWordReadByOneGroupWrittenByAnother) {
  // Group 0 reads out[0], group 1 writes it.
  ExpectRace(R"(
%is1 = OpIEqual %bool %x %ulong_1
OpSelectionMerge %join None
OpBranchConditional %is1 %w %r
%w = OpLabel
OpStore %out0 %uint_7 Aligned 4
OpBranch %join
%r = OpLabel
%v = OpLoad %uint %out0 Aligned 4
OpStore %myloc %v Aligned 4
OpBranch %join
%join = OpLabel
)",
             2, 1, "write-after-read");
}

TEST(ReferenceRace, LocalMemoryOfAnEarlierGroupIsStale) {
  // Every group's item 0 writes loc[0]: different groups, fresh memory.
  ExpectNoRace(R"(
%is0 = OpIEqual %bool %lid %ulong_0
OpSelectionMerge %join None
OpBranchConditional %is0 %w %join
%w = OpLabel
OpStore %loc0 %uint_7 Aligned 4
OpBranch %join
%join = OpLabel
)",
               8, 4);
}

TEST(ReferenceRace, SubgroupBarrierOrdersItsSubgroupOnly) {
  ReferenceOptions o = Races(true);
  o.subgroup_size = 2;
  // Exchange with the partner in the same subgroup (lid ^ 1): ordered.
  ExpectNoRace(R"(
OpStore %myloc %lid32 Aligned 4
OpControlBarrier %uint_3 %uint_3 %uint_264
%p = OpBitwiseXor %ulong %lid %ulong_1
%pl = OpInBoundsPtrAccessChain %ptr_l_uint %loc %p
%v = OpLoad %uint %pl Aligned 4
OpStore %myout %v Aligned 4
)",
               4, 4, o);
  // Reading an item of the other subgroup ((lid + 2) % 4) is not.
  ExpectRace(R"(
OpStore %myloc %lid32 Aligned 4
OpControlBarrier %uint_3 %uint_3 %uint_264
%p = OpIAdd %ulong %lid %ulong_2
%pw = OpUMod %ulong %p %lsz
%pl = OpInBoundsPtrAccessChain %ptr_l_uint %loc %pw
%v = OpLoad %uint %pl Aligned 4
OpStore %myout %v Aligned 4
)",
             4, 4, "read-after-write", o);
}

TEST(ReferenceRace, CopyMemoryIsARaceCheckedAccess) {
  // Item 0 copies loc[0..3] to loc[4..7] and then writes loc[0]; item 1's
  // copy reads loc[0] in the same interval: a copy reads and writes like
  // loads and stores.
  ExpectRace(R"(
%dst = OpInBoundsPtrAccessChain %ptr_l_uint %loc %ulong_4
OpCopyMemorySized %dst %loc0 %uint_16
OpStore %myloc %lid32 Aligned 4
)",
             2, 2, "read-after-write");
}

TEST(ReferenceRace, SeededSchedulesStillDetect) {
  ReferenceOptions o = Races(true);
  o.schedule_seed = 7;
  ExpectRace("OpStore %loc0 %lid32 Aligned 4\n", 4, 4, "write-after-write", o);
}

TEST(ReferenceRace, ShadowOverTheMemoryLimitTurnsDetectionOffVisibly) {
  // 16 KiB of buffer need 256 KiB of race shadow: over this limit, the run
  // goes on without race detection and its log says so.
  ReferenceOptions o = Races(true);
  o.memory_limit_bytes = 200'000;
  Execution e = RunReference(
      MakeCase(AssembleOrDie(GroupKernel("OpStore %out0 %lid32 Aligned 4\n")),
               {64}, std::vector<uint64_t>{1}, {Buffer(16384), Local(64)}),
      o);
  EXPECT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_NE(e.log.find("data-race detection was off"), std::string::npos)
      << e.log;
}

// ---------------- uninitialised reads ----------------

void ExpectUninit(const std::string& body, uint64_t global = 1,
                  uint64_t local = 1) {
  Execution e = RunGroup(body, global, local, Uninit(true));
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find("read of uninitialised memory"), std::string::npos)
      << e.message;
  Execution off = RunGroup(body, global, local, Uninit(false));
  EXPECT_EQ(off.status, ExecutionStatus::kOk) << off.message;
}

void ExpectInit(const std::string& body, uint64_t global = 1,
                uint64_t local = 1) {
  Execution e = RunGroup(body, global, local, Uninit(true));
  EXPECT_EQ(e.status, ExecutionStatus::kOk) << e.message;
}

TEST(ReferenceUninitialized, PrivateVariableReadBeforeWrite) {
  ExpectUninit(R"(
%v = OpLoad %uint %pv Aligned 4
OpStore %myout %v Aligned 4
)");
}

TEST(ReferenceUninitialized, MessageNamesInstructionAndAddress) {
  Execution e = RunGroup(R"(
%v = OpLoad %uint %pv Aligned 4
OpStore %myout %v Aligned 4
)",
                         1, 1, Uninit(true));
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected);
  EXPECT_NE(e.message.find("instruction OpLoad %"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("Function allocation"), std::string::npos)
      << e.message;
}

TEST(ReferenceUninitialized, PrivateVariableWrittenFirst) {
  ExpectInit(R"(
OpStore %pv %uint_5 Aligned 4
%v = OpLoad %uint %pv Aligned 4
OpStore %myout %v Aligned 4
)");
}

TEST(ReferenceUninitialized, LocalMemoryStartsUninitialisedInEveryGroup) {
  ExpectUninit(R"(
%v = OpLoad %uint %myloc Aligned 4
OpStore %myout %v Aligned 4
)",
               4, 2);
  ExpectInit(R"(
OpStore %myloc %lid32 Aligned 4
OpControlBarrier %uint_2 %uint_2 %uint_264
%v = OpLoad %uint %myloc Aligned 4
OpStore %myout %v Aligned 4
)",
             4, 2);
  // Group 0 initialises loc[0] only in item 0 of group 0; group 1 reads it
  // without writing: __local memory does not survive the group.
  ExpectUninit(R"(
%g0 = OpIEqual %bool %x %ulong_0
OpSelectionMerge %join None
OpBranchConditional %g0 %w %join
%w = OpLabel
OpStore %loc0 %uint_1 Aligned 4
OpBranch %join
%join = OpLabel
OpControlBarrier %uint_2 %uint_2 %uint_264
%v = OpLoad %uint %loc0 Aligned 4
OpStore %myout %v Aligned 4
)",
               2, 1);
}

TEST(ReferenceUninitialized, BuffersAreInitialised) {
  ExpectInit(R"(
%v = OpLoad %uint %myout Aligned 4
%w = OpIAdd %uint %v %uint_1
OpStore %myout %w Aligned 4
)");
}

TEST(ReferenceUninitialized, PartlyWrittenStructLoadsWhole) {
  // Member stores leave the padding unwritten: a whole-struct load of a
  // partly written struct is not reported, a never-written one is.
  ExpectInit(R"(
%m0 = OpInBoundsAccessChain %ptr_f_uchar %sv %uint_0
%c = OpUConvert %uchar %lid32
OpStore %m0 %c Aligned 1
%m1 = OpInBoundsAccessChain %ptr_f_uint %sv %uint_1
OpStore %m1 %uint_3 Aligned 4
%s = OpLoad %st %sv Aligned 4
%v = OpCompositeExtract %uint %s 1
OpStore %myout %v Aligned 4
)");
  ExpectUninit(R"(
%s = OpLoad %st %sv Aligned 4
%v = OpCompositeExtract %uint %s 1
OpStore %myout %v Aligned 4
)");
}

TEST(ReferenceUninitialized, CopiesCarryTheShadow) {
  // Copying an uninitialised variable is fine; reading the copy is not.
  ExpectUninit(R"(
OpCopyMemory %pv2 %pv
%v = OpLoad %uint %pv2 Aligned 4
OpStore %myout %v Aligned 4
)");
  // Copying from a buffer initialises.
  ExpectInit(R"(
OpCopyMemory %pv2 %myout
%v = OpLoad %uint %pv2 Aligned 4
OpStore %myout %v Aligned 4
)");
}

TEST(ReferenceUninitialized, AtomicsReadWhatTheyModify) {
  ExpectUninit("%o = OpAtomicIAdd %uint %loc0 %uint_2 %uint_0 %uint_1\n");
  ExpectInit(R"(
OpAtomicStore %loc0 %uint_2 %uint_0 %uint_1
%o = OpAtomicIAdd %uint %loc0 %uint_2 %uint_0 %uint_1
)");
}

TEST(ReferenceUninitialized, OpenClStdLoadsAreChecked) {
  ExpectUninit(R"(
%v = OpExtInst %v2uint %ext vloadn %ulong_0 %loc0 2
%e = OpCompositeExtract %uint %v 0
OpStore %myout %e Aligned 4
)");
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
