// OpSpecConstantOp beyond integers: composite extract/insert, vector
// shuffle, float arithmetic, conversions and bitcast are evaluated at
// decode time from the spec constants' defaults; integer operations fold
// through the executor's lane semantics; an operation that is not
// evaluated stops the run as unsupported only when its value is used.
#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

constexpr char kDecls[] = R"(
%sf = OpSpecConstant %float 1.5
%sg = OpSpecConstant %float 0.25
%sd = OpSpecConstant %double 3
%su = OpSpecConstant %uint 7
%vec = OpSpecConstantComposite %v2uint %su %uint_3
%fvec = OpSpecConstantComposite %v2float %sf %sg
%add = OpSpecConstantOp %float FAdd %sf %sg
%mul = OpSpecConstantOp %float FMul %sf %sg
%neg = OpSpecConstantOp %float FNegate %sf
%div = OpSpecConstantOp %double FDiv %sd %sd
%rem = OpSpecConstantOp %float FMod %neg %sg
%cext = OpSpecConstantOp %uint CompositeExtract %vec 1
%ins = OpSpecConstantOp %v2uint CompositeInsert %uint_5 %vec 0
%shf = OpSpecConstantOp %v2uint VectorShuffle %vec %vec 1 2
%f2u = OpSpecConstantOp %uint ConvertFToU %add
%u2f = OpSpecConstantOp %float ConvertUToF %su
%bits = OpSpecConstantOp %uint Bitcast %sf
%fx = OpSpecConstantOp %float CompositeExtract %fvec 1
)";

template <typename T>
T RunOne(const std::string& type, const std::string& value) {
  Execution e =
      RunBody(kDecls, "OpStore %out " + value + "\n", type, sizeof(T));
  EXPECT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  if (e.status != ExecutionStatus::kOk) return T{};
  return As<T>(e.buffers[0])[0];
}

TEST(ReferenceSpecConstantOp, FloatArithmetic) {
  EXPECT_EQ(RunOne<float>("float", "%add"), 1.75f);
  EXPECT_EQ(RunOne<float>("float", "%mul"), 0.375f);
  EXPECT_EQ(RunOne<float>("float", "%neg"), -1.5f);
  EXPECT_EQ(RunOne<double>("double", "%div"), 1.0);
  // FMod(-1.5, 0.25): an exact multiple, so the remainder is zero.
  EXPECT_EQ(RunOne<float>("float", "%rem"), 0.0f);
}

TEST(ReferenceSpecConstantOp, Composites) {
  EXPECT_EQ(RunOne<uint32_t>("uint", "%cext"), 3u);
  EXPECT_EQ(RunOne<float>("float", "%fx"), 0.25f);
}

TEST(ReferenceSpecConstantOp, InsertAndShuffle) {
  Execution e = RunBody(kDecls, R"(
%p = OpBitcast %ptr_g_uint %out
%a = OpCompositeExtract %uint %ins 0
%b = OpCompositeExtract %uint %ins 1
%c = OpCompositeExtract %uint %shf 0
%d = OpCompositeExtract %uint %shf 1
%p1 = OpInBoundsPtrAccessChain %ptr_g_uint %out %ulong_1
%p2 = OpInBoundsPtrAccessChain %ptr_g_uint %out %uint_2
%p3 = OpInBoundsPtrAccessChain %ptr_g_uint %out %uint_3
OpStore %out %a
OpStore %p1 %b
OpStore %p2 %c
OpStore %p3 %d
)",
                        "uint", 16);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  // ins = (5, 3); shf = (vec[1], vec[2] = the second vector's lane 0) =
  // (3, 7).
  EXPECT_EQ(As<uint32_t>(e.buffers[0]), (std::vector<uint32_t>{5, 3, 3, 7}));
}

TEST(ReferenceSpecConstantOp, ConversionsAndBitcast) {
  EXPECT_EQ(RunOne<uint32_t>("uint", "%f2u"), 1u);
  EXPECT_EQ(RunOne<float>("float", "%u2f"), 7.0f);
  EXPECT_EQ(RunOne<uint32_t>("uint", "%bits"), 0x3FC00000u);
}

TEST(ReferenceSpecConstantOp, UnevaluatedOperationIsUnsupportedWhenUsed) {
  // A pointer access chain on a spec constant is not evaluated.
  Execution e = RunBody(R"(
%cptr = OpTypePointer CrossWorkgroup %uint
%nul = OpConstantNull %cptr
%ac = OpSpecConstantOp %cptr InBoundsPtrAccessChain %nul %ulong_1
)",
                        R"(
%v = OpLoad %uint %ac
OpStore %out %v
)",
                        "uint", 4);
  EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << e.message;
  EXPECT_NE(e.message.find("OpSpecConstantOp"), std::string::npos) << e.message;
}

// Integer OpSpecConstantOp folds through the executor's own lane semantics
// (scalar_ops.h): the constant is what the instruction computes at run time.
constexpr char kIntDecls[] = R"(
%m7 = OpSpecConstant %uint 0xFFFFFFF9
%min = OpSpecConstant %uint 0x80000000
%all = OpSpecConstant %uint 0xFFFFFFFF
%smod = OpSpecConstantOp %uint SMod %m7 %uint_3
%srem = OpSpecConstantOp %uint SRem %m7 %uint_3
%sar = OpSpecConstantOp %uint ShiftRightArithmetic %min %uint_4
%ovf = OpSpecConstantOp %uint SDiv %min %all
%u32 = OpConstant %uint 32
%big = OpSpecConstantOp %uint ShiftLeftLogical %uint_1 %u32
%cmp = OpSpecConstantOp %bool SLessThan %m7 %uint_3
%sel = OpSpecConstantOp %uint Select %cmp %uint_5 %uint_6
)";

uint32_t RunInt(const std::string& value) {
  Execution e = RunBody(kIntDecls, "OpStore %out " + value + "\n", "uint", 4);
  EXPECT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  return e.status == ExecutionStatus::kOk ? As<uint32_t>(e.buffers[0])[0] : 0;
}

TEST(ReferenceSpecConstantOp, IntegerArithmeticMatchesTheExecutor) {
  // -7 smod 3 takes the divisor's sign; -7 srem 3 the dividend's.
  EXPECT_EQ(RunInt("%smod"), 2u);
  EXPECT_EQ(RunInt("%srem"), 0xFFFFFFFFu);
  EXPECT_EQ(RunInt("%sar"), 0xF8000000u);
  EXPECT_EQ(RunInt("%sel"), 5u);
}

// A lane the executor reports as undefined behaviour leaves the constant
// without a value: the instruction using it stops as unsupported, naming
// the executor's check.
TEST(ReferenceSpecConstantOp, UndefinedLaneIsUnsupportedWhenUsed) {
  for (const auto& [value, check] :
       {std::pair<std::string, std::string>{"%ovf",
                                            "signed integer division overflow"},
        {"%big", "shift amount out of range"}}) {
    Execution e = RunBody(kIntDecls, "OpStore %out " + value + "\n", "uint", 4);
    EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << value;
    EXPECT_NE(e.message.find(check), std::string::npos) << e.message;
  }
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
