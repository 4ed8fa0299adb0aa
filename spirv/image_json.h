// spirv/image_json.h — the JSON form of image and sampler descriptors,
// shared by case.json and the corpus sidecars (docs/case-format.md):
//   "image":   {"dim": "2d", "order": "RGBA", "type": "UnormInt8",
//               "width": 16, "height": 8, "depth": 1, "array_size": 1,
//               "access": "read_only"}
//   "sampler": {"normalized": true, "addressing": "ClampToEdge",
//               "filter": "Linear"}
//
// Contract: Read* record the first problem on the field's JsonReader (the
// field path names it: "args[2].image.order: ...") and return whatever was
// read so far; callers check reader.ok(). Unused extents may be omitted.
#pragma once

#include <cstdint>

#include "nlohmann/json.hpp"
#include "spirv/image_format.h"
#include "spirv/json_reader.h"

namespace l0spv::spirv {

nlohmann::json ImageDescToJson(const ImageDesc& desc);
nlohmann::json SamplerDescToJson(const SamplerDesc& desc);
ImageDesc ReadImageDesc(JsonField field, uint64_t max_bytes);
SamplerDesc ReadSamplerDesc(JsonField field);

}  // namespace l0spv::spirv
