#include "spirv/image_format.h"

#include <cstring>
#include <random>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "spirv/grammar.h"
#include "spirv/numeric_bits.h"

namespace l0spv::spirv {
namespace {

constexpr const char* kDimNames[] = {"1d", "1d_buffer", "1d_array",
                                     "2d", "2d_array",  "3d"};
constexpr const char* kAccessNames[] = {"read_only", "write_only",
                                        "read_write"};

// The enumerant of `kind` named `name` (case-insensitive), restricted to
// `allowed` values; the error lists them.
absl::StatusOr<uint32_t> ParseEnumerant(OperandKind kind,
                                        absl::string_view what,
                                        absl::string_view name,
                                        const std::vector<uint32_t>& allowed) {
  for (uint32_t value : allowed) {
    const std::string_view candidate = EnumerantName(kind, value);
    if (absl::EqualsIgnoreCase(
            absl::string_view(candidate.data(), candidate.size()), name))
      return value;
  }
  std::vector<std::string> names;
  for (uint32_t value : allowed) names.emplace_back(EnumerantName(kind, value));
  return absl::InvalidArgumentError(
      absl::StrCat("unknown or unsupported ", what, " '", name,
                   "' (one of: ", absl::StrJoin(names, ", "), ")"));
}

const std::vector<uint32_t>& SupportedOrders() {
  using namespace channel_order;
  static const std::vector<uint32_t> kOrders = {
      kR,    kA,    kRG,        kRA,        kRGB,   kRGBA, kBGRA,
      kARGB, kABGR, kIntensity, kLuminance, kSRGBA, kSBGRA};
  return kOrders;
}

const std::vector<uint32_t>& SupportedTypes() {
  static const std::vector<uint32_t> kTypes = [] {
    std::vector<uint32_t> v;
    for (uint32_t t = channel_type::kSnormInt8; t <= channel_type::kFloat; ++t)
      v.push_back(t);
    return v;
  }();
  return kTypes;
}

// OpenCL 1.2 §5.3.1.1 / OpenCL 2.0 §5.3.1.1: which data types each order
// may have.
bool OrderTypeDefined(uint32_t order, uint32_t type) {
  using namespace channel_order;
  using namespace channel_type;
  const bool packed = IsPackedChannelType(type);
  switch (order) {
    case kRGB:
      return packed;
    case kBGRA:
    case kARGB:
    case kABGR:
      return type == kUnormInt8 || type == kSnormInt8 || type == kSignedInt8 ||
             type == kUnsignedInt8;
    case kIntensity:
    case kLuminance:
      return type == kUnormInt8 || type == kUnormInt16 || type == kSnormInt8 ||
             type == kSnormInt16 || type == kHalfFloat || type == kFloat;
    case kSRGBA:
    case kSBGRA:
      return type == kUnormInt8;
    case kR:
    case kA:
    case kRG:
    case kRA:
    case kRGBA:
      return !packed;
    default:
      return false;
  }
}

}  // namespace

const char* ImageDimName(ImageDim dim) {
  return kDimNames[static_cast<int>(dim)];
}

absl::StatusOr<ImageDim> ParseImageDim(absl::string_view name) {
  for (int i = 0; i < 6; ++i) {
    if (absl::EqualsIgnoreCase(name, kDimNames[i]))
      return static_cast<ImageDim>(i);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown image dimensionality '", name,
                   "' (one of: 1d, 1d_buffer, 1d_array, 2d, 2d_array, 3d)"));
}

const char* ImageAccessName(ImageAccess access) {
  return kAccessNames[static_cast<int>(access)];
}

absl::StatusOr<ImageAccess> ParseImageAccess(absl::string_view name) {
  for (int i = 0; i < 3; ++i) {
    if (absl::EqualsIgnoreCase(name, kAccessNames[i]))
      return static_cast<ImageAccess>(i);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown image access qualifier '", name,
                   "' (one of: read_only, write_only, read_write)"));
}

std::string ChannelOrderName(uint32_t order) {
  return std::string(EnumerantName(OperandKind::kImageChannelOrder, order));
}
absl::StatusOr<uint32_t> ParseChannelOrder(absl::string_view name) {
  return ParseEnumerant(OperandKind::kImageChannelOrder, "channel order", name,
                        SupportedOrders());
}
std::string ChannelTypeName(uint32_t type) {
  return std::string(EnumerantName(OperandKind::kImageChannelDataType, type));
}
absl::StatusOr<uint32_t> ParseChannelType(absl::string_view name) {
  return ParseEnumerant(OperandKind::kImageChannelDataType, "channel data type",
                        name, SupportedTypes());
}
std::string AddressingModeName(AddressingMode mode) {
  return std::string(EnumerantName(OperandKind::kSamplerAddressingMode,
                                   static_cast<uint32_t>(mode)));
}
absl::StatusOr<AddressingMode> ParseAddressingMode(absl::string_view name) {
  auto v = ParseEnumerant(OperandKind::kSamplerAddressingMode,
                          "addressing mode", name, {0, 1, 2, 3, 4});
  if (!v.ok()) return v.status();
  return static_cast<AddressingMode>(*v);
}
std::string FilterModeName(FilterMode mode) {
  return std::string(EnumerantName(OperandKind::kSamplerFilterMode,
                                   static_cast<uint32_t>(mode)));
}
absl::StatusOr<FilterMode> ParseFilterMode(absl::string_view name) {
  auto v = ParseEnumerant(OperandKind::kSamplerFilterMode, "filter mode", name,
                          {0, 1});
  if (!v.ok()) return v.status();
  return static_cast<FilterMode>(*v);
}

std::string DescribeImage(const ImageDesc& d) {
  std::string size = absl::StrCat(d.width);
  switch (d.dim) {
    case ImageDim::k1D:
    case ImageDim::k1DBuffer:
      break;
    case ImageDim::k1DArray:
      absl::StrAppend(&size, "x", d.array_size, " layers");
      break;
    case ImageDim::k2D:
      absl::StrAppend(&size, "x", d.height);
      break;
    case ImageDim::k2DArray:
      absl::StrAppend(&size, "x", d.height, "x", d.array_size, " layers");
      break;
    case ImageDim::k3D:
      absl::StrAppend(&size, "x", d.height, "x", d.depth);
      break;
  }
  return absl::StrCat(ImageDimName(d.dim), " ", ChannelOrderName(d.order), " ",
                      ChannelTypeName(d.type), " ", size, " ",
                      ImageAccessName(d.access));
}

std::string DescribeSampler(const SamplerDesc& s) {
  return absl::StrCat(s.normalized ? "normalized" : "unnormalized", " ",
                      AddressingModeName(s.addressing), " ",
                      FilterModeName(s.filter));
}

uint32_t SpirvDim(ImageDim dim) {
  switch (dim) {
    case ImageDim::k1D:
    case ImageDim::k1DArray:
      return 0;
    case ImageDim::k2D:
    case ImageDim::k2DArray:
      return 1;
    case ImageDim::k3D:
      return 2;
    case ImageDim::k1DBuffer:
      return 5;
  }
  return 0;
}

bool IsArrayed(ImageDim dim) {
  return dim == ImageDim::k1DArray || dim == ImageDim::k2DArray;
}

uint32_t CoordinateCount(ImageDim dim) {
  switch (dim) {
    case ImageDim::k1D:
    case ImageDim::k1DBuffer:
      return 1;
    case ImageDim::k1DArray:
    case ImageDim::k2D:
      return 2;
    case ImageDim::k2DArray:
    case ImageDim::k3D:
      return 3;
  }
  return 1;
}

uint32_t SizeQueryCount(ImageDim dim) { return CoordinateCount(dim); }

std::array<uint64_t, 3> StorageExtent(const ImageDesc& d) {
  switch (d.dim) {
    case ImageDim::k1D:
    case ImageDim::k1DBuffer:
      return {d.width, 1, 1};
    case ImageDim::k1DArray:
      return {d.width, d.array_size, 1};
    case ImageDim::k2D:
      return {d.width, d.height, 1};
    case ImageDim::k2DArray:
      return {d.width, d.height, d.array_size};
    case ImageDim::k3D:
      return {d.width, d.height, d.depth};
  }
  return {d.width, 1, 1};
}

ChannelClass ClassOfChannelType(uint32_t type) {
  using namespace channel_type;
  switch (type) {
    case kSignedInt8:
    case kSignedInt16:
    case kSignedInt32:
      return ChannelClass::kSigned;
    case kUnsignedInt8:
    case kUnsignedInt16:
    case kUnsignedInt32:
      return ChannelClass::kUnsigned;
    case kHalfFloat:
      return ChannelClass::kHalf;
    case kFloat:
      return ChannelClass::kFloat;
    default:
      return ChannelClass::kNormalized;
  }
}

uint32_t ChannelCount(uint32_t order) {
  using namespace channel_order;
  switch (order) {
    case kR:
    case kA:
    case kIntensity:
    case kLuminance:
      return 1;
    case kRG:
    case kRA:
      return 2;
    case kRGB:
      return 3;
    default:
      return 4;
  }
}

bool IsPackedChannelType(uint32_t type) {
  return type == channel_type::kUnormShort565 ||
         type == channel_type::kUnormShort555 ||
         type == channel_type::kUnormInt101010;
}

uint32_t ChannelTypeBytes(uint32_t type) {
  using namespace channel_type;
  switch (type) {
    case kSnormInt8:
    case kUnormInt8:
    case kSignedInt8:
    case kUnsignedInt8:
      return 1;
    case kSnormInt16:
    case kUnormInt16:
    case kSignedInt16:
    case kUnsignedInt16:
    case kHalfFloat:
    case kUnormShort565:
    case kUnormShort555:
      return 2;
    case kSignedInt32:
    case kUnsignedInt32:
    case kFloat:
    case kUnormInt101010:
      return 4;
    default:
      return 0;
  }
}

uint32_t TexelBytes(uint32_t order, uint32_t type) {
  if (!OrderTypeDefined(order, type)) return 0;
  if (IsPackedChannelType(type)) return ChannelTypeBytes(type);
  return ChannelCount(order) * ChannelTypeBytes(type);
}

uint64_t TexelCount(const ImageDesc& d) {
  const auto e = StorageExtent(d);
  return e[0] * e[1] * e[2];
}

uint64_t ImageBytes(const ImageDesc& d) {
  return TexelCount(d) * TexelBytes(d.order, d.type);
}

absl::Status ValidateImageDesc(const ImageDesc& d, uint64_t max_bytes) {
  auto bad = [](absl::string_view field, absl::string_view problem) {
    return absl::InvalidArgumentError(
        absl::StrCat("image.", field, ": ", problem));
  };
  if (TexelBytes(d.order, d.type) == 0) {
    const bool known_order = absl::c_linear_search(SupportedOrders(), d.order);
    const bool known_type = absl::c_linear_search(SupportedTypes(), d.type);
    if (!known_order)
      return bad("order",
                 absl::StrCat("channel order ", d.order, " is not supported"));
    if (!known_type)
      return bad("type", absl::StrCat("channel data type ", d.type,
                                      " is not supported"));
    return bad("type", absl::StrCat(
                           "OpenCL does not define channel order ",
                           ChannelOrderName(d.order), " with data type ",
                           ChannelTypeName(d.type),
                           " (BGRA/ARGB/ABGR: 8-bit types; RGB: the packed "
                           "565/555/101010 types; sRGBA/sBGRA: UnormInt8; "
                           "Intensity/Luminance: norm, half and float types)"));
  }
  // Per-dimension limits of the smallest OpenCL 2.0 full profile device,
  // kept small enough that an interpreter holds the image.
  constexpr uint64_t kMax2D = 16384, kMax3D = 2048, kMaxLayers = 2048,
                     kMaxBufferTexels = uint64_t{1} << 26;
  const bool uses_height = d.dim == ImageDim::k2D ||
                           d.dim == ImageDim::k2DArray ||
                           d.dim == ImageDim::k3D;
  const bool uses_layers = IsArrayed(d.dim);
  const uint64_t max_width = d.dim == ImageDim::k1DBuffer ? kMaxBufferTexels
                             : d.dim == ImageDim::k3D     ? kMax3D
                                                          : kMax2D;
  if (d.width == 0 || d.width > max_width)
    return bad("width", absl::StrCat("expected 1..", max_width));
  if (uses_height ? (d.height == 0 ||
                     d.height > (d.dim == ImageDim::k3D ? kMax3D : kMax2D))
                  : d.height != 1)
    return bad("height", uses_height ? "expected 1..16384 (3d: 1..2048)"
                                     : "must be 1 for this dimensionality");
  if (d.dim == ImageDim::k3D ? (d.depth == 0 || d.depth > kMax3D)
                             : d.depth != 1)
    return bad("depth", d.dim == ImageDim::k3D
                            ? "expected 1..2048"
                            : "must be 1 unless the image is 3d");
  if (uses_layers ? (d.array_size == 0 || d.array_size > kMaxLayers)
                  : d.array_size != 1)
    return bad("array_size", uses_layers ? "expected 1..2048"
                                         : "must be 1 unless the image is an "
                                           "array");
  if (d.access != ImageAccess::kReadOnly &&
      d.access != ImageAccess::kWriteOnly &&
      d.access != ImageAccess::kReadWrite)
    return bad("access", "expected read_only, write_only or read_write");
  const uint64_t bytes = ImageBytes(d);
  if (bytes > max_bytes)
    return bad("width",
               absl::StrCat("the image needs ", bytes,
                            " bytes, more than the limit of ", max_bytes));
  return absl::OkStatus();
}

absl::Status ValidateSamplerDesc(const SamplerDesc& s) {
  if (static_cast<uint32_t>(s.addressing) > 4)
    return absl::InvalidArgumentError("sampler.addressing: unknown mode");
  if (static_cast<uint32_t>(s.filter) > 1)
    return absl::InvalidArgumentError("sampler.filter: unknown mode");
  if (!s.normalized && (s.addressing == AddressingMode::kRepeat ||
                        s.addressing == AddressingMode::kRepeatMirrored)) {
    return absl::InvalidArgumentError(
        "sampler.addressing: Repeat and RepeatMirrored are undefined with "
        "unnormalized coordinates (OpenCL C 6.12.14.1); use normalized "
        "coordinates or another addressing mode");
  }
  return absl::OkStatus();
}

std::array<uint32_t, 4> UnpackStoredChannels(uint32_t order, uint32_t type,
                                             const uint8_t* texel) {
  std::array<uint32_t, 4> c{0, 0, 0, 0};
  if (IsPackedChannelType(type)) {
    uint32_t v = 0;
    std::memcpy(&v, texel, ChannelTypeBytes(type));
    if (type == channel_type::kUnormShort565) {
      c = {(v >> 11) & 0x1f, (v >> 5) & 0x3f, v & 0x1f, 0};
    } else if (type == channel_type::kUnormShort555) {
      c = {(v >> 10) & 0x1f, (v >> 5) & 0x1f, v & 0x1f, 0};
    } else {
      c = {(v >> 20) & 0x3ff, (v >> 10) & 0x3ff, v & 0x3ff, 0};
    }
    return c;
  }
  const uint32_t n = ChannelCount(order);
  const uint32_t bytes = ChannelTypeBytes(type);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t v = 0;
    std::memcpy(&v, texel + i * bytes, bytes);
    c[i] = v;
  }
  return c;
}

std::vector<uint8_t> ImageTexelsFromSeed(const ImageDesc& d, uint64_t seed) {
  const uint64_t bytes = ImageBytes(d);
  std::vector<uint8_t> out(bytes, 0);
  std::mt19937_64 rng(seed);
  const ChannelClass cls = ClassOfChannelType(d.type);
  if (cls == ChannelClass::kHalf || cls == ChannelClass::kFloat) {
    // k/64 for k in [-256, 256].
    auto value = [&rng]() {
      return static_cast<double>(static_cast<int64_t>(rng() % 513) - 256) /
             64.0;
    };
    if (cls == ChannelClass::kFloat) {
      for (uint64_t i = 0; i + 4 <= bytes; i += 4) {
        const float f = static_cast<float>(value());
        std::memcpy(&out[i], &f, 4);
      }
    } else {
      for (uint64_t i = 0; i + 2 <= bytes; i += 2) {
        const uint16_t h = DoubleToHalf(value(), RoundMode::kRte);
        std::memcpy(&out[i], &h, 2);
      }
    }
    return out;
  }
  for (uint64_t i = 0; i < bytes; i += 8) {
    const uint64_t v = rng();
    std::memcpy(&out[i], &v, std::min<uint64_t>(8, bytes - i));
  }
  return out;
}

}  // namespace l0spv::spirv
