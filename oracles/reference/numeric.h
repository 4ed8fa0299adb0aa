// oracles/reference/numeric.h — exact numeric conversions: rounding of
// exact values to half/float/double under each OpenCL rounding mode, and
// float -> integer conversion with range checks and saturation. The bit
// converters (half <-> float, denormal flushing) are spirv/numeric_bits.h's,
// named here so the interpreter's call sites stay short.
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
#include "spirv/numeric_bits.h"

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

using spirv::FlushDenormal;
using spirv::FlushHalfDenormal;
using spirv::HalfToFloat;

// program.h's RoundMode lists the modes in spirv::RoundMode's order.
static_assert(static_cast<int>(RoundMode::kRte) ==
                  static_cast<int>(spirv::RoundMode::kRte) &&
              static_cast<int>(RoundMode::kRtz) ==
                  static_cast<int>(spirv::RoundMode::kRtz) &&
              static_cast<int>(RoundMode::kRtp) ==
                  static_cast<int>(spirv::RoundMode::kRtp) &&
              static_cast<int>(RoundMode::kRtn) ==
                  static_cast<int>(spirv::RoundMode::kRtn));

// `x` must be exactly representable as a half (or be inf/nan).
uint16_t HalfFromExact(long double x);
// Correctly rounded float/double -> half.
inline uint16_t FloatToHalf(float f, RoundMode m = RoundMode::kRte) {
  return spirv::FloatToHalf(f, static_cast<spirv::RoundMode>(m));
}
inline uint16_t DoubleToHalf(double d, RoundMode m = RoundMode::kRte) {
  return spirv::DoubleToHalf(d, static_cast<spirv::RoundMode>(m));
}

// Float -> integer of `bits` bits. Returns false when the value (NaN
// included) does not fit and `saturate` is not set; with `saturate`,
// out-of-range values clamp and NaN becomes 0 (OpenCL _sat conversions).
bool FloatToInt(long double v, bool is_signed, int bits, RoundMode mode,
                bool saturate, uint64_t* out);

// The common OpConvert[SU]ToF: an integer of at most 32 bits into float or
// double under round-to-nearest-even is one hardware conversion per lane
// (the process never changes the rounding mode), correctly rounded and never
// denormal, so flushing cannot apply; the exact path costs ~20x more.
inline bool IsHardwareIntToFloat(const ConvertSpec& spec) {
  return spec.from >= kI8 && spec.from <= kI32 &&
         (spec.to == kF32 || spec.to == kF64) &&
         (spec.default_rounding || spec.mode == RoundMode::kRte);
}

// Converts n lanes under IsHardwareIntToFloat(spec). Inline because the
// executor runs it per instruction (the image benchmark's coordinates);
// i32 -> f32, the most common, is spelt out so it stays one load, one
// cvtsi2ss and one store per lane.
inline void HardwareIntToFloatLanes(const ConvertSpec& spec, const uint8_t* src,
                                    uint8_t* dst, int n) {
  if (spec.from == kI32 && spec.to == kF32) {
    for (int l = 0; l < n; ++l) {
      uint32_t v;
      std::memcpy(&v, src + 4 * l, 4);
      const float f = spec.from_signed
                          ? static_cast<float>(static_cast<int32_t>(v))
                          : static_cast<float>(v);
      std::memcpy(dst + 4 * l, &f, 4);
    }
    return;
  }
  const uint32_t sb = KindBytes(spec.from);
  const int shift = 64 - static_cast<int>(sb) * 8;
  for (int l = 0; l < n; ++l) {
    uint64_t bits = 0;  // little-endian host: the low sb bytes
    std::memcpy(&bits, src + l * sb, sb);
    const int64_t value = spec.from_signed
                              ? static_cast<int64_t>(bits << shift) >> shift
                              : static_cast<int64_t>(bits);
    if (spec.to == kF32) {
      const float f = static_cast<float>(value);
      std::memcpy(dst + 4 * l, &f, 4);
    } else {
      const double d = static_cast<double>(value);
      std::memcpy(dst + 8 * l, &d, 8);
    }
  }
}

// Converts n lanes from `src` to `dst` (register layout) as `spec` says.
// Returns the first lane whose float -> int conversion was out of range
// without saturation, or -1 when every lane converted.
int ConvertLanes(const ConvertSpec& spec, const uint8_t* src, uint8_t* dst,
                 int n, bool flush_denormals);

}  // namespace l0spv::oracles::reference
