// spirv/opcode_traits.h — properties of SPIR-V opcodes that passes ask
// about: result and type, control flow, purity, deletability, component-
// wise evaluation and commutativity. The one place a room looks such a
// property up (no room keeps its own opcode list).
//
// Contract: every query takes a raw opcode and is total: an opcode the
// grammar does not define has no property (false, "" for its class), so an
// unknown instruction is never treated as movable, deletable or pure.
// Where the generated grammar says it (the instruction class, whether there
// is a result or result type), the answer comes from the grammar; where the
// grammar is silent (which instructions end a block, commutativity, which
// operations trap), a short list in opcode_traits.cc names the opcodes and
// says why. Opcodes whose names carry a vendor suffix (INTEL, KHR, EXT, NV,
// AMD) or belong to the cooperative-matrix extensions are never pure nor
// component-wise here: their semantics are not modelled by the project.
#pragma once

#include <cstdint>
#include <string_view>

namespace l0spv::spirv {

// Grammar facts.
bool HasResult(uint32_t opcode);
bool HasResultType(uint32_t opcode);
// The grammar's instruction class ("Arithmetic", "Control-Flow", ...), or
// "" for an unknown opcode.
std::string_view OpcodeClass(uint32_t opcode);
// Class "Atomic" (every OpAtomic*).
bool IsAtomic(uint32_t opcode);

// Control flow (SPIR-V spec §2.2.4 "Termination Instructions"; the
// grammar has no attribute for it).
// OpBranch, OpBranchConditional, OpSwitch.
bool IsBranch(uint32_t opcode);
// Returns and aborts: OpReturn, OpReturnValue, OpKill, OpUnreachable,
// OpTerminateInvocation and the ray/mesh terminators.
bool IsReturnOrAbort(uint32_t opcode);
// A block's last instruction: a branch, a return or an abort.
bool IsTerminator(uint32_t opcode);
// OpSelectionMerge / OpLoopMerge.
bool IsMerge(uint32_t opcode);
// The instructions that end a block and after which nothing may be placed:
// the terminator and the merge instruction before it.
bool IsBlockEnding(uint32_t opcode);

// Purity.
// Side-effect free: computes its result from its operands alone (grammar
// classes Arithmetic, Bit, Relational_and_Logical, Conversion, Composite,
// with a result; no loads), so it may move within a block. It may still
// trap or be undefined on some operands (division).
bool IsSideEffectFree(uint32_t opcode);
// Side-effect free and defined for every operand (no division, remainder,
// float→int conversion, shift or dynamic vector index, no pointer cast that
// may fail), so it may be evaluated where it was not before (hoisted,
// duplicated, speculated).
bool IsSpeculatable(uint32_t opcode);
// Deleting an instruction of this opcode whose result nobody uses deletes
// nothing else: it has a result, and is no atomic, call, asynchronous copy,
// pipe or device-side-enqueue operation, label or OpExtInst (an extended
// instruction's effect depends on its set and number: the caller judges).
bool IsSafeToDeleteWhenUnused(uint32_t opcode);

// Component-wise: on vectors, result lane i depends only on lane i of each
// vector operand (a scalar operand, as in OpVectorTimesScalar, is shared by
// every lane), so the operation can be split into scalar operations.
// Derived from the grammar classes Arithmetic, Bit, Relational_and_Logical
// and Conversion, minus reductions (OpDot, OpAny, ...), matrix operations,
// struct results (OpIAddCarry, ...), OpBitcast (may change the lane count),
// bit-field operations (shared offset/count operands) and pointer
// conversions.
bool IsComponentWise(uint32_t opcode);

// a op b == b op a bit for bit, for every operand (so swapping the two
// operands changes nothing observable). Float addition and multiplication
// are not: with two NaN operands, which payload survives depends on the
// order.
bool IsCommutative(uint32_t opcode);

}  // namespace l0spv::spirv
