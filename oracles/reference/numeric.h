// oracles/reference/numeric.h — exact numeric conversions: half <-> float,
// rounding of exact values to half/float/double under each OpenCL rounding
// mode, and float -> integer conversion with range checks and saturation.
//
// Contract: every function is pure and exact: the result is the correctly
// rounded value of the exact input in the requested mode (no dependence on
// the host floating-point environment). long double is the x87 80-bit
// format on the hosts we support, wide enough to hold every int64, uint64,
// float and double exactly; a static_assert keeps it that way.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

#include "oracles/reference/program.h"

namespace l0spv::oracles::reference {

static_assert(std::numeric_limits<long double>::digits >= 64,
              "the reference interpreter needs an extended long double");

// Rounds an exact value to a binary format with `mant` fraction bits and
// exponent range [emin, emax] (normal numbers), subnormals included.
long double RoundToFormat(long double x, int mant, int emin, int emax,
                          RoundMode mode);

inline long double RoundToHalf(long double x, RoundMode m) {
  return RoundToFormat(x, 10, -14, 15, m);
}
inline long double RoundToFloat(long double x, RoundMode m) {
  return RoundToFormat(x, 23, -126, 127, m);
}
inline long double RoundToDouble(long double x, RoundMode m) {
  return RoundToFormat(x, 52, -1022, 1023, m);
}

float HalfToFloat(uint16_t h);
// `x` must be exactly representable as a half (or be inf/nan).
uint16_t HalfFromExact(long double x);
// Correctly rounded float/double -> half.
uint16_t FloatToHalf(float f, RoundMode m = RoundMode::kRte);
uint16_t DoubleToHalf(double d, RoundMode m = RoundMode::kRte);

// Float -> integer of `bits` bits. Returns false when the value (NaN
// included) does not fit and `saturate` is not set; with `saturate`,
// out-of-range values clamp and NaN becomes 0 (OpenCL _sat conversions).
bool FloatToInt(long double v, bool is_signed, int bits, RoundMode mode,
                bool saturate, uint64_t* out);

// Converts n lanes from `src` to `dst` (register layout) as `spec` says.
// Returns the first lane whose float -> int conversion was out of range
// without saturation, or -1 when every lane converted.
int ConvertLanes(const ConvertSpec& spec, const uint8_t* src, uint8_t* dst,
                 int n, bool flush_denormals);

// Flushes a float/double denormal to a zero of the same sign.
inline float FlushDenormal(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  if ((b & 0x7F800000u) == 0 && (b & 0x007FFFFFu) != 0) b &= 0x80000000u;
  std::memcpy(&f, &b, 4);
  return f;
}
inline uint16_t FlushHalfDenormal(uint16_t h) {
  if ((h & 0x7C00u) == 0 && (h & 0x03FFu) != 0) h &= 0x8000u;
  return h;
}

}  // namespace l0spv::oracles::reference
