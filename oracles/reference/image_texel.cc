// oracles/reference/image_texel.cc — see image_texel.h.
#include "oracles/reference/image_texel.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "spirv/numeric_bits.h"

namespace l0spv::oracles::reference {
namespace {

namespace co = spirv::channel_order;
namespace ct = spirv::channel_type;

// Stored channels of one texel as raw integers (packed types unpacked).
inline void LoadRaw(const TexelFormat& f, const uint8_t* texel,
                    uint32_t raw[4]) {
  if (f.channel_bytes == 0) {
    uint32_t v = 0;
    std::memcpy(&v, texel, f.bytes);
    if (f.type == ct::kUnormShort565) {
      raw[0] = (v >> 11) & 0x1f, raw[1] = (v >> 5) & 0x3f, raw[2] = v & 0x1f;
    } else if (f.type == ct::kUnormShort555) {
      raw[0] = (v >> 10) & 0x1f, raw[1] = (v >> 5) & 0x1f, raw[2] = v & 0x1f;
    } else {
      raw[0] = (v >> 20) & 0x3ff, raw[1] = (v >> 10) & 0x3ff,
      raw[2] = v & 0x3ff;
    }
    return;
  }
  for (uint32_t i = 0; i < f.stored; ++i) {
    switch (f.channel_bytes) {
      case 1:
        raw[i] = texel[i];
        break;
      case 2: {
        uint16_t v;
        std::memcpy(&v, texel + 2 * i, 2);
        raw[i] = v;
        break;
      }
      default:
        std::memcpy(&raw[i], texel + 4 * i, 4);
    }
  }
}

inline void StoreRaw(const TexelFormat& f, const uint32_t raw[4],
                     uint8_t* texel) {
  if (f.channel_bytes == 0) {
    uint32_t v;
    if (f.type == ct::kUnormShort565) {
      v = raw[0] << 11 | raw[1] << 5 | raw[2];
    } else if (f.type == ct::kUnormShort555) {
      v = raw[0] << 10 | raw[1] << 5 | raw[2];
    } else {
      v = raw[0] << 20 | raw[1] << 10 | raw[2];
    }
    std::memcpy(texel, &v, f.bytes);
    return;
  }
  for (uint32_t i = 0; i < f.stored; ++i) {
    switch (f.channel_bytes) {
      case 1:
        texel[i] = static_cast<uint8_t>(raw[i]);
        break;
      case 2: {
        const uint16_t v = static_cast<uint16_t>(raw[i]);
        std::memcpy(texel + 2 * i, &v, 2);
        break;
      }
      default:
        std::memcpy(texel + 4 * i, &raw[i], 4);
    }
  }
}

// Stored channel i's float value.
inline float ChannelToFloat(const TexelFormat& f, uint32_t i, uint32_t raw) {
  switch (f.type) {
    case ct::kSnormInt8:
      return std::max(-1.0f,
                      static_cast<float>(static_cast<int8_t>(raw)) / 127.0f);
    case ct::kSnormInt16:
      return std::max(-1.0f,
                      static_cast<float>(static_cast<int16_t>(raw)) / 32767.0f);
    case ct::kUnormInt8:
      return static_cast<float>(raw) / 255.0f;
    case ct::kUnormInt16:
      return static_cast<float>(raw) / 65535.0f;
    case ct::kUnormShort565:
      return static_cast<float>(raw) / (i == 1 ? 63.0f : 31.0f);
    case ct::kUnormShort555:
      return static_cast<float>(raw) / 31.0f;
    case ct::kUnormInt101010:
      return static_cast<float>(raw) / 1023.0f;
    case ct::kHalfFloat:
      return spirv::HalfToFloat(static_cast<uint16_t>(raw));
    default: {
      float v;
      std::memcpy(&v, &raw, 4);
      return v;
    }
  }
}

// convert_<t>_sat_rte(v * scale) for an unsigned range [lo, hi].
inline uint32_t Quantize(float v, float scale, float lo, float hi) {
  const float s = v * scale;
  if (std::isnan(s)) return 0;
  const float r = std::rint(std::clamp(s, lo, hi));
  return static_cast<uint32_t>(static_cast<int32_t>(r));
}

inline uint32_t FloatToChannel(const TexelFormat& f, uint32_t i, float v) {
  switch (f.type) {
    case ct::kSnormInt8:
      return Quantize(v, 127.0f, -128.0f, 127.0f) & 0xff;
    case ct::kSnormInt16:
      return Quantize(v, 32767.0f, -32768.0f, 32767.0f) & 0xffff;
    case ct::kUnormInt8:
      return Quantize(v, 255.0f, 0.0f, 255.0f);
    case ct::kUnormInt16:
      return Quantize(v, 65535.0f, 0.0f, 65535.0f);
    case ct::kUnormShort565: {
      const float m = i == 1 ? 63.0f : 31.0f;
      return Quantize(v, m, 0.0f, m);
    }
    case ct::kUnormShort555:
      return Quantize(v, 31.0f, 0.0f, 31.0f);
    case ct::kUnormInt101010:
      return Quantize(v, 1023.0f, 0.0f, 1023.0f);
    case ct::kHalfFloat:
      return spirv::FloatToHalf(v, spirv::RoundMode::kRte);
    default: {
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      return bits;
    }
  }
}

}  // namespace

float SrgbToLinear(float c) {
  if (c <= 0.04045f) return c / 12.92f;
  return static_cast<float>(std::pow((c + 0.055) / 1.055, 2.4));
}

float LinearToSrgb(float c) {
  if (std::isnan(c)) return 0.0f;
  if (c <= 0.0031308f) return 12.92f * c;
  return static_cast<float>(
      1.055 * std::pow(static_cast<double>(c), 1.0 / 2.4) - 0.055);
}

TexelFormat MakeTexelFormat(uint32_t order, uint32_t type) {
  TexelFormat f;
  f.order = order;
  f.type = type;
  f.bytes = spirv::TexelBytes(order, type);
  f.cls = spirv::ClassOfChannelType(type);
  f.stored = spirv::ChannelCount(order);
  f.channel_bytes =
      spirv::IsPackedChannelType(type) ? 0 : spirv::ChannelTypeBytes(type);
  f.srgb = order == co::kSRGBA || order == co::kSBGRA;
  using A = std::array<int8_t, 4>;
  switch (order) {
    case co::kR:
      f.from_stored = A{0, -1, -1, -2}, f.to_stored = A{0, 0, 0, 0};
      break;
    case co::kA:
      f.from_stored = A{-1, -1, -1, 0}, f.to_stored = A{3, 0, 0, 0};
      break;
    case co::kRG:
      f.from_stored = A{0, 1, -1, -2}, f.to_stored = A{0, 1, 0, 0};
      break;
    case co::kRA:
      f.from_stored = A{0, -1, -1, 1}, f.to_stored = A{0, 3, 0, 0};
      break;
    case co::kRGB:
      f.from_stored = A{0, 1, 2, -2}, f.to_stored = A{0, 1, 2, 0};
      break;
    case co::kBGRA:
    case co::kSBGRA:
      f.from_stored = A{2, 1, 0, 3}, f.to_stored = A{2, 1, 0, 3};
      break;
    case co::kARGB:
      f.from_stored = A{1, 2, 3, 0}, f.to_stored = A{3, 0, 1, 2};
      break;
    case co::kABGR:
      f.from_stored = A{3, 2, 1, 0}, f.to_stored = A{3, 2, 1, 0};
      break;
    case co::kIntensity:
      f.from_stored = A{0, 0, 0, 0}, f.to_stored = A{0, 0, 0, 0};
      break;
    case co::kLuminance:
      f.from_stored = A{0, 0, 0, -2}, f.to_stored = A{0, 0, 0, 0};
      break;
    default:  // RGBA, sRGBA
      f.from_stored = A{0, 1, 2, 3}, f.to_stored = A{0, 1, 2, 3};
      break;
  }
  return f;
}

void DecodeTexelFloat(const TexelFormat& f, const uint8_t* texel,
                      float out[4]) {
  uint32_t raw[4] = {0, 0, 0, 0};
  LoadRaw(f, texel, raw);
  float ch[4];
  for (uint32_t i = 0; i < f.stored; ++i) ch[i] = ChannelToFloat(f, i, raw[i]);
  for (int c = 0; c < 4; ++c) {
    const int s = f.from_stored[c];
    out[c] = s >= 0 ? ch[s] : (s == -2 ? 1.0f : 0.0f);
  }
  if (f.srgb) {
    for (int c = 0; c < 3; ++c) out[c] = SrgbToLinear(out[c]);
  }
}

void DecodeTexelInt(const TexelFormat& f, const uint8_t* texel,
                    uint32_t out[4]) {
  uint32_t raw[4] = {0, 0, 0, 0};
  LoadRaw(f, texel, raw);
  if (f.type == ct::kSignedInt8) {
    for (uint32_t i = 0; i < f.stored; ++i)
      raw[i] = static_cast<uint32_t>(static_cast<int8_t>(raw[i]));
  } else if (f.type == ct::kSignedInt16) {
    for (uint32_t i = 0; i < f.stored; ++i)
      raw[i] = static_cast<uint32_t>(static_cast<int16_t>(raw[i]));
  }
  for (int c = 0; c < 4; ++c) {
    const int s = f.from_stored[c];
    out[c] = s >= 0 ? raw[s] : (s == -2 ? 1u : 0u);
  }
}

void EncodeTexelFloat(const TexelFormat& f, const float in[4], uint8_t* texel) {
  uint32_t raw[4] = {0, 0, 0, 0};
  for (uint32_t i = 0; i < f.stored; ++i) {
    const int c = f.to_stored[i];
    const float v = f.srgb && c < 3 ? LinearToSrgb(in[c]) : in[c];
    raw[i] = FloatToChannel(f, i, v);
  }
  StoreRaw(f, raw, texel);
}

void EncodeTexelInt(const TexelFormat& f, const uint32_t in[4],
                    uint8_t* texel) {
  uint32_t raw[4] = {0, 0, 0, 0};
  for (uint32_t i = 0; i < f.stored; ++i) {
    const uint32_t v = in[f.to_stored[i]];
    const int32_t s = static_cast<int32_t>(v);
    switch (f.type) {
      case ct::kSignedInt8:
        raw[i] = static_cast<uint32_t>(std::clamp(s, -128, 127)) & 0xff;
        break;
      case ct::kSignedInt16:
        raw[i] = static_cast<uint32_t>(std::clamp(s, -32768, 32767)) & 0xffff;
        break;
      case ct::kUnsignedInt8:
        raw[i] = std::min(v, 255u);
        break;
      case ct::kUnsignedInt16:
        raw[i] = std::min(v, 65535u);
        break;
      default:  // 32-bit: the value itself
        raw[i] = v;
    }
  }
  StoreRaw(f, raw, texel);
}

bool BorderAlphaIsOne(uint32_t order) {
  return order == co::kR || order == co::kRG || order == co::kRGB ||
         order == co::kLuminance;
}

}  // namespace l0spv::oracles::reference
