// generators/kernel/images.h — image and sampler kernel arguments and the
// image operations on them (swarm feature `images`).
//
// Contract (internal to generators/kernel):
//  - PlanImages runs while the kernel's arguments are laid out (only when
//    Features::images, which DrawFeatures sets only for device profiles with
//    images): it appends 1-3 image arguments (kImage, texels from
//    ImageTexelsFromSeed) and their sampler arguments (kSampler) to the
//    case, their parameter types to `param_types`, and records them in
//    KernelResources::images. Each image has one role:
//      sampled    read_only, power-of-two extents; OpSampledImage +
//                 OpImageSampleExplicitLod (Lod 0) with a sampler argument or
//                 a literal sampler (OpConstantSampler);
//      read       read_only (1D buffer images too); OpImageRead;
//      write      write_only, exactly one texel per work-item (its global
//                 linear id mapped into the storage extents); a result;
//      read_write one texel per work-item, grouped by work-group; write own
//                 texel, OpControlBarrier with ImageMemory semantics, read a
//                 neighbour's in the same work-group; a result.
//  - GenImageOps emits every image operation at the kernel's top level
//    (uniform control flow, for the barrier), before the other statements.
//    Queries (OpImageQuerySizeLod / QuerySize / QueryFormat / QueryOrder)
//    join the value pool. Reads of integer images join the pool; reads that
//    return floats are stored straight into f32 result slots with their
//    tolerance (normalised → float: 1.5 ulp, OpenCL 8.3; linear filtering:
//    an absolute bound relative to the texel range).
//  - Every access is defined: coordinates are in range for addressing none
//    (with linear filtering, both taps), unnormalised only with
//    none/clamp/clamp_to_edge, nearest sampling lands at a quarter of a texel
//    or more from a texel edge, linear sampling never at a tie, layers are
//    integral and in range, integer images use nearest filtering only, and
//    written values are in range for integer channel types.
#pragma once

#include <cstdint>
#include <vector>

#include "generators/kernel/context.h"

namespace l0spv::generators::kernel {

// Float result slots GenImageOps may need at most (the caller reserves them
// in the f32 result buffer).
inline constexpr uint32_t kImageFloatSlots = 24;

void PlanImages(GenContext& ctx, KernelResources& k, spirv::TestCase& tc,
                std::vector<uint32_t>& param_types);
void GenImageOps(GenContext& ctx);

}  // namespace l0spv::generators::kernel
