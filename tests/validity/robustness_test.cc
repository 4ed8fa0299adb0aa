// The rules must run on anything: hand-built modules that break every
// invariant, mutated binaries the reader still accepts, and call graphs deep
// enough to overflow a recursive walk.
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"
#include "spirv/instruction.h"
#include "tests/validity/test_modules.h"

namespace l0spv::oracles {
namespace {

using spirv::EnumOperand;
using spirv::IdOperand;
using spirv::Instruction;
using spirv::LiteralOperand;
using spirv::OperandKind;
using spirv::StringOperand;
using spv::Op;

uint32_t O(Op op) { return static_cast<uint32_t>(op); }

DeviceProfile Full() {
  auto p = FindDeviceProfile("full");
  EXPECT_TRUE(p.ok());
  return p.ok() ? *p : DeviceProfile{};
}

size_t CountRule(const std::vector<LintFinding>& findings,
                 std::string_view rule) {
  size_t n = 0;
  for (const LintFinding& f : findings) n += f.rule_id == rule;
  return n;
}

TEST(RobustnessTest, EmptyModule) {
  spirv::Module module;
  const std::vector<LintFinding> findings = CheckLevelZeroRules(module, Full());
  EXPECT_EQ(CountRule(findings, "L0-MEMORY-MODEL"), 1u);
  const LintReport report = LintModule(module, Full());
  EXPECT_FALSE(report.spirv_val_error.empty());
}

// Every instruction the rules look at, with no operands at all.
TEST(RobustnessTest, InstructionsWithoutOperands) {
  spirv::Module m;
  m.capabilities.push_back(Instruction(O(Op::OpCapability), 0, 0, {}));
  m.extensions.push_back(Instruction(O(Op::OpExtension), 0, 0, {}));
  m.ext_inst_imports.push_back(Instruction(O(Op::OpExtInstImport), 0, 1, {}));
  m.memory_model.push_back(Instruction(O(Op::OpMemoryModel), 0, 0, {}));
  m.entry_points.push_back(Instruction(O(Op::OpEntryPoint), 0, 0, {}));
  m.debug_names.push_back(Instruction(O(Op::OpName), 0, 0, {}));
  m.annotations.push_back(Instruction(O(Op::OpDecorate), 0, 0, {}));
  for (Op op : {Op::OpTypeInt, Op::OpTypeFloat, Op::OpTypeVector,
                Op::OpTypeImage, Op::OpTypeStruct, Op::OpTypePointer,
                Op::OpTypeFunction, Op::OpTypeArray, Op::OpConstant}) {
    m.types_values.push_back(Instruction(O(op), 0, 10 + O(op), {}));
  }
  spirv::Function fn;
  fn.def = Instruction(O(Op::OpFunction), 0, 2, {});
  fn.parameters.push_back(Instruction(O(Op::OpFunctionParameter), 0, 3, {}));
  spirv::BasicBlock bb;
  bb.label = Instruction(O(Op::OpLabel), 0, 4, {});
  for (Op op :
       {Op::OpFunctionCall, Op::OpAtomicIAdd, Op::OpAtomicStore,
        Op::OpControlBarrier, Op::OpMemoryBarrier, Op::OpImageWrite,
        Op::OpImageRead, Op::OpGroupAsyncCopy, Op::OpSubgroupShuffleINTEL,
        Op::OpSubgroupBlockReadINTEL, Op::OpSubgroupBlockWriteINTEL,
        Op::OpSubgroupImageBlockReadINTEL, Op::OpSubgroupImageBlockWriteINTEL,
        Op::OpReturn}) {
    bb.instructions.push_back(Instruction(O(op), 0, 0, {}));
  }
  fn.blocks.push_back(bb);
  fn.end = Instruction(O(Op::OpFunctionEnd), 0, 0, {});
  m.functions.push_back(fn);
  (void)CheckLevelZeroRules(m, Full());
  (void)LintModule(m, Full());
}

// Unknown opcodes, empty operand words and ids that name nothing.
TEST(RobustnessTest, BrokenInvariants) {
  spirv::Module m;
  // Physical32 addressing, a GLCompute entry point.
  m.memory_model.push_back(
      Instruction(O(Op::OpMemoryModel), 0, 0,
                  {EnumOperand(OperandKind::kAddressingModel, 1),
                   EnumOperand(OperandKind::kMemoryModel, 2)}));
  m.entry_points.push_back(
      Instruction(O(Op::OpEntryPoint), 0, 0,
                  {EnumOperand(OperandKind::kExecutionModel, 5), IdOperand(77),
                   StringOperand("k")}));
  m.types_values.push_back(Instruction(0xFFFF, 5, 6, {IdOperand(1)}));
  m.types_values.push_back(
      Instruction(O(Op::OpTypeInt), 0, 7,
                  {spirv::Operand{OperandKind::kLiteralInteger, {}}}));
  m.types_values.push_back(Instruction(O(Op::OpTypeVector), 0, 8,
                                       {IdOperand(999), LiteralOperand(4)}));
  m.types_values.push_back(
      Instruction(O(Op::OpTypeStruct), 0, 9, {IdOperand(9), IdOperand(8)}));
  spirv::Function fn;
  fn.def = Instruction(
      O(Op::OpFunction), 123, 77,
      {EnumOperand(OperandKind::kFunctionControl, 0), IdOperand(456)});
  fn.parameters.push_back(Instruction(O(Op::OpFunctionParameter), 9, 78, {}));
  spirv::BasicBlock bb;
  bb.label = Instruction(O(Op::OpLabel), 0, 79, {});
  bb.instructions.push_back(Instruction(
      O(Op::OpAtomicIAdd), 8, 80,
      {IdOperand(500), spirv::Operand{OperandKind::kIdScope, {501}},
       spirv::Operand{OperandKind::kIdMemorySemantics, {}}, IdOperand(503)}));
  bb.instructions.push_back(
      Instruction(O(Op::OpFunctionCall), 0, 81, {IdOperand(77)}));
  bb.instructions.push_back(Instruction(0xFFFE, 0, 0, {}));
  fn.blocks.push_back(bb);
  fn.end = Instruction(O(Op::OpFunctionEnd), 0, 0, {});
  m.functions.push_back(fn);
  const std::vector<LintFinding> findings = CheckLevelZeroRules(m, Full());
  EXPECT_EQ(CountRule(findings, "L0-RECURSION"), 1u);
  EXPECT_EQ(CountRule(findings, "L0-EXEC-MODEL"), 1u);
  EXPECT_EQ(CountRule(findings, "L0-ADDRESSING"), 1u);
  (void)LintModule(m, Full());
}

// A call chain far deeper than any native stack allows for a recursive
// walk, closed into a cycle at the end.
TEST(RobustnessTest, DeepCallChainIsWalkedIteratively) {
  constexpr uint32_t kDepth = 100000;
  spirv::Module m;
  m.capabilities.push_back(Instruction(
      O(Op::OpCapability), 0, 0, {EnumOperand(OperandKind::kCapability, 6)}));
  m.memory_model.push_back(
      Instruction(O(Op::OpMemoryModel), 0, 0,
                  {EnumOperand(OperandKind::kAddressingModel, 2),
                   EnumOperand(OperandKind::kMemoryModel, 2)}));
  const uint32_t void_type = 1, fn_type = 2, first = 10;
  m.entry_points.push_back(
      Instruction(O(Op::OpEntryPoint), 0, 0,
                  {EnumOperand(OperandKind::kExecutionModel, 6),
                   IdOperand(first), StringOperand("deep")}));
  m.types_values.push_back(Instruction(O(Op::OpTypeVoid), 0, void_type, {}));
  m.types_values.push_back(
      Instruction(O(Op::OpTypeFunction), 0, fn_type, {IdOperand(void_type)}));
  // Function i (id first + 2i, label first + 2i + 1) calls function i + 1;
  // the last calls the middle one.
  for (uint32_t i = 0; i < kDepth; ++i) {
    spirv::Function fn;
    const uint32_t id = first + 2 * i;
    fn.def = Instruction(
        O(Op::OpFunction), void_type, id,
        {EnumOperand(OperandKind::kFunctionControl, 0), IdOperand(fn_type)});
    spirv::BasicBlock bb;
    bb.label = Instruction(O(Op::OpLabel), 0, id + 1, {});
    const uint32_t callee = i + 1 < kDepth ? id + 2 : first + kDepth;
    bb.instructions.push_back(Instruction(O(Op::OpFunctionCall), void_type,
                                          3 * kDepth + i, {IdOperand(callee)}));
    bb.instructions.push_back(Instruction(O(Op::OpReturn), 0, 0, {}));
    fn.blocks.push_back(std::move(bb));
    fn.end = Instruction(O(Op::OpFunctionEnd), 0, 0, {});
    m.functions.push_back(std::move(fn));
  }
  m.header.bound = 4 * kDepth + 1;
  const std::vector<LintFinding> findings = CheckLevelZeroRules(m, Full());
  ASSERT_EQ(CountRule(findings, "L0-RECURSION"), 1u);
}

// Mutated test modules: whatever the reader accepts, the rules survive.
TEST(RobustnessTest, MutatedModulesDoNotCrash) {
  std::mt19937 rng(20240611);
  const std::vector<DeviceProfile> profiles = {Full(),
                                               *FindDeviceProfile("baseline")};
  size_t linted = 0;
  for (const validity_testing::TestModule& tm :
       validity_testing::AllTestModules()) {
    auto words = validity_testing::AssembleTestModule(tm);
    ASSERT_TRUE(words.ok()) << words.status();
    for (int round = 0; round < 40; ++round) {
      std::vector<uint32_t> w = *words;
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits; ++e) {
        const size_t at = 5 + rng() % (w.size() - 5);
        switch (rng() % 4) {
          case 0:
            w[at] = rng();
            break;
          case 1:
            w[at] ^= 1u << (rng() % 32);
            break;
          case 2:
            w[at] = rng() % 16;
            break;
          default:
            w[at] += (rng() % 5) - 2;
            break;
        }
      }
      auto module = spirv::ReadModuleWords(w);
      if (!module.ok()) continue;
      ++linted;
      (void)CheckLevelZeroRules(*module, profiles[round % 2]);
    }
  }
  EXPECT_GT(linted, 0u);
}

}  // namespace
}  // namespace l0spv::oracles
