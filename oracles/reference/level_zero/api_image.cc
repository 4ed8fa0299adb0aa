// Image and sampler entry points of the reference driver: zeImage*,
// zeSampler* and the image copies of command lists. An image is host memory
// holding its texels in the layout of spirv/image_format.h; the descriptor
// translation is ze_image_format.h, shared with the `gpu` target.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "oracles/reference/level_zero/append.h"
#include "oracles/reference/level_zero/ddi_support.h"
#include "oracles/reference/level_zero/objects.h"
#include "oracles/reference/level_zero/ze_image_format.h"

namespace l0spv::zeref {

bool ImagesEnabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("L0SPV_REFERENCE_NO_IMAGES");
    return v == nullptr || v[0] == '\0' || std::string_view(v) == "0";
  }();
  return enabled;
}

namespace {

using Extent = std::array<uint64_t, 3>;

// A descriptor's ImageDesc, or the Level Zero error: unknown enumerations
// and flags -> INVALID_ENUMERATION; mip levels -> UNSUPPORTED_FEATURE;
// formats without an OpenCL equivalent -> UNSUPPORTED_IMAGE_FORMAT; a zero
// extent -> INVALID_SIZE; extents above the device limits -> UNSUPPORTED_SIZE.
ze_result_t Translate(const ze_image_desc_t* desc, spirv::ImageDesc* out) {
  if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->flags & ~ze_image_flags_t(ZE_IMAGE_FLAG_KERNEL_WRITE |
                                      ZE_IMAGE_FLAG_BIAS_UNCACHED))
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (desc->type > ZE_IMAGE_TYPE_BUFFER ||
      desc->format.layout > ZE_IMAGE_FORMAT_LAYOUT_BRGP ||
      desc->format.type > ZE_IMAGE_FORMAT_TYPE_FLOAT)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (desc->miplevels != 0) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  auto d = ImageDescOf(*desc);
  if (!d.ok()) {
    return d.status().code() == absl::StatusCode::kUnimplemented
               ? ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT
               : ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  if (d->width == 0 || d->height == 0 || d->depth == 0 || d->array_size == 0)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  if (!spirv::ValidateImageDesc(*d, kMaxImageBytes).ok())
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  *out = *d;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ImageGetProperties(ze_device_handle_t device,
                                          const ze_image_desc_t* desc,
                                          ze_image_properties_t* props) {
  if (!FromHandle<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!props) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  spirv::ImageDesc d;
  if (ze_result_t r = Translate(desc, &d); r != ZE_RESULT_SUCCESS) return r;
  // The interpreter samples every supported format with either filter (as
  // OpenCL requires linear filtering only for float-read formats, a kernel
  // that filters an integer image linearly is its own mistake).
  props->samplerFilterFlags =
      ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT | ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ImageCreate(ze_context_handle_t context,
                                   ze_device_handle_t device,
                                   const ze_image_desc_t* desc,
                                   ze_image_handle_t* out) {
  if (!FromHandle<Context>(context) || !FromHandle<Device>(device))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!ImagesEnabled()) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  spirv::ImageDesc d;
  if (ze_result_t r = Translate(desc, &d); r != ZE_RESULT_SUCCESS) return r;
  auto* image = new Image;
  image->desc = d;
  image->texels.assign(spirv::ImageBytes(d), 0);
  *out = ToHandle<ze_image_handle_t>(image);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ImageDestroy(ze_image_handle_t handle) {
  Image* image = FromHandle<Image>(handle);
  if (!image) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete image;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL SamplerCreate(ze_context_handle_t context,
                                     ze_device_handle_t device,
                                     const ze_sampler_desc_t* desc,
                                     ze_sampler_handle_t* out) {
  if (!FromHandle<Context>(context) || !FromHandle<Device>(device))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!ImagesEnabled()) return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
  auto s = SamplerDescOf(*desc);
  if (!s.ok()) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  auto* sampler = new Sampler;
  sampler->desc = *s;
  *out = ToHandle<ze_sampler_handle_t>(sampler);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL SamplerDestroy(ze_sampler_handle_t handle) {
  Sampler* sampler = FromHandle<Sampler>(handle);
  if (!sampler) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete sampler;
  return ZE_RESULT_SUCCESS;
}

// A box of texels: origin and size in storage coordinates {x, y, z} (a 1D
// array's layer is y, a 2D array's layer is z, as in ze_image_region_t).
struct Box {
  Extent origin{0, 0, 0};
  Extent size{0, 0, 0};
};

// The region of `image` (whole image when null); INVALID_ARGUMENT when it
// reaches outside the image, INVALID_SIZE when it is empty.
ze_result_t RegionOf(const Image& image, const ze_image_region_t* region,
                     Box* box) {
  const Extent extent = spirv::StorageExtent(image.desc);
  if (!region) {
    box->size = extent;
    return ZE_RESULT_SUCCESS;
  }
  box->origin = {region->originX, region->originY, region->originZ};
  box->size = {region->width, region->height, region->depth};
  for (int d = 0; d < 3; ++d) {
    if (box->size[d] == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
    if (box->origin[d] + box->size[d] > extent[d])
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  return ZE_RESULT_SUCCESS;
}

// Copies `size` texels between two tightly packed texel arrays of extents
// src_extent / dst_extent at the given origins.
void CopyBox(const uint8_t* src, const Extent& src_extent,
             const Extent& src_origin, uint8_t* dst, const Extent& dst_extent,
             const Extent& dst_origin, const Extent& size, uint32_t texel) {
  auto offset = [texel](const Extent& e, const Extent& o, uint64_t y,
                        uint64_t z) {
    return (((o[2] + z) * e[1] + (o[1] + y)) * e[0] + o[0]) * texel;
  };
  for (uint64_t z = 0; z < size[2]; ++z)
    for (uint64_t y = 0; y < size[1]; ++y)
      std::memmove(dst + offset(dst_extent, dst_origin, y, z),
                   src + offset(src_extent, src_origin, y, z), size[0] * texel);
}

ze_result_t ZE_APICALL AppendImageCopyRegion(
    ze_command_list_handle_t handle, ze_image_handle_t dst_handle,
    ze_image_handle_t src_handle, const ze_image_region_t* dst_region,
    const ze_image_region_t* src_region, ze_event_handle_t signal,
    uint32_t num_waits, ze_event_handle_t* waits) {
  CommandList* l;
  Command c;
  if (ze_result_t r = Prepare(handle, signal, num_waits, waits, &l, &c);
      r != ZE_RESULT_SUCCESS)
    return r;
  Image* dst = FromHandle<Image>(dst_handle);
  Image* src = FromHandle<Image>(src_handle);
  if (!dst || !src) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const uint32_t texel = spirv::TexelBytes(src->desc.order, src->desc.type);
  // Copies move texels unchanged: both images need texels of one size.
  if (texel != spirv::TexelBytes(dst->desc.order, dst->desc.type))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  Box from, to;
  if (ze_result_t r = RegionOf(*src, src_region, &from); r != ZE_RESULT_SUCCESS)
    return r;
  if (ze_result_t r = RegionOf(*dst, dst_region, &to); r != ZE_RESULT_SUCCESS)
    return r;
  if (from.size != to.size) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  c.run = [dst, src, from, to, texel] {
    CopyBox(src->texels.data(), spirv::StorageExtent(src->desc), from.origin,
            dst->texels.data(), spirv::StorageExtent(dst->desc), to.origin,
            from.size, texel);
    return ZE_RESULT_SUCCESS;
  };
  return Record(l, std::move(c));
}

ze_result_t ZE_APICALL AppendImageCopy(ze_command_list_handle_t handle,
                                       ze_image_handle_t dst,
                                       ze_image_handle_t src,
                                       ze_event_handle_t signal,
                                       uint32_t num_waits,
                                       ze_event_handle_t* waits) {
  return AppendImageCopyRegion(handle, dst, src, nullptr, nullptr, signal,
                               num_waits, waits);
}

// A copy between an image's region and memory holding the region's texels
// tightly packed (x fastest): into `to` when it is set, else from `from`
// (the two API calls below differ only in direction).
ze_result_t AppendImageMemoryCopy(ze_command_list_handle_t handle,
                                  ze_image_handle_t image_handle,
                                  const ze_image_region_t* region, uint8_t* to,
                                  const uint8_t* from, ze_event_handle_t signal,
                                  uint32_t num_waits,
                                  ze_event_handle_t* waits) {
  CommandList* l;
  Command c;
  if (ze_result_t r = Prepare(handle, signal, num_waits, waits, &l, &c);
      r != ZE_RESULT_SUCCESS)
    return r;
  Image* image = FromHandle<Image>(image_handle);
  if (!image) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!to && !from) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Box box;
  if (ze_result_t r = RegionOf(*image, region, &box); r != ZE_RESULT_SUCCESS)
    return r;
  const uint32_t texel = spirv::TexelBytes(image->desc.order, image->desc.type);
  c.run = [image, to, from, box, texel] {
    const Extent extent = spirv::StorageExtent(image->desc);
    if (to) {
      CopyBox(image->texels.data(), extent, box.origin, to, box.size,
              Extent{0, 0, 0}, box.size, texel);
    } else {
      CopyBox(from, box.size, Extent{0, 0, 0}, image->texels.data(), extent,
              box.origin, box.size, texel);
    }
    return ZE_RESULT_SUCCESS;
  };
  return Record(l, std::move(c));
}

ze_result_t ZE_APICALL AppendImageCopyToMemory(
    ze_command_list_handle_t handle, void* dst, ze_image_handle_t src,
    const ze_image_region_t* src_region, ze_event_handle_t signal,
    uint32_t num_waits, ze_event_handle_t* waits) {
  return AppendImageMemoryCopy(handle, src, src_region,
                               static_cast<uint8_t*>(dst), nullptr, signal,
                               num_waits, waits);
}

ze_result_t ZE_APICALL AppendImageCopyFromMemory(
    ze_command_list_handle_t handle, ze_image_handle_t dst, const void* src,
    const ze_image_region_t* dst_region, ze_event_handle_t signal,
    uint32_t num_waits, ze_event_handle_t* waits) {
  return AppendImageMemoryCopy(handle, dst, dst_region, nullptr,
                               static_cast<const uint8_t*>(src), signal,
                               num_waits, waits);
}

}  // namespace

void FillImplemented(ze_image_dditable_t* t) {
  t->pfnGetProperties = ImageGetProperties;
  t->pfnCreate = ImageCreate;
  t->pfnDestroy = ImageDestroy;
}

void FillImplemented(ze_sampler_dditable_t* t) {
  t->pfnCreate = SamplerCreate;
  t->pfnDestroy = SamplerDestroy;
}

void FillImageCopies(ze_command_list_dditable_t* t) {
  t->pfnAppendImageCopy = AppendImageCopy;
  t->pfnAppendImageCopyRegion = AppendImageCopyRegion;
  t->pfnAppendImageCopyToMemory = AppendImageCopyToMemory;
  t->pfnAppendImageCopyFromMemory = AppendImageCopyFromMemory;
}

}  // namespace l0spv::zeref
