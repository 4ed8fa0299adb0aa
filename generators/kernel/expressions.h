// generators/kernel/expressions.h — values and the statements that compute
// new ones from the pool (arithmetic, bit, comparison, selection,
// conversion, composite, float), each free of undefined behaviour by
// construction.
//
// Contract (internal): every Gen* function either emits instructions into
// ctx.fn, adds its results to ctx.pool and returns true, or emits nothing
// and returns false (nothing suitable in the pool / family not applicable).
#pragma once

#include <cstdint>

#include "generators/kernel/context.h"

namespace l0spv::generators::kernel {

// Random types among those the case enables.
ValueType RandomIntType(GenContext& ctx, bool allow_vector = true);
ValueType RandomFloatType(GenContext& ctx, bool allow_vector = true);
uint8_t RandomLanes(GenContext& ctx);

// A value of exactly `type`: usually from the pool, else a constant. With
// `no_product`, float products are avoided (see Value::product).
uint32_t DrawOperand(GenContext& ctx, ValueType type, bool no_product = false);
uint32_t RandomConstant(GenContext& ctx, ValueType type);
void AddValue(GenContext& ctx, uint32_t id, ValueType type,
              bool product = false);

// Guarded building blocks other statement files reuse.
// `value` reduced into [0, count) (count a power of two: a mask; otherwise
// an unsigned remainder by a non-zero constant), as a u64.
uint32_t IndexInto(GenContext& ctx, uint32_t value, ValueType type,
                   uint32_t count);
// A u32 / u64 taken from any pool integer (or a constant); with
// `wide_lanes_only`, never from a lane of a vector narrower than 32 bits.
uint32_t AnyIntAs(GenContext& ctx, uint8_t width, bool wide_lanes_only = false);
// OpUConvert or OpSConvert for an integer width change (one draw), less the
// forms an avoided consumer folds wrongly.
spv::Op ConvertOp(GenContext& ctx, uint8_t from_width, uint8_t to_width);
// A bool scalar condition from the pool or a fresh comparison.
uint32_t Condition(GenContext& ctx);
// `value` (u32) made unfoldable: plus a run-time zero while
// ctx.opaque_false is set, else `value` itself.
uint32_t UnfoldableU32(GenContext& ctx, uint32_t value);

bool GenIntArith(GenContext& ctx);
bool GenIntDivision(GenContext& ctx);
bool GenShift(GenContext& ctx);
bool GenBitwise(GenContext& ctx);
bool GenCompare(GenContext& ctx);
bool GenSelect(GenContext& ctx);
bool GenConvert(GenContext& ctx);
bool GenComposite(GenContext& ctx);
bool GenFloatArith(GenContext& ctx);
bool GenFloatCompare(GenContext& ctx);

}  // namespace l0spv::generators::kernel
