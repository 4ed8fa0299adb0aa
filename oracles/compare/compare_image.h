// oracles/compare/compare_image.h — texel-by-texel comparison of a result
// image (internal to oracles/compare; CompareExecutions calls it).
//
// Contract: both byte vectors hold texels in the layout of
// spirv/image_format.h. Each stored channel is compared with the tolerance
// OpenCL allows an implementation when it converts a kernel's value into
// that channel type: normalised and sRGB channels within 1 of the stored
// integer (float → unorm/snorm conversions may round either way, OpenCL 1.2
// §8.3.1.1 allows 0.6 ulp and §8.3.1.2 0.6 for sRGB), half channels within
// 1 ulp (float → half may round to nearest even or toward zero, §8.3.2),
// float and integer channels exactly (NaN equals NaN whatever the payload).
// The explanation names the argument, the texel's coordinates, the channel
// and both values; `signature_kind` is "image".
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "oracles/compare/compare.h"
#include "spirv/image_format.h"

namespace l0spv::oracles {

CompareResult CompareImage(size_t arg, const spirv::ImageDesc& desc,
                           const std::vector<uint8_t>& expected,
                           const std::vector<uint8_t>& actual);

}  // namespace l0spv::oracles
