// spirv/numeric_bits.h — bit patterns of IEEE binary16/32/64 and bfloat16
// values: float/double <-> bits, half <-> float/double under each IEEE
// rounding mode, bfloat16 <-> float, NaN and denormal helpers.
//
// Contract: every function is pure, total over all bit patterns (NaN, inf,
// denormals) and exact. Widening (half -> float, bfloat16 -> float) is exact
// and keeps NaN payloads bit for bit. Narrowing to half or bfloat16 works on
// the bits (never through the host's floating-point environment) and rounds
// once, correctly, in the requested mode: double -> half is not
// double -> float -> half. A narrowed NaN stays a NaN of the same sign, made
// quiet, keeping the top payload bits that fit. Everything is inline: the
// reference interpreter converts on its hot path.
#pragma once

#include <bit>
#include <cstdint>

namespace l0spv::spirv {

// IEEE rounding directions, in the order of SPIR-V's FPRoundingMode
// (RTE, RTZ, RTP, RTN).
enum class RoundMode : uint8_t { kRte, kRtz, kRtp, kRtn };

inline uint32_t FloatToBits(float f) { return std::bit_cast<uint32_t>(f); }
inline float BitsToFloat(uint32_t bits) { return std::bit_cast<float>(bits); }
inline uint64_t DoubleToBits(double d) { return std::bit_cast<uint64_t>(d); }
inline double BitsToDouble(uint64_t bits) {
  return std::bit_cast<double>(bits);
}

constexpr bool IsHalfNan(uint16_t h) {
  return (h & 0x7C00u) == 0x7C00u && (h & 0x03FFu) != 0;
}
constexpr bool IsFloatNan(uint32_t bits) {
  return (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0;
}
constexpr bool IsDoubleNan(uint64_t bits) {
  return (bits & 0x7FF0000000000000u) == 0x7FF0000000000000u &&
         (bits & 0x000FFFFFFFFFFFFFu) != 0;
}

// A denormal becomes a zero of the same sign (flush-to-zero); any other
// value is returned unchanged.
constexpr uint16_t FlushHalfDenormal(uint16_t h) {
  return (h & 0x7C00u) == 0 && (h & 0x03FFu) != 0
             ? static_cast<uint16_t>(h & 0x8000u)
             : h;
}
inline float FlushDenormal(float f) {
  const uint32_t b = FloatToBits(f);
  return (b & 0x7F800000u) == 0 && (b & 0x007FFFFFu) != 0
             ? BitsToFloat(b & 0x80000000u)
             : f;
}

inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  const uint32_t man = h & 0x3FFu;
  if (exp == 0x1F) return BitsToFloat(sign | 0x7F800000u | (man << 13));
  if (exp != 0) return BitsToFloat(sign | ((exp + 112) << 23) | (man << 13));
  // Zero or subnormal: man * 2^-24, a normal float (exact).
  const float f = static_cast<float>(man) * 0x1p-24f;
  return sign != 0 ? -f : f;
}

namespace numeric_bits_internal {

// The half nearest (in `mode`) to (-1)^neg * m * 2^q, for 0 < m < 2^63.
inline uint16_t RoundToHalfBits(bool neg, uint64_t m, int q, RoundMode mode) {
  const int e = q + std::bit_width(m) - 1;  // the value is in [2^e, 2^(e+1))
  const int e_clamped = e < -14 ? -14 : e;  // below: the subnormal range
  const int shift = (e_clamped - 10) - q;   // drops m's bits below one ulp
  uint64_t r = 0;                           // the value in ulps, truncated
  bool above = false, tie = false, inexact = false;
  if (shift <= 0) {
    r = m << -shift;  // m has at most 11 significant bits here: exact
  } else if (shift < 64) {
    r = m >> shift;
    const uint64_t rem = m & ((uint64_t{1} << shift) - 1);
    const uint64_t half_ulp = uint64_t{1} << (shift - 1);
    above = rem > half_ulp;
    tie = rem == half_ulp;
    inexact = rem != 0;
  } else {
    inexact = true;  // m < 2^63: less than half an ulp
  }
  bool up = false;
  switch (mode) {
    case RoundMode::kRte:
      up = above || (tie && (r & 1) != 0);
      break;
    case RoundMode::kRtz:
      break;
    case RoundMode::kRtp:
      up = inexact && !neg;
      break;
    case RoundMode::kRtn:
      up = inexact && neg;
      break;
  }
  r += up ? 1 : 0;
  const uint16_t sign = neg ? 0x8000 : 0;
  // r includes the implicit bit (1024 for normals), which adds one to the
  // exponent field; a round-up to 2048 carries into the next binade.
  const int64_t bits =
      (int64_t{e_clamped} + 14) * 1024 + static_cast<int64_t>(r);
  if (bits >= 0x7C00) {
    const bool to_inf = mode == RoundMode::kRte ||
                        (mode == RoundMode::kRtp && !neg) ||
                        (mode == RoundMode::kRtn && neg);
    return sign | (to_inf ? 0x7C00 : 0x7BFF);
  }
  return static_cast<uint16_t>(sign | bits);
}

}  // namespace numeric_bits_internal

inline uint16_t FloatToHalf(float f, RoundMode mode) {
  const uint32_t b = FloatToBits(f);
  const uint16_t sign = static_cast<uint16_t>((b >> 16) & 0x8000u);
  const uint32_t exp = (b >> 23) & 0xFFu;
  const uint32_t man = b & 0x7FFFFFu;
  if (exp == 0xFF) {
    return sign | (man == 0 ? 0x7C00 : 0x7E00 | (man >> 13));
  }
  if (exp == 0 && man == 0) return sign;
  const uint64_t m = exp != 0 ? (man | 0x800000u) : man;
  const int q = static_cast<int>(exp != 0 ? exp : 1) - 150;
  return numeric_bits_internal::RoundToHalfBits(sign != 0, m, q, mode);
}

inline uint16_t DoubleToHalf(double d, RoundMode mode) {
  const uint64_t b = DoubleToBits(d);
  const uint16_t sign = static_cast<uint16_t>((b >> 48) & 0x8000u);
  const uint32_t exp = static_cast<uint32_t>((b >> 52) & 0x7FFu);
  const uint64_t man = b & 0x000FFFFFFFFFFFFFu;
  if (exp == 0x7FF) {
    return sign | (man == 0 ? 0x7C00 : 0x7E00 | ((man >> 42) & 0x3FFu));
  }
  if (exp == 0 && man == 0) return sign;
  const uint64_t m = exp != 0 ? (man | (uint64_t{1} << 52)) : man;
  const int q = static_cast<int>(exp != 0 ? exp : 1) - 1075;
  return numeric_bits_internal::RoundToHalfBits(sign != 0, m, q, mode);
}

// bfloat16 is the top half of a float.
inline float Bfloat16ToFloat(uint16_t b) {
  return BitsToFloat(static_cast<uint32_t>(b) << 16);
}
// Round to nearest even; overflow gives inf.
inline uint16_t FloatToBfloat16(float f) {
  const uint32_t b = FloatToBits(f);
  if (IsFloatNan(b)) return static_cast<uint16_t>((b >> 16) | 0x0040u);
  // Adding just under half an ulp, plus one when the kept part is odd,
  // carries exactly when the dropped part is above half or a tie to odd.
  return static_cast<uint16_t>((b + 0x7FFFu + ((b >> 16) & 1u)) >> 16);
}

// The bits of `value` as a float of `width` bits (16, 32 or 64), rounded
// to nearest even (32: the host's conversion, round-to-nearest-even in the
// default floating-point environment, which nothing here changes); for
// callers that pick the width at run time.
inline uint64_t EncodeFloat(double value, uint32_t width) {
  if (width == 64) return DoubleToBits(value);
  if (width == 32) return FloatToBits(static_cast<float>(value));
  return DoubleToHalf(value, RoundMode::kRte);
}
// The value of a float of `width` bits (16, 32 or 64); exact.
inline double DecodeFloat(uint64_t bits, uint32_t width) {
  if (width == 64) return BitsToDouble(bits);
  if (width == 32) return BitsToFloat(static_cast<uint32_t>(bits));
  return HalfToFloat(static_cast<uint16_t>(bits));
}

}  // namespace l0spv::spirv
