// OpenCL.std math, common and geometric functions.
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "oracles/reference/opencl_std.h"
#include "oracles/reference/opencl_std_lanes.h"
#include "spirv/unified1/OpenCL.std.h"

namespace l0spv::oracles::reference {
namespace {

using namespace OpenCLLIB;  // NOLINT: the instruction numbers
using LD = long double;

constexpr LD kPi = 3.141592653589793238462643383279502884L;

// Exact operations carried out in the lane's own format so the result is
// correctly rounded there (half lanes in float: these results are exact or
// innocuously double-rounded, see executor.cc).
template <typename T>
T ExactOp(uint32_t n, T x, T y, T z) {
  switch (n) {
    case Ceil:
      return std::ceil(x);
    case Floor:
      return std::floor(x);
    case Rint:
      return std::nearbyint(x);
    case Round:
      return std::round(x);
    case Trunc:
      return std::trunc(x);
    case Fabs:
      return std::fabs(x);
    case Copysign:
      return std::copysign(x, y);
    case Fmod:
      return std::fmod(x, y);
    case Remainder:
      return std::remainder(x, y);
    case Fdim:
      return std::isnan(x) || std::isnan(y) ? x + y : (x > y ? x - y : T{0});
    case Fmax:
    case FMax_common:
      return std::fmax(x, y);
    case Fmin:
    case FMin_common:
      return std::fmin(x, y);
    case Sqrt:
      return std::sqrt(x);
    case Maxmag: {
      const T ax = std::fabs(x), ay = std::fabs(y);
      return ax > ay ? x : ay > ax ? y : std::fmax(x, y);
    }
    case Minmag: {
      const T ax = std::fabs(x), ay = std::fabs(y);
      return ax < ay ? x : ay < ax ? y : std::fmin(x, y);
    }
    case FClamp:
      return std::fmin(std::fmax(x, y), z);
    case Step:  // step(edge = x, value = y): 0 if value < edge, else 1
      return y < x ? T{0} : T{1};
    default:
      return z;  // unreachable: callers pass only the cases above
  }
}

bool IsExact(uint32_t n) {
  switch (n) {
    case Ceil:
    case Floor:
    case Rint:
    case Round:
    case Trunc:
    case Fabs:
    case Copysign:
    case Fmod:
    case Remainder:
    case Fdim:
    case Fmax:
    case FMax_common:
    case Fmin:
    case FMin_common:
    case Sqrt:
    case Maxmag:
    case Minmag:
    case FClamp:
    case Step:
      return true;
    default:
      return false;
  }
}

// sinpi, cospi and tanpi reduce their argument exactly (fmod is exact) and
// return the values OpenCL C 6.13.2.1 fixes at integers and half-integers
// exactly: the extended-precision pi is not exact, so sin(pi * 1) would be
// about 5e-20 instead of 0, and tan(pi * 0.5) a huge finite number instead
// of infinity. Elsewhere the extended-precision product is accurate enough.
LD SinPi(LD x) {
  if (std::isinf(x) || std::isnan(x))
    return std::numeric_limits<LD>::quiet_NaN();
  const LD y = std::fmod(std::fabs(x), 2.0L);  // exact, in [0, 2)
  LD r;
  if (y == 0 || y == 1) {
    r = 0;  // sinpi(n) is +0 for n > 0, -0 for n < 0 (sign applied below)
  } else if (y == 0.5L) {
    r = 1;
  } else if (y == 1.5L) {
    r = -1;
  } else {
    r = std::sin(kPi * y);
  }
  return std::signbit(x) ? -r : r;
}

LD CosPi(LD x) {
  if (std::isinf(x) || std::isnan(x))
    return std::numeric_limits<LD>::quiet_NaN();
  const LD y = std::fmod(std::fabs(x), 2.0L);
  if (y == 0.5L || y == 1.5L) return 0;  // +0 at n + 0.5
  if (y == 0) return 1;
  if (y == 1) return -1;
  return std::cos(kPi * y);
}

LD TanPi(LD x) {
  if (std::isinf(x) || std::isnan(x))
    return std::numeric_limits<LD>::quiet_NaN();
  const LD y = std::fmod(x, 1.0L);  // exact, sign of x
  // Parity of the integer part n (x = n + y): fmod(x, 2) is exact.
  const bool odd = std::fabs(std::fmod(x - y, 2.0L)) == 1;
  if (y == 0) {
    // tanpi(n) is copysign(0, n) for even n, copysign(0, -n) for odd n.
    return odd ? -std::copysign(0.0L, x) : std::copysign(0.0L, x);
  }
  if (std::fabs(y) == 0.5L) {
    // n + 0.5 with n = floor(x): +inf for even n, -inf for odd n.
    const LD n = std::floor(x);
    const bool n_odd = std::fabs(std::fmod(n, 2.0L)) == 1;
    return n_odd ? -std::numeric_limits<LD>::infinity()
                 : std::numeric_limits<LD>::infinity();
  }
  return std::tan(kPi * y);
}

// Everything else, in extended precision.
LD WideOp(uint32_t n, LD x, LD y, LD z, bool* ok) {
  switch (n) {
    case Acos:
      return std::acos(x);
    case Acosh:
      return std::acosh(x);
    case Acospi:
      return std::acos(x) / kPi;
    case Asin:
      return std::asin(x);
    case Asinh:
      return std::asinh(x);
    case Asinpi:
      return std::asin(x) / kPi;
    case Atan:
      return std::atan(x);
    case Atan2:
      return std::atan2(x, y);
    case Atanh:
      return std::atanh(x);
    case Atanpi:
      return std::atan(x) / kPi;
    case Atan2pi:
      return std::atan2(x, y) / kPi;
    case Cbrt:
      return std::cbrt(x);
    case Cos:
    case Half_cos:
    case Native_cos:
      return std::cos(x);
    case Cosh:
      return std::cosh(x);
    case Cospi:
      return CosPi(x);
    case Erfc:
      return std::erfc(x);
    case Erf:
      return std::erf(x);
    case Exp:
    case Half_exp:
    case Native_exp:
      return std::exp(x);
    case Exp2:
    case Half_exp2:
    case Native_exp2:
      return std::exp2(x);
    case Exp10:
    case Half_exp10:
    case Native_exp10:
      return std::pow(10.0L, x);
    case Expm1:
      return std::expm1(x);
    case Hypot:
      return std::hypot(x, y);
    case Lgamma:
      return std::lgamma(x);
    case Log:
    case Half_log:
    case Native_log:
      return std::log(x);
    case Log2:
    case Half_log2:
    case Native_log2:
      return std::log2(x);
    case Log10:
    case Half_log10:
    case Native_log10:
      return std::log10(x);
    case Log1p:
      return std::log1p(x);
    case Logb:
      return std::logb(x);
    case Mad:
    case Fma:
      // Half operands: the exact x*y+z fits the 64-bit extended significand,
      // so this rounds once. Float and double use fmaf/fma (see caller).
      return std::fma(x, y, z);
    case Pow:
      return std::pow(x, y);
    case Pown:
      return std::pow(x, y);  // y is an exact integer here
    case Powr:
    case Half_powr:
    case Native_powr: {
      // powr is pow for x >= 0 with its own special cases (OpenCL C 6.13.2.1):
      // NaN for x < 0, for (+-0, +-0), (+inf, +-0), (+1, +-inf) and any NaN
      // operand, where pow() gives 1 for several of them; +-0 count as +0
      // (powr(+-0, y < 0) is +inf).
      const LD nan = std::numeric_limits<LD>::quiet_NaN();
      if (std::isnan(x) || std::isnan(y) || x < 0) return nan;
      if (x == 0 && y == 0) return nan;
      if (std::isinf(x) && y == 0) return nan;
      if (x == 1 && std::isinf(y)) return nan;
      return std::pow(x == 0 ? 0.0L : x, y);
    }
    case Rootn: {
      const LD nan = std::numeric_limits<LD>::quiet_NaN();
      if (y == 0) return nan;
      const bool odd = std::fmod(y, 2.0L) != 0;
      if (x == 0) {
        // rootn(+-0, n): +-inf for odd n < 0, +inf for even n < 0, +-0 for
        // odd n > 0, +0 for even n > 0.
        const LD magnitude = y < 0 ? std::numeric_limits<LD>::infinity() : 0;
        return odd ? std::copysign(magnitude, x) : magnitude;
      }
      if (x < 0 && !odd) return nan;
      if (x < 0) return -std::pow(-x, 1.0L / y);
      return std::pow(x, 1.0L / y);
    }
    case Rsqrt:
    case Half_rsqrt:
    case Native_rsqrt:
      return 1.0L / std::sqrt(x);
    case Sin:
    case Half_sin:
    case Native_sin:
      return std::sin(x);
    case Sinh:
      return std::sinh(x);
    case Sinpi:
      return SinPi(x);
    case Half_sqrt:
    case Native_sqrt:
      return std::sqrt(x);
    case Tan:
    case Half_tan:
    case Native_tan:
      return std::tan(x);
    case Tanh:
      return std::tanh(x);
    case Tanpi:
      return TanPi(x);
    case Tgamma:
      return std::tgamma(x);
    case Half_divide:
    case Native_divide:
      return x / y;
    case Half_recip:
    case Native_recip:
      return 1.0L / x;
    case Degrees:
      return x * (180.0L / kPi);
    case Radians:
      return x * (kPi / 180.0L);
    case Mix:
      return x + (y - x) * z;
    case Smoothstep: {
      // smoothstep(edge0, edge1, x)
      if (x >= y) {
        *ok = false;  // edge0 >= edge1 is undefined
        return 0;
      }
      LD t = (z - x) / (y - x);
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      return t * t * (3 - 2 * t);
    }
    case Sign:
      if (std::isnan(x)) return 0;
      if (x > 0) return 1;
      if (x < 0) return -1;
      return x;  // +-0
    default:
      *ok = false;
      return 0;
  }
}

uint16_t HalfBits(LD v) {
  return HalfFromExact(RoundToHalf(v, RoundMode::kRte));
}

}  // namespace

bool OpenClMathHandler(ExtContext& c, const ExtCall& call) {
  const uint32_t n = call.number;
  const size_t nargs = call.args.size();
  for (int l = 0; l < call.lanes; ++l) {
    const LD x = nargs > 0 ? lanes::Float(c, call.args[0], l) : 0;
    const LD y = nargs > 1 ? lanes::Float(c, call.args[1], l) : 0;
    const LD z = nargs > 2 ? lanes::Float(c, call.args[2], l) : 0;
    if (n == Ilogb) {
      int r;
      if (std::isnan(x)) {
        r = std::numeric_limits<int32_t>::max();  // FP_ILOGBNAN (OpenCL)
      } else if (x == 0) {
        r = std::numeric_limits<int32_t>::min();  // FP_ILOGB0
      } else if (std::isinf(x)) {
        r = std::numeric_limits<int32_t>::max();
      } else {
        r = std::ilogb(x);
      }
      lanes::StoreRaw(c, call.result, call.kind, l,
                      static_cast<uint64_t>(static_cast<int64_t>(r)));
      continue;
    }
    if (n == Nan) {
      // nan(nancode): a quiet NaN carrying the code in its payload.
      const uint64_t code = lanes::Raw(c, call.args[0], l);
      uint64_t bits;
      switch (call.kind) {
        case kF16:
          bits = 0x7E00u | (code & 0x1FFu);
          break;
        case kF32:
          bits = 0x7FC00000u | (code & 0x3FFFFFu);
          break;
        default:
          bits = 0x7FF8000000000000ull | (code & 0x7FFFFFFFFFFFFull);
          break;
      }
      lanes::StoreRaw(c, call.result, call.kind, l, bits);
      continue;
    }
    if (n == Ldexp) {
      const int64_t e = lanes::Signed(c, call.args[1], l);
      const int k = static_cast<int>(std::clamp<int64_t>(e, -100000, 100000));
      if (call.kind == kF64) {
        lanes::StoreFloat(c, call.result, kF64, l,
                          std::ldexp(static_cast<double>(x), k));
      } else if (call.kind == kF32) {
        lanes::StoreFloat(c, call.result, kF32, l,
                          std::ldexp(static_cast<float>(x), k));
      } else {
        lanes::StoreRaw(c, call.result, kF16, l, HalfBits(std::ldexp(x, k)));
      }
      continue;
    }
    if (n == Nextafter) {
      uint64_t bits;
      if (call.kind == kF64) {
        const double r =
            std::nextafter(static_cast<double>(x), static_cast<double>(y));
        std::memcpy(&bits, &r, 8);
      } else if (call.kind == kF32) {
        const float r =
            std::nextafter(static_cast<float>(x), static_cast<float>(y));
        uint32_t b;
        std::memcpy(&b, &r, 4);
        bits = b;
      } else {
        uint16_t h = static_cast<uint16_t>(lanes::Raw(c, call.args[0], l));
        if (std::isnan(x) || std::isnan(y)) {
          h = 0x7E00;
        } else if (x != y) {
          if (x == 0) {
            h = static_cast<uint16_t>(y > 0 ? 0x0001 : 0x8001);
          } else if ((x < y) == (x > 0)) {
            ++h;
          } else {
            --h;
          }
        } else {
          h = HalfBits(y);
        }
        bits = h;
      }
      lanes::StoreRaw(c, call.result, call.kind, l, bits);
      continue;
    }
    if (n == Pown || n == Rootn) {
      // The exponent operand is an integer lane.
      const LD e = static_cast<LD>(lanes::Signed(c, call.args[1], l));
      bool ok = true;
      lanes::StoreFloat(c, call.result, call.kind, l, WideOp(n, x, e, 0, &ok));
      continue;
    }
    if (IsExact(n)) {
      if (n == FClamp && y > z)
        return c.Fail(ExecutionStatus::kUbDetected,
                      "clamp with minval > maxval", "fclamp");
      switch (call.kind) {
        case kF64:
          lanes::StoreFloat(
              c, call.result, kF64, l,
              ExactOp<double>(n, static_cast<double>(x), static_cast<double>(y),
                              static_cast<double>(z)));
          break;
        default: {
          const float r =
              ExactOp<float>(n, static_cast<float>(x), static_cast<float>(y),
                             static_cast<float>(z));
          lanes::StoreFloat(c, call.result, call.kind, l, r);
          break;
        }
      }
      continue;
    }
    // mad is computed as fma (OpenCL lets mad be either; the comparison
    // treats it as implementation-defined).
    if ((n == Fma || n == Mad) && call.kind == kF64) {
      lanes::StoreFloat(c, call.result, kF64, l,
                        std::fma(static_cast<double>(x), static_cast<double>(y),
                                 static_cast<double>(z)));
      continue;
    }
    if ((n == Fma || n == Mad) && call.kind == kF32) {
      lanes::StoreFloat(c, call.result, kF32, l,
                        std::fma(static_cast<float>(x), static_cast<float>(y),
                                 static_cast<float>(z)));
      continue;
    }
    bool ok = true;
    const LD r = WideOp(n, x, y, z, &ok);
    if (!ok) {
      if (n == Smoothstep)
        return c.Fail(ExecutionStatus::kUbDetected,
                      "smoothstep with edge0 >= edge1", "");
      return c.Fail(ExecutionStatus::kUnsupported, "unsupported instruction",
                    absl::StrCat("OpenCL.std instruction ", n));
    }
    lanes::StoreFloat(c, call.result, call.kind, l, r);
  }
  return true;
}

bool OpenClPointerMathHandler(ExtContext& c, const ExtCall& call) {
  const uint32_t n = call.number;
  // The pointer operand is the last one.
  const ExtArg& ptr = call.args.back();
  uint64_t p;
  std::memcpy(&p, c.regs + ptr.slot, 8);
  // Only the lanes themselves are written (a 3-vector's padding is not).
  const uint32_t out_bytes = KindBytes(ptr.kind) * ptr.lanes;
  uint8_t* out = c.Access(p, out_bytes, KindBytes(ptr.kind), true);
  if (out == nullptr) return false;
  uint8_t tmp[128] = {0};
  uint8_t* saved = c.regs;
  for (int l = 0; l < call.lanes; ++l) {
    const LD x = lanes::Float(c, call.args[0], l);
    LD r = 0, side = 0;
    switch (n) {
      case Frexp: {
        int e = 0;
        r = std::isfinite(x) ? std::frexp(x, &e) : x;
        side = e;
        break;
      }
      case Modf: {
        LD ip;
        r = std::modf(x, &ip);
        side = ip;
        break;
      }
      case Fract: {
        const LD fl = std::floor(x);
        side = fl;
        if (std::isnan(x)) {
          r = x;
        } else if (std::isinf(x)) {
          r = std::copysign(0.0L, x);
        } else {
          // min(x - floor(x), largest value below 1) in the result format.
          const LD below_one = call.kind == kF16 ? 1.0L - std::ldexp(1.0L, -11)
                               : call.kind == kF32
                                   ? 1.0L - std::ldexp(1.0L, -24)
                                   : 1.0L - std::ldexp(1.0L, -53);
          r = std::fmin(x - fl, below_one);
          // x - floor(x) is exact in extended precision; rounding it to the
          // format could reach 1.0, which the clamp above prevents.
          if (call.kind == kF32 && static_cast<float>(r) >= 1.0f) r = below_one;
        }
        break;
      }
      case Remquo: {
        const LD y = lanes::Float(c, call.args[1], l);
        int q = 0;
        r = std::remquo(x, y, &q);
        side = q;
        break;
      }
      case Sincos:
        r = std::sin(x);
        side = std::cos(x);
        break;
      case Lgamma_r: {
        r = std::lgamma(x);
        side = std::isnan(x) ? 0 : (std::tgamma(x) < 0 ? -1 : 1);
        break;
      }
      default:
        return c.Fail(ExecutionStatus::kUnsupported, "unsupported instruction",
                      absl::StrCat("OpenCL.std instruction ", n));
    }
    lanes::StoreFloat(c, call.result, call.kind, l, r);
    // The side result goes to the pointee (int lanes for frexp / remquo /
    // lgamma_r, float lanes otherwise).
    c.regs = tmp;
    if (ptr.kind >= kF16 && ptr.kind <= kF64) {
      lanes::StoreFloat(c, 0, ptr.kind, l, side);
    } else {
      lanes::StoreRaw(c, 0, ptr.kind, l,
                      static_cast<uint64_t>(static_cast<int64_t>(side)));
    }
    c.regs = saved;
  }
  std::memcpy(out, tmp, std::min<uint32_t>(out_bytes, sizeof(tmp)));
  return true;
}

bool OpenClGeometricHandler(ExtContext& c, const ExtCall& call) {
  const uint32_t n = call.number;
  const ExtArg& a = call.args[0];
  const int lanes_in = a.lanes;
  auto lane = [&](const ExtArg& arg, int l) { return lanes::Float(c, arg, l); };
  switch (n) {
    case Cross: {
      if (lanes_in < 3)
        return c.Fail(ExecutionStatus::kUnsupported, "unsupported instruction",
                      "cross of fewer than 3 components");
      const ExtArg& b = call.args[1];
      const LD ax = lane(a, 0), ay = lane(a, 1), az = lane(a, 2);
      const LD bx = lane(b, 0), by = lane(b, 1), bz = lane(b, 2);
      lanes::StoreFloat(c, call.result, call.kind, 0, ay * bz - az * by);
      lanes::StoreFloat(c, call.result, call.kind, 1, az * bx - ax * bz);
      lanes::StoreFloat(c, call.result, call.kind, 2, ax * by - ay * bx);
      if (call.lanes == 4) lanes::StoreFloat(c, call.result, call.kind, 3, 0);
      return true;
    }
    case Length:
    case Fast_length:
    case Distance:
    case Fast_distance: {
      LD sum = 0;
      const bool dist = n == Distance || n == Fast_distance;
      for (int l = 0; l < lanes_in; ++l) {
        const LD d = dist ? lane(a, l) - lane(call.args[1], l) : lane(a, l);
        sum += d * d;
      }
      lanes::StoreFloat(c, call.result, call.kind, 0, std::sqrt(sum));
      return true;
    }
    case Normalize:
    case Fast_normalize: {
      LD sum = 0;
      for (int l = 0; l < lanes_in; ++l) sum += lane(a, l) * lane(a, l);
      const LD len = std::sqrt(sum);
      for (int l = 0; l < call.lanes; ++l)
        lanes::StoreFloat(c, call.result, call.kind, l,
                          len == 0 ? lane(a, l) : lane(a, l) / len);
      return true;
    }
    default:
      return c.Fail(ExecutionStatus::kUnsupported, "unsupported instruction",
                    absl::StrCat("OpenCL.std instruction ", n));
  }
}

}  // namespace l0spv::oracles::reference
