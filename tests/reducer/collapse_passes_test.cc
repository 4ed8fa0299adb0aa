// The shape-simplifying reduction stages (reducers/collapse_passes.h), run
// on a hand-written kernel against the injected fault "OpIMul on 16-bit
// vectors executed as OpIAdd": every stage must simplify what the fault does
// not need and keep what it does.
#include "reducers/collapse_passes.h"

#include <chrono>

#include "absl/container/flat_hash_set.h"
#include "gtest/gtest.h"
#include "reducers/interestingness.h"
#include "reducers/module_edit.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"
#include "spirv/unified1/spirv.hpp11"
#include "tests/reducer/reduce_fault_target.h"

namespace l0spv::reducers {
namespace {

// out[0] = helper(lane 1 of ((in * (3,5,3,5)) + (3,5,3,5)) ^ (3,5,3,5)):
// the multiply is the faulty operation, everything around it can collapse.
constexpr char kKernel[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int16
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %short = OpTypeInt 16 0
    %v4short = OpTypeVector %short 4
        %ptr = OpTypePointer CrossWorkgroup %v4short
       %sptr = OpTypePointer CrossWorkgroup %short
         %fn = OpTypeFunction %void %ptr %sptr
     %helper = OpTypeFunction %short %short
         %c3 = OpConstant %short 3
         %c5 = OpConstant %short 5
         %cv = OpConstantComposite %v4short %c3 %c5 %c3 %c5
          %k = OpFunction %void None %fn
         %in = OpFunctionParameter %ptr
        %out = OpFunctionParameter %sptr
      %entry = OpLabel
          %a = OpLoad %v4short %in Aligned 8
          %m = OpIMul %v4short %a %cv
          %x = OpIAdd %v4short %m %cv
          %y = OpBitwiseXor %v4short %x %cv
          %s = OpVectorShuffle %v4short %y %cv 3 1 4 5
          %e = OpCompositeExtract %short %s 1
          %z = OpFunctionCall %short %h %e
               OpStore %out %z Aligned 2
               OpReturn
               OpFunctionEnd
          %h = OpFunction %short None %helper
          %p = OpFunctionParameter %short
         %hl = OpLabel
          %r = OpBitwiseXor %short %p %c3
               OpReturnValue %r
               OpFunctionEnd
)";

spirv::TestCase MakeCase() {
  auto words = spirv::Assemble(kKernel);
  EXPECT_TRUE(words.ok()) << words.status();
  spirv::TestCase tc;
  tc.module_words = words.ok() ? *words : std::vector<uint32_t>{};
  tc.entry_point = "k";
  spirv::KernelArg in;
  in.bytes = {1, 0, 7, 0, 2, 0, 9, 0};  // lane 1 = 7: 7*5 != 7+5
  spirv::KernelArg out;
  out.bytes = {0, 0};
  out.is_result = true;
  tc.args = {in, out};
  return tc;
}

class CollapsePasses : public ::testing::Test {
 protected:
  void SetUp() override {
    InterestingnessOptions o;
    o.targets = {"fault-imul16v"};
    o.make_target = testing::MakeReduceFaultTarget;
    auto oracle = Interestingness::Make(o);
    ASSERT_TRUE(oracle.ok()) << oracle.status();
    oracle_ = std::move(*oracle);
    ASSERT_TRUE(oracle_->IsInteresting(MakeCase()))
        << "the hand-written kernel must trigger the fault";
  }

  spirv::Module Run(std::unique_ptr<Stage> stage, const spirv::TestCase& tc,
                    bool* progress) {
    ReductionContext ctx(
        tc, oracle_.get(),
        ReductionContext::Clock::now() + std::chrono::seconds(60));
    *progress = stage->Run(ctx);
    EXPECT_TRUE(spirv::Validate(ctx.current().module_words).ok());
    EXPECT_TRUE(testing::HasFault("fault-imul16v", ctx.current().module_words));
    EXPECT_TRUE(oracle_->IsInteresting(ctx.current()));
    auto m = spirv::ReadModuleWords(ctx.current().module_words);
    EXPECT_TRUE(m.ok());
    return m.ok() ? *m : spirv::Module{};
  }

  std::unique_ptr<Interestingness> oracle_;
};

size_t CountOp(const spirv::Module& m, spv::Op op) {
  size_t n = 0;
  for (const spirv::Function& f : m.functions)
    for (const spirv::BasicBlock& b : f.blocks)
      for (const spirv::Instruction& inst : b.instructions)
        n += inst.opcode() == static_cast<uint32_t>(op);
  return n;
}

// Body instructions whose result is a vector.
size_t VectorValues(const spirv::Module& m) {
  absl::flat_hash_set<uint32_t> vector_types;
  for (const spirv::Instruction& t : m.types_values)
    if (t.opcode() == static_cast<uint32_t>(spv::Op::OpTypeVector))
      vector_types.insert(t.result_id());
  size_t n = 0;
  for (const spirv::Function& f : m.functions)
    for (const spirv::BasicBlock& b : f.blocks)
      for (const spirv::Instruction& inst : b.instructions)
        n += vector_types.contains(inst.type_id());
  return n;
}

// The instruction defining `id` in a body, or nullptr.
const spirv::Instruction* BodyDef(const spirv::Module& m, uint32_t id) {
  for (const spirv::Function& f : m.functions)
    for (const spirv::BasicBlock& b : f.blocks)
      for (const spirv::Instruction& inst : b.instructions)
        if (inst.result_id() == id) return &inst;
  return nullptr;
}

TEST_F(CollapsePasses, LaneReadsOfShufflesFoldToTheirSource) {
  bool progress = false;
  spirv::Module m = Run(MakeFoldLaneAccessesStage(), MakeCase(), &progress);
  EXPECT_TRUE(progress);
  RemoveDeadCode(m);
  // Lane 1 of the shuffle is lane 1 of %y: the extract reads %y directly
  // and the shuffle is dead.
  EXPECT_EQ(CountOp(m, spv::Op::OpVectorShuffle), 0u);
  ASSERT_EQ(CountOp(m, spv::Op::OpCompositeExtract), 1u);
  for (const spirv::Function& f : m.functions)
    for (const spirv::BasicBlock& b : f.blocks)
      for (const spirv::Instruction& inst : b.instructions)
        if (inst.opcode() ==
            static_cast<uint32_t>(spv::Op::OpCompositeExtract)) {
          const spirv::Instruction* src = BodyDef(m, inst.word(0));
          ASSERT_NE(src, nullptr);
          EXPECT_EQ(src->opcode(),
                    static_cast<uint32_t>(spv::Op::OpBitwiseXor));
        }
}

TEST_F(CollapsePasses, VectorChainsCollapseToScalarsButTheFaultyOpStays) {
  bool progress = false;
  spirv::TestCase tc = MakeCase();
  spirv::Module folded = Run(MakeFoldLaneAccessesStage(), tc, &progress);
  RemoveDeadCode(folded);
  tc.module_words = spirv::EncodeModule(folded);
  const size_t vectors_before = VectorValues(folded);  // load, mul, add, xor
  EXPECT_EQ(vectors_before, 4u);
  spirv::Module m = Run(MakeVectorsToScalarsStage(), tc, &progress);
  EXPECT_TRUE(progress);
  // %y and %x became scalar; %m (the faulty vector multiply) and the vector
  // load it reads stay vectors.
  RemoveDeadCode(m);
  EXPECT_EQ(VectorValues(m), 2u);
  EXPECT_EQ(CountOp(m, spv::Op::OpIMul), 1u);
}

TEST_F(CollapsePasses, AFunctionCalledOnceIsInlined) {
  bool progress = false;
  const spirv::Module m =
      Run(MakeInlineSingleCallsStage(), MakeCase(), &progress);
  EXPECT_TRUE(progress);
  EXPECT_EQ(CountOp(m, spv::Op::OpFunctionCall), 0u);
}

TEST_F(CollapsePasses, NothingToDoIsNoProgress) {
  bool progress = true;
  spirv::TestCase tc = MakeCase();
  const spirv::Module inlined =
      Run(MakeInlineSingleCallsStage(), tc, &progress);
  tc.module_words = spirv::EncodeModule(inlined);
  Run(MakeInlineSingleCallsStage(), tc, &progress);
  EXPECT_FALSE(progress);
}

// A candidate whose results depend on an OpUndef is no reproducer: the
// reference reads undef as zero, a device may pick anything (a removed
// insert can leave an undef steering a switch into OpUnreachable).
TEST_F(CollapsePasses, ResultsThatDependOnAnUndefAreNotInteresting) {
  spirv::TestCase tc = MakeCase();
  std::string text = kKernel;
  // out[0] = helper(...) ^ undef: still the faulty multiply's mismatch, but
  // also a value the kernel never defined.
  const std::string from = "               OpStore %out %z Aligned 2";
  text.replace(text.find(from), from.size(),
               "         %u = OpUndef %short\n"
               "         %w = OpBitwiseXor %short %z %u\n"
               "               OpStore %out %w Aligned 2");
  auto words = spirv::Assemble(text);
  ASSERT_TRUE(words.ok()) << words.status();
  tc.module_words = *words;
  ASSERT_TRUE(WithUndefsDefined(tc.module_words).has_value());
  const CheckOutcome c = oracle_->Check(tc);
  EXPECT_FALSE(c.interesting);
  EXPECT_EQ(c.rejected, "its results depend on an OpUndef value");

  // An undef whose bits never reach a result (overwritten by an insert)
  // keeps the case interesting.
  std::string harmless = kKernel;
  const std::string from2 = "          %e = OpCompositeExtract %short %s 1";
  harmless.replace(harmless.find(from2), from2.size(),
                   "         %u = OpUndef %v4short\n"
                   "         %i = OpCompositeInsert %v4short %c3 %u 1\n"
                   "         %j = OpCompositeExtract %short %i 1\n"
                   "          %e = OpCompositeExtract %short %s 1");
  auto words2 = spirv::Assemble(harmless);
  ASSERT_TRUE(words2.ok()) << words2.status();
  tc.module_words = *words2;
  EXPECT_TRUE(oracle_->Check(tc).interesting);
  EXPECT_FALSE(WithUndefsDefined(MakeCase().module_words).has_value());
}

}  // namespace
}  // namespace l0spv::reducers
