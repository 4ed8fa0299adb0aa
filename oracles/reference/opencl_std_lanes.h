// oracles/reference/opencl_std_lanes.h — lane accessors shared by the
// OpenCL.std handlers (internal to oracles/reference).
//
// Contract: a scalar operand used with a vector result is broadcast (lane 0
// for every lane), as OpenCL's mixed scalar/vector built-ins expect. Float
// lanes are read exactly into long double and stored rounded to nearest
// even in the result format.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "oracles/reference/ext_context.h"
#include "oracles/reference/numeric.h"
#include "oracles/reference/program.h"

namespace l0spv::oracles::reference::lanes {

inline const uint8_t* LanePtr(const ExtContext& c, const ExtArg& a, int l) {
  const int lane = a.lanes == 1 ? 0 : l;
  return c.regs + a.slot + lane * KindBytes(a.kind);
}

inline uint64_t Raw(const ExtContext& c, const ExtArg& a, int l) {
  uint64_t v = 0;
  std::memcpy(&v, LanePtr(c, a, l), KindBytes(a.kind));
  return v;
}

inline int64_t Signed(const ExtContext& c, const ExtArg& a, int l) {
  const uint32_t b = KindBytes(a.kind);
  uint64_t v = Raw(c, a, l);
  if (b < 8) {
    const uint64_t sign = uint64_t{1} << (b * 8 - 1);
    v = (v ^ sign) - sign;
  }
  return static_cast<int64_t>(v);
}

inline long double Float(const ExtContext& c, const ExtArg& a, int l) {
  const uint8_t* p = LanePtr(c, a, l);
  switch (a.kind) {
    case kF16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      if (c.flush_denormals) h = FlushHalfDenormal(h);
      return HalfToFloat(h);
    }
    case kF32: {
      float f;
      std::memcpy(&f, p, 4);
      return c.flush_denormals ? FlushDenormal(f) : f;
    }
    case kF64: {
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
    default:
      return static_cast<long double>(Signed(c, a, l));
  }
}

inline void StoreRaw(ExtContext& c, uint32_t slot, Kind k, int l, uint64_t v) {
  std::memcpy(c.regs + slot + l * KindBytes(k), &v, KindBytes(k));
}

// Rounds v (to nearest even) into a lane of kind k.
inline void StoreFloat(ExtContext& c, uint32_t slot, Kind k, int l,
                       long double v) {
  uint8_t* p = c.regs + slot + l * KindBytes(k);
  switch (k) {
    case kF16: {
      uint16_t h = std::isnan(v)
                       ? uint16_t{0x7E00}
                       : HalfFromExact(RoundToHalf(v, RoundMode::kRte));
      if (c.flush_denormals) h = FlushHalfDenormal(h);
      std::memcpy(p, &h, 2);
      break;
    }
    case kF32: {
      float f = static_cast<float>(v);
      if (c.flush_denormals) f = FlushDenormal(f);
      std::memcpy(p, &f, 4);
      break;
    }
    case kF64: {
      const double d = static_cast<double>(v);
      std::memcpy(p, &d, 8);
      break;
    }
    default:
      StoreRaw(c, slot, k, l, static_cast<uint64_t>(static_cast<int64_t>(v)));
      break;
  }
}

inline uint64_t Mask(Kind k) {
  const uint32_t b = KindBytes(k);
  return b == 8 ? ~uint64_t{0} : (uint64_t{1} << (b * 8)) - 1;
}

}  // namespace l0spv::oracles::reference::lanes
