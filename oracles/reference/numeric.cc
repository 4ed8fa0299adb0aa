#include "oracles/reference/numeric.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace l0spv::oracles::reference {
namespace {

template <typename T>
T LoadAs(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
void StoreAs(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

bool IsFloatKind(Kind k) { return k >= kF16 && k <= kF64; }
int IntBits(Kind k) { return static_cast<int>(KindBytes(k)) * 8; }

// The exact value of one lane as a long double.
long double LaneValue(Kind k, bool is_signed, const uint8_t* p, bool ftz) {
  switch (k) {
    case kBool:
      return p[0] != 0;
    // Each arm converts on its own: `c ? int32_t : uint32_t` would have
    // type uint32_t and turn negative values into large positive ones.
    case kI8:
      return is_signed ? static_cast<long double>(LoadAs<int8_t>(p))
                       : static_cast<long double>(LoadAs<uint8_t>(p));
    case kI16:
      return is_signed ? static_cast<long double>(LoadAs<int16_t>(p))
                       : static_cast<long double>(LoadAs<uint16_t>(p));
    case kI32:
      return is_signed ? static_cast<long double>(LoadAs<int32_t>(p))
                       : static_cast<long double>(LoadAs<uint32_t>(p));
    case kI64:
      return is_signed ? static_cast<long double>(LoadAs<int64_t>(p))
                       : static_cast<long double>(LoadAs<uint64_t>(p));
    case kF16: {
      uint16_t h = LoadAs<uint16_t>(p);
      return HalfToFloat(ftz ? FlushHalfDenormal(h) : h);
    }
    case kF32: {
      float f = LoadAs<float>(p);
      return ftz ? FlushDenormal(f) : f;
    }
    case kF64:
      return LoadAs<double>(p);
    case kAgg:
      break;
  }
  return 0;
}

uint64_t LaneBits(Kind k, const uint8_t* p) {
  switch (KindBytes(k)) {
    case 1:
      return LoadAs<uint8_t>(p);
    case 2:
      return LoadAs<uint16_t>(p);
    case 4:
      return LoadAs<uint32_t>(p);
    default:
      return LoadAs<uint64_t>(p);
  }
}

void StoreBits(Kind k, uint8_t* p, uint64_t v) {
  switch (KindBytes(k)) {
    case 1:
      StoreAs<uint8_t>(p, static_cast<uint8_t>(v));
      break;
    case 2:
      StoreAs<uint16_t>(p, static_cast<uint16_t>(v));
      break;
    case 4:
      StoreAs<uint32_t>(p, static_cast<uint32_t>(v));
      break;
    default:
      StoreAs<uint64_t>(p, v);
      break;
  }
}

// Integer -> integer, with optional saturation.
uint64_t ConvertInt(uint64_t bits, Kind from, bool from_signed, Kind to,
                    bool to_signed, bool saturate) {
  const int fb = IntBits(from), tb = IntBits(to);
  // Extend the source to 64 bits.
  __int128 v;
  if (from_signed && fb < 64) {
    const uint64_t sign = uint64_t{1} << (fb - 1);
    const uint64_t mask = (uint64_t{1} << fb) - 1;
    bits &= mask;
    v = static_cast<int64_t>((bits ^ sign) - sign);
  } else if (from_signed) {
    v = static_cast<int64_t>(bits);
  } else {
    v = static_cast<__int128>(fb < 64 ? bits & ((uint64_t{1} << fb) - 1)
                                      : bits);
  }
  if (saturate) {
    __int128 lo, hi;
    if (to_signed) {
      lo = -(static_cast<__int128>(1) << (tb - 1));
      hi = (static_cast<__int128>(1) << (tb - 1)) - 1;
    } else {
      lo = 0;
      hi = (static_cast<__int128>(1) << tb) - 1;
    }
    v = std::clamp(v, lo, hi);
  }
  return static_cast<uint64_t>(v);
}

}  // namespace

long double RoundToFormat(long double x, int mant, int emin, int emax,
                          RoundMode mode) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  const bool neg = std::signbit(x);
  const long double ax = std::fabs(x);
  int e = 0;
  std::frexp(ax, &e);
  const int exp = e - 1;  // ax in [2^exp, 2^(exp+1))
  const int ulp = std::max(exp, emin) - mant;
  const long double q = std::ldexp(ax, -ulp);  // exact: a power-of-2 scale
  long double i = std::floor(q);
  const long double frac = q - i;
  bool up = false;
  switch (mode) {
    case RoundMode::kRte:
      up = frac > 0.5L || (frac == 0.5L && std::fmod(i, 2.0L) != 0);
      break;
    case RoundMode::kRtz:
      break;
    case RoundMode::kRtp:
      up = frac > 0 && !neg;
      break;
    case RoundMode::kRtn:
      up = frac > 0 && neg;
      break;
  }
  if (up) i += 1;
  long double r = std::ldexp(i, ulp);
  const long double max_finite =
      std::ldexp(2.0L - std::ldexp(1.0L, -mant), emax);
  if (r > max_finite) {
    const long double inf = std::numeric_limits<long double>::infinity();
    switch (mode) {
      case RoundMode::kRte:
        r = inf;
        break;
      case RoundMode::kRtz:
        r = max_finite;
        break;
      case RoundMode::kRtp:
        r = neg ? max_finite : inf;
        break;
      case RoundMode::kRtn:
        r = neg ? inf : max_finite;
        break;
    }
  }
  return neg ? -r : r;
}

uint16_t HalfFromExact(long double x) {
  // An exact half value is exact in a double too, so rounding it is exact.
  if (std::isnan(x)) return std::signbit(x) ? 0xFE00 : 0x7E00;
  return spirv::DoubleToHalf(static_cast<double>(x), spirv::RoundMode::kRte);
}

bool FloatToInt(long double v, bool is_signed, int bits, RoundMode mode,
                bool saturate, uint64_t* out) {
  if (std::isnan(v)) {
    *out = 0;
    return saturate;
  }
  long double r;
  switch (mode) {
    case RoundMode::kRtz:
      r = std::trunc(v);
      break;
    case RoundMode::kRtp:
      r = std::ceil(v);
      break;
    case RoundMode::kRtn:
      r = std::floor(v);
      break;
    case RoundMode::kRte:
    default: {
      r = std::floor(v);
      const long double frac = v - r;
      if (frac > 0.5L || (frac == 0.5L && std::fmod(r, 2.0L) != 0)) r += 1;
      break;
    }
  }
  const long double lo = is_signed ? -std::ldexp(1.0L, bits - 1) : 0.0L;
  const long double hi =
      is_signed ? std::ldexp(1.0L, bits - 1) - 1 : std::ldexp(1.0L, bits) - 1;
  if (r < lo || r > hi) {
    if (!saturate) return false;
    r = r < lo ? lo : hi;
  }
  if (is_signed) {
    *out = static_cast<uint64_t>(static_cast<int64_t>(r));
  } else {
    *out = static_cast<uint64_t>(r);
  }
  return true;
}

int ConvertLanes(const ConvertSpec& spec, const uint8_t* src, uint8_t* dst,
                 int n, bool ftz) {
  if (IsHardwareIntToFloat(spec)) {
    HardwareIntToFloatLanes(spec, src, dst, n);
    return -1;
  }
  const uint32_t sb = KindBytes(spec.from), db = KindBytes(spec.to);
  for (int i = 0; i < n; ++i) {
    const uint8_t* s = src + i * sb;
    uint8_t* d = dst + i * db;
    if (!IsFloatKind(spec.from) && !IsFloatKind(spec.to)) {
      uint64_t bits = spec.from == kBool ? (s[0] != 0) : LaneBits(spec.from, s);
      if (spec.to == kBool) {
        d[0] = bits != 0;
      } else {
        StoreBits(spec.to, d,
                  ConvertInt(bits, spec.from == kBool ? kI8 : spec.from,
                             spec.from_signed && spec.from != kBool, spec.to,
                             spec.to_signed, spec.saturate));
      }
      continue;
    }
    const long double v = LaneValue(spec.from, spec.from_signed, s, ftz);
    if (IsFloatKind(spec.to)) {
      // Float results default to round-to-nearest-even.
      const RoundMode m = spec.default_rounding ? RoundMode::kRte : spec.mode;
      if (std::isnan(v) && IsFloatKind(spec.from)) {
        // Keep NaN-ness; payloads are not compared between targets.
        switch (spec.to) {
          case kF16:
            StoreAs<uint16_t>(
                d, static_cast<uint16_t>(std::signbit(v) ? 0xFE00 : 0x7E00));
            break;
          case kF32:
            StoreAs<float>(d, std::signbit(v)
                                  ? -std::numeric_limits<float>::quiet_NaN()
                                  : std::numeric_limits<float>::quiet_NaN());
            break;
          default:
            StoreAs<double>(d, std::signbit(v)
                                   ? -std::numeric_limits<double>::quiet_NaN()
                                   : std::numeric_limits<double>::quiet_NaN());
            break;
        }
        continue;
      }
      switch (spec.to) {
        case kF16: {
          uint16_t h = HalfFromExact(RoundToHalf(v, m));
          StoreAs<uint16_t>(d, ftz ? FlushHalfDenormal(h) : h);
          break;
        }
        case kF32: {
          float f = static_cast<float>(RoundToFloat(v, m));
          StoreAs<float>(d, ftz ? FlushDenormal(f) : f);
          break;
        }
        default:
          StoreAs<double>(d, static_cast<double>(RoundToDouble(v, m)));
          break;
      }
      continue;
    }
    // Float -> integer: OpenCL's default is round toward zero.
    const RoundMode m = spec.default_rounding ? RoundMode::kRtz : spec.mode;
    uint64_t out = 0;
    if (spec.to == kBool) {
      d[0] = v != 0;
      continue;
    }
    if (!FloatToInt(v, spec.to_signed, IntBits(spec.to), m, spec.saturate,
                    &out)) {
      return i;
    }
    StoreBits(spec.to, d, out);
  }
  return -1;
}

}  // namespace l0spv::oracles::reference
