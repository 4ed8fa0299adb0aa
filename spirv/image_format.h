// spirv/image_format.h — what an image or sampler kernel argument is: the
// OpenCL image descriptor (dimensionality, channel order, channel data type,
// size, access qualifier) and sampler state, their names, sizes, validation,
// texel layout and seeded initial texels. Every room that touches an image
// (case format, interpreter, drivers, targets, comparator, generator,
// reducer) takes these facts from here.
//
// Contract: channel orders, channel data types, addressing and filter modes
// are held as their SPIR-V enumerant values (ImageChannelOrder,
// ImageChannelDataType, SamplerAddressingMode, SamplerFilterMode), which is
// what OpImageQueryOrder / OpImageQueryFormat return and what OpenCL's CL_*
// constants are offset from (CL_R = 0x10B0 + order, CL_SNORM_INT8 = 0x10D0 +
// type). Their names are the grammar's enumerant names ("RGBA",
// "UnormInt8", "ClampToEdge"), parsed case-insensitively. Texels are stored
// tightly packed, x fastest, then y (or the layer of a 1D array), then z
// (or the layer of a 2D array); `ImageBytes` is the size of that storage.
// Only the order/type pairs OpenCL 1.2/2.0 define and this project supports
// pass `ValidateImageDesc`; the others are refused with the reason.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace l0spv::spirv {

enum class ImageDim : uint8_t { k1D, k1DBuffer, k1DArray, k2D, k2DArray, k3D };

// The SPIR-V AccessQualifier values.
enum class ImageAccess : uint8_t {
  kReadOnly = 0,
  kWriteOnly = 1,
  kReadWrite = 2
};

// SPIR-V ImageChannelOrder values this project knows by name.
namespace channel_order {
inline constexpr uint32_t kR = 0, kA = 1, kRG = 2, kRA = 3, kRGB = 4, kRGBA = 5,
                          kBGRA = 6, kARGB = 7, kIntensity = 8, kLuminance = 9,
                          kSRGBA = 17, kSBGRA = 18, kABGR = 19;
}  // namespace channel_order
// SPIR-V ImageChannelDataType values.
namespace channel_type {
inline constexpr uint32_t kSnormInt8 = 0, kSnormInt16 = 1, kUnormInt8 = 2,
                          kUnormInt16 = 3, kUnormShort565 = 4,
                          kUnormShort555 = 5, kUnormInt101010 = 6,
                          kSignedInt8 = 7, kSignedInt16 = 8, kSignedInt32 = 9,
                          kUnsignedInt8 = 10, kUnsignedInt16 = 11,
                          kUnsignedInt32 = 12, kHalfFloat = 13, kFloat = 14;
}  // namespace channel_type

// How a kernel reads an image of this channel type: read_imagef (normalised
// integers, half, float), read_imagei (signed) or read_imageui (unsigned).
enum class ChannelClass : uint8_t {
  kNormalized,  // snorm/unorm, including the packed 565/555/101010 types
  kSigned,
  kUnsigned,
  kHalf,
  kFloat,
};

struct ImageDesc {
  ImageDim dim = ImageDim::k2D;
  uint32_t order = channel_order::kRGBA;
  uint32_t type = channel_type::kUnormInt8;
  uint64_t width = 1;
  uint64_t height = 1;      // 2D, 2D array, 3D
  uint64_t depth = 1;       // 3D
  uint64_t array_size = 1;  // 1D array, 2D array
  ImageAccess access = ImageAccess::kReadOnly;

  bool operator==(const ImageDesc&) const = default;
};

// The SPIR-V SamplerAddressingMode / SamplerFilterMode values.
enum class AddressingMode : uint8_t {
  kNone = 0,
  kClampToEdge = 1,
  kClamp = 2,
  kRepeat = 3,
  kRepeatMirrored = 4,
};
enum class FilterMode : uint8_t { kNearest = 0, kLinear = 1 };

struct SamplerDesc {
  bool normalized = false;
  AddressingMode addressing = AddressingMode::kClampToEdge;
  FilterMode filter = FilterMode::kNearest;

  bool operator==(const SamplerDesc&) const = default;
};

// --- names ---------------------------------------------------------------
const char* ImageDimName(ImageDim dim);  // "1d", "1d_buffer", ..., "3d"
absl::StatusOr<ImageDim> ParseImageDim(absl::string_view name);
const char* ImageAccessName(ImageAccess access);  // "read_only", ...
absl::StatusOr<ImageAccess> ParseImageAccess(absl::string_view name);
std::string ChannelOrderName(uint32_t order);  // grammar name, "RGBA"
absl::StatusOr<uint32_t> ParseChannelOrder(absl::string_view name);
std::string ChannelTypeName(uint32_t type);  // grammar name, "UnormInt8"
absl::StatusOr<uint32_t> ParseChannelType(absl::string_view name);
std::string AddressingModeName(AddressingMode mode);  // "ClampToEdge"
absl::StatusOr<AddressingMode> ParseAddressingMode(absl::string_view name);
std::string FilterModeName(FilterMode mode);  // "Nearest" / "Linear"
absl::StatusOr<FilterMode> ParseFilterMode(absl::string_view name);
// One line for messages: "2d RGBA UnormInt8 16x8 read_only".
std::string DescribeImage(const ImageDesc& desc);
std::string DescribeSampler(const SamplerDesc& desc);

// --- geometry and layout -------------------------------------------------
// SPIR-V OpTypeImage Dim (1D = 0, 2D = 1, 3D = 2, Buffer = 5) and Arrayed.
uint32_t SpirvDim(ImageDim dim);
bool IsArrayed(ImageDim dim);
// Coordinate components a kernel passes (x; x,y; x,layer; ... ).
uint32_t CoordinateCount(ImageDim dim);
// Components OpImageQuerySize returns (width; width,height; ...; arrays
// append the layer count).
uint32_t SizeQueryCount(ImageDim dim);
// The extents in storage order {x, y, z}: a 1D array's layers are y, a 2D
// array's layers are z.
std::array<uint64_t, 3> StorageExtent(const ImageDesc& desc);

ChannelClass ClassOfChannelType(uint32_t type);
// Channels stored per texel (RGB with a packed type: 3).
uint32_t ChannelCount(uint32_t order);
// True for 565/555/101010: one packed integer per texel.
bool IsPackedChannelType(uint32_t type);
// Bytes of one channel (non-packed types) or of the whole texel (packed).
uint32_t ChannelTypeBytes(uint32_t type);
// Bytes of one texel; 0 for an order/type pair OpenCL does not define.
uint32_t TexelBytes(uint32_t order, uint32_t type);
uint64_t TexelCount(const ImageDesc& desc);
uint64_t ImageBytes(const ImageDesc& desc);  // TexelCount * TexelBytes

// Order/type pair, extents of the dimensionality (unused extents must be 1),
// sizes within `max_bytes`. Messages name the field ("image.height: ...").
absl::Status ValidateImageDesc(const ImageDesc& desc, uint64_t max_bytes);
// Unnormalised coordinates with repeat / mirrored repeat are undefined in
// OpenCL, so a sampler argument never has them.
absl::Status ValidateSamplerDesc(const SamplerDesc& desc);

// The stored channels of one texel as raw integers (a float channel as its
// bits), in storage order (BGRA: b first), packed types unpacked into their
// fields (565: r, g, b). Missing channels are 0.
std::array<uint32_t, 4> UnpackStoredChannels(uint32_t order, uint32_t type,
                                             const uint8_t* texel);

// Initial texels from a seed: uniformly random bits for integer and
// normalised types, and for half/float channels multiples of 1/64 in
// [-4, 4] (finite, exactly representable in half, so linear filtering and
// conversions stay within tolerances every consumer can meet).
std::vector<uint8_t> ImageTexelsFromSeed(const ImageDesc& desc, uint64_t seed);

}  // namespace l0spv::spirv
