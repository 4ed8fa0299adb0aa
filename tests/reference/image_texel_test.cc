// The texel codec (image_texel.h) and sampler addressing/filtering
// (image_sample.h) of the reference interpreter, tested directly: every
// channel order × data type round trip, the conversion rules, every
// addressing mode × filter with normalised and unnormalised coordinates,
// border colours, array layers and 3D, and the sampling UB checks.
#include "oracles/reference/image_texel.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "oracles/reference/image_sample.h"
#include "oracles/reference/image_state.h"
#include "spirv/image_format.h"
#include "spirv/numeric_bits.h"

namespace l0spv::oracles::reference {
namespace {

namespace co = spirv::channel_order;
namespace ct = spirv::channel_type;
using spirv::AddressingMode;
using spirv::ChannelClass;
using spirv::FilterMode;
using spirv::SamplerDesc;

constexpr uint32_t kOrders[] = {
    co::kR,     co::kA,     co::kRG,   co::kRA,        co::kRGB,
    co::kRGBA,  co::kBGRA,  co::kARGB, co::kIntensity, co::kLuminance,
    co::kSRGBA, co::kSBGRA, co::kABGR};
constexpr uint32_t kTypes[] = {
    ct::kSnormInt8,      ct::kSnormInt16,    ct::kUnormInt8,
    ct::kUnormInt16,     ct::kUnormShort565, ct::kUnormShort555,
    ct::kUnormInt101010, ct::kSignedInt8,    ct::kSignedInt16,
    ct::kSignedInt32,    ct::kUnsignedInt8,  ct::kUnsignedInt16,
    ct::kUnsignedInt32,  ct::kHalfFloat,     ct::kFloat};

// What a kernel reads back after writing `in` (OpenCL 1.2 §8.3 channel
// mapping: missing channels 0, missing alpha `one`; Intensity replicates
// red into all four, Luminance into RGB; A keeps alpha).
template <typename T>
std::array<T, 4> Mapped(uint32_t order, const std::array<T, 4>& in, T one) {
  const T r = in[0], g = in[1], b = in[2], a = in[3];
  switch (order) {
    case co::kR:
      return {r, 0, 0, one};
    case co::kA:
      return {0, 0, 0, a};
    case co::kRG:
      return {r, g, 0, one};
    case co::kRA:
      return {r, 0, 0, a};
    case co::kRGB:
      return {r, g, b, one};
    case co::kIntensity:
      return {r, r, r, r};
    case co::kLuminance:
      return {r, r, r, one};
    default:
      return in;
  }
}

// Largest value per channel of a normalised type (packed: per field).
float NormMax(uint32_t type, int channel) {
  switch (type) {
    case ct::kSnormInt8:
      return 127;
    case ct::kSnormInt16:
      return 32767;
    case ct::kUnormInt8:
      return 255;
    case ct::kUnormInt16:
      return 65535;
    case ct::kUnormShort565:
      return channel == 1 ? 63 : 31;
    case ct::kUnormShort555:
      return 31;
    default:
      return 1023;
  }
}

TEST(ReferenceImageTexel, EveryOrderAndTypeRoundTrips) {
  int pairs = 0;
  for (uint32_t order : kOrders) {
    for (uint32_t type : kTypes) {
      if (spirv::TexelBytes(order, type) == 0) continue;
      ++pairs;
      SCOPED_TRACE(spirv::ChannelOrderName(order) + " " +
                   spirv::ChannelTypeName(type));
      const TexelFormat f = MakeTexelFormat(order, type);
      std::vector<uint8_t> texel(f.bytes, 0xAB);
      const ChannelClass cls = spirv::ClassOfChannelType(type);
      if (cls == ChannelClass::kSigned || cls == ChannelClass::kUnsigned) {
        const bool s = cls == ChannelClass::kSigned;
        const std::array<uint32_t, 4> in = {s ? static_cast<uint32_t>(-5) : 5u,
                                            17u, s ? 0xFFFFFFF9u : 9u, 100u};
        EncodeTexelInt(f, in.data(), texel.data());
        std::array<uint32_t, 4> out{};
        DecodeTexelInt(f, texel.data(), out.data());
        EXPECT_EQ(out, Mapped<uint32_t>(order, in, 1u));
        continue;
      }
      std::array<float, 4> in;
      if (cls == ChannelClass::kNormalized) {
        // k / max: exact after quantisation (sRGB: 0 and 1 are fixed
        // points of the transfer function).
        const bool srgb = order == co::kSRGBA || order == co::kSBGRA;
        const float k[4] = {3, 1, 2, 1};
        for (int c = 0; c < 4; ++c)
          in[c] =
              srgb && c < 3 ? (c == 1 ? 0.0f : 1.0f) : k[c] / NormMax(type, c);
        if (type == ct::kSnormInt8 || type == ct::kSnormInt16) in[1] = -in[1];
      } else {
        in = {0.25f, -1.5f, 3.0f, 0.125f};
      }
      EncodeTexelFloat(f, in.data(), texel.data());
      std::array<float, 4> out{};
      DecodeTexelFloat(f, texel.data(), out.data());
      EXPECT_EQ(out, Mapped<float>(order, in, 1.0f));
    }
  }
  // R, A, RG, RA, RGBA: 12 types each; RGB: 3 packed; BGRA, ARGB, ABGR: 4
  // 8-bit types each; Intensity, Luminance: 6 each; sRGBA, sBGRA: 1 each.
  EXPECT_EQ(pairs, 89);
}

TEST(ReferenceImageTexel, NormalisedWritesRoundToNearestEvenAndSaturate) {
  const TexelFormat f = MakeTexelFormat(co::kRGBA, ct::kUnormInt8);
  uint8_t t[4];
  const float in[4] = {0.5f, 2.0f, -1.0f, NAN};  // 127.5 → 128 (even)
  EncodeTexelFloat(f, in, t);
  EXPECT_EQ(t[0], 128);
  EXPECT_EQ(t[1], 255);
  EXPECT_EQ(t[2], 0);
  EXPECT_EQ(t[3], 0);
  const float in2[4] = {2.5f / 255, 3.5f / 255, 0, 1};  // 2.5 → 2, 3.5 → 4
  EncodeTexelFloat(f, in2, t);
  EXPECT_EQ(t[0], 2);
  EXPECT_EQ(t[1], 4);
  const TexelFormat s = MakeTexelFormat(co::kR, ct::kSnormInt8);
  const float m2[4] = {-2.0f, 0, 0, 0};
  EncodeTexelFloat(s, m2, t);
  EXPECT_EQ(static_cast<int8_t>(t[0]), -128);
  float out[4];
  DecodeTexelFloat(s, t, out);
  EXPECT_EQ(out[0], -1.0f);  // -128 / 127 clamps to -1
}

TEST(ReferenceImageTexel, IntegerWritesSaturate) {
  uint8_t t[8];
  const uint32_t big[4] = {300, static_cast<uint32_t>(-300), 70000, 5};
  const TexelFormat s8 = MakeTexelFormat(co::kRGBA, ct::kSignedInt8);
  EncodeTexelInt(s8, big, t);
  EXPECT_EQ(static_cast<int8_t>(t[0]), 127);
  EXPECT_EQ(static_cast<int8_t>(t[1]), -128);
  const TexelFormat u8 = MakeTexelFormat(co::kRGBA, ct::kUnsignedInt8);
  EncodeTexelInt(u8, big, t);
  EXPECT_EQ(t[0], 255);
  EXPECT_EQ(t[1], 255);  // 4294966996 as unsigned saturates high
  const TexelFormat u16 = MakeTexelFormat(co::kRGBA, ct::kUnsignedInt16);
  EncodeTexelInt(u16, big, t);
  uint16_t v;
  std::memcpy(&v, t + 4, 2);
  EXPECT_EQ(v, 65535);
  const TexelFormat s16 = MakeTexelFormat(co::kRGBA, ct::kSignedInt16);
  const uint32_t neg[4] = {static_cast<uint32_t>(-40000), 1, 2, 3};
  EncodeTexelInt(s16, neg, t);
  std::memcpy(&v, t, 2);
  EXPECT_EQ(static_cast<int16_t>(v), -32768);
}

TEST(ReferenceImageTexel, PackedLayoutsAndHalfRounding) {
  uint8_t t[4] = {0, 0, 0, 0};
  const float white[4] = {1, 0, 1, 1};
  EncodeTexelFloat(MakeTexelFormat(co::kRGB, ct::kUnormShort565), white, t);
  uint16_t v16;
  std::memcpy(&v16, t, 2);
  EXPECT_EQ(v16, 0xF81F);  // r in 15:11, b in 4:0
  EncodeTexelFloat(MakeTexelFormat(co::kRGB, ct::kUnormShort555), white, t);
  std::memcpy(&v16, t, 2);
  EXPECT_EQ(v16, 0x7C1F);
  EncodeTexelFloat(MakeTexelFormat(co::kRGB, ct::kUnormInt101010), white, t);
  uint32_t v32;
  std::memcpy(&v32, t, 4);
  EXPECT_EQ(v32, 0x3FF003FFu);  // r in 29:20, b in 9:0
  // float -> half rounds to nearest even: 1 + 2^-11 is a tie → 1.
  const float tie[4] = {1.0f + 1.0f / 2048, 0, 0, 0};
  EncodeTexelFloat(MakeTexelFormat(co::kR, ct::kHalfFloat), tie, t);
  std::memcpy(&v16, t, 2);
  EXPECT_EQ(v16, 0x3C00);
  const float up[4] = {1.0f + 3.0f / 2048, 0, 0, 0};  // → 1 + 2^-9
  EncodeTexelFloat(MakeTexelFormat(co::kR, ct::kHalfFloat), up, t);
  std::memcpy(&v16, t, 2);
  EXPECT_EQ(v16, 0x3C02);
}

TEST(ReferenceImageTexel, SrgbConvertsColourButNotAlpha) {
  const TexelFormat f = MakeTexelFormat(co::kSRGBA, ct::kUnormInt8);
  uint8_t t[4];
  const float in[4] = {0.5f, 0.0f, 1.0f, 0.5f};
  EncodeTexelFloat(f, in, t);
  // linear 0.5 → sRGB 0.735357 → 187.52 → 188; alpha stays linear: 128.
  EXPECT_EQ(t[0], 188);
  EXPECT_EQ(t[1], 0);
  EXPECT_EQ(t[2], 255);
  EXPECT_EQ(t[3], 128);
  float out[4];
  DecodeTexelFloat(f, t, out);
  EXPECT_NEAR(out[0], 0.502886f, 1e-5);  // ((188/255 + 0.055)/1.055)^2.4
  EXPECT_EQ(out[3], 128.0f / 255.0f);
  // sBGRA stores b, g, r, a.
  EncodeTexelFloat(MakeTexelFormat(co::kSBGRA, ct::kUnormInt8), in, t);
  EXPECT_EQ(t[0], 255);
  EXPECT_EQ(t[2], 188);
}

TEST(ReferenceImageTexel, SwizzledOrdersStoreInTheirOrder) {
  const float in[4] = {1.0f / 255, 2.0f / 255, 3.0f / 255, 4.0f / 255};
  uint8_t t[4];
  EncodeTexelFloat(MakeTexelFormat(co::kBGRA, ct::kUnormInt8), in, t);
  EXPECT_EQ((std::vector<uint8_t>(t, t + 4)),
            (std::vector<uint8_t>{3, 2, 1, 4}));
  EncodeTexelFloat(MakeTexelFormat(co::kARGB, ct::kUnormInt8), in, t);
  EXPECT_EQ((std::vector<uint8_t>(t, t + 4)),
            (std::vector<uint8_t>{4, 1, 2, 3}));
  EncodeTexelFloat(MakeTexelFormat(co::kABGR, ct::kUnormInt8), in, t);
  EXPECT_EQ((std::vector<uint8_t>(t, t + 4)),
            (std::vector<uint8_t>{4, 3, 2, 1}));
}

// ---- sampling ----------------------------------------------------------

// A float image (R Float, or the order given) whose texel i has value
// values[i] in its first stored channel.
ImageState FloatImage(spirv::ImageDim dim, uint64_t w, uint64_t h,
                      uint64_t d_or_layers, std::vector<float> values,
                      uint32_t order = co::kR) {
  ImageState img;
  img.desc.dim = dim;
  img.desc.order = order;
  img.desc.type = ct::kFloat;
  img.desc.width = w;
  if (dim == spirv::ImageDim::k2D || dim == spirv::ImageDim::k2DArray ||
      dim == spirv::ImageDim::k3D)
    img.desc.height = h;
  if (dim == spirv::ImageDim::k3D) img.desc.depth = d_or_layers;
  if (dim == spirv::ImageDim::k1DArray) img.desc.array_size = h;
  if (dim == spirv::ImageDim::k2DArray) img.desc.array_size = d_or_layers;
  img.format = MakeTexelFormat(order, ct::kFloat);
  const auto e = spirv::StorageExtent(img.desc);
  img.extent = {e[0], e[1], e[2]};
  img.texels.assign(spirv::ImageBytes(img.desc), 0);
  for (size_t i = 0; i < values.size(); ++i)
    std::memcpy(img.texels.data() + i * img.format.bytes, &values[i], 4);
  return img;
}

float Sample1(const ImageState& img, SamplerDesc s, std::vector<float> c) {
  float out[4] = {-99, -99, -99, -99};
  SampleFault fault;
  c.resize(4, 0.0f);
  EXPECT_TRUE(SampleFloat(img, s, c.data(), out, &fault))
      << (fault.check ? fault.check : "");
  return out[0];
}

SamplerDesc Smp(bool normalized, AddressingMode a, FilterMode f) {
  SamplerDesc s;
  s.normalized = normalized;
  s.addressing = a;
  s.filter = f;
  return s;
}

constexpr auto kNear = FilterMode::kNearest;
constexpr auto kLin = FilterMode::kLinear;

TEST(ReferenceImageSample, NearestEveryAddressingMode) {
  // 1D, width 4, texel i = 10 + i.
  const ImageState img =
      FloatImage(spirv::ImageDim::k1D, 4, 1, 1, {10, 11, 12, 13});
  using A = AddressingMode;
  // Normalised: u = s * 4.
  EXPECT_EQ(Sample1(img, Smp(true, A::kNone, kNear), {0.6f}), 12);
  EXPECT_EQ(Sample1(img, Smp(true, A::kClampToEdge, kNear), {1.7f}), 13);
  EXPECT_EQ(Sample1(img, Smp(true, A::kClampToEdge, kNear), {-0.7f}), 10);
  EXPECT_EQ(Sample1(img, Smp(true, A::kClamp, kNear), {0.99f}), 13);
  EXPECT_EQ(Sample1(img, Smp(true, A::kClamp, kNear), {1.3f}), 0);  // border
  EXPECT_EQ(Sample1(img, Smp(true, A::kRepeat, kNear), {1.3f}), 11);
  EXPECT_EQ(Sample1(img, Smp(true, A::kRepeat, kNear), {-0.2f}), 13);
  // Mirrored: s' = |s - 2 rint(s / 2)|; 1.3 → 0.7 → texel 2; -0.2 → 0.2 → 0.
  EXPECT_EQ(Sample1(img, Smp(true, A::kRepeatMirrored, kNear), {1.3f}), 12);
  EXPECT_EQ(Sample1(img, Smp(true, A::kRepeatMirrored, kNear), {-0.2f}), 10);
  EXPECT_EQ(Sample1(img, Smp(true, A::kRepeatMirrored, kNear), {1.0f}), 13);
  // Unnormalised: u = s.
  EXPECT_EQ(Sample1(img, Smp(false, A::kNone, kNear), {2.9f}), 12);
  EXPECT_EQ(Sample1(img, Smp(false, A::kClampToEdge, kNear), {7.0f}), 13);
  EXPECT_EQ(Sample1(img, Smp(false, A::kClamp, kNear), {-0.5f}), 0);
  EXPECT_EQ(Sample1(img, Smp(false, A::kClamp, kNear), {0.5f}), 10);
}

TEST(ReferenceImageSample, LinearEveryAddressingMode) {
  const ImageState img =
      FloatImage(spirv::ImageDim::k1D, 4, 1, 1, {10, 20, 40, 80});
  using A = AddressingMode;
  // Unnormalised 1.75: i0 = floor(1.25) = 1, a = 0.25 → 0.75*20 + 0.25*40.
  EXPECT_EQ(Sample1(img, Smp(false, A::kClampToEdge, kLin), {1.75f}), 25);
  EXPECT_EQ(Sample1(img, Smp(false, A::kNone, kLin), {1.75f}), 25);
  // Normalised 0.4375 → u = 1.75: the same.
  EXPECT_EQ(Sample1(img, Smp(true, A::kClamp, kLin), {0.4375f}), 25);
  // Edges: u = 0.25 → i0 = -1, i1 = 0, a = 0.75: clamp-to-edge 10, clamp
  // mixes the border 0 in: 0.25*0 + 0.75*10.
  EXPECT_EQ(Sample1(img, Smp(false, A::kClampToEdge, kLin), {0.25f}), 10);
  EXPECT_EQ(Sample1(img, Smp(false, A::kClamp, kLin), {0.25f}), 7.5f);
  // Repeat: u = 0.0625*4 = 0.25 → i0 = -1 → 3, i1 = 0: 0.25*80 + 0.75*10.
  EXPECT_EQ(Sample1(img, Smp(true, A::kRepeat, kLin), {0.0625f}), 27.5f);
  // Repeat at the right edge: s = 0.9375 → u = 3.75: i0 = 3, i1 = 4 → 0,
  // a = 0.25: 0.75*80 + 0.25*10.
  EXPECT_EQ(Sample1(img, Smp(true, A::kRepeat, kLin), {0.9375f}), 62.5f);
  // Mirrored: s = 1.0625 → s' = 0.9375 → u = 3.75: i0 = 3, i1 = min(4, 3).
  EXPECT_EQ(Sample1(img, Smp(true, A::kRepeatMirrored, kLin), {1.0625f}), 80);
  // Mirrored: s = -0.0625 → 0.0625 → u = 0.25: i0 = max(-1, 0) = 0.
  EXPECT_EQ(Sample1(img, Smp(true, A::kRepeatMirrored, kLin), {-0.0625f}), 10);
}

TEST(ReferenceImageSample, Bilinear2DAndTrilinear3D) {
  // 2x2: 0 10 / 20 30.
  const ImageState img2 =
      FloatImage(spirv::ImageDim::k2D, 2, 2, 1, {0, 10, 20, 30});
  // u = 0.75, v = 1.25 → i0 = 0, a = 0.25; j0 = 0, b = 0.75:
  // 0.75*0.25*0 + 0.25*0.25*10 + 0.75*0.75*20 + 0.25*0.75*30 = 17.5.
  EXPECT_EQ(Sample1(img2, Smp(false, AddressingMode::kClampToEdge, kLin),
                    {0.75f, 1.25f}),
            17.5f);
  // 2x2x2: texel (i, j, k) = i + 2j + 4k; the centre mixes all equally.
  const ImageState img3 =
      FloatImage(spirv::ImageDim::k3D, 2, 2, 2, {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(Sample1(img3, Smp(true, AddressingMode::kClampToEdge, kLin),
                    {0.5f, 0.5f, 0.5f}),
            3.5f);
  EXPECT_EQ(Sample1(img3, Smp(false, AddressingMode::kNone, kNear),
                    {1.5f, 0.5f, 1.5f}),
            5);
}

TEST(ReferenceImageSample, ArrayLayersRoundAndClamp) {
  // 1D array: width 2, 3 layers; texel (i, l) = 10 l + i.
  const ImageState a1 =
      FloatImage(spirv::ImageDim::k1DArray, 2, 3, 1, {0, 1, 10, 11, 20, 21});
  const SamplerDesc s = Smp(true, AddressingMode::kClampToEdge, kNear);
  EXPECT_EQ(Sample1(a1, s, {0.75f, 1.4f}), 11);  // rint(1.4) = 1
  EXPECT_EQ(Sample1(a1, s, {0.25f, 2.5f}), 20);  // rint(2.5) = 2 (even)
  EXPECT_EQ(Sample1(a1, s, {0.25f, 9.0f}), 20);  // clamped to 2
  EXPECT_EQ(Sample1(a1, s, {0.25f, -3.0f}), 0);  // clamped to 0
  // 2D array: 1x1 per layer, 2 layers.
  const ImageState a2 = FloatImage(spirv::ImageDim::k2DArray, 1, 1, 2, {5, 6});
  EXPECT_EQ(Sample1(a2, s, {0.5f, 0.5f, 0.6f}), 6);
}

TEST(ReferenceImageSample, BorderColourDependsOnAlpha) {
  const SamplerDesc s = Smp(false, AddressingMode::kClamp, kNear);
  for (uint32_t order : {co::kR, co::kRG, co::kRGBA, co::kA, co::kIntensity,
                         co::kLuminance, co::kBGRA}) {
    ImageState img = FloatImage(spirv::ImageDim::k1D, 2, 1, 1, {}, order);
    float out[4];
    SampleFault fault;
    const float c[4] = {-1.0f, 0, 0, 0};
    ASSERT_TRUE(SampleFloat(img, s, c, out, &fault));
    const bool alpha_one =
        order == co::kR || order == co::kRG || order == co::kLuminance;
    EXPECT_EQ(out[0], 0.0f);
    EXPECT_EQ(out[3], alpha_one ? 1.0f : 0.0f)
        << spirv::ChannelOrderName(order);
  }
  // Integer images: the border alpha is the integer 1.
  ImageState ii = FloatImage(spirv::ImageDim::k1D, 2, 1, 1, {});
  ii.desc.type = ct::kUnsignedInt32;
  ii.format = MakeTexelFormat(co::kR, ct::kUnsignedInt32);
  uint32_t out[4];
  SampleFault fault;
  const float c[4] = {5.0f, 0, 0, 0};
  ASSERT_TRUE(SampleInt(ii, s, c, out, &fault));
  EXPECT_EQ(out[3], 1u);
  EXPECT_EQ(out[0], 0u);
}

TEST(ReferenceImageSample, UndefinedCasesAreReported) {
  const ImageState img =
      FloatImage(spirv::ImageDim::k2D, 4, 4, 1, std::vector<float>(16, 1));
  float out[4];
  auto fails = [&](SamplerDesc s, float x, float y) {
    SampleFault fault;
    const float c[4] = {x, y, 0, 0};
    const bool ok = SampleFloat(img, s, c, out, &fault);
    return ok ? std::string() : std::string(fault.check);
  };
  using A = AddressingMode;
  // None: out of range is UB, in range is not.
  EXPECT_NE(fails(Smp(false, A::kNone, kNear), 4.0f, 1.0f), "");
  EXPECT_EQ(fails(Smp(false, A::kNone, kNear), 3.9f, 1.0f), "");
  // None + linear: an out-of-range texel with a nonzero weight is UB ...
  EXPECT_NE(fails(Smp(false, A::kNone, kLin), 0.25f, 1.5f), "");
  // ... one with weight 0 (u exactly on a texel centre) is not.
  EXPECT_EQ(fails(Smp(false, A::kNone, kLin), 3.5f, 3.5f), "");
  // Repeat / mirrored repeat with unnormalised coordinates.
  EXPECT_NE(fails(Smp(false, A::kRepeat, kNear), 1, 1), "");
  EXPECT_NE(fails(Smp(false, A::kRepeatMirrored, kLin), 1, 1), "");
  EXPECT_EQ(fails(Smp(true, A::kRepeat, kNear), 1, 1), "");
  // NaN coordinates.
  EXPECT_NE(fails(Smp(true, A::kClampToEdge, kNear), NAN, 0), "");
  // Linear filtering of an integer image.
  ImageState ii = img;
  ii.desc.type = ct::kSignedInt32;
  ii.format = MakeTexelFormat(co::kR, ct::kSignedInt32);
  uint32_t iout[4];
  SampleFault fault;
  const float c[4] = {1, 1, 0, 0};
  EXPECT_FALSE(
      SampleInt(ii, Smp(false, A::kClampToEdge, kLin), c, iout, &fault));
  EXPECT_TRUE(
      SampleInt(ii, Smp(false, A::kClampToEdge, kNear), c, iout, &fault));
}

}  // namespace
}  // namespace l0spv::oracles::reference
