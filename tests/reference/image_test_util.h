// tests/reference/image_test_util.h — image kernels for the reference
// interpreter tests: a module with every image, sampler and sampled-image
// type declared, a kernel "k" with the given parameters, and image and
// sampler arguments.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "spirv/image_format.h"
#include "spirv/test_case.h"

namespace l0spv::oracles::reference::test {

// Types (besides Prelude's): %i<D>_<A> = OpTypeImage with D in 1d, 1db
// (buffer), 1da, 2d, 2da, 3d and A in ro, wo, rw; %smp = OpTypeSampler;
// %s<D> = OpTypeSampledImage of %i<D>_ro; constants %float_half = 0.5,
// %int_m1 = -1 (as %uint), %v4float_0. Integer coordinates are %uint /
// %v2uint / %v4uint (SPIR-V ints have no signedness), float ones %float /
// %v2float / %v4float.
// `params`: (name, type) pairs; `body` runs in the entry block after %gidv
// (v3ulong global id), %x, %y, %z (uint global id components).
std::string ImageKernel(
    const std::string& decls,
    const std::vector<std::pair<std::string, std::string>>& params,
    const std::string& body);

spirv::KernelArg ImageArg(const spirv::ImageDesc& desc,
                          std::vector<uint8_t> texels, bool result = true);
spirv::KernelArg SamplerArg(const spirv::SamplerDesc& desc);
spirv::ImageDesc Desc2D(
    uint32_t order, uint32_t type, uint64_t w, uint64_t h,
    spirv::ImageAccess access = spirv::ImageAccess::kReadOnly);

}  // namespace l0spv::oracles::reference::test
