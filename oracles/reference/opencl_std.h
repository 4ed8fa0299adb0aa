// oracles/reference/opencl_std.h — the OpenCL.std extended instructions
// (internal to oracles/reference).
//
// Contract: ResolveOpenClStd picks the handler for call->number after
// checking the operand shapes the decoder recorded; it returns false (and
// says why) for instructions or shapes not implemented, which the decoder
// turns into an "unsupported" trap naming the instruction. Handlers are
// exact where the OpenCL SPIR-V environment requires correct rounding
// (fabs, ceil, floor, rint, round, trunc, fma, fmod, remainder, copysign,
// fdim, fmin, fmax, ldexp, frexp, ilogb, logb, modf, nextafter, sqrt,
// fract); other math is computed in x87 extended precision and rounded
// once to the result format, and its allowed error is UlpTolerance().
#pragma once

#include <cstdint>
#include <string>

#include "oracles/reference/ext_context.h"
#include "oracles/reference/program.h"

namespace l0spv::oracles::reference {

bool ResolveOpenClStd(ExtCall* call, std::string* why);

// Handlers by category (each switches on call.number).
bool OpenClIntegerHandler(ExtContext& ctx, const ExtCall& call);
bool OpenClMathHandler(ExtContext& ctx, const ExtCall& call);
bool OpenClPointerMathHandler(ExtContext& ctx, const ExtCall& call);
bool OpenClGeometricHandler(ExtContext& ctx, const ExtCall& call);
bool OpenClSelectHandler(ExtContext& ctx, const ExtCall& call);
bool OpenClVloadHandler(ExtContext& ctx, const ExtCall& call);
bool OpenClVstoreHandler(ExtContext& ctx, const ExtCall& call);
bool OpenClShuffleHandler(ExtContext& ctx, const ExtCall& call);
bool OpenClPrintfHandler(ExtContext& ctx, const ExtCall& call);
bool OpenClNopHandler(ExtContext& ctx, const ExtCall& call);

// Allowed error, in ulps of the result format, of the reference's result
// for OpenCL.std instruction `number` with result lanes of `kind`
// (0 = correctly rounded / exact). Follows the OpenCL SPIR-V environment's
// accuracy table for the full profile; native_* functions are
// implementation-defined and report -1 (no bound).
// TODO(reference): wire into oracles/compare once per-result tolerances
// travel with Execution.
double UlpTolerance(uint32_t number, Kind kind);

}  // namespace l0spv::oracles::reference
