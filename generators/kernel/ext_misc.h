// generators/kernel/ext_misc.h — the OpenCL.std instructions the other
// statement files leave out: bitselect, select, shuffle, shuffle2, mad, nan,
// fast_length/distance/normalize, lgamma_r, the half stores
// (vstore_half[n][_r], vstorea_halfn[_r]) with vloada_halfn, and prefetch.
//
// Contract (internal), each defined on every input it gets:
//  - bitselect, select (scalar: c != 0; vector: each lane's MSB), shuffle
//    and shuffle2 (only the low ilogb2 bits of each mask element count,
//    OpenCL C 6.13.12; half the masks keep their other bits) are exact.
//  - mad and fast_* have implementation-defined accuracy: stored, not
//    compared (as native_*); lgamma_r has lgamma's ulp bound and its sign,
//    of a positive argument, is 1.
//  - nan(code) is a NaN (any payload compares equal).
//  - Half stores write finite floats into a private u32 array through a
//    half pointer, in bounds, then read back with vloada_halfn /
//    vload_half and as u32 words; every rounding mode of the _r forms.
//  - prefetch (a no-op for results) on the kernel's __global input.
#pragma once

#include "generators/kernel/context.h"

namespace l0spv::generators::kernel {

bool GenExtMisc(GenContext& ctx);

}  // namespace l0spv::generators::kernel
