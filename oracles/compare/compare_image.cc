#include "oracles/compare/compare_image.h"

#include <cmath>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "spirv/numeric_bits.h"

namespace l0spv::oracles {
namespace {

// Half bits mapped to a monotonic integer line (+0 and -0 both 0).
int32_t OrderedHalf(uint32_t h) {
  const int32_t magnitude = static_cast<int32_t>(h & 0x7fff);
  return (h & 0x8000) ? -magnitude : magnitude;
}

bool IsHalfNan(uint32_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
bool IsFloatNan(uint32_t f) {
  return (f & 0x7f800000u) == 0x7f800000u && (f & 0x7fffffu);
}

// Whether stored channel values a (reference) and b (target) agree.
bool ChannelsAgree(spirv::ChannelClass cls, uint32_t a, uint32_t b) {
  switch (cls) {
    case spirv::ChannelClass::kNormalized: {
      // Packed and unsigned-normalised fields are unsigned; snorm channels
      // are two's complement of their width, but a difference of 1 in the
      // stored integer is 1 in the raw bits either way except across the
      // sign boundary, which only saturated values (-127 vs -128) reach.
      const int64_t d = static_cast<int64_t>(a) - static_cast<int64_t>(b);
      return std::llabs(d) <= 1 ||
             // snorm8 -128 and -127 both mean -1.0
             ((a == 0x80 && b == 0x81) || (a == 0x81 && b == 0x80)) ||
             ((a == 0x8000 && b == 0x8001) || (a == 0x8001 && b == 0x8000));
    }
    case spirv::ChannelClass::kHalf:
      if (IsHalfNan(a) || IsHalfNan(b)) return IsHalfNan(a) && IsHalfNan(b);
      return std::abs(OrderedHalf(a) - OrderedHalf(b)) <= 1;
    case spirv::ChannelClass::kFloat:
      if (IsFloatNan(a) || IsFloatNan(b)) return IsFloatNan(a) && IsFloatNan(b);
      return a == b;
    case spirv::ChannelClass::kSigned:
    case spirv::ChannelClass::kUnsigned:
      return a == b;
  }
  return a == b;
}

std::string ChannelValue(spirv::ChannelClass cls, uint32_t v) {
  switch (cls) {
    case spirv::ChannelClass::kHalf:
      return absl::StrFormat("%g (0x%04x)", spirv::HalfToFloat(v), v);
    case spirv::ChannelClass::kFloat:
      return absl::StrFormat("%g (0x%08x)", spirv::BitsToFloat(v), v);
    default:
      return absl::StrFormat("%u (0x%x)", v, v);
  }
}

}  // namespace

CompareResult CompareImage(size_t arg, const spirv::ImageDesc& desc,
                           const std::vector<uint8_t>& expected,
                           const std::vector<uint8_t>& actual) {
  CompareResult r;
  if (expected.size() != actual.size() ||
      expected.size() != spirv::ImageBytes(desc)) {
    r.equal = false;
    r.signature_kind = "size";
    r.explanation = absl::StrFormat(
        "argument %d: image %s has %d bytes on the reference but %d on the "
        "target (%d expected)",
        arg, spirv::DescribeImage(desc), expected.size(), actual.size(),
        spirv::ImageBytes(desc));
    return r;
  }
  const uint32_t texel_bytes = spirv::TexelBytes(desc.order, desc.type);
  const spirv::ChannelClass cls = spirv::ClassOfChannelType(desc.type);
  const uint32_t channels = spirv::IsPackedChannelType(desc.type)
                                ? 3
                                : spirv::ChannelCount(desc.order);
  const auto extent = spirv::StorageExtent(desc);
  uint64_t differing = 0;
  for (uint64_t t = 0; t < spirv::TexelCount(desc); ++t) {
    const auto a = spirv::UnpackStoredChannels(desc.order, desc.type,
                                               &expected[t * texel_bytes]);
    const auto b = spirv::UnpackStoredChannels(desc.order, desc.type,
                                               &actual[t * texel_bytes]);
    for (uint32_t c = 0; c < channels; ++c) {
      if (ChannelsAgree(cls, a[c], b[c])) continue;
      if (differing++ != 0) break;
      const uint64_t x = t % extent[0], y = t / extent[0] % extent[1],
                     z = t / (extent[0] * extent[1]);
      r.explanation = absl::StrFormat(
          "argument %d: image %s texel (%d, %d, %d) stored channel %d "
          "expected %s, actual %s (tolerance: %s)",
          arg, spirv::DescribeImage(desc), x, y, z, c, ChannelValue(cls, a[c]),
          ChannelValue(cls, b[c]),
          cls == spirv::ChannelClass::kNormalized ? "1 in the stored integer"
          : cls == spirv::ChannelClass::kHalf     ? "1 ulp"
                                                  : "exact");
    }
  }
  if (differing == 0) return r;
  r.equal = false;
  r.signature_kind = "image";
  absl::StrAppend(&r.explanation, "; ", differing,
                  " differing texel(s) in this image");
  return r;
}

}  // namespace l0spv::oracles
