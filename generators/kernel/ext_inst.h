// generators/kernel/ext_inst.h — OpenCL.std calls, each within its domain.
//
// Contract (internal): integer instructions are defined for every input once
// their documented preconditions are enforced (clamp bounds ordered, mul24
// operands reduced to 24 bits). Float instructions whose allowed error is 0
// (OracleUlps) feed the pool; every other one is stored directly with its
// tolerance (native_* are not compared). Inputs of functions whose result
// is undefined for infinities/NaN are first replaced by 0 where not finite.
#pragma once

#include "generators/kernel/context.h"

namespace l0spv::generators::kernel {

bool GenExtInt(GenContext& ctx);
bool GenExtFloatExact(GenContext& ctx);
bool GenExtFloatLoose(GenContext& ctx);

// Emits OpExtInst of the OpenCL.std set.
// `literal` (when non-zero) is appended as a literal operand (the N of
// vloadn / vload_halfn).
uint32_t ExtInst(GenContext& ctx, uint32_t result_type, uint32_t number,
                 const std::vector<uint32_t>& operands, uint32_t literal = 0);

// A float type for OpenCL.std math, narrowed where avoided consumers lack
// the overloads (PoCL: half, vectors of 512 bits or more). False when no
// float type remains.
bool MathFloatType(GenContext& ctx, ValueType* t);
// x where finite, else 0 (for functions undefined on inf/NaN).
uint32_t Finite(GenContext& ctx, uint32_t x, ValueType t);
// Pools (and sometimes stores) a float result the reference computes
// exactly for OpenCL.std instruction `number`; stores any other with the
// tolerance the oracle allows (skipped when implementation-defined).
void FloatResult(GenContext& ctx, uint32_t id, ValueType t, uint32_t number,
                 const char* name);

}  // namespace l0spv::generators::kernel
