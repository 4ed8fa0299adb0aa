// reducers/shrink_images.h — the shrink-images stage: image and sampler
// kernel arguments made smaller and plainer while the finding reproduces.
//
// Contract: for each image argument, in order, and each step kept only when
// `keep` (the interestingness test; ReductionContext::Try in the pipeline)
// says the candidate still reproduces:
//  - extents: each storage extent (spirv::StorageExtent: x, then y or the
//    1D-array layers, then z or the 2D-array layers) is halved while the
//    case stays interesting (a 3D image stays at least 2 deep, as OpenCL
//    requires); the texels kept are those whose coordinates survive, so
//    every remaining texel keeps its value;
//  - texels: all zero, once;
//  - format: towards R, then RGBA, with the plainest channel type of the
//    same read function (normalised: UnormInt8; half/float: Float; signed:
//    SignedInt32; unsigned: UnsignedInt32). Texels are re-encoded channel by
//    channel (r, g, b, a by meaning, not storage position; missing channels
//    0, alpha 1; normalised values rounded to UnormInt8, clamped to [0, 1]).
//    A step only ever moves down the order R < RGBA < the rest, so the stage
//    reaches a fixed point. A format that meets a filed bug of a consumer in
//    `avoid` (oracles/known_bugs/image_format_bugs.h; the pipeline passes the
//    consumers of the finding's targets) is never proposed: an R image on
//    PoCL would turn a reduction into pocl_image_r_alpha.
// and for each sampler argument: Linear filtering -> Nearest; Clamp, Repeat
// and RepeatMirrored addressing -> ClampToEdge (normalised coordinates stay:
// changing them changes every coordinate the kernel computes); and the
// same for each literal sampler (OpConstantSampler) in the module.
// A case without image or sampler arguments or literal samplers is left
// alone (no test run).
// Returns whether anything was kept; stops early once `expired()`.
#pragma once

#include <memory>

#include "absl/functional/function_ref.h"
#include "reducers/stage.h"
#include "spirv/test_case.h"

namespace l0spv::reducers {

bool ShrinkImageArguments(spirv::TestCase& current,
                          absl::FunctionRef<bool(const spirv::TestCase&)> keep,
                          absl::FunctionRef<bool()> expired,
                          uint32_t avoid = 0);

// The same texels in a new shape (extents cut or grown; grown texels 0).
std::vector<uint8_t> ResizeTexels(const spirv::ImageDesc& from,
                                  const std::vector<uint8_t>& texels,
                                  const spirv::ImageDesc& to);
// The texels of `from` re-encoded in `to`'s channel order and type (same
// extents).
std::vector<uint8_t> ReencodeTexels(const spirv::ImageDesc& from,
                                    const std::vector<uint8_t>& texels,
                                    const spirv::ImageDesc& to);

std::unique_ptr<Stage> MakeShrinkImagesStage();

}  // namespace l0spv::reducers
