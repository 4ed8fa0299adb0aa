// oracles/reference/level_zero/ze_image_format.h — the one translation
// between Level Zero image/sampler descriptors (ze_image_desc_t,
// ze_image_format_t, ze_sampler_desc_t) and the project's ImageDesc /
// SamplerDesc (spirv/image_format.h: SPIR-V channel orders and types).
//
// Why here: the reference driver (this folder) turns an application's
// ze_image_desc_t into the ImageDesc its interpreter runs, and the `gpu`
// target (oracles/targets/level_zero_target.cc) turns a test case's ImageDesc
// into the ze_image_desc_t it creates. Both must agree, so the mapping lives
// in one place. The target already depends on this folder
// (l0spv_reference_ext.h) and the driver may not depend on oracles/targets
// (that would be an upward arrow), so this header-only file sits with the
// driver and needs nothing beyond ze_api.h and spirv/image_format.h.
//
// Contract (the convention both sides use, also for other Level Zero
// drivers the `gpu` target runs on):
// - Channel type: layout width + ze type. 8/16/32-bit layouts with UINT,
//   SINT (UnsignedIntN / SignedIntN), UNORM, SNORM (8 and 16 bits) and FLOAT
//   (16: HalfFloat, 32: Float); LAYOUT_5_6_5 UNORM is UnormShort565 (OpenCL's
//   bit order, red in the high bits). UnormShort555 and UnormInt101010 have
//   no Level Zero layout with OpenCL's bit order (5_5_5_1 and 10_10_10_2
//   carry alpha), and sRGB orders have no Level Zero format: refused with
//   the reason.
// - Channel order: the layout stores the order's channels in storage order
//   (BGRA: b first); swizzle x,y,z,w names, for red, green, blue and alpha,
//   which stored component (R = first, G = second, ...) feeds it or 0/1.
//   RGBA = (R,G,B,A), BGRA = (B,G,R,A), ARGB = (G,B,A,R), ABGR = (A,B,G,R),
//   R = (R,0,0,1), A = (0,0,0,R), RG = (R,G,0,1), RA = (R,0,0,G),
//   Intensity = (R,R,R,R), Luminance = (R,R,R,1), RGB (565) = (R,G,B,1).
//   Reading back, a swizzle that names a component the layout does not have
//   counts as 0 (x, y, z) or 1 (w), and X (don't care) matches 0 or 1, so
//   the common "always (R,G,B,A)" descriptor of a one-channel layout is R.
// - Image type: 1D, 1DARRAY, 2D, 2DARRAY, 3D, BUFFER (1d_buffer). Width is
//   in texels, except BUFFER, whose width is in bytes as the Level Zero
//   specification says (a whole number of texels). arraylevels is the array
//   size; unused extents are 1 in ImageDesc.
// - Samplers: NONE = None, REPEAT = Repeat, CLAMP = ClampToEdge (Level
//   Zero's CLAMP clamps to the edge), CLAMP_TO_BORDER = Clamp (OpenCL's
//   CLK_ADDRESS_CLAMP returns the border colour), MIRROR = RepeatMirrored;
//   NEAREST/LINEAR; isNormalized.
// - Access: ZE_IMAGE_FLAG_KERNEL_WRITE for write_only and read_write images.
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <cstdint>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "spirv/image_format.h"

namespace l0spv::zeref {

namespace image_format_detail {

// Components stored per texel of a non-media layout; 0 for others.
inline uint32_t LayoutComponents(ze_image_format_layout_t layout) {
  switch (layout) {
    case ZE_IMAGE_FORMAT_LAYOUT_8:
    case ZE_IMAGE_FORMAT_LAYOUT_16:
    case ZE_IMAGE_FORMAT_LAYOUT_32:
      return 1;
    case ZE_IMAGE_FORMAT_LAYOUT_8_8:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_32_32:
      return 2;
    case ZE_IMAGE_FORMAT_LAYOUT_5_6_5:
      return 3;
    case ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8:
    case ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16:
    case ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32:
      return 4;
    default:
      return 0;
  }
}

// The layout of `components` channels of `bits` each; FORCE_UINT32 if none.
inline ze_image_format_layout_t LayoutOf(uint32_t bits, uint32_t components) {
  static constexpr ze_image_format_layout_t kTable[3][4] = {
      {ZE_IMAGE_FORMAT_LAYOUT_8, ZE_IMAGE_FORMAT_LAYOUT_8_8,
       ZE_IMAGE_FORMAT_LAYOUT_FORCE_UINT32, ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8},
      {ZE_IMAGE_FORMAT_LAYOUT_16, ZE_IMAGE_FORMAT_LAYOUT_16_16,
       ZE_IMAGE_FORMAT_LAYOUT_FORCE_UINT32, ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16},
      {ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_LAYOUT_32_32,
       ZE_IMAGE_FORMAT_LAYOUT_FORCE_UINT32,
       ZE_IMAGE_FORMAT_LAYOUT_32_32_32_32}};
  const int row = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : -1;
  if (row < 0 || components < 1 || components > 4)
    return ZE_IMAGE_FORMAT_LAYOUT_FORCE_UINT32;
  return kTable[row][components - 1];
}

using Swizzle = std::array<ze_image_format_swizzle_t, 4>;

// The swizzle of a channel order (see the contract); false if none.
inline bool SwizzleOf(uint32_t order, Swizzle* out) {
  namespace co = spirv::channel_order;
  constexpr auto R = ZE_IMAGE_FORMAT_SWIZZLE_R, G = ZE_IMAGE_FORMAT_SWIZZLE_G,
                 B = ZE_IMAGE_FORMAT_SWIZZLE_B, A = ZE_IMAGE_FORMAT_SWIZZLE_A,
                 Z = ZE_IMAGE_FORMAT_SWIZZLE_0, O = ZE_IMAGE_FORMAT_SWIZZLE_1;
  switch (order) {
    case co::kR:
      *out = {R, Z, Z, O};
      return true;
    case co::kA:
      *out = {Z, Z, Z, R};
      return true;
    case co::kRG:
      *out = {R, G, Z, O};
      return true;
    case co::kRA:
      *out = {R, Z, Z, G};
      return true;
    case co::kRGB:
      *out = {R, G, B, O};
      return true;
    case co::kRGBA:
      *out = {R, G, B, A};
      return true;
    case co::kBGRA:
      *out = {B, G, R, A};
      return true;
    case co::kARGB:
      *out = {G, B, A, R};
      return true;
    case co::kABGR:
      *out = {A, B, G, R};
      return true;
    case co::kIntensity:
      *out = {R, R, R, R};
      return true;
    case co::kLuminance:
      *out = {R, R, R, O};
      return true;
    default:
      return false;
  }
}

}  // namespace image_format_detail

// The Level Zero format of an OpenCL order/type pair, or kUnimplemented
// saying why there is none.
inline absl::StatusOr<ze_image_format_t> ZeFormatOf(uint32_t order,
                                                    uint32_t type) {
  namespace ct = spirv::channel_type;
  namespace d = image_format_detail;
  const std::string what = absl::StrCat(spirv::ChannelOrderName(order), " ",
                                        spirv::ChannelTypeName(type));
  if (spirv::TexelBytes(order, type) == 0)
    return absl::InvalidArgumentError(
        absl::StrCat(what, " is not an OpenCL image format"));
  d::Swizzle swizzle{};
  if (!d::SwizzleOf(order, &swizzle))
    return absl::UnimplementedError(
        absl::StrCat(what, ": Level Zero has no format with channel order ",
                     spirv::ChannelOrderName(order)));
  ze_image_format_t f{};
  switch (type) {
    case ct::kUnormShort565:
      f.layout = ZE_IMAGE_FORMAT_LAYOUT_5_6_5;
      f.type = ZE_IMAGE_FORMAT_TYPE_UNORM;
      break;
    case ct::kUnormShort555:
    case ct::kUnormInt101010:
      return absl::UnimplementedError(absl::StrCat(
          what,
          ": Level Zero has no layout with OpenCL's bit order for this packed "
          "type (5_5_5_1 and 10_10_10_2 carry alpha)"));
    default: {
      switch (spirv::ClassOfChannelType(type)) {
        case spirv::ChannelClass::kUnsigned:
          f.type = ZE_IMAGE_FORMAT_TYPE_UINT;
          break;
        case spirv::ChannelClass::kSigned:
          f.type = ZE_IMAGE_FORMAT_TYPE_SINT;
          break;
        case spirv::ChannelClass::kHalf:
        case spirv::ChannelClass::kFloat:
          f.type = ZE_IMAGE_FORMAT_TYPE_FLOAT;
          break;
        case spirv::ChannelClass::kNormalized:
          f.type = type == ct::kSnormInt8 || type == ct::kSnormInt16
                       ? ZE_IMAGE_FORMAT_TYPE_SNORM
                       : ZE_IMAGE_FORMAT_TYPE_UNORM;
          break;
      }
      f.layout = d::LayoutOf(spirv::ChannelTypeBytes(type) * 8,
                             spirv::ChannelCount(order));
      if (f.layout == ZE_IMAGE_FORMAT_LAYOUT_FORCE_UINT32)
        return absl::UnimplementedError(
            absl::StrCat(what, ": Level Zero has no layout for it"));
    }
  }
  f.x = swizzle[0];
  f.y = swizzle[1];
  f.z = swizzle[2];
  f.w = swizzle[3];
  return f;
}

// The OpenCL order/type pair of a Level Zero format: {order, type}, or
// kInvalidArgument (not a valid format) / kUnimplemented (valid, but without
// an OpenCL image format: media layouts, 11_11_10, 4_4_4_4, ...).
inline absl::StatusOr<std::pair<uint32_t, uint32_t>> SpirvFormatOf(
    const ze_image_format_t& f) {
  namespace ct = spirv::channel_type;
  namespace d = image_format_detail;
  if (f.type > ZE_IMAGE_FORMAT_TYPE_FLOAT)
    return absl::InvalidArgumentError(
        absl::StrCat("image format type ", static_cast<uint32_t>(f.type),
                     " is not a ze_image_format_type_t"));
  if (f.layout > ZE_IMAGE_FORMAT_LAYOUT_BRGP)
    return absl::InvalidArgumentError(
        absl::StrCat("image format layout ", static_cast<uint32_t>(f.layout),
                     " is not a ze_image_format_layout_t"));
  const ze_image_format_swizzle_t given[4] = {f.x, f.y, f.z, f.w};
  for (ze_image_format_swizzle_t s : given)
    if (s > ZE_IMAGE_FORMAT_SWIZZLE_X)
      return absl::InvalidArgumentError(
          absl::StrCat("image format swizzle ", static_cast<uint32_t>(s),
                       " is not a ze_image_format_swizzle_t"));
  const uint32_t components = d::LayoutComponents(f.layout);
  if (components == 0)
    return absl::UnimplementedError(
        absl::StrCat("image format layout ", static_cast<uint32_t>(f.layout),
                     " has no OpenCL image format on this device"));
  uint32_t type = 0;
  if (f.layout == ZE_IMAGE_FORMAT_LAYOUT_5_6_5) {
    if (f.type != ZE_IMAGE_FORMAT_TYPE_UNORM)
      return absl::UnimplementedError("layout 5_6_5 exists only as UNORM");
    type = ct::kUnormShort565;
  } else {
    const uint32_t bits = f.layout <= ZE_IMAGE_FORMAT_LAYOUT_32 ? 8u << f.layout
                          : f.layout == ZE_IMAGE_FORMAT_LAYOUT_8_8 ||
                                  f.layout == ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8
                              ? 8
                          : f.layout == ZE_IMAGE_FORMAT_LAYOUT_16_16 ||
                                  f.layout == ZE_IMAGE_FORMAT_LAYOUT_16_16_16_16
                              ? 16
                              : 32;
    static constexpr uint32_t kNone = 0xFFFFFFFF;
    // Rows: UINT, SINT, UNORM, SNORM, FLOAT; columns: 8, 16, 32 bits.
    static constexpr uint32_t kTypes[5][3] = {
        {ct::kUnsignedInt8, ct::kUnsignedInt16, ct::kUnsignedInt32},
        {ct::kSignedInt8, ct::kSignedInt16, ct::kSignedInt32},
        {ct::kUnormInt8, ct::kUnormInt16, kNone},
        {ct::kSnormInt8, ct::kSnormInt16, kNone},
        {kNone, ct::kHalfFloat, ct::kFloat}};
    type = kTypes[f.type][bits == 8 ? 0 : bits == 16 ? 1 : 2];
    if (type == kNone)
      return absl::UnimplementedError(absl::StrCat(
          "no OpenCL channel type is ", bits, "-bit ",
          f.type == ZE_IMAGE_FORMAT_TYPE_FLOAT ? "FLOAT" : "normalized"));
  }
  // Normalise the swizzle: components the layout lacks read as 0 (alpha 1).
  ze_image_format_swizzle_t norm[4];
  for (int i = 0; i < 4; ++i) {
    norm[i] = given[i];
    if (norm[i] <= ZE_IMAGE_FORMAT_SWIZZLE_A && norm[i] >= components)
      norm[i] = i == 3 ? ZE_IMAGE_FORMAT_SWIZZLE_1 : ZE_IMAGE_FORMAT_SWIZZLE_0;
  }
  namespace co = spirv::channel_order;
  for (uint32_t order :
       {co::kR, co::kA, co::kRG, co::kRA, co::kRGB, co::kRGBA, co::kBGRA,
        co::kARGB, co::kABGR, co::kIntensity, co::kLuminance}) {
    if (spirv::ChannelCount(order) != components ||
        spirv::TexelBytes(order, type) == 0)
      continue;
    d::Swizzle want{};
    d::SwizzleOf(order, &want);
    bool match = true;
    for (int i = 0; i < 4 && match; ++i) {
      const bool constant = want[i] == ZE_IMAGE_FORMAT_SWIZZLE_0 ||
                            want[i] == ZE_IMAGE_FORMAT_SWIZZLE_1;
      match = norm[i] == want[i] ||
              (constant && norm[i] == ZE_IMAGE_FORMAT_SWIZZLE_X);
    }
    if (match) return std::make_pair(order, type);
  }
  return absl::UnimplementedError(absl::StrCat(
      "no OpenCL channel order has swizzle (", static_cast<uint32_t>(f.x), ",",
      static_cast<uint32_t>(f.y), ",", static_cast<uint32_t>(f.z), ",",
      static_cast<uint32_t>(f.w), ") for a ", components,
      "-component layout of ", spirv::ChannelTypeName(type)));
}

inline ze_image_type_t ZeImageTypeOf(spirv::ImageDim dim) {
  switch (dim) {
    case spirv::ImageDim::k1D:
      return ZE_IMAGE_TYPE_1D;
    case spirv::ImageDim::k1DBuffer:
      return ZE_IMAGE_TYPE_BUFFER;
    case spirv::ImageDim::k1DArray:
      return ZE_IMAGE_TYPE_1DARRAY;
    case spirv::ImageDim::k2D:
      return ZE_IMAGE_TYPE_2D;
    case spirv::ImageDim::k2DArray:
      return ZE_IMAGE_TYPE_2DARRAY;
    case spirv::ImageDim::k3D:
      return ZE_IMAGE_TYPE_3D;
  }
  return ZE_IMAGE_TYPE_2D;
}

// The ze_image_desc_t of an image argument (stype set, pNext null).
inline absl::StatusOr<ze_image_desc_t> ZeImageDescOf(
    const spirv::ImageDesc& desc) {
  auto format = ZeFormatOf(desc.order, desc.type);
  if (!format.ok()) return format.status();
  ze_image_desc_t z{};
  z.stype = ZE_STRUCTURE_TYPE_IMAGE_DESC;
  z.flags = desc.access == spirv::ImageAccess::kReadOnly
                ? 0
                : ze_image_flags_t{ZE_IMAGE_FLAG_KERNEL_WRITE};
  z.type = ZeImageTypeOf(desc.dim);
  z.format = *format;
  z.width = desc.width;
  if (desc.dim == spirv::ImageDim::k1DBuffer)
    z.width = desc.width * spirv::TexelBytes(desc.order, desc.type);
  z.height = static_cast<uint32_t>(desc.height);
  z.depth = static_cast<uint32_t>(desc.depth);
  z.arraylevels = static_cast<uint32_t>(desc.array_size);
  if (desc.dim != spirv::ImageDim::k1DArray &&
      desc.dim != spirv::ImageDim::k2DArray)
    z.arraylevels = 0;
  if (desc.height > UINT32_MAX || desc.depth > UINT32_MAX ||
      desc.array_size > UINT32_MAX)
    return absl::UnimplementedError(
        "image height, depth or array size above 2^32-1 does not fit Level "
        "Zero");
  return z;
}

// The ImageDesc of a ze_image_desc_t (extents the type ignores become 1;
// access from ZE_IMAGE_FLAG_KERNEL_WRITE: read_write or read_only). Not
// validated against sizes: see spirv::ValidateImageDesc.
inline absl::StatusOr<spirv::ImageDesc> ImageDescOf(const ze_image_desc_t& z) {
  auto format = SpirvFormatOf(z.format);
  if (!format.ok()) return format.status();
  spirv::ImageDesc d;
  d.order = format->first;
  d.type = format->second;
  d.access = (z.flags & ZE_IMAGE_FLAG_KERNEL_WRITE)
                 ? spirv::ImageAccess::kReadWrite
                 : spirv::ImageAccess::kReadOnly;
  d.width = z.width;
  switch (z.type) {
    case ZE_IMAGE_TYPE_1D:
      d.dim = spirv::ImageDim::k1D;
      break;
    case ZE_IMAGE_TYPE_1DARRAY:
      d.dim = spirv::ImageDim::k1DArray;
      d.array_size = z.arraylevels;
      break;
    case ZE_IMAGE_TYPE_2D:
      d.dim = spirv::ImageDim::k2D;
      d.height = z.height;
      break;
    case ZE_IMAGE_TYPE_2DARRAY:
      d.dim = spirv::ImageDim::k2DArray;
      d.height = z.height;
      d.array_size = z.arraylevels;
      break;
    case ZE_IMAGE_TYPE_3D:
      d.dim = spirv::ImageDim::k3D;
      d.height = z.height;
      d.depth = z.depth;
      break;
    case ZE_IMAGE_TYPE_BUFFER: {
      d.dim = spirv::ImageDim::k1DBuffer;
      const uint32_t texel = spirv::TexelBytes(d.order, d.type);
      if (texel == 0 || z.width % texel != 0)
        return absl::InvalidArgumentError(
            absl::StrCat("a buffer image's width is in bytes: ", z.width,
                         " is not a multiple of the ", texel, "-byte texel"));
      d.width = z.width / texel;
      break;
    }
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("image type ", static_cast<uint32_t>(z.type),
                       " is not a ze_image_type_t"));
  }
  return d;
}

inline ze_sampler_address_mode_t ZeAddressModeOf(spirv::AddressingMode mode) {
  switch (mode) {
    case spirv::AddressingMode::kNone:
      return ZE_SAMPLER_ADDRESS_MODE_NONE;
    case spirv::AddressingMode::kClampToEdge:
      return ZE_SAMPLER_ADDRESS_MODE_CLAMP;
    case spirv::AddressingMode::kClamp:
      return ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    case spirv::AddressingMode::kRepeat:
      return ZE_SAMPLER_ADDRESS_MODE_REPEAT;
    case spirv::AddressingMode::kRepeatMirrored:
      return ZE_SAMPLER_ADDRESS_MODE_MIRROR;
  }
  return ZE_SAMPLER_ADDRESS_MODE_NONE;
}

inline ze_sampler_desc_t ZeSamplerDescOf(const spirv::SamplerDesc& s) {
  ze_sampler_desc_t z{};
  z.stype = ZE_STRUCTURE_TYPE_SAMPLER_DESC;
  z.addressMode = ZeAddressModeOf(s.addressing);
  z.filterMode = s.filter == spirv::FilterMode::kLinear
                     ? ZE_SAMPLER_FILTER_MODE_LINEAR
                     : ZE_SAMPLER_FILTER_MODE_NEAREST;
  z.isNormalized = s.normalized ? 1 : 0;
  return z;
}

// kInvalidArgument for modes outside the enumerations.
inline absl::StatusOr<spirv::SamplerDesc> SamplerDescOf(
    const ze_sampler_desc_t& z) {
  spirv::SamplerDesc s;
  switch (z.addressMode) {
    case ZE_SAMPLER_ADDRESS_MODE_NONE:
      s.addressing = spirv::AddressingMode::kNone;
      break;
    case ZE_SAMPLER_ADDRESS_MODE_REPEAT:
      s.addressing = spirv::AddressingMode::kRepeat;
      break;
    case ZE_SAMPLER_ADDRESS_MODE_CLAMP:
      s.addressing = spirv::AddressingMode::kClampToEdge;
      break;
    case ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER:
      s.addressing = spirv::AddressingMode::kClamp;
      break;
    case ZE_SAMPLER_ADDRESS_MODE_MIRROR:
      s.addressing = spirv::AddressingMode::kRepeatMirrored;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("sampler address mode ",
                       static_cast<uint32_t>(z.addressMode), " is unknown"));
  }
  switch (z.filterMode) {
    case ZE_SAMPLER_FILTER_MODE_NEAREST:
      s.filter = spirv::FilterMode::kNearest;
      break;
    case ZE_SAMPLER_FILTER_MODE_LINEAR:
      s.filter = spirv::FilterMode::kLinear;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("sampler filter mode ",
                       static_cast<uint32_t>(z.filterMode), " is unknown"));
  }
  s.normalized = z.isNormalized != 0;
  return s;
}

}  // namespace l0spv::zeref
