// generators/kernel/printf.h — OpenCL.std printf calls whose text is defined
// exactly, so a consumer's output can be compared with the reference's.
//
// Contract (internal): GenPrintf emits one printf call from the kernel (not
// from helpers: every line carries the work-item's global linear id) while
// the case's budget (Features::printf_calls) lasts and the enclosing loops
// run it at most 4 times; the kernel builder adds one call at the end of a
// printf case that drew none. Each line is "p<call> <linear id>:" then 1-4
// conversions separated by literal text, then exactly one '\n'; literal text
// and %s strings never contain '%' or '\n'. The comparison is per line
// multiset (oracles/compare/compare_printf.h), so work-items may interleave.
//  - Integers: d i u x X o with "", hh, h (i32 arguments, as C's default
//    promotions give them) or l (i64); c of a printable character; flags,
//    field width and precision where C defines them ('+'/' ' only for d/i,
//    '#' only for x/X/o).
//  - Scalar floats (Features::printf_float_width: 64 when the case has
//    doubles, promoted as SPIR 1.2 §2.10.3 asks; 32 on a profile without
//    doubles; 0 = none): f F e E g G of "tame" values k/8 with |k| < 4096,
//    whose text is exact at every precision drawn; a A of any finite value
//    (the comparator accepts any normalisation of a hex float).
//  - Vectors (%vN with hh/h/hl/l): the integer conversions, and the float
//    ones on halfn (h), floatn (hl) and doublen (l); N = 2, 3, 4, 8, 16.
//  - %s of a __constant string, and %%.
// The call's i32 result (0 on success) may join the pool.
#pragma once

#include "generators/kernel/context.h"

namespace l0spv::generators::kernel {

bool GenPrintf(GenContext& ctx);

}  // namespace l0spv::generators::kernel
