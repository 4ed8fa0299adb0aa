// DefUse: definitions, uses (result types included, with their operand
// index), and the function / block each id is defined in.
#include "spirv/def_use.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {
namespace {

using spv::Op;
using ::testing::UnorderedElementsAre;

constexpr char kKernel[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %5 "k"
               OpName %2 "uint"
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %3 = OpTypePointer CrossWorkgroup %2
          %4 = OpTypeFunction %1 %3
          %9 = OpConstant %2 1
          %5 = OpFunction %1 None %4
          %6 = OpFunctionParameter %3
          %7 = OpLabel
          %8 = OpLoad %2 %6
         %10 = OpIAdd %2 %8 %9
               OpBranch %11
         %11 = OpLabel
         %12 = OpIAdd %2 %10 %10
               OpStore %6 %12
               OpReturn
               OpFunctionEnd
)";

// A use, described by the user's opcode and operand index.
using UseSummary = std::pair<Op, uint32_t>;

class DefUseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto words = Assemble(kKernel);
    ASSERT_TRUE(words.ok()) << words.status();
    auto m = ReadModuleWords(*words);
    ASSERT_TRUE(m.ok()) << m.status();
    module_ = *std::move(m);
    def_use_ = std::make_unique<DefUse>(module_);
  }

  std::vector<UseSummary> Uses(uint32_t id) const {
    std::vector<UseSummary> out;
    for (const Use& use : def_use_->Uses(id)) {
      out.emplace_back(static_cast<Op>(use.user->opcode()), use.operand_index);
      // The index points at the id itself (or at the result type).
      if (use.operand_index == ~0u) {
        EXPECT_EQ(use.user->type_id(), id);
      } else {
        EXPECT_EQ(use.user->operand(use.operand_index).AsId(), id);
      }
    }
    return out;
  }

  Module module_;
  std::unique_ptr<DefUse> def_use_;
};

TEST_F(DefUseTest, DefinitionsPointIntoTheModule) {
  const Function& fn = module_.functions.at(0);
  EXPECT_EQ(def_use_->Def(5), &fn.def);
  EXPECT_EQ(def_use_->Def(6), &fn.parameters[0]);
  EXPECT_EQ(def_use_->Def(7), &fn.blocks[0].label);
  EXPECT_EQ(def_use_->Def(8), &fn.blocks[0].instructions[0]);
  EXPECT_EQ(def_use_->Def(11), &fn.blocks[1].label);
  EXPECT_EQ(def_use_->Def(2)->opcode(), static_cast<uint32_t>(Op::OpTypeInt));
  EXPECT_EQ(def_use_->Def(9)->opcode(), static_cast<uint32_t>(Op::OpConstant));
  EXPECT_EQ(def_use_->Def(0), nullptr);
  EXPECT_EQ(def_use_->Def(99), nullptr);
}

TEST_F(DefUseTest, UsesIncludeResultTypes) {
  EXPECT_THAT(Uses(2),
              UnorderedElementsAre(
                  UseSummary{Op::OpName, 0}, UseSummary{Op::OpTypePointer, 1},
                  UseSummary{Op::OpConstant, ~0u}, UseSummary{Op::OpLoad, ~0u},
                  UseSummary{Op::OpIAdd, ~0u}, UseSummary{Op::OpIAdd, ~0u}));
  EXPECT_THAT(Uses(1), UnorderedElementsAre(UseSummary{Op::OpTypeFunction, 0},
                                            UseSummary{Op::OpFunction, ~0u}));
  EXPECT_THAT(Uses(4), UnorderedElementsAre(UseSummary{Op::OpFunction, 1}));
}

TEST_F(DefUseTest, UsesOfValuesLabelsAndFunctions) {
  EXPECT_THAT(Uses(6), UnorderedElementsAre(UseSummary{Op::OpLoad, 0},
                                            UseSummary{Op::OpStore, 0}));
  // Both operands of %12 = OpIAdd %10 %10 are uses.
  EXPECT_THAT(Uses(10), UnorderedElementsAre(UseSummary{Op::OpIAdd, 0},
                                             UseSummary{Op::OpIAdd, 1}));
  EXPECT_THAT(Uses(11), UnorderedElementsAre(UseSummary{Op::OpBranch, 0}));
  EXPECT_THAT(Uses(5), UnorderedElementsAre(UseSummary{Op::OpEntryPoint, 1}));
  EXPECT_TRUE(def_use_->Uses(12).size() == 1);
  EXPECT_TRUE(def_use_->Uses(7).empty()) << "the entry block has no uses";
  EXPECT_TRUE(def_use_->Uses(99).empty());
}

TEST_F(DefUseTest, FunctionAndBlockOfAnId) {
  const Function& fn = module_.functions.at(0);
  EXPECT_EQ(def_use_->FunctionOf(8), &fn);
  EXPECT_EQ(def_use_->FunctionOf(6), &fn) << "parameters belong to it";
  EXPECT_EQ(def_use_->FunctionOf(11), &fn);
  EXPECT_EQ(def_use_->FunctionOf(5), nullptr) << "the function is global";
  EXPECT_EQ(def_use_->FunctionOf(2), nullptr);
  EXPECT_EQ(def_use_->FunctionOf(99), nullptr);

  EXPECT_EQ(def_use_->BlockOf(8), &fn.blocks[0]);
  EXPECT_EQ(def_use_->BlockOf(10), &fn.blocks[0]);
  EXPECT_EQ(def_use_->BlockOf(7), &fn.blocks[0]) << "a label is its block";
  EXPECT_EQ(def_use_->BlockOf(11), &fn.blocks[1]);
  EXPECT_EQ(def_use_->BlockOf(12), &fn.blocks[1]);
  EXPECT_EQ(def_use_->BlockOf(6), nullptr) << "parameters precede blocks";
  EXPECT_EQ(def_use_->BlockOf(9), nullptr);
}

}  // namespace
}  // namespace l0spv::spirv
