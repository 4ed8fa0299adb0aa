#include "generators/kernel/ext_inst.h"

#include <cmath>

#include "generators/kernel/expressions.h"
#include "generators/kernel/outputs.h"
#include "oracles/reference/opencl_std.h"
#include "spirv/numeric_bits.h"
#include "spirv/unified1/OpenCL.std.h"

namespace l0spv::generators::kernel {

using namespace OpenCLLIB;  // NOLINT: entrypoint names read like the spec
using spv::Op;

namespace {

double OracleUlps(uint32_t number, ValueType t) {
  namespace ref = oracles::reference;
  const ref::Kind kind =
      t.width == 16 ? ref::kF16 : (t.width == 32 ? ref::kF32 : ref::kF64);
  return ref::UlpTolerance(number, kind);
}

}  // namespace

uint32_t ExtInst(GenContext& ctx, uint32_t result_type, uint32_t number,
                 const std::vector<uint32_t>& operands, uint32_t literal) {
  std::vector<spirv::Operand> ops{
      Id(ctx.std_set),
      spirv::Operand{spirv::OperandKind::kLiteralExtInstInteger, {number}}};
  for (uint32_t o : operands) ops.push_back(Id(o));
  if (literal != 0) ops.push_back(Lit(literal));
  return ctx.fn->OpWith(Op::OpExtInst, result_type, std::move(ops));
}

// A float type for OpenCL.std math. PoCL 3.1's kernel library lacks many
// half-precision overloads (ldexp, acospi, sqrt of half3, ...:
// known-consumer-bugs/pocl_half_math.spvasm), so half is only drawn when
// PoCL's known bugs may be hit. False when no float type remains.
bool MathFloatType(GenContext& ctx, ValueType* t) {
  *t = RandomFloatType(ctx);
  // PoCL 3.1 computes garbage for OpenCL.std math on vectors of 512 bits or
  // more (sin/sincos/tgamma of double8, remquo of float16 and double8;
  // known-consumer-bugs/pocl_wide_vector_math.spvasm): narrower
  // vectors while PoCL is avoided.
  while (t->lanes * t->width >= 512 &&
         !ctx.BugsAllowed(KnownBugId::kPoclWideVectorMath))
    *t = t->WithLanes(static_cast<uint8_t>(t->lanes / 2));
  if (t->width != 16 || ctx.BugsAllowed(KnownBugId::kPoclHalfMath)) return true;
  if (ctx.features.fp32) {
    *t = t->WithWidth(32);
  } else if (ctx.features.fp64) {
    *t = t->WithWidth(64);
  } else {
    return false;
  }
  return true;
}

uint32_t Finite(GenContext& ctx, uint32_t x, ValueType t) {
  const uint32_t finite =
      ctx.fn->Op(Op::OpIsFinite, ctx.types.Id(t.BoolOf()), {x});
  const uint32_t type = ctx.types.Id(t);
  return ctx.fn->Op(Op::OpSelect, type, {finite, x, ctx.types.Splat(t, 0)});
}

// x + (+0.0): -0.0 becomes +0.0, every other value (NaN included) stays.
// fmin, fmax, fclamp, maxmag and minmag of +0 and -0 may return either:
// OpenCL C defines them "as C99", and C99 F.9.9.2 and IEEE 754 minNum/
// maxNum leave the sign of the zero open (PoCL returns y, the reference
// and Oclgrind x; the CTS counts +-0 as 0 ulp apart). A sign-sensitive use
// (1/x, rootn(x, -1)) would turn that into +inf against -inf, so their
// operands carry no negative zero (kGuardSignedZero).
uint32_t UnsignedZero(GenContext& ctx, uint32_t x, ValueType t) {
  if (!ctx.GuardOn(kGuardSignedZero)) return x;
  return ctx.fn->Op(Op::OpFAdd, ctx.types.Id(t), {x, ctx.types.Splat(t, 0)});
}

void FloatResult(GenContext& ctx, uint32_t id, ValueType t, uint32_t number,
                 const char* name) {
  const double ulps = OracleUlps(number, t);
  if (ulps == 0) {
    AddValue(ctx, id, t);
    if (ctx.rng.Percent(30)) SinkValue(ctx, Value{id, t});
    return;
  }
  SinkLooseFloat(ctx, id, t, ulps < 0 ? 0 : ulps, ulps < 0, name);
}

bool GenExtInt(GenContext& ctx) {
  Rng& rng = ctx.rng;
  FunctionEmitter& fn = *ctx.fn;
  // Ctz last: Oclgrind 21.10 (OpenCL 1.2) has no ctz
  // (known-consumer-bugs/oclgrind_ctz.spvasm).
  static constexpr uint32_t kUnary[] = {SAbs, UAbs, Clz, Popcount, Ctz};
  static constexpr uint32_t kBinary[] = {
      SAbs_diff, UAbs_diff, SAdd_sat, UAdd_sat, SHadd,   UHadd,
      SRhadd,    URhadd,    SMax,     UMax,     SMin,    UMin,
      SMul_hi,   UMul_hi,   Rotate,   SSub_sat, USub_sat};
  static constexpr uint32_t kTernary[] = {SMad_hi, UMad_hi, UMad_sat, SMad_sat};
  ValueType t = RandomIntType(ctx);
  uint32_t type = ctx.types.Id(t);
  switch (rng.Below(8)) {
    case 0: {
      const uint32_t n =
          kUnary[rng.Below(ctx.BugsAllowed(KnownBugId::kOclgrindCtz) ? 5 : 4)];
      uint32_t x = DrawOperand(ctx, t);
      // PoCL 3.1 folds s_abs of a compile-time INT_MIN/LONG_MIN to 0
      // (known-consumer-bugs/pocl_abs_long_min_sat): never the minimum.
      if (n == SAbs && !ctx.BugsAllowed(KnownBugId::kPoclAbsLongMinSat))
        x = fn.Op(Op::OpBitwiseOr, type, {x, ctx.types.Splat(t, 1)});
      AddValue(ctx, ExtInst(ctx, type, n, {x}), t);
    }
      return true;
    case 1:
    case 2:
    case 3: {
      const uint32_t n = rng.Pick<uint32_t>(kBinary);
      uint32_t x = DrawOperand(ctx, t);
      uint32_t y = DrawOperand(ctx, t);
      // PoCL 3.1's s_abs_diff is wrong when x - y overflows
      // (known-consumer-bugs/pocl_s_abs_diff_overflow): halved operands
      // never overflow.
      if (n == SAbs_diff &&
          !ctx.BugsAllowed(KnownBugId::kPoclSAbsDiffOverflow)) {
        const uint32_t one = ctx.types.Splat(t, 1);
        x = fn.Op(Op::OpShiftRightArithmetic, type, {x, one});
        y = fn.Op(Op::OpShiftRightArithmetic, type, {y, one});
      }
      AddValue(ctx, ExtInst(ctx, type, n, {x, y}), t);
    }
      return true;
    case 4: {
      uint32_t n = rng.Pick<uint32_t>(kTernary);
      // Oclgrind 21.10's 64-bit mad_sat wraps instead of saturating
      // (known-consumer-bugs/oclgrind_mad_sat_long.spvasm).
      if (t.width == 64 && !ctx.BugsAllowed(KnownBugId::kOclgrindMadSatLong)) {
        if (n == SMad_sat) n = SMad_hi;
        if (n == UMad_sat) n = UMad_hi;
      }
      // Intel's CPU runtime 2026.2 wraps a 32-bit u_mad_sat (vectors, and
      // scalars it vectorises) instead of saturating
      // (known-consumer-bugs/intel_cpu_u_mad_sat_vector).
      if (t.width == 32 && n == UMad_sat &&
          !ctx.BugsAllowed(KnownBugId::kIntelCpuUMadSatVector))
        n = UMad_hi;
      AddValue(ctx,
               ExtInst(ctx, type, n,
                       {DrawOperand(ctx, t), DrawOperand(ctx, t),
                        DrawOperand(ctx, t)}),
               t);
    }
      return true;
    case 5: {
      // clamp(x, lo, hi) is undefined when lo > hi: order the bounds.
      const bool is_signed = rng.Percent(50);
      const uint32_t a = DrawOperand(ctx, t), b = DrawOperand(ctx, t);
      const uint32_t lo = ExtInst(ctx, type, is_signed ? SMin : UMin, {a, b});
      const uint32_t hi = ExtInst(ctx, type, is_signed ? SMax : UMax, {a, b});
      AddValue(ctx,
               ExtInst(ctx, type, is_signed ? SClamp : UClamp,
                       {DrawOperand(ctx, t), lo, hi}),
               t);
      return true;
    }
    case 6: {
      // mul24 / mad24: 32-bit only, operands must fit in 24 bits.
      t = IntT(32, t.lanes);
      type = ctx.types.Id(t);
      const bool is_signed = rng.Percent(50);
      auto reduce = [&](uint32_t x) {
        if (is_signed) {
          const uint32_t up =
              fn.Op(Op::OpShiftLeftLogical, type, {x, ctx.types.Splat(t, 8)});
          return fn.Op(Op::OpShiftRightArithmetic, type,
                       {up, ctx.types.Splat(t, 8)});
        }
        return fn.Op(Op::OpBitwiseAnd, type, {x, ctx.types.Splat(t, 0xffffff)});
      };
      const uint32_t a = reduce(DrawOperand(ctx, t));
      const uint32_t b = reduce(DrawOperand(ctx, t));
      if (rng.Percent(50)) {
        AddValue(ctx, ExtInst(ctx, type, is_signed ? SMul24 : UMul24, {a, b}),
                 t);
      } else {
        AddValue(ctx,
                 ExtInst(ctx, type, is_signed ? SMad24 : UMad24,
                         {a, b, DrawOperand(ctx, t)}),
                 t);
      }
      return true;
    }
    default: {
      // upsample(hi, lo): w-bit halves into a 2w-bit result.
      static constexpr uint8_t kWidths[] = {8, 16, 32};
      const uint8_t w = rng.Pick<uint8_t>(kWidths);
      if ((w == 8 && !(ctx.features.int8 && ctx.features.int16)) ||
          (w == 16 && !ctx.features.int16) || (w == 32 && !ctx.features.int64))
        return false;
      const ValueType half = IntT(w, t.lanes);
      const ValueType full = IntT(static_cast<uint8_t>(2 * w), t.lanes);
      const uint32_t n = rng.Percent(50) ? S_Upsample : U_Upsample;
      const uint32_t full_type = ctx.types.Id(full);
      AddValue(ctx,
               ExtInst(ctx, full_type, n,
                       {DrawOperand(ctx, half), DrawOperand(ctx, half)}),
               full);
      return true;
    }
  }
}

bool GenExtFloatExact(GenContext& ctx) {
  Rng& rng = ctx.rng;
  FunctionEmitter& fn = *ctx.fn;
  static constexpr uint32_t kUnary[] = {Fabs,  Floor, Ceil, Trunc, Rint,
                                        Round, Sign,  Logb, Sqrt};
  static constexpr uint32_t kBinary[] = {Copysign,  Fmin,   Fmax,   Fdim,
                                         Fmod,      Maxmag, Minmag, Nextafter,
                                         Remainder, Step};
  ValueType t;
  if (!MathFloatType(ctx, &t)) return false;
  const uint32_t type = ctx.types.Id(t);
  const ValueType it = IntT(32, t.lanes);
  switch (rng.Below(9)) {
    case 0:
    case 1: {
      uint32_t n = rng.Pick<uint32_t>(kUnary);
      // Oclgrind 21.10: sign(+0.0) is -0.0
      // (corpora/known-consumer-bugs/oclgrind_sign_zero.spvasm).
      if (n == Sign && !ctx.BugsAllowed(KnownBugId::kOclgrindSignZero))
        n = Fabs;
      uint32_t x = DrawOperand(ctx, t);
      // PoCL 3.1: trunc/round/floor/ceil(NaN) are +0.0 and rint(NaN)
      // crashes or drops unrelated stores (corpora/known-consumer-bugs/
      // pocl_trunc_nan.spvasm, pocl_lost_store_rint_nan.spvasm).
      if ((n == Trunc || n == Rint || n == Round || n == Floor || n == Ceil) &&
          !ctx.BugsAllowed(KnownBugId::kPoclTruncNan))
        x = Finite(ctx, x, t);
      FloatResult(ctx, ExtInst(ctx, type, n, {x}), t, n, "");
      return true;
    }
    case 2:
    case 3: {
      const uint32_t n = rng.Pick<uint32_t>(kBinary);
      uint32_t x = DrawOperand(ctx, t);
      uint32_t y = DrawOperand(ctx, t);
      if (n == Fmin || n == Fmax || n == Maxmag || n == Minmag) {
        x = UnsignedZero(ctx, x, t);
        y = UnsignedZero(ctx, y, t);
      }
      // Intel's CPU runtime: step(edge, NaN) is 0.0 in a kernel with a
      // sub-group operation (known-consumer-bugs/intel_cpu_step_nan_
      // subgroup_kernel): finite operands while it is a target.
      if (n == Step &&
          !ctx.BugsAllowed(KnownBugId::kIntelCpuStepNanSubgroupKernel)) {
        x = Finite(ctx, x, t);
        y = Finite(ctx, y, t);
      }
      FloatResult(ctx, ExtInst(ctx, type, n, {x, y}), t, n, "");
      return true;
    }
    case 4: {
      const uint32_t n = rng.Percent(50) ? Fma : FClamp;
      std::vector<uint32_t> ops{DrawOperand(ctx, t), DrawOperand(ctx, t),
                                DrawOperand(ctx, t)};
      if (n == FClamp) {  // undefined when min > max: order the bounds
        // Oclgrind 21.10: fclamp(x, NaN, NaN) is NaN, not x
        // (corpora/known-consumer-bugs/oclgrind_fclamp_nan.spvasm).
        if (!ctx.BugsAllowed(KnownBugId::kOclgrindFclampNan)) {
          ops[1] = Finite(ctx, ops[1], t);
          ops[2] = Finite(ctx, ops[2], t);
        }
        for (uint32_t& op : ops) op = UnsignedZero(ctx, op, t);
        const uint32_t lo = ExtInst(ctx, type, Fmin, {ops[1], ops[2]});
        const uint32_t hi = ExtInst(ctx, type, Fmax, {ops[1], ops[2]});
        ops = {ops[0], lo, hi};
      }
      FloatResult(ctx, ExtInst(ctx, type, n, ops), t, n, "");
      return true;
    }
    case 5: {
      // fmax_common / fmin_common: undefined on inf and NaN. llvm-spirv 14
      // -r names them fmax_common/fmin_common, which no OpenCL library
      // defines (known-consumer-bugs/fmax_common_name.spvasm).
      if (!ctx.BugsAllowed(KnownBugId::kFmaxCommonName)) return false;
      const uint32_t n = rng.Percent(50) ? FMax_common : FMin_common;
      const uint32_t x =
          UnsignedZero(ctx, Finite(ctx, DrawOperand(ctx, t), t), t);
      const uint32_t y =
          UnsignedZero(ctx, Finite(ctx, DrawOperand(ctx, t), t), t);
      FloatResult(ctx, ExtInst(ctx, type, n, {x, y}), t, n, "");
      return true;
    }
    case 6: {
      // ldexp(x, k) with a moderate exponent.
      const uint32_t it_type = ctx.types.Id(it);
      const uint32_t k =
          fn.Op(Op::OpISub, it_type,
                {fn.Op(Op::OpBitwiseAnd, it_type,
                       {DrawOperand(ctx, it), ctx.types.Splat(it, 63)}),
                 ctx.types.Splat(it, 32)});
      FloatResult(ctx, ExtInst(ctx, type, Ldexp, {DrawOperand(ctx, t), k}), t,
                  Ldexp, "");
      return true;
    }
    case 7: {
      // ilogb: special values give implementation-defined results; feed
      // it finite non-zero values only.
      const uint32_t x = DrawOperand(ctx, t);
      const uint32_t finite =
          fn.Op(Op::OpIsFinite, ctx.types.Id(t.BoolOf()), {x});
      const uint32_t zero = ctx.types.Splat(t, 0);
      const uint32_t nonzero =
          fn.Op(Op::OpFUnordNotEqual, ctx.types.Id(t.BoolOf()), {x, zero});
      const uint32_t ok =
          fn.Op(Op::OpLogicalAnd, ctx.types.Id(t.BoolOf()), {finite, nonzero});
      const uint32_t safe =
          fn.Op(Op::OpSelect, type,
                {ok, x, ctx.types.Splat(t, spirv::EncodeFloat(1, t.width))});
      AddValue(ctx, ExtInst(ctx, ctx.types.Id(it), Ilogb, {safe}), it);
      return true;
    }
    default: {
      // Functions with a pointer result: frexp (int exponent), modf and
      // fract (float integral part), each through a private variable.
      const uint32_t which = rng.Below(3);
      const ValueType out_t = which == 0 ? it : t;
      const uint32_t var = fn.LocalVariable(
          ctx.types.Pointer(spv::StorageClass::Function, ctx.types.Id(out_t)));
      const uint32_t x = Finite(ctx, DrawOperand(ctx, t), t);
      const uint32_t n = which == 0 ? Frexp : (which == 1 ? Modf : Fract);
      FloatResult(ctx, ExtInst(ctx, type, n, {x, var}), t, n, "");
      AddValue(ctx, fn.Op(Op::OpLoad, ctx.types.Id(out_t), {var}), out_t);
      return true;
    }
  }
}

bool GenExtFloatLoose(GenContext& ctx) {
  Rng& rng = ctx.rng;
  static constexpr uint32_t kUnary[] = {
      Acos,  Acosh,  Acospi, Asin,  Asinh,  Asinpi,  Atan,   Atanh, Atanpi,
      Cbrt,  Cos,    Cosh,   Cospi, Erfc,   Erf,     Exp,    Exp2,  Exp10,
      Expm1, Lgamma, Log,    Log2,  Log10,  Log1p,   Rsqrt,  Sin,   Sinh,
      Sinpi, Tan,    Tanh,   Tanpi, Tgamma, Degrees, Radians};
  static constexpr uint32_t kBinary[] = {Atan2, Atan2pi, Hypot, Pow, Powr};
  static constexpr uint32_t kNativeUnary[] = {
      Native_cos,  Native_exp,   Native_exp2,  Native_exp10, Native_log,
      Native_log2, Native_log10, Native_recip, Native_rsqrt, Native_sin,
      Native_sqrt, Native_tan,   Half_exp,     Half_exp2,    Half_exp10,
      Half_log,    Half_log2,    Half_log10,   Half_recip,   Half_rsqrt,
      Half_sqrt,   Half_cos,     Half_sin,     Half_tan};
  static constexpr uint32_t kNativeBinary[] = {Native_divide, Native_powr,
                                               Half_divide, Half_powr};
  ValueType t;
  if (!MathFloatType(ctx, &t)) return false;
  uint32_t type = ctx.types.Id(t);
  FunctionEmitter& fn = *ctx.fn;
  switch (rng.Below(10)) {
    case 0:
    case 1:
    case 2: {
      uint32_t n = rng.Pick<uint32_t>(kUnary);
      // Oclgrind 21.10 computes sinpi/cospi/tanpi as f(x * pi): inaccurate
      // for larger doubles, not exact at integers and half-integers
      // (known-consumer-bugs/oclgrind_cospi_double.spvasm,
      // oclgrind_tanpi.spvasm).
      if (!ctx.BugsAllowed(KnownBugId::kOclgrindCospiDouble)) {
        if (n == Sinpi) n = Sin;
        if (n == Cospi) n = Cos;
        if (n == Tanpi) n = Tan;
      }
      uint32_t x = DrawOperand(ctx, t);
      // PoCL 3.1: exp/exp2/exp10/expm1/sinh/tanh of a compile-time NaN are
      // +0.0, the rounding of pocl_trunc_nan (found by an image campaign,
      // seeds 86, 200, 571), and tgamma of one is garbage (every unary
      // function checked one call per kernel).
      if ((n == Exp || n == Exp2 || n == Exp10 || n == Expm1 || n == Sinh ||
           n == Tanh || n == Tgamma) &&
          !ctx.BugsAllowed(KnownBugId::kPoclTruncNan))
        x = Finite(ctx, x, t);
      FloatResult(ctx, ExtInst(ctx, type, n, {x}), t, n, "math");
      return true;
    }
    case 3: {
      const uint32_t n = rng.Pick<uint32_t>(kBinary);
      const uint32_t x = DrawOperand(ctx, t);
      uint32_t y = DrawOperand(ctx, t);
      // PoCL 3.1: pow/powr with a compile-time NaN y corrupt memory at run
      // time (known-consumer-bugs/pocl_pow_nan; pocl_trunc_nan's family).
      if ((n == Pow || n == Powr) && !ctx.BugsAllowed(KnownBugId::kPoclPowNan))
        y = Finite(ctx, y, t);
      FloatResult(ctx, ExtInst(ctx, type, n, {x, y}), t, n, "math");
      return true;
    }
    case 4: {
      const ValueType it = IntT(32, t.lanes);
      const uint32_t n = rng.Percent(50) ? Pown : Rootn;
      const uint32_t it_type = ctx.types.Id(it);
      const uint32_t k =
          fn.Op(Op::OpISub, it_type,
                {fn.Op(Op::OpBitwiseAnd, it_type,
                       {DrawOperand(ctx, it), ctx.types.Splat(it, 15)}),
                 ctx.types.Splat(it, 7)});
      uint32_t x = DrawOperand(ctx, t);
      // PoCL 3.1: pown/rootn of a compile-time NaN are garbage (a
      // quickstart campaign, seed 7; pocl_trunc_nan's family).
      if (!ctx.BugsAllowed(KnownBugId::kPoclTruncNan)) x = Finite(ctx, x, t);
      FloatResult(ctx, ExtInst(ctx, type, n, {x, k}), t, n, "math");
      return true;
    }
    case 5: {
      // native_* and half_*: float only; implementation-defined accuracy or
      // domain, so compiled and run but not compared unless bounded.
      // PoCL 3.1's kernel library has no half_* functions (the build fails
      // to link: known-consumer-bugs/pocl_half_functions.spvasm): the first 12
      // entries (native_*) are always allowed, half_* with known bugs.
      t = FloatT(32, t.lanes);
      type = ctx.types.Id(t);
      const bool binary = rng.Percent(25);
      const uint32_t unary_count =
          ctx.BugsAllowed(KnownBugId::kPoclHalfFunctions) ? 24 : 12;
      const uint32_t binary_count =
          ctx.BugsAllowed(KnownBugId::kPoclHalfFunctions) ? 4 : 2;
      const uint32_t n = binary ? kNativeBinary[rng.Below(binary_count)]
                                : kNativeUnary[rng.Below(unary_count)];
      std::vector<uint32_t> ops{DrawOperand(ctx, t)};
      if (binary) ops.push_back(DrawOperand(ctx, t));
      // PoCL 3.1: native_powr/half_powr with a NaN-constant y crash as pow
      // does (known-consumer-bugs/pocl_pow_nan).
      if ((n == Native_powr || n == Half_powr) &&
          !ctx.BugsAllowed(KnownBugId::kPoclPowNan))
        ops[1] = Finite(ctx, ops[1], t);
      const uint32_t r = ExtInst(ctx, type, n, ops);
      // half_* are only defined on restricted domains (x >= 0 for powr,
      // |x| <= 2^16 for the trigonometric ones, ...) and native_* have
      // implementation-defined accuracy: run, never compared.
      SinkLooseFloat(ctx, r, t, 0, /*skip=*/true, "native/half");
      return true;
    }
    case 6: {
      // Geometric functions: 1-4 lanes.
      static constexpr uint8_t kLanes[] = {1, 2, 3, 4};
      t = t.WithLanes(rng.Pick<uint8_t>(kLanes));
      type = ctx.types.Id(t);
      const ValueType s = t.Element();
      switch (rng.Below(4)) {
        case 0: {
          const uint32_t s_type = ctx.types.Id(s);
          FloatResult(ctx, ExtInst(ctx, s_type, Length, {DrawOperand(ctx, t)}),
                      s, Length, "geometric");
        }
          return true;
        case 1: {
          const uint32_t s_type = ctx.types.Id(s);
          FloatResult(ctx,
                      ExtInst(ctx, s_type, Distance,
                              {DrawOperand(ctx, t), DrawOperand(ctx, t)}),
                      s, Distance, "geometric");
        }
          return true;
        case 2:
          FloatResult(ctx, ExtInst(ctx, type, Normalize, {DrawOperand(ctx, t)}),
                      t, Normalize, "geometric");
          return true;
        default: {
          const ValueType v = t.WithLanes(rng.Percent(50) ? 3 : 4);
          const uint32_t v_type = ctx.types.Id(v);
          FloatResult(ctx,
                      ExtInst(ctx, v_type, Cross,
                              {DrawOperand(ctx, v), DrawOperand(ctx, v)}),
                      v, Cross, "geometric");
          return true;
        }
      }
    }
    case 7: {
      // sincos: the sine is the result, the cosine goes through a pointer.
      const uint32_t var = fn.LocalVariable(
          ctx.types.Pointer(spv::StorageClass::Function, type));
      FloatResult(ctx, ExtInst(ctx, type, Sincos, {DrawOperand(ctx, t), var}),
                  t, Sincos, "math");
      FloatResult(ctx, fn.Op(Op::OpLoad, type, {var}), t, Sincos, "math");
      return true;
    }
    case 8: {
      // mix / smoothstep (edges ordered and distinct), degrees, radians.
      const uint32_t x = Finite(ctx, DrawOperand(ctx, t), t);
      if (rng.Percent(50)) {
        FloatResult(ctx,
                    ExtInst(ctx, type, Mix,
                            {x, Finite(ctx, DrawOperand(ctx, t), t),
                             Finite(ctx, DrawOperand(ctx, t), t)}),
                    t, Mix, "mix");
      } else {
        const double e0 = static_cast<int>(rng.Below(16)) - 8;
        const double e1 = e0 + 1 + rng.Below(8);
        FloatResult(
            ctx,
            ExtInst(ctx, type, Smoothstep,
                    {ctx.types.Splat(t, spirv::EncodeFloat(e0, t.width)),
                     ctx.types.Splat(t, spirv::EncodeFloat(e1, t.width)), x}),
            t, Smoothstep, "smoothstep");
      }
      return true;
    }
    default: {
      // remquo: only the remainder is defined precisely (the quotient's
      // low bits are implementation-defined beyond 3).
      const ValueType it = IntT(32, t.lanes);
      const uint32_t var = fn.LocalVariable(
          ctx.types.Pointer(spv::StorageClass::Function, ctx.types.Id(it)));
      FloatResult(ctx,
                  ExtInst(ctx, type, Remquo,
                          {DrawOperand(ctx, t), DrawOperand(ctx, t), var}),
                  t, Remquo, "remquo");
      return true;
    }
  }
}

}  // namespace l0spv::generators::kernel
