// generators/kernel/memory.h — memory statements: private arrays, input
// buffer loads, pointer forms, atomics, local-memory exchanges and
// work-group collectives.
//
// Contract (internal): every access is in bounds by construction (indices
// masked or reduced by a non-zero constant), every private array is fully
// initialised when created, atomics are either on a work-item's own slot or
// commutative on a shared counter whose returned value is discarded, and
// barriers/collectives are emitted only while ctx.uniform holds.
#pragma once

#include "generators/kernel/context.h"

namespace l0spv::generators::kernel {

// Declares a fully initialised Function-storage array in the current
// function and returns it (also recorded in ctx.arrays).
const PrivateArray& NewPrivateArray(GenContext& ctx, ValueType element,
                                    uint32_t length);
// Pointer to element `index` (a u64, already in bounds) of `array`.
uint32_t ArrayElementPointer(GenContext& ctx, const PrivateArray& array,
                             uint32_t index);

bool GenPrivateMemory(GenContext& ctx);
bool GenBufferLoad(GenContext& ctx);
bool GenPointerForms(GenContext& ctx);
bool GenAtomic(GenContext& ctx);
bool GenExchange(GenContext& ctx);
bool GenGroup(GenContext& ctx);

}  // namespace l0spv::generators::kernel
