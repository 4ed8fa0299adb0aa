// Control flow: loops with OpPhi, OpSwitch, function calls, recursion,
// OpUnreachable and the step budget.
#include "gtest/gtest.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

// sum = 0 + 1 + ... + 9 via a loop whose phis swap roles each iteration
// (a parallel copy): (a, b) <- (b, a + i).
TEST(ReferenceControl, LoopWithParallelPhis) {
  Execution e = RunBody("%uint_10 = OpConstant %uint 10\n", R"(
OpBranch %loop
%loop = OpLabel
%i = OpPhi %uint %uint_0 %entry %i2 %loop
%a = OpPhi %uint %uint_0 %entry %b %loop
%b = OpPhi %uint %uint_1 %entry %a2 %loop
%a2 = OpIAdd %uint %a %i
%i2 = OpIAdd %uint %i %uint_1
%c = OpULessThan %bool %i2 %uint_10
OpLoopMerge %exit %loop None
OpBranchConditional %c %loop %exit
%exit = OpLabel
%p1 = OpInBoundsPtrAccessChain %ptr_g_uint %out %ulong_1
OpStore %out %a
OpStore %p1 %b
OpReturn
)",
                        "uint", 8, 1, {}, true);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  // (i, a, b): (0,0,1) (1,1,0) (2,0,2) (3,2,2) (4,2,5) (5,5,6) (6,6,10)
  // (7,10,12) (8,12,17) (9,17,20), then the loop exits.
  EXPECT_EQ(As<uint32_t>(e.buffers[0]), (std::vector<uint32_t>{17, 20}));
}

TEST(ReferenceControl, SwitchOnEachWidth) {
  Execution e = RunBody("%ulong_big = OpConstant %ulong 0x100000002\n", R"(
%sel = OpUConvert %uint %x
OpSelectionMerge %m None
OpSwitch %sel %def 0 %c0 1 %c1 3 %c1
%c0 = OpLabel
OpBranch %m
%c1 = OpLabel
OpBranch %m
%def = OpLabel
OpBranch %m
%m = OpLabel
%v = OpPhi %uint %uint_5 %c0 %uint_6 %c1 %uint_7 %def
%wide = OpIAdd %ulong %ulong_big %x
OpSelectionMerge %m2 None
OpSwitch %wide %d2 0x100000002 %w0
%w0 = OpLabel
OpBranch %m2
%d2 = OpLabel
OpBranch %m2
%m2 = OpLabel
%w = OpPhi %uint %uint_1 %w0 %uint_0 %d2
%s = OpIAdd %uint %v %w
%p = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %p %s
OpReturn
)",
                        "uint", 16, 4, {}, true);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0]), (std::vector<uint32_t>{6, 6, 7, 6}));
}

std::string CallModule(bool recursive) {
  return Prelude() + R"(
%kfn = OpTypeFunction %void %ptr_g_uint
%hfn = OpTypeFunction %uint %uint %ptr_f_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%var = OpVariable %ptr_f_uint Function %uint_3
%r = OpFunctionCall %uint %helper %uint_4 %var
%after = OpLoad %uint %var
%s = OpIAdd %uint %r %after
OpStore %out %s
OpReturn
OpFunctionEnd
%helper = OpFunction %uint None %hfn
%v = OpFunctionParameter %uint
%p = OpFunctionParameter %ptr_f_uint
%hentry = OpLabel
%old = OpLoad %uint %p
%new = OpIMul %uint %old %v
OpStore %p %new
)" + (recursive ? "%rec = OpFunctionCall %uint %helper %v %p\n" : "") +
         R"(
%ret = OpIAdd %uint %old %uint_1
OpReturnValue %ret
OpFunctionEnd
)";
}

TEST(ReferenceControl, FunctionCallByValueAndPointer) {
  Execution e = RunReference(MakeCase(AssembleOrDie(CallModule(false)), {1},
                                      std::nullopt, {Buffer(4)}),
                             {});
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0])[0], (3u + 1u) + 12u);
}

TEST(ReferenceControl, RecursionIsUb) {
  Execution e = RunReference(
      MakeCase(AssembleOrDie(CallModule(true)), {1}, std::nullopt, {Buffer(4)}),
      {});
  ASSERT_EQ(e.status, ExecutionStatus::kUbDetected);
  EXPECT_NE(e.message.find("recursion"), std::string::npos) << e.message;
}

TEST(ReferenceControl, InfiniteLoopTimesOut) {
  ReferenceOptions opts;
  opts.step_budget = 10000;
  Execution e = RunBody("", R"(
OpBranch %loop
%loop = OpLabel
OpLoopMerge %exit %loop None
OpBranchConditional %true %loop %exit
%exit = OpLabel
OpReturn
)",
                        "uint", 4, 4, opts, true);
  EXPECT_EQ(e.status, ExecutionStatus::kTimedOut) << e.message;
  EXPECT_EQ(e.instructions_executed, 10000u);
  EXPECT_NE(e.message.find("step budget"), std::string::npos);
}

TEST(ReferenceControl, UnreachableIsUb) {
  Execution e = RunBody("", "OpUnreachable\n", "uint", 4, 1, {}, true);
  EXPECT_EQ(e.status, ExecutionStatus::kUbDetected);
  EXPECT_NE(e.message.find("OpUnreachable"), std::string::npos);
}

TEST(ReferenceControl, UnsupportedInstructionNamesTheOpcode) {
  // OpBitFieldUExtract (BitInstructions, outside the Level Zero
  // environment) is not implemented: the run must say so, not produce a
  // zero.
  Execution e = RunBody("", R"(
%v = OpBitFieldUExtract %uint %uint_7 %uint_1 %uint_2
OpStore %out %v
)",
                        "uint", 4, 1, {}, false,
                        "OpCapability BitInstructions\n"
                        "OpExtension \"SPV_KHR_bit_instructions\"\n");
  EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << e.message;
  EXPECT_NE(e.message.find("OpBitFieldUExtract"), std::string::npos)
      << e.message;
}

TEST(ReferenceControl, MissingEntryPointIsBuildFailure) {
  auto words = AssembleOrDie(WrapBody("", ""));
  Execution e =
      RunReference(MakeCase(words, {1}, std::nullopt, {Buffer(4)}, "nope"), {});
  EXPECT_EQ(e.status, ExecutionStatus::kBuildFailed);
  EXPECT_NE(e.message.find("nope"), std::string::npos);
}

TEST(ReferenceControl, GarbageWordsNeverCrash) {
  spirv::TestCase tc;
  tc.module_words = {0x07230203, 0x00010200, 0, 100, 0, 0xFFFFFFFF, 1, 2, 3};
  tc.entry_point = "k";
  ReferenceOptions opts;
  EXPECT_NE(RunReference(tc, opts).status, ExecutionStatus::kOk);
  opts.skip_validation = true;
  EXPECT_NE(RunReference(tc, opts).status, ExecutionStatus::kOk);
}

TEST(ReferenceControl, BoolConstantAccessChainIndexIsNotShiftedBy64) {
  // Found by the interpreter fuzzer: a bool constant as an access-chain
  // index (invalid, reachable with skip_validation) has width 0; its sign
  // extension shifted a 64-bit value by 64. It counts as 0/1.
  ReferenceOptions opts;
  opts.skip_validation = true;
  Execution e = RunBody("", R"(
%p = OpInBoundsPtrAccessChain %ptr_g_uint %out %true
OpStore %p %uint_7 Aligned 4
)",
                        "uint", 8, 1, opts);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[0]), (std::vector<uint32_t>{0, 7}));
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
