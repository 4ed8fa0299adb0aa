// oracles/reference/image_sample.h — sampler addressing and filtering of
// the reference interpreter (OpenCL 1.2 §8.2, "Image addressing and
// filtering"), for OpImageSampleExplicitLod and sampler-less OpImageRead.
//
// Contract: coordinates come in the order of spirv::CoordinateCount (x;
// x, layer; x, y; x, y, layer; x, y, z). Array layers are
// clamp(rint(layer), 0, layers - 1) whatever the sampler. Spatial axes
// follow the specification's formulas for nearest and linear filtering with
// addressing none / clamp_to_edge / clamp / repeat / mirrored_repeat and
// normalised or unnormalised coordinates (u = s * size when normalised);
// linear filtering weighs 2 (1D), 4 (2D) or 8 (3D) texels in float as the
// specification writes it. A texel outside the image under clamp reads the
// border colour (image_texel.h, BorderAlphaIsOne). Undefined behaviour is a
// false return with `fault` set: a texel outside the image under addressing
// none (with linear filtering only a texel whose weight is not zero),
// repeat or mirrored repeat with unnormalised coordinates, a NaN
// coordinate, linear filtering of an integer image. No allocation.
#pragma once

#include <array>
#include <cstdint>

#include "oracles/reference/image_state.h"
#include "spirv/image_format.h"

namespace l0spv::oracles::reference {

struct SampleFault {
  const char* check = nullptr;
  std::array<int64_t, 3> texel{0, 0, 0};  // in coordinate order
  int axes = 0;                           // how many of `texel` are meaningful
};

// Float-read images (normalised, half, float): the filtered RGBA value.
bool SampleFloat(const ImageState& img, const spirv::SamplerDesc& sampler,
                 const float* coord, float out[4], SampleFault* fault);
// Integer images (nearest only): RGBA as 32-bit lanes.
bool SampleInt(const ImageState& img, const spirv::SamplerDesc& sampler,
               const float* coord, uint32_t out[4], SampleFault* fault);

// Byte offset of the texel at coordinates `c` (coordinate order, integer)
// in `img`, or false (with `fault` naming the texel) when any component is
// outside the image: sampler-less reads and writes, which OpenCL leaves
// undefined out of range.
bool TexelOffset(const ImageState& img, const int64_t* c, uint64_t* offset,
                 SampleFault* fault);

}  // namespace l0spv::oracles::reference
