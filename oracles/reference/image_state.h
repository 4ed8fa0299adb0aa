// oracles/reference/image_state.h — the images and samplers of one run
// (internal to oracles/reference).
//
// Contract: kernel arguments of image and sampler type are 8-byte handles
// into the run's ImageTable: an image handle is its index in `images` + 1,
// a sampler handle its index in `samplers` + 1 (literal samplers of the
// module first, then sampler arguments), and a sampled image (OpSampledImage)
// is image handle | sampler handle << 32. Handle 0 (OpConstantNull) is
// invalid. An ImageState owns the image's texels (the layout of
// spirv/image_format.h); after the run they are the argument's result.
// Read-write images keep one TexelWrite per texel (others none): who last
// wrote the texel and that work-item's image synchronisation counters at
// the write, so a read can tell whether an image fence or barrier separates
// it from the write (see executor_image.cc).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "oracles/reference/image_texel.h"
#include "spirv/image_format.h"

namespace l0spv::oracles::reference {

struct TexelWrite {
  uint32_t writer = 0;  // invocation tag + 1; 0: not written in this launch
  uint32_t local_index = 0;  // the writer's LocalInvocationIndex
  uint32_t group = 0;        // work-group serial of the writer
  uint32_t subgroup = 0;
  uint32_t sync = 0;     // writer's image barriers of any scope
  uint32_t wg_sync = 0;  // writer's work-group image barriers
  uint32_t fence = 0;    // writer's image fences (barriers included)
};

struct ImageState {
  spirv::ImageDesc desc;
  uint32_t arg = 0;  // kernel argument position
  TexelFormat format;
  std::vector<uint8_t> texels;
  std::array<uint64_t, 3> extent{1, 1, 1};  // storage extents x, y, z
  std::vector<TexelWrite> writes;           // read_write images only
};

struct ImageTable {
  std::vector<ImageState> images;
  std::vector<spirv::SamplerDesc> samplers;
  uint32_t group_serial = 0;  // the running work-group, from 1
};

}  // namespace l0spv::oracles::reference
