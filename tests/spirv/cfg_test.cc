// Cfg: successors and predecessors, reachability, dominators, structured
// merge queries and unreachable-block removal, on hand-written functions
// including the awkward shapes (self-loops, a switch naming one block
// several times, unreachable cycles, labels that are not blocks).
#include "spirv/cfg.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

constexpr char kPrologue[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %3 = OpTypeBool
          %4 = OpTypeFunction %1
          %6 = OpConstantTrue %3
          %7 = OpConstant %2 0
          %8 = OpConstant %2 1
          %5 = OpFunction %1 None %4
)";

Module Build(const std::string& body) {
  auto words = Assemble(std::string(kPrologue) + body + "OpFunctionEnd\n");
  EXPECT_TRUE(words.ok()) << words.status();
  if (!words.ok()) return Module{};
  auto m = ReadModuleWords(*words);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *std::move(m) : Module{};
}

// 10 → (11 | 12) → 13, with a selection merge at 10; 20 is unreachable and
// branches into the merge block (so 13 has a phi entry from it).
constexpr char kDiamond[] = R"(
         %10 = OpLabel
               OpSelectionMerge %13 None
               OpBranchConditional %6 %11 %12
         %11 = OpLabel
               OpBranch %13
         %12 = OpLabel
               OpBranch %13
         %20 = OpLabel
         %21 = OpIAdd %2 %7 %8
               OpBranch %13
         %13 = OpLabel
         %14 = OpPhi %2 %7 %11 %8 %12 %21 %20
               OpReturn
)";

TEST(CfgTest, SuccessorsAndPredecessorsOfADiamond) {
  const Module m = Build(kDiamond);
  ASSERT_EQ(m.functions.size(), 1u);
  const Cfg cfg(m.functions[0]);
  EXPECT_THAT(cfg.Successors(10), ElementsAre(11, 12));
  EXPECT_THAT(cfg.Successors(11), ElementsAre(13));
  EXPECT_THAT(cfg.Successors(13), IsEmpty());
  // Function order, unreachable predecessors included.
  EXPECT_THAT(cfg.Predecessors(13), ElementsAre(11, 12, 20));
  EXPECT_THAT(cfg.Predecessors(10), IsEmpty());
  EXPECT_THAT(cfg.ReversePostOrder().front(), 10u);
  EXPECT_EQ(cfg.ReversePostOrder().size(), 4u);  // 20 is not in it
}

TEST(CfgTest, DominatorsOfADiamond) {
  const Module m = Build(kDiamond);
  ASSERT_EQ(m.functions.size(), 1u);
  const Cfg cfg(m.functions[0]);
  EXPECT_TRUE(cfg.Dominates(10, 13));
  EXPECT_TRUE(cfg.Dominates(13, 13));
  EXPECT_FALSE(cfg.StrictlyDominates(13, 13));
  EXPECT_FALSE(cfg.Dominates(11, 13));
  EXPECT_FALSE(cfg.Dominates(12, 13));
  EXPECT_FALSE(cfg.Dominates(13, 10));
  EXPECT_EQ(cfg.ImmediateDominator(13), 10u);
  EXPECT_EQ(cfg.ImmediateDominator(11), 10u);
  EXPECT_EQ(cfg.ImmediateDominator(10), 0u);  // the entry
}

TEST(CfgTest, UnreachableBlocksDominateNothing) {
  const Module m = Build(kDiamond);
  ASSERT_EQ(m.functions.size(), 1u);
  const Cfg cfg(m.functions[0]);
  EXPECT_TRUE(cfg.Contains(20));
  EXPECT_FALSE(cfg.IsReachable(20));
  EXPECT_FALSE(cfg.Dominates(20, 20));
  EXPECT_FALSE(cfg.Dominates(20, 13));
  EXPECT_FALSE(cfg.Dominates(10, 20));
  EXPECT_EQ(cfg.ImmediateDominator(20), 0u);
}

TEST(CfgTest, UnknownLabelsAreAnsweredNotFailed) {
  const Module m = Build(kDiamond);
  ASSERT_EQ(m.functions.size(), 1u);
  const Cfg cfg(m.functions[0]);
  // 14 is a phi, 99 nothing at all.
  for (uint32_t id : {14u, 99u, 0u}) {
    EXPECT_FALSE(cfg.Contains(id));
    EXPECT_FALSE(cfg.IsReachable(id));
    EXPECT_THAT(cfg.Successors(id), IsEmpty());
    EXPECT_THAT(cfg.Predecessors(id), IsEmpty());
    EXPECT_FALSE(cfg.Dominates(id, 13));
    EXPECT_FALSE(cfg.Dominates(10, id));
    EXPECT_EQ(cfg.ImmediateDominator(id), 0u);
  }
}

TEST(CfgTest, DeclarationHasAnEmptyGraph) {
  Function declaration;
  const Cfg cfg(declaration);
  EXPECT_TRUE(cfg.ReversePostOrder().empty());
  EXPECT_FALSE(cfg.IsReachable(1));
  EXPECT_TRUE(RemoveUnreachableBlocks(declaration).empty());
}

// 10 → 11 (loop header, merge 13, continue 12) → 12 → 11 (back edge);
// 11 → 13. 12 also loops on itself.
constexpr char kLoop[] = R"(
         %10 = OpLabel
               OpBranch %11
         %11 = OpLabel
               OpLoopMerge %13 %12 None
               OpBranchConditional %6 %12 %13
         %12 = OpLabel
               OpBranchConditional %6 %12 %11
         %13 = OpLabel
               OpReturn
)";

TEST(CfgTest, SelfLoopsAndBackEdges) {
  const Module m = Build(kLoop);
  ASSERT_EQ(m.functions.size(), 1u);
  const Cfg cfg(m.functions[0]);
  EXPECT_THAT(cfg.Successors(12), ElementsAre(12, 11));
  EXPECT_THAT(cfg.Predecessors(12), ElementsAre(11, 12));
  EXPECT_THAT(cfg.Predecessors(11), ElementsAre(10, 12));
  EXPECT_EQ(cfg.ImmediateDominator(12), 11u);
  EXPECT_EQ(cfg.ImmediateDominator(13), 11u);
  EXPECT_TRUE(cfg.Dominates(11, 12));
  EXPECT_FALSE(cfg.Dominates(12, 11));
}

TEST(CfgTest, MergeQueries) {
  const Module m = Build(kLoop);
  ASSERT_EQ(m.functions.size(), 1u);
  const Function& fn = m.functions[0];
  EXPECT_TRUE(HasLoopMerge(fn.blocks[1]));
  EXPECT_EQ(MergeBlockOf(fn.blocks[1]), 13u);
  EXPECT_EQ(ContinueTargetOf(fn.blocks[1]), 12u);
  EXPECT_FALSE(HasLoopMerge(fn.blocks[0]));
  EXPECT_EQ(MergeInstruction(fn.blocks[0]), nullptr);
  EXPECT_EQ(MergeBlockOf(fn.blocks[0]), 0u);
  EXPECT_EQ(ContinueTargetOf(fn.blocks[0]), 0u);
  EXPECT_TRUE(IsMergeOrContinueTarget(fn, 13));
  EXPECT_TRUE(IsMergeOrContinueTarget(fn, 12));
  EXPECT_FALSE(IsMergeOrContinueTarget(fn, 11));

  const Module d = Build(kDiamond);
  ASSERT_EQ(d.functions.size(), 1u);
  const BasicBlock& header = d.functions[0].blocks[0];
  EXPECT_FALSE(HasLoopMerge(header));
  EXPECT_EQ(MergeBlockOf(header), 13u);
  EXPECT_EQ(ContinueTargetOf(header), 0u);  // a selection has none
}

TEST(CfgTest, SwitchWithRepeatedTargets) {
  const Module m = Build(R"(
         %10 = OpLabel
               OpSelectionMerge %12 None
               OpSwitch %7 %11 0 %12 1 %11 2 %12
         %11 = OpLabel
               OpBranch %12
         %12 = OpLabel
               OpReturn
)");
  ASSERT_EQ(m.functions.size(), 1u);
  const Function& fn = m.functions[0];
  EXPECT_THAT(BranchTargets(*fn.blocks[0].terminator()),
              ElementsAre(11, 12, 11, 12));
  EXPECT_THAT(Successors(fn.blocks[0]), ElementsAre(11, 12));
  const Cfg cfg(fn);
  // One predecessor entry per block, however many cases name it.
  EXPECT_THAT(cfg.Predecessors(12), ElementsAre(10, 11));
  EXPECT_THAT(cfg.Predecessors(11), ElementsAre(10));
  EXPECT_EQ(cfg.ImmediateDominator(12), 10u);
}

TEST(CfgTest, NonBranchTerminatorsHaveNoTargets) {
  EXPECT_THAT(BranchTargets(Instruction(
                  static_cast<uint32_t>(spv::Op::OpReturn), 0, 0, {})),
              IsEmpty());
  // A truncated (hand-built) branch names nothing rather than reading past
  // its operands.
  EXPECT_THAT(BranchTargets(Instruction(
                  static_cast<uint32_t>(spv::Op::OpBranchConditional), 0, 0,
                  {IdOperand(6), IdOperand(11)})),
              IsEmpty());
  BasicBlock empty;
  EXPECT_THAT(Successors(empty), IsEmpty());
}

TEST(CfgTest, RemoveUnreachableBlocksDropsPhiEntriesAndMerges) {
  Module m = Build(kDiamond);
  ASSERT_EQ(m.functions.size(), 1u);
  Function& fn = m.functions[0];
  EXPECT_THAT(RemoveUnreachableBlocks(fn), UnorderedElementsAre(20, 21));
  ASSERT_EQ(fn.blocks.size(), 4u);
  const Instruction& phi = fn.blocks[3].instructions[0];
  ASSERT_EQ(phi.NumOperands(), 4u);
  EXPECT_EQ(phi.word(3), 12u);
  // A second run finds nothing more.
  EXPECT_TRUE(RemoveUnreachableBlocks(fn).empty());
  EXPECT_EQ(fn.blocks.size(), 4u);
}

TEST(CfgTest, RemoveUnreachableCycleAndTheMergeNamingIt) {
  // The loop's merge block 13 is unreachable (the header never exits):
  // the OpLoopMerge naming it goes with it.
  Module m = Build(R"(
         %10 = OpLabel
               OpBranch %11
         %11 = OpLabel
               OpLoopMerge %13 %11 None
               OpBranch %11
         %13 = OpLabel
               OpBranch %14
         %14 = OpLabel
               OpBranch %13
)");
  ASSERT_EQ(m.functions.size(), 1u);
  Function& fn = m.functions[0];
  EXPECT_THAT(RemoveUnreachableBlocks(fn), UnorderedElementsAre(13, 14));
  ASSERT_EQ(fn.blocks.size(), 2u);
  EXPECT_EQ(MergeInstruction(fn.blocks[1]), nullptr);
  EXPECT_EQ(fn.blocks[1].instructions.size(), 1u);
}

}  // namespace
}  // namespace l0spv::spirv
