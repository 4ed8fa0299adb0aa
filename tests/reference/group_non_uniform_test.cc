// OpGroupNonUniform* (SPIR-V 1.3; the Level Zero programming guide's
// "Extended Subgroups"): vote, ballot, arithmetic (every scan mode and
// ClusteredReduce), shuffles and relative shuffles, elect; non-uniform
// participation; each UB and unsupported path. Twelve work-items in one
// work-group, subgroups of eight: subgroup 0 is x = 0..7, subgroup 1 (the
// partial last one) is x = 8..11, lanes 0..3.
#include <cmath>
#include <limits>
#include <random>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "spirv/spirv_tools.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

constexpr char kCaps[] =
    "OpCapability Groups\n"
    "OpCapability GroupNonUniform\n"
    "OpCapability GroupNonUniformVote\n"
    "OpCapability GroupNonUniformBallot\n"
    "OpCapability GroupNonUniformArithmetic\n"
    "OpCapability GroupNonUniformShuffle\n"
    "OpCapability GroupNonUniformShuffleRelative\n"
    "OpCapability GroupNonUniformClustered\n";

constexpr char kDecls[] = R"(
%uint_9 = OpConstant %uint 9
%uint_12 = OpConstant %uint 12
%uint_16 = OpConstant %uint 16
%uint_100 = OpConstant %uint 100
%ulong_max = OpConstant %ulong 18446744073709551615
%uint_0x55 = OpConstant %uint 0x55
%uint_0x1FF = OpConstant %uint 0x1FF
%uint_0x2C6 = OpConstant %uint 0x2C6
%uint_0xF0 = OpConstant %uint 0xF0
%uint_max = OpConstant %uint 0xFFFFFFFF
%int_5 = OpConstant %uint 5
%float_nan = OpConstant %float 0x1.8p+128
%float_big = OpConstant %float 1e8
%mask55 = OpConstantComposite %v4uint %uint_0x55 %uint_0 %uint_0 %uint_0
%mask1FF = OpConstantComposite %v4uint %uint_0x1FF %uint_0 %uint_0 %uint_0
%mask2C6 = OpConstantComposite %v4uint %uint_0x2C6 %uint_0 %uint_0 %uint_0
%maskF0 = OpConstantComposite %v4uint %uint_0xF0 %uint_0 %uint_0 %uint_0
)";

// %x32 = x, %lane = x % 8, %odd / %even, %myout = &out[x].
constexpr char kLane[] = R"(
%x32 = OpUConvert %uint %x
%lane = OpUMod %uint %x32 %uint_8
%bit0 = OpBitwiseAnd %uint %lane %uint_1
%odd = OpINotEqual %bool %bit0 %uint_0
%even = OpLogicalNot %bool %odd
%myout = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
)";

Execution RunText(const std::string& text, uint64_t items, size_t out_bytes,
                  spv_target_env env, bool skip_validation = false) {
  auto words = spirv::Assemble(text, env);
  EXPECT_TRUE(words.ok()) << words.status() << "\n" << text;
  if (!words.ok()) return {};
  ReferenceOptions o;
  o.subgroup_size = 8;
  o.skip_validation = skip_validation;
  return RunReference(
      MakeCase(*words, {items}, std::nullopt, {Buffer(out_bytes)}), o);
}

// Runs `body` (after kLane) on 12 work-items, out = 12 words (or `words`).
Execution RunNu(const std::string& body, const std::string& out_type = "uint",
                size_t words = 12, uint64_t items = 12,
                spv_target_env env = SPV_ENV_UNIVERSAL_1_3,
                bool skip_validation = false,
                const std::string& extra_decls = "") {
  std::string lane = kLane;
  if (out_type != "uint") {
    absl::StrAppend(&lane, "%myout_t = OpInBoundsPtrAccessChain %ptr_g_",
                    out_type, " %out %x\n");
    // kLane's %myout needs a uint pointer: derive it from the typed one.
    lane.replace(lane.find("%myout = OpInBoundsPtrAccessChain %ptr_g_uint "
                           "%out %x"),
                 std::string("%myout = OpInBoundsPtrAccessChain %ptr_g_uint "
                             "%out %x")
                     .size(),
                 "%myout = OpBitcast %ptr_g_uint %out");
  }
  // Half arithmetic needs Float16 (Float16Buffer only covers storage).
  const bool half = out_type == "half" ||
                    body.find(" %half ") != std::string::npos ||
                    body.find(" %v4half ") != std::string::npos;
  const std::string caps =
      absl::StrCat(kCaps, half ? "OpCapability Float16\n" : "");
  return RunText(
      WrapBody(kDecls + extra_decls, lane + body, out_type, false, caps), items,
      words * 8, env, skip_validation);
}

std::vector<uint32_t> Words(const Execution& e, size_t n = 12) {
  auto w =
      As<uint32_t>(e.buffers.empty() ? std::vector<uint8_t>{} : e.buffers[0]);
  w.resize(n);
  return w;
}

// Wraps `inner` in `if (cond) { inner }`.
std::string If(const std::string& cond, const std::string& inner) {
  return absl::StrCat("OpSelectionMerge %join None\nOpBranchConditional ", cond,
                      " %then %join\n%then = OpLabel\n", inner,
                      "OpBranch %join\n%join = OpLabel\n");
}

void ExpectUb(const Execution& e, const std::string& check,
              const std::string& detail) {
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find(check), std::string::npos) << e.message;
  EXPECT_NE(e.message.find(detail), std::string::npos) << e.message;
}

void ExpectUnsupported(const Execution& e, const std::string& opcode,
                       const std::string& why) {
  ASSERT_EQ(e.status, ExecutionStatus::kUnsupported) << e.message;
  EXPECT_NE(e.message.find(opcode), std::string::npos) << e.message;
  EXPECT_NE(e.message.find(why), std::string::npos) << e.message;
}

// ---- Elect ----

TEST(ReferenceGroupNonUniform, ElectPicksTheLowestLanePerSubgroup) {
  Execution e = RunNu(R"(
%el = OpGroupNonUniformElect %bool %uint_3
%v = OpSelect %uint %el %uint_1 %uint_0
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e),
            (std::vector<uint32_t>{1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}));
}

TEST(ReferenceGroupNonUniform, ElectAmongTheActiveInvocations) {
  Execution e = RunNu(If("%odd", R"(
%el = OpGroupNonUniformElect %bool %uint_3
%v = OpSelect %uint %el %uint_1 %uint_2
OpStore %myout %v Aligned 4
)"));
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e),
            (std::vector<uint32_t>{0, 1, 0, 2, 0, 2, 0, 2, 0, 1, 0, 2}));
}

// ---- Vote ----

TEST(ReferenceGroupNonUniform, VoteAllAnyAllEqual) {
  // out = All(lane < 4) + 2 Any(lane == 7) + 4 AllEqual(x / 8)
  //       + 8 AllEqual(float(lane)).
  Execution e = RunNu(R"(
%lt4 = OpULessThan %bool %lane %uint_4
%is7 = OpIEqual %bool %lane %uint_7
%all = OpGroupNonUniformAll %bool %uint_3 %lt4
%any = OpGroupNonUniformAny %bool %uint_3 %is7
%sgi = OpUDiv %uint %x32 %uint_8
%eq = OpGroupNonUniformAllEqual %bool %uint_3 %sgi
%fl = OpConvertUToF %float %lane
%feq = OpGroupNonUniformAllEqual %bool %uint_3 %fl
%a = OpSelect %uint %all %uint_1 %uint_0
%b = OpSelect %uint %any %uint_2 %uint_0
%c = OpSelect %uint %eq %uint_4 %uint_0
%d = OpSelect %uint %feq %uint_8 %uint_0
%ab = OpBitwiseOr %uint %a %b
%abc = OpBitwiseOr %uint %ab %c
%v = OpBitwiseOr %uint %abc %d
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  // Subgroup 0: All false, Any true, AllEqual true, float false -> 6.
  // Subgroup 1 (lanes 0..3): All true, Any false, AllEqual true -> 5.
  EXPECT_EQ(Words(e),
            (std::vector<uint32_t>{6, 6, 6, 6, 6, 6, 6, 6, 5, 5, 5, 5}));
}

TEST(ReferenceGroupNonUniform, VoteAmongTheActiveInvocations) {
  // Only even lanes vote: All(even) is true, AllEqual(bit0) is true, and
  // AllEqual of a float NaN is false (NaN is never equal).
  Execution e = RunNu(If("%even", R"(
%all = OpGroupNonUniformAll %bool %uint_3 %even
%eq = OpGroupNonUniformAllEqual %bool %uint_3 %bit0
%nan = OpGroupNonUniformAllEqual %bool %uint_3 %float_nan
%a = OpSelect %uint %all %uint_1 %uint_0
%b = OpSelect %uint %eq %uint_2 %uint_0
%c = OpSelect %uint %nan %uint_4 %uint_8
%ab = OpBitwiseOr %uint %a %b
%v = OpBitwiseOr %uint %ab %c
OpStore %myout %v Aligned 4
)"));
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e),
            (std::vector<uint32_t>{11, 0, 11, 0, 11, 0, 11, 0, 11, 0, 11, 0}));
}

// ---- Broadcast ----

TEST(ReferenceGroupNonUniform, BroadcastScalarAndVector) {
  // out = Broadcast(x, 2) * 100 + sum of Broadcast((x, x + 1), 3).
  Execution e = RunNu(R"(
%b = OpGroupNonUniformBroadcast %uint %uint_3 %x32 %uint_2
%x1 = OpIAdd %uint %x32 %uint_1
%pair = OpCompositeConstruct %v2uint %x32 %x1
%bp = OpGroupNonUniformBroadcast %v2uint %uint_3 %pair %uint_3
%p0 = OpCompositeExtract %uint %bp 0
%p1 = OpCompositeExtract %uint %bp 1
%ps = OpIAdd %uint %p0 %p1
%h = OpIMul %uint %b %uint_16
%v = OpIAdd %uint %h %ps
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const uint32_t s0 = 2 * 16 + 7, s1 = 10 * 16 + 23;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{s0, s0, s0, s0, s0, s0, s0, s0, s1,
                                             s1, s1, s1}));
}

TEST(ReferenceGroupNonUniform, BroadcastFirstTakesTheLowestActiveLane) {
  Execution e = RunNu(If("%odd", R"(
%b = OpGroupNonUniformBroadcastFirst %uint %uint_3 %x32
%v = OpIAdd %uint %b %uint_100
OpStore %myout %v Aligned 4
)"));
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{0, 101, 0, 101, 0, 101, 0, 101, 0,
                                             109, 0, 109}));
}

TEST(ReferenceGroupNonUniform, BroadcastFromAnInactiveInvocationIsUb) {
  Execution e = RunNu(If("%even", R"(
%b = OpGroupNonUniformBroadcast %uint %uint_3 %x32 %uint_1
OpStore %myout %b Aligned 4
)"));
  ExpectUb(e, "broadcast from an inactive invocation",
           "Id 1 names subgroup invocation 1, which is not active");
  EXPECT_NE(e.message.find("OpGroupNonUniformBroadcast"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("global id (0, 0, 0)"), std::string::npos)
      << e.message;
}

TEST(ReferenceGroupNonUniform, BroadcastOutsideThePartialSubgroupIsUb) {
  // Subgroup 1 has four invocations: Id 5 names none of them.
  Execution e = RunNu(R"(
%b = OpGroupNonUniformBroadcast %uint %uint_3 %x32 %int_5
OpStore %myout %b Aligned 4
)");
  ExpectUb(e, "broadcast from an inactive invocation",
           "Id 5 names subgroup invocation 5, which is outside the subgroup");
  EXPECT_NE(e.message.find("global id (8, 0, 0)"), std::string::npos)
      << e.message;
}

TEST(ReferenceGroupNonUniform, NonUniformBroadcastIdIsUb) {
  // SPIR-V 1.5 lets Id be a non-constant, dynamically uniform value.
  Execution e = RunNu(R"(
%b = OpGroupNonUniformBroadcast %uint %uint_3 %x32 %bit0
OpStore %myout %b Aligned 4
)",
                      "uint", 12, 12, SPV_ENV_UNIVERSAL_1_5);
  ExpectUb(e, "non-uniform broadcast id",
           "broadcasts from subgroup invocation 1, the first active one "
           "from 0");
  EXPECT_NE(e.message.find("global id (1, 0, 0)"), std::string::npos)
      << e.message;
}

TEST(ReferenceGroupNonUniform, UniformNonConstantBroadcastIdRuns) {
  Execution e = RunNu(R"(
%sgi = OpUDiv %uint %x32 %uint_8
%id = OpIAdd %uint %sgi %uint_1
%b = OpGroupNonUniformBroadcast %uint %uint_3 %x32 %id
OpStore %myout %b Aligned 4
)",
                      "uint", 12, 12, SPV_ENV_UNIVERSAL_1_5);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e),
            (std::vector<uint32_t>{1, 1, 1, 1, 1, 1, 1, 1, 10, 10, 10, 10}));
}

// ---- Ballot ----

TEST(ReferenceGroupNonUniform, BallotOfActiveLanes) {
  // out = c0 + c1 + c2 + c3 of Ballot(odd) (only c0 can be non-zero).
  Execution e = RunNu(R"(
%bal = OpGroupNonUniformBallot %v4uint %uint_3 %odd
%c0 = OpCompositeExtract %uint %bal 0
%c1 = OpCompositeExtract %uint %bal 1
%c2 = OpCompositeExtract %uint %bal 2
%c3 = OpCompositeExtract %uint %bal 3
%s1 = OpIAdd %uint %c0 %c1
%s2 = OpIAdd %uint %s1 %c2
%v = OpIAdd %uint %s2 %c3
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA,
                                             0xAA, 0xAA, 0xA, 0xA, 0xA, 0xA}));
}

TEST(ReferenceGroupNonUniform, BallotInNonUniformControlFlow) {
  Execution e = RunNu(R"(
%lt5 = OpULessThan %bool %lane %uint_5
)" + If("%lt5", R"(
%bal = OpGroupNonUniformBallot %v4uint %uint_3 %true
%c0 = OpCompositeExtract %uint %bal 0
OpStore %myout %c0 Aligned 4
)"));
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{0x1F, 0x1F, 0x1F, 0x1F, 0x1F, 0, 0,
                                             0, 0xF, 0xF, 0xF, 0xF}));
}

TEST(ReferenceGroupNonUniform, InverseBallotAndBitExtract) {
  // out = InverseBallot(0x55) + 2 BitExtract(0x2C6, lane).
  Execution e = RunNu(R"(
%inv = OpGroupNonUniformInverseBallot %bool %uint_3 %mask55
%bx = OpGroupNonUniformBallotBitExtract %bool %uint_3 %mask2C6 %lane
%a = OpSelect %uint %inv %uint_1 %uint_0
%b = OpSelect %uint %bx %uint_2 %uint_0
%v = OpIAdd %uint %a %b
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  // 0x2C6: bits 1, 2, 6, 7 (and 9).
  EXPECT_EQ(Words(e),
            (std::vector<uint32_t>{1, 2, 3, 0, 1, 0, 3, 2, 1, 2, 3, 0}));
}

std::string WithMode(std::string body, const std::string& mode) {
  for (size_t at; (at = body.find("MODE")) != std::string::npos;)
    body.replace(at, 4, mode);
  return body;
}

constexpr char kBitCount[] = R"(
%n = OpGroupNonUniformBallotBitCount %uint %uint_3 MODE %mask1FF
OpStore %myout %n Aligned 4
)";

TEST(ReferenceGroupNonUniform, BallotBitCountEachMode) {
  // Bits 0..8 set; only the bits of the subgroup's invocations count.
  Execution r = RunNu(WithMode(kBitCount, "Reduce"));
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(Words(r),
            (std::vector<uint32_t>{8, 8, 8, 8, 8, 8, 8, 8, 4, 4, 4, 4}));
  Execution i = RunNu(WithMode(kBitCount, "InclusiveScan"));
  ASSERT_EQ(i.status, ExecutionStatus::kOk) << i.message;
  EXPECT_EQ(Words(i),
            (std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4}));
  Execution x = RunNu(WithMode(kBitCount, "ExclusiveScan"));
  ASSERT_EQ(x.status, ExecutionStatus::kOk) << x.message;
  EXPECT_EQ(Words(x),
            (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3}));
}

TEST(ReferenceGroupNonUniform, BallotFindLsbMsb) {
  // 0x2C6 = bits 1, 2, 6, 7, 9: subgroup 0 sees 1..7, subgroup 1 1..2.
  Execution e = RunNu(R"(
%lsb = OpGroupNonUniformBallotFindLSB %uint %uint_3 %mask2C6
%msb = OpGroupNonUniformBallotFindMSB %uint %uint_3 %mask2C6
%h = OpIMul %uint %msb %uint_16
%v = OpIAdd %uint %h %lsb
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e),
            (std::vector<uint32_t>{0x71, 0x71, 0x71, 0x71, 0x71, 0x71, 0x71,
                                   0x71, 0x21, 0x21, 0x21, 0x21}));
}

TEST(ReferenceGroupNonUniform, BallotFindOfAnEmptyMaskIsUb) {
  // 0xF0: bits 4..7, none of which the partial subgroup has.
  Execution e = RunNu(R"(
%lsb = OpGroupNonUniformBallotFindLSB %uint %uint_3 %maskF0
OpStore %myout %lsb Aligned 4
)");
  ExpectUb(e, "ballot find of an empty mask", "4 invocations");
  EXPECT_NE(e.message.find("global id (8, 0, 0)"), std::string::npos)
      << e.message;
}

TEST(ReferenceGroupNonUniform, BallotBitExtractIndexOutOfRangeIsUb) {
  Execution e = RunNu(R"(
%bx = OpGroupNonUniformBallotBitExtract %bool %uint_3 %mask2C6 %uint_9
%v = OpSelect %uint %bx %uint_1 %uint_0
OpStore %myout %v Aligned 4
)");
  ExpectUb(e, "ballot bit index out of range", "Index 9");
}

TEST(ReferenceGroupNonUniform, NonUniformInverseBallotValueIsUb) {
  Execution e = RunNu(R"(
%m = OpCompositeConstruct %v4uint %x32 %uint_0 %uint_0 %uint_0
%inv = OpGroupNonUniformInverseBallot %bool %uint_3 %m
%v = OpSelect %uint %inv %uint_1 %uint_0
OpStore %myout %v Aligned 4
)",
                      "uint", 12, 12, SPV_ENV_UNIVERSAL_1_5);
  ExpectUb(e, "non-uniform ballot value", "same Value");
}

TEST(ReferenceGroupNonUniform, SubgroupMaskBuiltins) {
  // out[x] = Eq ^ (Ge << 8) ... packed per mask into one word each:
  // out[5 x + m] = component 0 of mask m (Eq, Ge, Gt, Le, Lt).
  std::string text = Prelude(kCaps, "%eqm %gem %gtm %lem %ltm",
                             "OpDecorate %eqm BuiltIn SubgroupEqMask\n"
                             "OpDecorate %gem BuiltIn SubgroupGeMask\n"
                             "OpDecorate %gtm BuiltIn SubgroupGtMask\n"
                             "OpDecorate %lem BuiltIn SubgroupLeMask\n"
                             "OpDecorate %ltm BuiltIn SubgroupLtMask\n");
  absl::StrAppend(&text, R"(
%ptr_in_v4uint = OpTypePointer Input %v4uint
%eqm = OpVariable %ptr_in_v4uint Input
%gem = OpVariable %ptr_in_v4uint Input
%gtm = OpVariable %ptr_in_v4uint Input
%lem = OpVariable %ptr_in_v4uint Input
%ltm = OpVariable %ptr_in_v4uint Input
%ulong_5 = OpConstant %ulong 5
%kfn = OpTypeFunction %void %ptr_g_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%gidv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gidv 0
%base = OpIMul %ulong %x %ulong_5
)");
  const char* names[] = {"eqm", "gem", "gtm", "lem", "ltm"};
  for (int m = 0; m < 5; ++m) {
    absl::StrAppend(&text, "%v", m, " = OpLoad %v4uint %", names[m],
                    " Aligned 16\n%c", m, " = OpCompositeExtract %uint %v", m,
                    " 0\n%d", m, " = OpCompositeExtract %uint %v", m, " 1\n%s",
                    m, " = OpIAdd %uint %c", m, " %d", m, "\n%i", m,
                    " = OpIAdd %ulong %base %ulong_", m == 0 ? "0" : "1", "\n");
  }
  // Indices base + 0 .. base + 4.
  absl::StrAppend(&text, R"(
%j2 = OpIAdd %ulong %i1 %ulong_1
%j3 = OpIAdd %ulong %j2 %ulong_1
%j4 = OpIAdd %ulong %j3 %ulong_1
%p0 = OpInBoundsPtrAccessChain %ptr_g_uint %out %i0
%p1 = OpInBoundsPtrAccessChain %ptr_g_uint %out %i1
%p2 = OpInBoundsPtrAccessChain %ptr_g_uint %out %j2
%p3 = OpInBoundsPtrAccessChain %ptr_g_uint %out %j3
%p4 = OpInBoundsPtrAccessChain %ptr_g_uint %out %j4
OpStore %p0 %s0 Aligned 4
OpStore %p1 %s1 Aligned 4
OpStore %p2 %s2 Aligned 4
OpStore %p3 %s3 Aligned 4
OpStore %p4 %s4 Aligned 4
OpReturn
OpFunctionEnd
)");
  Execution e = RunText(text, 12, 12 * 5 * 4, SPV_ENV_UNIVERSAL_1_3);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto w = As<uint32_t>(e.buffers[0]);
  for (uint32_t x = 0; x < 12; ++x) {
    const uint32_t lane = x % 8, size = x < 8 ? 8 : 4;
    const uint32_t all = (1u << size) - 1;
    const uint32_t le = (2u << lane) - 1, lt = (1u << lane) - 1;
    EXPECT_EQ(w[5 * x + 0], 1u << lane) << x;
    EXPECT_EQ(w[5 * x + 1], all & ~lt) << x;
    EXPECT_EQ(w[5 * x + 2], all & ~le) << x;
    EXPECT_EQ(w[5 * x + 3], le) << x;
    EXPECT_EQ(w[5 * x + 4], lt) << x;
  }
}

// ---- Arithmetic ----

TEST(ReferenceGroupNonUniform, IAddEachMode) {
  constexpr char kBody[] = R"(
%s = OpGroupNonUniformIAdd %uint %uint_3 MODE %x32
OpStore %myout %s Aligned 4
)";
  Execution r = RunNu(WithMode(kBody, "Reduce"));
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(Words(r), (std::vector<uint32_t>{28, 28, 28, 28, 28, 28, 28, 28, 38,
                                             38, 38, 38}));
  Execution i = RunNu(WithMode(kBody, "InclusiveScan"));
  ASSERT_EQ(i.status, ExecutionStatus::kOk) << i.message;
  EXPECT_EQ(Words(i),
            (std::vector<uint32_t>{0, 1, 3, 6, 10, 15, 21, 28, 8, 17, 27, 38}));
  Execution x = RunNu(WithMode(kBody, "ExclusiveScan"));
  ASSERT_EQ(x.status, ExecutionStatus::kOk) << x.message;
  EXPECT_EQ(Words(x),
            (std::vector<uint32_t>{0, 0, 1, 3, 6, 10, 15, 21, 0, 8, 17, 27}));
}

TEST(ReferenceGroupNonUniform, ScansOverTheActiveInvocationsOnly) {
  constexpr char kBody[] = R"(
%s = OpGroupNonUniformIAdd %uint %uint_3 MODE %x32
%v = OpIAdd %uint %s %uint_100
OpStore %myout %v Aligned 4
)";
  Execution r = RunNu(If("%odd", WithMode(kBody, "Reduce")));
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(Words(r), (std::vector<uint32_t>{0, 116, 0, 116, 0, 116, 0, 116, 0,
                                             120, 0, 120}));
  Execution i = RunNu(If("%odd", WithMode(kBody, "InclusiveScan")));
  ASSERT_EQ(i.status, ExecutionStatus::kOk) << i.message;
  EXPECT_EQ(Words(i), (std::vector<uint32_t>{0, 101, 0, 104, 0, 109, 0, 116, 0,
                                             109, 0, 120}));
  Execution x = RunNu(If("%odd", WithMode(kBody, "ExclusiveScan")));
  ASSERT_EQ(x.status, ExecutionStatus::kOk) << x.message;
  EXPECT_EQ(Words(x), (std::vector<uint32_t>{0, 100, 0, 101, 0, 104, 0, 109, 0,
                                             100, 0, 109}));
}

// One integer operation over (x - 5) as a signed int, reduced per subgroup.
std::vector<uint32_t> IntReduce(const std::string& op,
                                const std::string& mode = "Reduce") {
  Execution e = RunNu(absl::StrCat(R"(
%sv = OpISub %uint %x32 %int_5
%s = OpGroupNonUniform)",
                                   op, " %uint %uint_3 ", mode, R"( %sv
OpStore %myout %s Aligned 4
)"));
  EXPECT_EQ(e.status, ExecutionStatus::kOk) << op << ": " << e.message;
  return Words(e);
}

TEST(ReferenceGroupNonUniform, IntegerReductions) {
  auto u = [](int v) { return static_cast<uint32_t>(v); };
  // Subgroup 0: -5..2, subgroup 1: 3..6.
  EXPECT_EQ(IntReduce("SMin")[0], u(-5));
  EXPECT_EQ(IntReduce("SMin")[8], 3u);
  EXPECT_EQ(IntReduce("SMax")[0], 2u);
  EXPECT_EQ(IntReduce("SMax")[11], 6u);
  EXPECT_EQ(IntReduce("UMin")[0], 0u);
  EXPECT_EQ(IntReduce("UMax")[0], u(-1));
  EXPECT_EQ(IntReduce("UMax")[8], 6u);
  // -5 * -4 * ... * 2 contains 0.
  EXPECT_EQ(IntReduce("IMul")[0], 0u);
  EXPECT_EQ(IntReduce("IMul")[8], 3u * 4 * 5 * 6);
  EXPECT_EQ(IntReduce("BitwiseAnd")[8], 3u & 4 & 5 & 6);
  EXPECT_EQ(IntReduce("BitwiseOr")[8], 3u | 4 | 5 | 6);
  EXPECT_EQ(IntReduce("BitwiseXor")[8], 3u ^ 4 ^ 5 ^ 6);
  EXPECT_EQ(IntReduce("BitwiseXor")[0],
            u(-5) ^ u(-4) ^ u(-3) ^ u(-2) ^ u(-1) ^ 0u ^ 1u ^ 2u);
  // Inclusive IMul over subgroup 1: 3, 12, 60, 360.
  const auto im = IntReduce("IMul", "InclusiveScan");
  EXPECT_EQ(std::vector<uint32_t>(im.begin() + 8, im.end()),
            (std::vector<uint32_t>{3, 12, 60, 360}));
}

TEST(ReferenceGroupNonUniform, ExclusiveScanIdentities) {
  // The first lane of an exclusive scan gets the operation's identity.
  auto first = [](const std::string& op) {
    return IntReduce(op, "ExclusiveScan")[0];
  };
  EXPECT_EQ(first("IAdd"), 0u);
  EXPECT_EQ(first("IMul"), 1u);
  EXPECT_EQ(first("SMin"), 0x7FFFFFFFu);
  EXPECT_EQ(first("UMin"), 0xFFFFFFFFu);
  EXPECT_EQ(first("SMax"), 0x80000000u);
  EXPECT_EQ(first("UMax"), 0u);
  EXPECT_EQ(first("BitwiseAnd"), 0xFFFFFFFFu);
  EXPECT_EQ(first("BitwiseOr"), 0u);
  EXPECT_EQ(first("BitwiseXor"), 0u);
  // Second lane of subgroup 1: its first value (3).
  EXPECT_EQ(IntReduce("SMin", "ExclusiveScan")[9], 3u);
}

TEST(ReferenceGroupNonUniform, LogicalOperationsEachMode) {
  // out = LogicalAnd(odd) + 2 LogicalOr(odd) + 4 LogicalXor(odd), with
  // ExclusiveScan identities true / false / false on lane 0.
  constexpr char kBody[] = R"(
%and = OpGroupNonUniformLogicalAnd %bool %uint_3 MODE %odd
%or = OpGroupNonUniformLogicalOr %bool %uint_3 MODE %odd
%xor = OpGroupNonUniformLogicalXor %bool %uint_3 MODE %odd
%a = OpSelect %uint %and %uint_1 %uint_0
%b = OpSelect %uint %or %uint_2 %uint_0
%c = OpSelect %uint %xor %uint_4 %uint_0
%ab = OpIAdd %uint %a %b
%v = OpIAdd %uint %ab %c
OpStore %myout %v Aligned 4
)";
  Execution r = RunNu(WithMode(kBody, "Reduce"));
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  // Four odd lanes in subgroup 0 (xor false), two in subgroup 1.
  EXPECT_EQ(Words(r),
            (std::vector<uint32_t>{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}));
  Execution i = RunNu(WithMode(kBody, "InclusiveScan"));
  ASSERT_EQ(i.status, ExecutionStatus::kOk) << i.message;
  EXPECT_EQ(Words(i),
            (std::vector<uint32_t>{0, 6, 6, 2, 2, 6, 6, 2, 0, 6, 6, 2}));
  Execution x = RunNu(WithMode(kBody, "ExclusiveScan"));
  ASSERT_EQ(x.status, ExecutionStatus::kOk) << x.message;
  EXPECT_EQ(Words(x),
            (std::vector<uint32_t>{1, 0, 6, 6, 2, 2, 6, 6, 1, 0, 6, 6}));
}

std::vector<float> Floats(const Execution& e, size_t n = 12) {
  auto f = As<float>(e.buffers.empty() ? std::vector<uint8_t>{} : e.buffers[0]);
  f.resize(n);
  return f;
}

TEST(ReferenceGroupNonUniform, FAddAccumulatesInLaneOrder) {
  // Values 1e8, 1, -1e8, 1, 1, ... : in lane order 1e8 + 1 rounds to 1e8,
  // so the sum of subgroup 0 is 5 (not 6).
  Execution f = RunNu(R"(
%is0 = OpIEqual %bool %lane %uint_0
%is2 = OpIEqual %bool %lane %uint_2
%neg = OpFNegate %float %float_big
%v2 = OpSelect %float %is2 %neg %float_1
%v = OpSelect %float %is0 %float_big %v2
%s = OpGroupNonUniformFAdd %float %uint_3 Reduce %v
OpStore %myout_t %s Aligned 4
)",
                      "float");
  ASSERT_EQ(f.status, ExecutionStatus::kOk) << f.message;
  EXPECT_EQ(Floats(f)[0], 5.0f);
  EXPECT_EQ(Floats(f)[8], 1.0f);  // 1e8, 1, -1e8, 1
  Execution p = RunNu(R"(
%is0 = OpIEqual %bool %lane %uint_0
%is2 = OpIEqual %bool %lane %uint_2
%neg = OpFNegate %float %float_big
%v2 = OpSelect %float %is2 %neg %float_1
%v = OpSelect %float %is0 %float_big %v2
%s = OpGroupNonUniformFAdd %float %uint_3 InclusiveScan %v
OpStore %myout_t %s Aligned 4
)",
                      "float");
  ASSERT_EQ(p.status, ExecutionStatus::kOk) << p.message;
  EXPECT_EQ(Floats(p), (std::vector<float>{1e8f, 1e8f, 0, 1, 2, 3, 4, 5, 1e8f,
                                           1e8f, 0, 1}));
}

TEST(ReferenceGroupNonUniform, FloatMulMinMaxAndIdentities) {
  // FMul ExclusiveScan of lane + 1: 1 (identity), 1, 2, 6, ...
  Execution m = RunNu(R"(
%l1 = OpIAdd %uint %lane %uint_1
%f = OpConvertUToF %float %l1
%s = OpGroupNonUniformFMul %float %uint_3 ExclusiveScan %f
OpStore %myout_t %s Aligned 4
)",
                      "float");
  ASSERT_EQ(m.status, ExecutionStatus::kOk) << m.message;
  EXPECT_EQ(Floats(m),
            (std::vector<float>{1, 1, 2, 6, 24, 120, 720, 5040, 1, 1, 2, 6}));
  // FMin / FMax skip a NaN (lane 0); exclusive identities are +inf / -inf.
  Execution f = RunNu(R"(
%is0 = OpIEqual %bool %lane %uint_0
%fx = OpConvertUToF %float %x32
%v = OpSelect %float %is0 %float_nan %fx
%mn = OpGroupNonUniformFMin %float %uint_3 Reduce %v
%mx = OpGroupNonUniformFMax %float %uint_3 Reduce %v
%emn = OpGroupNonUniformFMin %float %uint_3 ExclusiveScan %fx
%emx = OpGroupNonUniformFMax %float %uint_3 ExclusiveScan %fx
%a = OpFAdd %float %mn %mx
%e0 = OpFAdd %float %emn %emx
%isl0 = OpIEqual %bool %lane %uint_0
%r = OpSelect %float %isl0 %emn %a
OpStore %myout_t %r Aligned 4
)",
                      "float");
  ASSERT_EQ(f.status, ExecutionStatus::kOk) << f.message;
  const auto v = Floats(f);
  EXPECT_EQ(v[0], std::numeric_limits<float>::infinity());
  EXPECT_EQ(v[1], 1.0f + 7.0f);
  EXPECT_EQ(v[8], std::numeric_limits<float>::infinity());
  EXPECT_EQ(v[9], 9.0f + 11.0f);
}

TEST(ReferenceGroupNonUniform, HalfFAddRoundsEachStep) {
  // 2048 + 1 in half is a tie that rounds to 2048 (even), at every step:
  // the sum is 2048, not 2056 (2055 rounded once).
  Execution e = RunNu(R"(
%is0 = OpIEqual %bool %lane %uint_0
%v = OpSelect %half %is0 %h2048 %h1
%s = OpGroupNonUniformFAdd %half %uint_3 Reduce %v
OpStore %myout_t %s Aligned 2
)",
                      "half", 12, 12, SPV_ENV_UNIVERSAL_1_3, false,
                      "%h2048 = OpConstant %half 2048\n"
                      "%h1 = OpConstant %half 1\n");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto h = As<uint16_t>(e.buffers[0]);
  EXPECT_EQ(h[0], 0x6800);  // 2048
  EXPECT_EQ(h[7], 0x6800);
  EXPECT_EQ(h[11], 0x6800);
}

TEST(ReferenceGroupNonUniform, FMinOfOnlyNaNsIsUb) {
  Execution e = RunNu(R"(
%mn = OpGroupNonUniformFMin %float %uint_3 Reduce %float_nan
OpStore %myout_t %mn Aligned 4
)",
                      "float");
  ExpectUb(e, "undefined group result", "is NaN");
}

// ---- Clustered ----

TEST(ReferenceGroupNonUniform, ClusteredReduce) {
  Execution e = RunNu(R"(
%s = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %x32 %uint_4
OpStore %myout %s Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{6, 6, 6, 6, 22, 22, 22, 22, 38, 38,
                                             38, 38}));
}

TEST(ReferenceGroupNonUniform, ClusteredReduceOverActiveInvocations) {
  // Clusters of 4, odd lanes only: {1, 3}, {5, 7}, {9, 11}.
  Execution e = RunNu(If("%odd", R"(
%s = OpGroupNonUniformUMax %uint %uint_3 ClusteredReduce %x32 %uint_4
%t = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %x32 %uint_2
%h = OpIMul %uint %s %uint_100
%v = OpIAdd %uint %h %t
OpStore %myout %v Aligned 4
)"));
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e), (std::vector<uint32_t>{0, 301, 0, 303, 0, 705, 0, 707, 0,
                                             1109, 0, 1111}));
}

TEST(ReferenceGroupNonUniform, ClusterLargerThanTheSubgroupIsUb) {
  Execution e = RunNu(R"(
%s = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %x32 %uint_16
OpStore %myout %s Aligned 4
)");
  ExpectUb(e, "invalid ClusterSize", "ClusterSize 16");
}

TEST(ReferenceGroupNonUniform, ClusterNotAPowerOfTwoIsUb) {
  Execution e = RunNu(R"(
%s = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %x32 %uint_3
OpStore %myout %s Aligned 4
)",
                      "uint", 12, 12, SPV_ENV_UNIVERSAL_1_3, true);
  ExpectUb(e, "invalid ClusterSize", "ClusterSize 3");
}

// ---- Shuffles ----

TEST(ReferenceGroupNonUniform, ShuffleAndShuffleXor) {
  // out = Shuffle(x, lane ^ 1) * 16 + ShuffleXor(x, 2).
  Execution e = RunNu(R"(
%id = OpBitwiseXor %uint %lane %uint_1
%a = OpGroupNonUniformShuffle %uint %uint_3 %x32 %id
%b = OpGroupNonUniformShuffleXor %uint %uint_3 %x32 %uint_2
%h = OpIMul %uint %a %uint_16
%v = OpIAdd %uint %h %b
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  std::vector<uint32_t> want;
  for (uint32_t x = 0; x < 12; ++x) want.push_back((x ^ 1) * 16 + (x ^ 2));
  EXPECT_EQ(Words(e), want);
}

TEST(ReferenceGroupNonUniform, ShuffleUpAndDown) {
  // Up by 1 except lane 0 (delta 0); down by 1 except lane 7.
  Execution e = RunNu(R"(
%is0 = OpIEqual %bool %lane %uint_0
%up_d = OpSelect %uint %is0 %uint_0 %uint_1
%up = OpGroupNonUniformShuffleUp %uint %uint_3 %x32 %up_d
%is7 = OpIEqual %bool %lane %uint_7
%dn_d = OpSelect %uint %is7 %uint_0 %uint_1
%dn = OpGroupNonUniformShuffleDown %uint %uint_3 %x32 %dn_d
%h = OpIMul %uint %up %uint_16
%v = OpIAdd %uint %h %dn
OpStore %myout %v Aligned 4
)",
                      "uint", 12, 12);
  // x = 11 is lane 3 of the partial subgroup: its down shuffle reads
  // lane 4, outside it.
  ExpectUb(e, "subgroup shuffle out of range",
           "Delta 1 names subgroup invocation 4, which is outside the "
           "subgroup");
  EXPECT_NE(e.message.find("global id (11, 0, 0)"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("OpGroupNonUniformShuffleDown"), std::string::npos)
      << e.message;
  Execution ok = RunNu(R"(
%is0 = OpIEqual %bool %lane %uint_0
%up_d = OpSelect %uint %is0 %uint_0 %uint_1
%up = OpGroupNonUniformShuffleUp %uint %uint_3 %x32 %up_d
%is7 = OpIEqual %bool %lane %uint_7
%dn_d = OpSelect %uint %is7 %uint_0 %uint_1
%dn = OpGroupNonUniformShuffleDown %uint %uint_3 %x32 %dn_d
%h = OpIMul %uint %up %uint_16
%v = OpIAdd %uint %h %dn
OpStore %myout %v Aligned 4
)",
                       "uint", 16, 16);
  ASSERT_EQ(ok.status, ExecutionStatus::kOk) << ok.message;
  std::vector<uint32_t> want;
  for (uint32_t x = 0; x < 16; ++x) {
    const uint32_t up = x % 8 == 0 ? x : x - 1;
    const uint32_t dn = x % 8 == 7 ? x : x + 1;
    want.push_back(up * 16 + dn);
  }
  EXPECT_EQ(Words(ok, 16), want);
}

TEST(ReferenceGroupNonUniform, ShuffleInNonUniformControlFlow) {
  Execution e = RunNu(If("%even", R"(
%v = OpGroupNonUniformShuffleXor %uint %uint_3 %x32 %uint_2
OpStore %myout %v Aligned 4
)"));
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(Words(e),
            (std::vector<uint32_t>{2, 0, 0, 0, 6, 0, 4, 0, 10, 0, 8, 0}));
}

TEST(ReferenceGroupNonUniform, ShuffleFromAnInactiveInvocationIsUb) {
  Execution e = RunNu(If("%even", R"(
%v = OpGroupNonUniformShuffleXor %uint %uint_3 %x32 %uint_1
OpStore %myout %v Aligned 4
)"));
  ExpectUb(e, "subgroup shuffle out of range",
           "Mask 1 names subgroup invocation 1, which is not active");
  EXPECT_NE(e.message.find("global id (0, 0, 0)"), std::string::npos)
      << e.message;
}

TEST(ReferenceGroupNonUniform, ShuffleOutsideTheSubgroupIsUb) {
  Execution e = RunNu(R"(
%v = OpGroupNonUniformShuffle %uint %uint_3 %x32 %uint_9
OpStore %myout %v Aligned 4
)");
  ExpectUb(e, "subgroup shuffle out of range",
           "Id 9 names subgroup invocation 9, which is outside the subgroup");
}

TEST(ReferenceGroupNonUniform, ShuffleUpBelowTheFirstLaneIsUb) {
  Execution e = RunNu(R"(
%v = OpGroupNonUniformShuffleUp %uint %uint_3 %x32 %uint_1
OpStore %myout %v Aligned 4
)");
  ExpectUb(e, "subgroup shuffle out of range",
           "Delta 1 names subgroup invocation 0 - 1, which is below");
}

TEST(ReferenceGroupNonUniform, ShuffleDownByAHugeDeltaIsUb) {
  // A 64-bit Delta must not wrap around to a lane of the subgroup.
  Execution e = RunNu(R"(
%v = OpGroupNonUniformShuffleDown %uint %uint_3 %x32 %ulong_max
OpStore %myout %v Aligned 4
)");
  ExpectUb(e, "subgroup shuffle out of range",
           "Delta 18446744073709551615 names subgroup invocation "
           "0 + 18446744073709551615, which is outside the subgroup");
}

TEST(ReferenceGroupNonUniform, ActiveSetDoesNotDependOnTheSchedule) {
  // Work-items resumed in seeded random orders still complete the
  // non-uniform scan with exactly the invocations of the branch.
  const std::string text = WrapBody(kDecls, std::string(kLane) + If("%odd", R"(
%s = OpGroupNonUniformIAdd %uint %uint_3 InclusiveScan %x32
OpStore %myout %s Aligned 4
)"),
                                    "uint", false, kCaps);
  auto words = spirv::Assemble(text, SPV_ENV_UNIVERSAL_1_3);
  ASSERT_TRUE(words.ok()) << words.status();
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    ReferenceOptions o;
    o.subgroup_size = 8;
    o.schedule_seed = seed;
    Execution e =
        RunReference(MakeCase(*words, {12}, std::nullopt, {Buffer(12 * 4)}), o);
    ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
    EXPECT_EQ(Words(e),
              (std::vector<uint32_t>{0, 1, 0, 4, 0, 9, 0, 16, 0, 9, 0, 20}))
        << seed;
  }
}

// ---- OpGroup* at Subgroup scope on the extended types ----

TEST(ReferenceGroupNonUniform, OpGroupAtSubgroupScopeOnExtendedTypes) {
  // The guide's "Extended Types": char/short/long and half/double scalars
  // for the OpGroup* arithmetic, vectors for OpGroupBroadcast.
  Execution e = RunNu(R"(
%c = OpUConvert %uchar %x32
%cs = OpGroupIAdd %uchar %uint_3 Reduce %c
%s = OpUConvert %ushort %x32
%smax = OpGroupUMax %ushort %uint_3 InclusiveScan %s
%l = OpUConvert %ulong %x32
%lmin = OpGroupSMin %ulong %uint_3 ExclusiveScan %l
%h = OpConvertUToF %half %x32
%hs = OpGroupFAdd %half %uint_3 Reduce %h
%d = OpConvertUToF %double %x32
%dm = OpGroupFMax %double %uint_3 Reduce %d
%hv = OpCompositeConstruct %v4half %h %h %h %h
%hb = OpGroupBroadcast %v4half %uint_3 %hv %uint_1
%hb3 = OpCompositeExtract %half %hb 3
%r1 = OpUConvert %uint %cs
%r2 = OpUConvert %uint %smax
%r3 = OpUConvert %uint %lmin
%r4 = OpConvertFToU %uint %hs
%r5 = OpConvertFToU %uint %dm
%r6 = OpConvertFToU %uint %hb3
%p1 = OpIMul %uint %r1 %uint_100
%p2 = OpIAdd %uint %p1 %r2
%q = OpIMul %uint %p2 %uint_100
%q3 = OpIAdd %uint %q %r3
%q4 = OpIMul %uint %r4 %uint_100
%q5 = OpIAdd %uint %q4 %r5
%q6 = OpIMul %uint %q5 %uint_100
%q7 = OpIAdd %uint %q6 %r6
%a = OpIMul %uint %q3 %uint_16
%v = OpBitwiseXor %uint %a %q7
OpStore %myout %v Aligned 4
)");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto w = As<uint32_t>(e.buffers[0]);
  for (uint32_t x = 0; x < 12; ++x) {
    const uint32_t sg = x / 8, lane = x % 8, first = 8 * sg;
    const uint32_t sum = sg == 0 ? 28 : 38, max = sg == 0 ? 7 : 11;
    const uint32_t lmin = lane == 0 ? 0xFFFFFFFFu : first;  // INT64_MAX low
    const uint32_t q3 = (sum * 100 + x) * 100 + lmin;
    const uint32_t q7 = (sum * 100 + max) * 100 + first + 1;
    EXPECT_EQ(w[x], (q3 * 16) ^ q7) << x;
  }
}

// ---- Unsupported and malformed ----

TEST(ReferenceGroupNonUniform, WorkgroupScopeIsUnsupported) {
  Execution e = RunNu(R"(
%s = OpGroupNonUniformIAdd %uint %uint_2 Reduce %x32
OpStore %myout %s Aligned 4
)");
  ExpectUnsupported(e, "OpGroupNonUniformIAdd",
                    "Execution scope Workgroup is not supported");
}

TEST(ReferenceGroupNonUniform, TypesTheGuideDoesNotListAreUnsupported) {
  ExpectUnsupported(RunNu(R"(
%p = OpCompositeConstruct %v2uint %x32 %x32
%v = OpGroupNonUniformShuffleXor %v2uint %uint_3 %p %uint_1
)"),
                    "OpGroupNonUniformShuffleXor", "Value of type int2");
  ExpectUnsupported(RunNu(R"(
%p = OpCompositeConstruct %v2uint %x32 %x32
%v = OpGroupNonUniformIAdd %v2uint %uint_3 Reduce %p
)"),
                    "OpGroupNonUniformIAdd", "integer scalars");
  ExpectUnsupported(RunNu(R"(
%p = OpCompositeConstruct %v2uint %x32 %x32
%v = OpGroupNonUniformBroadcastFirst %v2uint %uint_3 %p
)"),
                    "OpGroupNonUniformBroadcastFirst", "int2");
  ExpectUnsupported(RunNu(R"(
%v = OpGroupNonUniformAllEqual %bool %uint_3 %odd
)"),
                    "OpGroupNonUniformAllEqual", "Value of type bool");
}

TEST(ReferenceGroupNonUniform, UnsupportedTrapsOnlyWhenReached) {
  Execution e = RunNu(If("%false", R"(
%s = OpGroupNonUniformIAdd %uint %uint_2 Reduce %x32
)") + "OpStore %myout %x32 Aligned 4\n");
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
}

TEST(ReferenceGroupNonUniform, MalformedOperandsAreRejected) {
  // Without validation: a result type that is not the Value's.
  Execution e = RunNu(R"(
%s = OpGroupNonUniformIAdd %ulong %uint_3 Reduce %x32
)",
                      "uint", 12, 12, SPV_ENV_UNIVERSAL_1_3, true);
  ASSERT_EQ(e.status, ExecutionStatus::kBuildFailed) << e.message;
  EXPECT_NE(e.message.find("result type differs"), std::string::npos)
      << e.message;
  // A non-integer shuffle id.
  Execution f = RunNu(R"(
%s = OpGroupNonUniformShuffle %uint %uint_3 %x32 %float_1
)",
                      "uint", 12, 12, SPV_ENV_UNIVERSAL_1_3, true);
  ASSERT_EQ(f.status, ExecutionStatus::kBuildFailed) << f.message;
  EXPECT_NE(f.message.find("not an integer scalar"), std::string::npos)
      << f.message;
  // A ClusterSize that is not a constant.
  Execution g = RunNu(R"(
%s = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %x32 %lane
)",
                      "uint", 12, 12, SPV_ENV_UNIVERSAL_1_3, true);
  ExpectUnsupported(g, "OpGroupNonUniformIAdd", "ClusterSize is not");
  // Reduce with a ClusterSize.
  Execution h = RunNu(R"(
%s = OpGroupNonUniformIAdd %uint %uint_3 Reduce %x32 %uint_4
)",
                      "uint", 12, 12, SPV_ENV_UNIVERSAL_1_3, true);
  ASSERT_EQ(h.status, ExecutionStatus::kBuildFailed) << h.message;
  // A ballot result that is not a uvec4.
  ExpectUnsupported(RunNu(R"(
%s = OpGroupNonUniformBallot %uint %uint_3 %odd
)",
                          "uint", 12, 12, SPV_ENV_UNIVERSAL_1_3, true),
                    "OpGroupNonUniformBallot", "Result of type int");
}

// Every family in one kernel, in uniform and non-uniform control flow.
constexpr char kEveryFamily[] = R"(
%el = OpGroupNonUniformElect %bool %uint_3
%al = OpGroupNonUniformAll %bool %uint_3 %odd
%ae = OpGroupNonUniformAllEqual %bool %uint_3 %x32
%bc = OpGroupNonUniformBroadcast %uint %uint_3 %x32 %uint_1
%bf = OpGroupNonUniformBroadcastFirst %uint %uint_3 %x32
%ba = OpGroupNonUniformBallot %v4uint %uint_3 %odd
%ib = OpGroupNonUniformInverseBallot %bool %uint_3 %mask55
%be = OpGroupNonUniformBallotBitExtract %bool %uint_3 %ba %lane
%bn = OpGroupNonUniformBallotBitCount %uint %uint_3 InclusiveScan %ba
%lsb = OpGroupNonUniformBallotFindLSB %uint %uint_3 %mask2C6
%ad = OpGroupNonUniformIAdd %uint %uint_3 ExclusiveScan %x32
%cl = OpGroupNonUniformUMax %uint %uint_3 ClusteredReduce %x32 %uint_4
%fl = OpConvertUToF %float %x32
%fm = OpGroupNonUniformFMin %float %uint_3 Reduce %fl
%lo = OpGroupNonUniformLogicalXor %bool %uint_3 Reduce %odd
%sx = OpGroupNonUniformShuffleXor %uint %uint_3 %x32 %uint_1
%sd = OpGroupNonUniformShuffleDown %uint %uint_3 %x32 %uint_0
%s1 = OpIAdd %uint %bn %lsb
%s2 = OpIAdd %uint %s1 %ad
%s3 = OpIAdd %uint %s2 %cl
%s4 = OpIAdd %uint %s3 %sx
%s5 = OpIAdd %uint %s4 %sd
%s6 = OpIAdd %uint %s5 %bc
%s7 = OpIAdd %uint %s6 %bf
OpStore %myout %s7 Aligned 4
)";

TEST(ReferenceGroupNonUniform, EveryFamilyInOneKernel) {
  Execution e = RunNu(kEveryFamily);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
}

TEST(ReferenceGroupNonUniform, MutatedModulesNeverCrash) {
  // Decoder and scheduler robustness (the interpreter fuzzer's job, here
  // deterministic): corrupt words of the kernel above and run it without
  // validation; any status is fine, a crash or hang is not.
  const std::string text =
      WrapBody(kDecls, std::string(kLane) + kEveryFamily, "uint", false, kCaps);
  auto words = spirv::Assemble(text, SPV_ENV_UNIVERSAL_1_3);
  ASSERT_TRUE(words.ok()) << words.status();
  // Operand words of the function bodies (never an instruction's first
  // word, so the module still parses and the decoder sees the damage).
  std::vector<size_t> operands;
  bool in_function = false;
  for (size_t at = 5; at < words->size();) {
    const uint32_t count = (*words)[at] >> 16;
    if (count == 0) break;
    in_function = in_function || ((*words)[at] & 0xFFFF) == 54;  // OpFunction
    for (size_t k = 1; in_function && k < count; ++k)
      operands.push_back(at + k);
    at += count;
  }
  ASSERT_FALSE(operands.empty());
  std::mt19937 rng(7);
  const uint32_t bound = (*words)[3];
  ReferenceOptions o;
  o.subgroup_size = 8;
  o.skip_validation = true;
  o.step_budget = 100000;
  int ran = 0;
  for (int iter = 0; iter < 1000; ++iter) {
    std::vector<uint32_t> w = *words;
    const int edits = 1 + static_cast<int>(rng() % 2);
    for (int k = 0; k < edits; ++k) {
      uint32_t& word = w[operands[rng() % operands.size()]];
      switch (rng() % 3) {
        case 0:  // another id: a type, a constant, a value
          word = 1 + rng() % (bound - 1);
          break;
        case 1:  // a small literal (scopes, group operations, indices)
          word = rng() % 8;
          break;
        default:
          word ^= 1u << (rng() % 32);
          break;
      }
    }
    Execution e =
        RunReference(MakeCase(w, {12}, std::nullopt, {Buffer(12 * 8)}), o);
    ran += e.status == ExecutionStatus::kOk;
  }
  // Some mutations leave the kernel runnable.
  EXPECT_GT(ran, 0);
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
