// generators/kernel/float_atomics.h — the programming guide's floating-point
// atomics (SPV_EXT_shader_atomic_float_add, _float16_add, _float_min_max) in
// forms whose results do not depend on the order work-items run in.
//
// Contract (internal): the kernel gets an "fN atomics" result buffer
// (KernelResources::float_atomics) of one width per case: a few shared
// counters, each with one operation, then one slot per work-item.
//  - Shared counters: OpAtomicFMinEXT/FMaxEXT, or OpAtomicFAddEXT of small
//    integers (every partial sum is exact, so any order gives the same
//    final value; never for fp16, whose integers stop being exact at 2048);
//    the returned old value is discarded.
//  - The work-item's own slot: add/min/max, and for fp32 OpAtomicLoad and
//    OpAtomicExchange; results are used (each slot has a single writer).
// Operands are small integers converted to float: no NaN, no -0.0 (the sign
// of a zero result of min/max is unspecified), no rounding.
// Which widths and operations a case uses is decided by DrawFeatures from
// the profile's extensions (FloatAtomicSupport) and the avoided consumers.
#pragma once

#include <cstdint>

#include "generators/kernel/context.h"
#include "oracles/validity/device_profile.h"

namespace l0spv::generators::kernel {

struct FloatAtomicSupport {
  bool add = false;
  bool min_max = false;
};

// What `profile` enables for floats of `width` bits (16, 32 or 64) through
// the float atomic extensions it lists.
FloatAtomicSupport FloatAtomicsOf(const oracles::DeviceProfile& profile,
                                  uint8_t width);

bool GenFloatAtomic(GenContext& ctx);

}  // namespace l0spv::generators::kernel
