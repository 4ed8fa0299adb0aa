// Opcode traits: the grammar-derived ones agree with the grammar for every
// opcode, the listed ones keep the invariants their contracts promise, and
// unknown opcodes have no property at all.
#include "spirv/opcode_traits.h"

#include <string_view>

#include "gtest/gtest.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {
namespace {

using spv::Op;

constexpr uint32_t U(Op op) { return static_cast<uint32_t>(op); }

TEST(OpcodeTraitsTest, UnknownOpcodesHaveNoProperty) {
  for (uint32_t op : {0xFFFFu, 0xFFFFFFFFu, 2u /* not in the grammar */}) {
    if (FindOpcode(op) != nullptr) continue;
    EXPECT_FALSE(HasResult(op));
    EXPECT_FALSE(HasResultType(op));
    EXPECT_EQ(OpcodeClass(op), "");
    EXPECT_FALSE(IsAtomic(op));
    EXPECT_FALSE(IsTerminator(op));
    EXPECT_FALSE(IsBlockEnding(op));
    EXPECT_FALSE(IsSideEffectFree(op));
    EXPECT_FALSE(IsSpeculatable(op));
    EXPECT_FALSE(IsSafeToDeleteWhenUnused(op));
    EXPECT_FALSE(IsComponentWise(op));
    EXPECT_FALSE(IsCommutative(op));
  }
  EXPECT_EQ(FindOpcode(0xFFFF), nullptr);
}

TEST(OpcodeTraitsTest, GrammarFactsMatchTheGrammar) {
  for (const OpcodeInfo& info : AllOpcodes()) {
    SCOPED_TRACE(info.name);
    EXPECT_EQ(HasResult(info.opcode), info.has_result);
    EXPECT_EQ(HasResultType(info.opcode), info.has_result_type);
    EXPECT_EQ(OpcodeClass(info.opcode), std::string_view(info.instr_class));
    EXPECT_EQ(IsAtomic(info.opcode),
              std::string_view(info.name).starts_with("OpAtomic"));
  }
  EXPECT_EQ(OpcodeClass(U(Op::OpIAdd)), "Arithmetic");
}

TEST(OpcodeTraitsTest, ControlFlow) {
  for (const OpcodeInfo& info : AllOpcodes()) {
    SCOPED_TRACE(info.name);
    // Every block-ending instruction is a control-flow instruction of the
    // grammar without a result (the ray-tracing and mesh terminators of
    // extensions are filed under "Reserved").
    if (IsBlockEnding(info.opcode)) {
      const std::string_view c = info.instr_class;
      EXPECT_TRUE(c == "Control-Flow" || c == "Reserved") << c;
      EXPECT_FALSE(info.has_result);
    }
    if (IsBranch(info.opcode)) {
      EXPECT_TRUE(IsTerminator(info.opcode));
    }
    if (IsTerminator(info.opcode)) {
      EXPECT_TRUE(IsBlockEnding(info.opcode));
    }
    EXPECT_FALSE(IsBranch(info.opcode) && IsReturnOrAbort(info.opcode));
  }
  EXPECT_TRUE(IsBranch(U(Op::OpSwitch)));
  EXPECT_TRUE(IsTerminator(U(Op::OpReturnValue)));
  EXPECT_TRUE(IsTerminator(U(Op::OpUnreachable)));
  EXPECT_FALSE(IsTerminator(U(Op::OpLoopMerge)));
  EXPECT_TRUE(IsBlockEnding(U(Op::OpLoopMerge)));
  EXPECT_TRUE(IsMerge(U(Op::OpSelectionMerge)));
  // Control flow that does not end a block.
  EXPECT_FALSE(IsBlockEnding(U(Op::OpPhi)));
  EXPECT_FALSE(IsBlockEnding(U(Op::OpLabel)));
  EXPECT_FALSE(IsBlockEnding(U(Op::OpLifetimeStart)));
}

TEST(OpcodeTraitsTest, PurityNests) {
  for (const OpcodeInfo& info : AllOpcodes()) {
    SCOPED_TRACE(info.name);
    if (IsSpeculatable(info.opcode)) {
      EXPECT_TRUE(IsSideEffectFree(info.opcode));
    }
    if (IsSideEffectFree(info.opcode)) {
      EXPECT_TRUE(info.has_result);
      EXPECT_TRUE(IsSafeToDeleteWhenUnused(info.opcode));
    }
    if (IsSafeToDeleteWhenUnused(info.opcode)) {
      EXPECT_TRUE(info.has_result);
      EXPECT_FALSE(IsAtomic(info.opcode));
    }
  }
  EXPECT_TRUE(IsSpeculatable(U(Op::OpIAdd)));
  EXPECT_TRUE(IsSpeculatable(U(Op::OpFDiv)));  // floats do not trap
  EXPECT_TRUE(IsSideEffectFree(U(Op::OpSDiv)));
  EXPECT_FALSE(IsSpeculatable(U(Op::OpSDiv)));
  EXPECT_FALSE(IsSpeculatable(U(Op::OpShiftLeftLogical)));
  EXPECT_FALSE(IsSideEffectFree(U(Op::OpLoad)));
  EXPECT_FALSE(IsSideEffectFree(U(Op::OpStore)));
  EXPECT_FALSE(IsSideEffectFree(U(Op::OpIAddSatINTEL)));  // vendor: unmodelled
  EXPECT_TRUE(IsSafeToDeleteWhenUnused(U(Op::OpLoad)));
  EXPECT_TRUE(IsSafeToDeleteWhenUnused(U(Op::OpPhi)));
  EXPECT_TRUE(IsSafeToDeleteWhenUnused(U(Op::OpVariable)));
  EXPECT_FALSE(IsSafeToDeleteWhenUnused(U(Op::OpFunctionCall)));
  EXPECT_FALSE(IsSafeToDeleteWhenUnused(U(Op::OpAtomicIAdd)));
  EXPECT_FALSE(IsSafeToDeleteWhenUnused(U(Op::OpGroupAsyncCopy)));
  EXPECT_FALSE(IsSafeToDeleteWhenUnused(U(Op::OpExtInst)));
  EXPECT_FALSE(IsSafeToDeleteWhenUnused(U(Op::OpLabel)));
  EXPECT_FALSE(IsSafeToDeleteWhenUnused(U(Op::OpStore)));
  EXPECT_FALSE(IsSafeToDeleteWhenUnused(U(Op::OpReadPipe)));
}

TEST(OpcodeTraitsTest, ComponentWise) {
  for (const OpcodeInfo& info : AllOpcodes()) {
    SCOPED_TRACE(info.name);
    if (!IsComponentWise(info.opcode)) continue;
    EXPECT_TRUE(IsSideEffectFree(info.opcode));
    EXPECT_TRUE(info.has_result_type);
  }
  for (Op op : {Op::OpIAdd, Op::OpFAdd, Op::OpSNegate, Op::OpNot, Op::OpSelect,
                Op::OpFOrdLessThan, Op::OpIsNan, Op::OpConvertSToF,
                Op::OpVectorTimesScalar, Op::OpBitCount})
    EXPECT_TRUE(IsComponentWise(U(op))) << U(op);
  for (Op op : {Op::OpDot, Op::OpAny, Op::OpIAddCarry, Op::OpBitcast,
                Op::OpCompositeExtract, Op::OpVectorShuffle, Op::OpLoad,
                Op::OpBitFieldInsert, Op::OpConvertPtrToU})
    EXPECT_FALSE(IsComponentWise(U(op))) << U(op);
}

TEST(OpcodeTraitsTest, CommutativeOperationsAreBinary) {
  for (const OpcodeInfo& info : AllOpcodes()) {
    if (!IsCommutative(info.opcode)) continue;
    SCOPED_TRACE(info.name);
    // Two operands of one kind after the result: swapping them is well
    // formed.
    ASSERT_EQ(info.operands.size(), 4u);
    EXPECT_EQ(info.operands[2].kind, info.operands[3].kind);
    EXPECT_TRUE(IsSideEffectFree(info.opcode));
  }
  EXPECT_TRUE(IsCommutative(U(Op::OpIAdd)));
  EXPECT_TRUE(IsCommutative(U(Op::OpFOrdEqual)));
  EXPECT_FALSE(IsCommutative(U(Op::OpISub)));
  EXPECT_FALSE(IsCommutative(U(Op::OpFAdd)));  // NaN payloads
  EXPECT_FALSE(IsCommutative(U(Op::OpSLessThan)));
}

}  // namespace
}  // namespace l0spv::spirv
