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

}  // namespace l0spv::generators::kernel
