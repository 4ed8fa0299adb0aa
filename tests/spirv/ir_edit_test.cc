// IR edits: block splitting with phi retargeting, cloning under a fresh-id
// map (ids taken in definition order, uses inside the clone remapped, uses
// of outside ids kept), use replacement and entry-point lookup. Edited
// modules are re-validated with spirv-val where the edit should keep them
// valid.
#include "spirv/ir_edit.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/binary.h"
#include "spirv/cfg.h"
#include "spirv/spirv_tools.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {
namespace {

using spv::Op;
using ::testing::ElementsAre;

constexpr uint32_t U(Op op) { return static_cast<uint32_t>(op); }

// %5 is the kernel "k"; %30 a helper that calls itself under a false
// condition (to show recursive calls follow the copy).
constexpr char kModule[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %5 "k"
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %3 = OpTypeBool
          %4 = OpTypeFunction %1
          %6 = OpConstantFalse %3
          %7 = OpConstant %2 0
          %8 = OpConstant %2 1
         %29 = OpTypeFunction %2 %2
          %5 = OpFunction %1 None %4
         %10 = OpLabel
         %11 = OpIAdd %2 %7 %8
               OpSelectionMerge %13 None
               OpBranchConditional %6 %12 %13
         %12 = OpLabel
               OpBranch %13
         %13 = OpLabel
         %14 = OpPhi %2 %11 %10 %8 %12
               OpReturn
               OpFunctionEnd
         %30 = OpFunction %2 None %29
         %31 = OpFunctionParameter %2
         %32 = OpLabel
         %33 = OpIAdd %2 %31 %8
               OpSelectionMerge %35 None
               OpBranchConditional %6 %34 %35
         %34 = OpLabel
         %36 = OpFunctionCall %2 %30 %33
               OpBranch %35
         %35 = OpLabel
         %37 = OpPhi %2 %33 %32 %36 %34
               OpReturnValue %37
               OpFunctionEnd
)";

class IrEditTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto words = Assemble(kModule);
    ASSERT_TRUE(words.ok()) << words.status();
    auto m = ReadModuleWords(*words);
    ASSERT_TRUE(m.ok()) << m.status();
    module_ = *std::move(m);
    next_ = module_.header.bound;
  }
  FreshIdFn Fresh() {
    return [this] {
      module_.header.bound = next_ + 1;
      return next_++;
    };
  }
  absl::Status Valid() { return Validate(EncodeModule(module_)); }

  Module module_;
  uint32_t next_ = 0;
};

TEST_F(IrEditTest, ModuleIsValidToStartWith) { EXPECT_TRUE(Valid().ok()); }

TEST_F(IrEditTest, SplitBlockRetargetsSuccessorPhis) {
  Function& fn = module_.functions[0];
  // Split the entry before its OpIAdd: the merge and branch move to %50.
  SplitBlockBefore(fn, 0, 0, 50);
  ASSERT_EQ(fn.blocks.size(), 4u);
  EXPECT_TRUE(fn.blocks[0].instructions.empty());
  EXPECT_EQ(fn.blocks[1].id(), 50u);
  fn.blocks[0].instructions.push_back(
      Instruction(U(Op::OpBranch), 0, 0, {IdOperand(50)}));
  module_.header.bound = 51;
  const Instruction& phi = fn.blocks[3].instructions[0];
  EXPECT_EQ(phi.word(1), 50u);  // was %10
  EXPECT_EQ(phi.word(3), 12u);
  EXPECT_TRUE(Valid().ok()) << Valid();
  const Cfg cfg(fn);
  EXPECT_THAT(cfg.Predecessors(13), ElementsAre(50, 12));
}

TEST_F(IrEditTest, SplitAtTheEndMovesNothing) {
  Function& fn = module_.functions[0];
  const size_t n = fn.blocks[2].instructions.size();
  SplitBlockBefore(fn, 2, n, 50);
  EXPECT_EQ(fn.blocks[2].instructions.size(), n);
  EXPECT_TRUE(fn.blocks[3].instructions.empty());
}

TEST_F(IrEditTest, RetargetPhisTouchesOnlyParents) {
  BasicBlock& merge = module_.functions[0].blocks[2];
  RetargetPhis(merge, 11, 99);  // %11 is a value, not a parent
  EXPECT_EQ(merge.instructions[0].word(0), 11u);
  RetargetPhis(merge, 12, 99);
  EXPECT_EQ(merge.instructions[0].word(3), 99u);
}

TEST_F(IrEditTest, CloneBlocksTakesIdsInDefinitionOrderAndRemapsInside) {
  const Function& fn = module_.functions[0];
  IdMap map;
  const uint32_t first = next_;
  std::vector<BasicBlock> copy = CloneBlocks(fn.blocks, Fresh(), map);
  // %10 %11 %12 %13 %14, in that order.
  EXPECT_EQ(map.at(10), first);
  EXPECT_EQ(map.at(11), first + 1);
  EXPECT_EQ(map.at(12), first + 2);
  EXPECT_EQ(map.at(13), first + 3);
  EXPECT_EQ(map.at(14), first + 4);
  ASSERT_EQ(copy.size(), 3u);
  const Instruction& add = copy[0].instructions[0];
  EXPECT_EQ(add.result_id(), first + 1);
  EXPECT_EQ(add.word(0), 7u);  // outside ids stay
  EXPECT_EQ(add.type_id(), 2u);
  const Instruction& branch = copy[0].instructions[2];
  EXPECT_EQ(branch.word(1), first + 2);
  EXPECT_EQ(branch.word(2), first + 3);
  const Instruction& phi = copy[2].instructions[0];
  EXPECT_EQ(phi.word(0), first + 1);
  EXPECT_EQ(phi.word(1), first);
  // The source is untouched.
  EXPECT_EQ(fn.blocks[0].id(), 10u);
}

TEST_F(IrEditTest, CloneFunctionIsAValidNewFunction) {
  IdMap map;
  Function copy = CloneFunction(module_.functions[1], Fresh(), map);
  EXPECT_EQ(copy.id(), map.at(30));
  EXPECT_EQ(copy.parameters[0].result_id(), map.at(31));
  // The recursive call calls the copy, with the copy's value.
  const Instruction& call = copy.blocks[1].instructions[0];
  EXPECT_EQ(call.word(0), copy.id());
  EXPECT_EQ(call.word(1), map.at(33));
  module_.functions.push_back(std::move(copy));
  EXPECT_TRUE(Valid().ok()) << Valid();
}

TEST_F(IrEditTest, PreseededMapRedirectsUses) {
  // Inlining-style: the parameter maps to a call argument.
  IdMap map{{31, 8}};
  std::vector<BasicBlock> body =
      CloneBlocks(module_.functions[1].blocks, Fresh(), map);
  EXPECT_EQ(body[0].instructions[0].word(0), 8u);
  EXPECT_EQ(map.at(31), 8u);
}

TEST_F(IrEditTest, ReplaceUses) {
  ReplaceUsesInBodies(module_, {{7, 8}});
  EXPECT_EQ(module_.functions[0].blocks[0].instructions[0].word(0), 8u);
  // ReplaceAllUses reaches result types and module-scope instructions too.
  ReplaceAllUses(module_, 2, 40);
  EXPECT_EQ(module_.functions[0].blocks[0].instructions[0].type_id(), 40u);
  for (const Instruction& inst : module_.types_values)
    if (inst.result_id() == 29) {
      EXPECT_EQ(inst.word(0), 40u);
      EXPECT_EQ(inst.word(1), 40u);
    }
  // Definitions stay.
  for (const Instruction& inst : module_.types_values)
    if (inst.opcode() == U(Op::OpTypeInt)) {
      EXPECT_EQ(inst.result_id(), 2u);
    }
}

TEST_F(IrEditTest, EntryPointLookup) {
  EXPECT_EQ(FindEntryFunction(module_, "k"), &module_.functions[0]);
  const Module& cm = module_;
  EXPECT_EQ(FindEntryFunction(cm, "k"), &module_.functions[0]);
  EXPECT_EQ(EntryFunctionIndex(module_, "k"), 0);
  EXPECT_TRUE(IsEntryPoint(module_, 5));
  EXPECT_FALSE(IsEntryPoint(module_, 30));
  // Missing names are answered, not failed.
  EXPECT_EQ(FindEntryFunction(module_, "nope"), nullptr);
  EXPECT_EQ(EntryFunctionIndex(module_, "nope"), -1);
  EXPECT_EQ(FindEntryFunction(module_, ""), nullptr);
  // An entry point naming no function.
  module_.functions.erase(module_.functions.begin());
  EXPECT_EQ(FindEntryFunction(module_, "k"), nullptr);
  EXPECT_EQ(EntryFunctionIndex(module_, "k"), -1);
}

}  // namespace
}  // namespace l0spv::spirv
