// oracles/reference/executor_image.cc — the executor's image instructions
// (Op::kImage): handles, sampler-less reads and writes, sampled reads,
// queries, and the undefined-behaviour checks of image access (access
// qualifiers, out-of-range texels, unsynchronised read-write images).
//
// Read-write images: each texel remembers its last writer in this launch
// (TexelWrite). A read of a texel is undefined unless an image fence of
// the writer separates it from the write — its own OpMemoryBarrier or
// barrier with ImageMemory semantics when it wrote the texel itself, an
// image barrier both passed when another work-item of the same
// work-group (of the same subgroup: any scope; else work-group scope)
// wrote it; nothing orders two work-groups.
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "oracles/reference/executor.h"
#include "oracles/reference/image_sample.h"
#include "oracles/reference/image_state.h"
#include "oracles/reference/numeric.h"

namespace l0spv::oracles::reference {
namespace {

inline uint64_t Handle(const uint8_t* R, uint32_t slot) {
  uint64_t h;
  std::memcpy(&h, R + slot, 8);
  return h;
}

std::string TexelName(const SampleFault& f) {
  std::string s = "texel (";
  for (int i = 0; i < f.axes; ++i)
    absl::StrAppend(&s, i ? ", " : "", f.texel[i]);
  return s + ")";
}

std::string ImageName(const ImageState& img) {
  return absl::StrCat("image argument ", img.arg, " (",
                      spirv::DescribeImage(img.desc), ")");
}

const char* ValueName(Kind k) {
  return k == kF32 ? "float4" : k == kF16 ? "half4" : "int4";
}

}  // namespace

bool Executor::ImageOp(Invocation& inv, uint32_t pc, uint8_t* R,
                       const ImageCall& c) {
  ImageTable* table = state_.images;
  auto fail = [&](absl::string_view check, absl::string_view detail) {
    Error(inv, pc, ExecutionStatus::kUbDetected, check, detail);
    return false;
  };
  // The image a handle names, or nullptr after reporting.
  auto image_of = [&](uint64_t h) -> ImageState* {
    const uint32_t i = static_cast<uint32_t>(h);
    if (table == nullptr || i == 0 || i > table->images.size()) {
      fail("invalid image handle",
           absl::StrCat("handle ", h, " names no image argument"));
      return nullptr;
    }
    return &table->images[i - 1];
  };
  switch (c.kind) {
    case ImageOpKind::kSampledImage: {
      const uint64_t v =
          (Handle(R, c.image) & 0xFFFFFFFFu) | (Handle(R, c.sampler) << 32);
      std::memcpy(R + c.r, &v, 8);
      return true;
    }
    case ImageOpKind::kImageOf: {
      const uint64_t v = Handle(R, c.image) & 0xFFFFFFFFu;
      std::memcpy(R + c.r, &v, 8);
      return true;
    }
    default:
      break;
  }
  const uint64_t handle = Handle(R, c.image);
  ImageState* img = image_of(handle);
  if (img == nullptr) return false;
  const spirv::ImageDesc& desc = img->desc;

  // Queries.
  if (c.kind != ImageOpKind::kRead && c.kind != ImageOpKind::kWrite &&
      c.kind != ImageOpKind::kSample) {
    uint64_t v[3] = {0, 0, 0};
    switch (c.kind) {
      case ImageOpKind::kQuerySize: {
        if (c.lod != kNoSlot) {
          int32_t lod;
          std::memcpy(&lod, R + c.lod, 4);
          if (lod != 0)
            return fail("image size query of a missing mip level",
                        absl::StrCat("Lod ", lod, " of ", ImageName(*img),
                                     ", which has one level"));
        }
        const bool arrayed = spirv::IsArrayed(desc.dim);
        v[0] = desc.width;
        if (desc.dim == spirv::ImageDim::k2D ||
            desc.dim == spirv::ImageDim::k2DArray ||
            desc.dim == spirv::ImageDim::k3D)
          v[1] = desc.height;
        if (desc.dim == spirv::ImageDim::k3D) v[2] = desc.depth;
        if (arrayed)
          v[desc.dim == spirv::ImageDim::k1DArray ? 1 : 2] = desc.array_size;
        break;
      }
      case ImageOpKind::kQueryFormat:
        v[0] = desc.type;
        break;
      case ImageOpKind::kQueryOrder:
        v[0] = desc.order;
        break;
      default:  // levels, samples
        v[0] = 1;
        break;
    }
    for (int l = 0; l < c.value_lanes && l < 3; ++l) {
      if (c.value_kind == kI64) {
        std::memcpy(R + c.r + 8 * l, &v[l], 8);
      } else {
        const uint32_t w = static_cast<uint32_t>(v[l]);
        std::memcpy(R + c.r + 4 * l, &w, 4);
      }
    }
    return true;
  }

  const bool float_image = img->format.is_float_read();
  if (float_image != (c.value_kind != kI32)) {
    return fail(c.kind == ImageOpKind::kWrite
                    ? "image write of the wrong value type"
                    : "image read of the wrong value type",
                absl::StrCat(ValueName(c.value_kind),
                             c.kind == ImageOpKind::kWrite ? " to " : " from ",
                             ImageName(*img),
                             float_image ? " (read_imagef/h, write_imagef/h)"
                                         : " (read_imagei/ui, "
                                           "write_imagei/ui)"));
  }
  float fv[4];
  uint32_t iv[4];
  SampleFault fault;

  if (c.kind == ImageOpKind::kSample) {
    if (desc.access == spirv::ImageAccess::kWriteOnly)
      return fail("read of a write-only image", ImageName(*img));
    if (desc.access == spirv::ImageAccess::kReadWrite)
      return fail("sampled read of a read-write image",
                  absl::StrCat(ImageName(*img),
                               ": OpenCL reads read_write images only "
                               "without a sampler"));
    const uint32_t s = static_cast<uint32_t>(handle >> 32);
    if (s == 0 || s > table->samplers.size())
      return fail("invalid sampler handle",
                  absl::StrCat("handle ", s, " names no sampler"));
    const spirv::SamplerDesc& smp = table->samplers[s - 1];
    if (c.lod != kNoSlot) {
      uint32_t bits;
      std::memcpy(&bits, R + c.lod, 4);
      float f;
      std::memcpy(&f, &bits, 4);
      if (c.lod_kind == kF32 ? f != 0.0f : bits != 0)
        return fail("sampled read of a missing mip level",
                    absl::StrCat("non-zero Lod on ", ImageName(*img)));
    }
    float coord[4] = {0, 0, 0, 0};
    for (int l = 0; l < c.coord_lanes && l < 4; ++l) {
      if (c.coord_kind == kF32) {
        std::memcpy(&coord[l], R + c.coord + 4 * l, 4);
      } else {
        int32_t v;
        std::memcpy(&v, R + c.coord + 4 * l, 4);
        coord[l] = static_cast<float>(v);
      }
    }
    if (c.coord_kind != kF32 &&
        (smp.normalized || smp.filter == spirv::FilterMode::kLinear ||
         smp.addressing == spirv::AddressingMode::kRepeat ||
         smp.addressing == spirv::AddressingMode::kRepeatMirrored))
      return fail(
          "integer coordinates with a normalized, linear or repeat "
          "sampler",
          absl::StrCat(spirv::DescribeSampler(smp), " on ", ImageName(*img)));
    const bool ok = float_image ? SampleFloat(*img, smp, coord, fv, &fault)
                                : SampleInt(*img, smp, coord, iv, &fault);
    if (!ok) {
      std::string coords;
      for (int l = 0; l < fault.axes; ++l)
        absl::StrAppend(&coords, l ? ", " : "", coord[l]);
      return fail(
          fault.check,
          absl::StrCat(fault.axes ? TexelName(fault) + " " : "",
                       "at coordinates (", coords, ") of ", ImageName(*img),
                       " with ", spirv::DescribeSampler(smp)));
    }
  } else {
    // Sampler-less: integer coordinates, no filtering, no addressing.
    int64_t coord[4] = {0, 0, 0, 0};
    for (int l = 0; l < c.coord_lanes && l < 4; ++l) {
      int32_t v;
      std::memcpy(&v, R + c.coord + 4 * l, 4);
      coord[l] = v;
    }
    const bool write = c.kind == ImageOpKind::kWrite;
    if (!write && desc.access == spirv::ImageAccess::kWriteOnly)
      return fail("read of a write-only image", ImageName(*img));
    if (write && desc.access == spirv::ImageAccess::kReadOnly)
      return fail("write to a read-only image", ImageName(*img));
    uint64_t offset = 0;
    if (!TexelOffset(*img, coord, &offset, &fault))
      return fail(write ? "image write outside the image"
                        : "image read outside the image",
                  absl::StrCat(TexelName(fault), " of ", ImageName(*img)));
    fault.axes = static_cast<int>(spirv::CoordinateCount(desc.dim));
    for (int l = 0; l < fault.axes; ++l) fault.texel[l] = coord[l];
    uint8_t* texel = img->texels.data() + offset;
    const uint64_t index = offset / img->format.bytes;
    if (write) {
      if (c.value_kind == kF32) {
        std::memcpy(fv, R + c.texel, 16);
        EncodeTexelFloat(img->format, fv, texel);
      } else if (c.value_kind == kF16) {
        for (int l = 0; l < 4; ++l) {
          uint16_t h;
          std::memcpy(&h, R + c.texel + 2 * l, 2);
          fv[l] = HalfToFloat(h);
        }
        EncodeTexelFloat(img->format, fv, texel);
      } else {
        std::memcpy(iv, R + c.texel, 16);
        EncodeTexelInt(img->format, iv, texel);
      }
      if (!img->writes.empty()) {
        TexelWrite& w = img->writes[index];
        w.writer = inv.tag + 1;
        w.local_index = inv.local_index;
        w.group = table->group_serial;
        w.subgroup = inv.subgroup;
        w.sync = inv.image_sync;
        w.wg_sync = inv.image_wg_sync;
        w.fence = inv.image_fence;
      }
      return true;
    }
    if (!img->writes.empty() && img->writes[index].writer != 0) {
      const TexelWrite& w = img->writes[index];
      const char* check = nullptr;
      if (w.writer == inv.tag + 1) {
        if (w.fence == inv.image_fence)
          check =
              "read of a texel this work-item wrote, without an image memory "
              "fence in between";
      } else if (w.group != table->group_serial) {
        check = "read of a texel another work-group wrote in this launch";
      } else if (w.subgroup == inv.subgroup ? w.sync == inv.image_sync
                                            : w.wg_sync == inv.image_wg_sync) {
        check =
            "read of a texel another work-item wrote, without a barrier with "
            "image memory semantics in between";
      }
      if (check != nullptr)
        return fail(check,
                    absl::StrCat(TexelName(fault), " of ", ImageName(*img),
                                 w.writer == inv.tag + 1
                                     ? std::string()
                                     : absl::StrCat(", written by local "
                                                    "work-item ",
                                                    w.local_index,
                                                    " of its work-group")));
    }
    if (float_image) {
      DecodeTexelFloat(img->format, texel, fv);
    } else {
      DecodeTexelInt(img->format, texel, iv);
    }
  }
  // Store the read value.
  if (c.value_kind == kF32) {
    std::memcpy(R + c.r, fv, 16);
  } else if (c.value_kind == kF16) {
    for (int l = 0; l < 4; ++l) {
      const uint16_t h = FloatToHalf(fv[l]);
      std::memcpy(R + c.r + 2 * l, &h, 2);
    }
  } else {
    std::memcpy(R + c.r, iv, 16);
  }
  return true;
}

}  // namespace l0spv::oracles::reference
