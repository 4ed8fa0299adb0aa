// oracles/reference/image_texel.h — the texel codec of the reference
// interpreter: a stored texel of any channel order / data type of
// spirv/image_format.h to the four RGBA channels a kernel reads, and back
// (OpenCL 1.2 / 2.0 §8.3, "Conversion Rules").
//
// Contract: a TexelFormat is built once per image (MakeTexelFormat) and the
// per-texel functions neither allocate nor look anything up. Reads map the
// stored channels to RGBA (BGRA, ARGB, ABGR swizzle; Intensity replicates
// into all four; Luminance into RGB), missing channels read 0 and a missing
// alpha 1 (1.0f, or the integer 1). Normalised types read c / (2^n - 1)
// (snorm: max(-1, c / (2^(n-1) - 1))), sRGB orders convert R, G, B from
// sRGB to linear; half reads exactly. Writes round to nearest even and
// saturate: unorm/snorm as convert_<t>_sat_rte(f * scale) (NaN → 0), half
// as float → half RTE, signed/unsigned integers saturate to the channel's
// range, sRGB converts linear → sRGB first. Intensity and Luminance store
// the red component, A stores alpha. The caller has checked the image's
// ChannelClass against the read or write (float vs integer).
#pragma once

#include <array>
#include <cstdint>

#include "spirv/image_format.h"

namespace l0spv::oracles::reference {

struct TexelFormat {
  uint32_t order = 0;
  uint32_t type = 0;
  uint32_t bytes = 0;          // TexelBytes
  uint32_t stored = 0;         // stored channels (packed: 3)
  uint32_t channel_bytes = 0;  // bytes of one stored channel (packed: 0)
  spirv::ChannelClass cls = spirv::ChannelClass::kNormalized;
  bool srgb = false;
  // RGBA component c reads stored channel from_stored[c]; -1: 0, -2: 1
  // (alpha default).
  std::array<int8_t, 4> from_stored{};
  // Stored channel i is written from RGBA component to_stored[i].
  std::array<int8_t, 4> to_stored{};
  bool is_float_read() const {
    return cls == spirv::ChannelClass::kNormalized ||
           cls == spirv::ChannelClass::kHalf ||
           cls == spirv::ChannelClass::kFloat;
  }
};

// `order`/`type` must form a pair TexelBytes accepts (nonzero).
TexelFormat MakeTexelFormat(uint32_t order, uint32_t type);

// Float-read formats (normalised, half, float): the RGBA value.
void DecodeTexelFloat(const TexelFormat& f, const uint8_t* texel, float out[4]);
// Integer formats: RGBA as 32-bit lanes (signed types sign-extended).
void DecodeTexelInt(const TexelFormat& f, const uint8_t* texel,
                    uint32_t out[4]);
void EncodeTexelFloat(const TexelFormat& f, const float in[4], uint8_t* texel);
// Signed formats take `in` as int32 lanes, unsigned as uint32 lanes.
void EncodeTexelInt(const TexelFormat& f, const uint32_t in[4], uint8_t* texel);

// The border colour of CLK_ADDRESS_CLAMP (OpenCL 1.2 §8.2): (0, 0, 0, 0)
// for orders with an alpha channel (A, RA, RGBA, BGRA, ARGB, ABGR,
// Intensity, sRGBA, sBGRA), (0, 0, 0, 1) for R, RG, RGB and Luminance.
bool BorderAlphaIsOne(uint32_t order);

// sRGB transfer functions (OpenCL 2.0 §8.3.1.5 / 8.3.2.5).
float SrgbToLinear(float c);
float LinearToSrgb(float c);

}  // namespace l0spv::oracles::reference
