// generators/transform/kinds/data_util.h — helpers shared by the data,
// memory and decoration kinds (obfuscated constants, local variables,
// loads and stores).
//
// Contract: pure queries over the context's module plus an emitter that
// inserts one instruction before a position and advances it. Positions are
// invalidated by edits like every InstPos.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "generators/transform/context.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/transformation.h"

namespace l0spv::generators::transform {

// Whether operand `i` of `inst` is an id a computed (non-constant) value of
// the same type may replace: not a phi input (availability is decided at the
// predecessor), access-chain index (struct indices must be constants),
// called function, extended-instruction set or printf format, variable
// initializer, lifetime pointer, branch target, composite-construct operand
// (llvm-spirv 14 cannot read a run-time one), or an operand of a
// group/sub-group instruction (kept as written: some must be constants or
// uniform, and the profit is small).
bool IsComputableOperand(const spirv::Instruction& inst, size_t i);

// A use of a scalar integer constant (OpConstant or OpConstantNull of an
// OpTypeInt) that a computed value may replace.
struct ConstantUse {
  InstPos pos;
  size_t operand = 0;
  uint32_t constant = 0;
};
// Every such use in reachable blocks; in the entry function only when
// `kernel_only`.
std::vector<ConstantUse> FindIntConstantUses(TransformContext& ctx,
                                             bool kernel_only);
// Checks a recorded use: the instruction is there, the operand is computable
// and names a scalar integer constant; returns the constant's value and sets
// `*constant`.
absl::StatusOr<uint64_t> CheckIntConstantUse(TransformContext& ctx,
                                             const InstPos& pos, size_t operand,
                                             uint32_t* constant);

// Index in the use's block before which the computation of a replacement
// operand goes: the use itself, or, when the use is the terminator, before
// its OpSelectionMerge/OpLoopMerge.
size_t InsertionIndexForUse(const spirv::BasicBlock& block, size_t use_index);

// Inserts `op` before `pos` and advances `pos` past it. With a result type,
// the instruction gets a fresh result id, which is returned; without one
// (stores), 0 is returned.
uint32_t EmitBefore(TransformContext& ctx, InstPos& pos, spv::Op op,
                    uint32_t result_type, std::vector<spirv::Operand> operands);

// Index in a function's entry block where a new OpVariable goes: after the
// leading OpVariable (and OpLine/OpNoLine) instructions.
size_t VariableInsertionIndex(const spirv::Function& fn);

// Scalar int or float, or a vector of them (types a Function variable and
// the data kinds handle); bool and pointers are left out (bool has no
// defined memory representation for some consumers).
bool IsPlainDataType(TransformContext& ctx, uint32_t type_id);

// Whether `id` is defined by OpUndef (never stored or moved around: reading
// its copy would be an uninitialised read).
bool IsUndef(TransformContext& ctx, uint32_t id);

// The pointee type of a pointer-typed id (0 when `id` is not a pointer).
uint32_t PointeeOf(TransformContext& ctx, uint32_t pointer_id);

// Whether `pointer` is an irrelevant-pointee (facts.h) Function-storage
// OpVariable of the function at `pos`, available there: private to the
// work-item, so stores to it are unobservable.
bool IsIrrelevantLocal(TransformContext& ctx, uint32_t pointer,
                       const InstPos& pos);

// Picks a value whose type satisfies `fits` (an instruction result in a
// reachable block, or a parameter of a function with a body) and a place
// after its definition in its block (the entry block for parameters) where
// instructions using it may go: {"id": value, "before": descriptor}.
std::optional<Record> ProposeValueSite(
    TransformContext& ctx, Rng& rng,
    const std::function<bool(uint32_t type)>& fits);
// Re-checks such a record: the place is an insertion point, the value is
// available there and its type fits.
absl::Status CheckValueSite(TransformContext& ctx, const Record& r,
                            const std::function<bool(uint32_t type)>& fits);

// Truncates `v` to `width` bits.
inline uint64_t Truncate(uint64_t v, uint32_t width) {
  return width >= 64 ? v : v & ((uint64_t{1} << width) - 1);
}

}  // namespace l0spv::generators::transform
