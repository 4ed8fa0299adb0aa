#include "oracles/targets/opencl_images.h"

#include <algorithm>
#include <array>

#include "absl/strings/str_cat.h"
#include "oracles/targets/cl_info.h"

namespace l0spv::oracles {
namespace {

using spirv::ImageAccess;
using spirv::ImageDesc;
using spirv::ImageDim;

size_t DeviceSize(cl_device_id d, cl_device_info what) {
  size_t v = 0;
  if (clGetDeviceInfo(d, what, sizeof v, &v, nullptr) != CL_SUCCESS) return 0;
  return v;
}

cl_mem_object_type ClImageType(ImageDim dim) {
  switch (dim) {
    case ImageDim::k1D:
      return CL_MEM_OBJECT_IMAGE1D;
    case ImageDim::k1DBuffer:
      return CL_MEM_OBJECT_IMAGE1D_BUFFER;
    case ImageDim::k1DArray:
      return CL_MEM_OBJECT_IMAGE1D_ARRAY;
    case ImageDim::k2D:
      return CL_MEM_OBJECT_IMAGE2D;
    case ImageDim::k2DArray:
      return CL_MEM_OBJECT_IMAGE2D_ARRAY;
    case ImageDim::k3D:
      return CL_MEM_OBJECT_IMAGE3D;
  }
  return CL_MEM_OBJECT_IMAGE2D;
}

// The kernel-side access decides the flags; the host side (initial texels,
// read back) is unrestricted either way.
cl_mem_flags AccessFlags(ImageAccess access) {
  switch (access) {
    case ImageAccess::kReadOnly:
      return CL_MEM_READ_ONLY;
    case ImageAccess::kWriteOnly:
      return CL_MEM_WRITE_ONLY;
    case ImageAccess::kReadWrite:
      return CL_MEM_READ_WRITE;
  }
  return CL_MEM_READ_WRITE;
}

cl_image_format ClFormat(const ImageDesc& desc) {
  return cl_image_format{static_cast<cl_channel_order>(0x10B0 + desc.order),
                         static_cast<cl_channel_type>(0x10D0 + desc.type)};
}

cl_image_desc ClDesc(const ImageDesc& desc, cl_mem buffer) {
  cl_image_desc d{};
  d.image_type = ClImageType(desc.dim);
  d.image_width = desc.width;
  d.image_height = desc.height;
  d.image_depth = desc.depth;
  d.image_array_size = desc.array_size;
  d.buffer = buffer;
  return d;
}

// "1D array": how the messages name an image type.
const char* DimWords(ImageDim dim) {
  switch (dim) {
    case ImageDim::k1D:
      return "1D";
    case ImageDim::k1DBuffer:
      return "1D buffer";
    case ImageDim::k1DArray:
      return "1D array";
    case ImageDim::k2D:
      return "2D";
    case ImageDim::k2DArray:
      return "2D array";
    case ImageDim::k3D:
      return "3D";
  }
  return "?";
}

// One extent checked against its device limit; "" when it fits.
std::string Limit(const std::string& label, const char* what, uint64_t value,
                  size_t max, const char* info) {
  if (value <= max) return "";
  return absl::StrCat(label, ": image ", what, " ", value, " exceeds ", info,
                      " = ", max);
}

}  // namespace

std::string DeviceLabel(const std::string& platform_name, cl_device_id device) {
  return absl::StrCat(platform_name, " device ",
                      ClDeviceString(device, CL_DEVICE_NAME));
}

std::string SamplerUnsupportedReason(cl_device_id device,
                                     const std::string& label) {
  cl_bool images = CL_FALSE;
  clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images,
                  nullptr);
  if (images) return "";
  return absl::StrCat(label, ": CL_DEVICE_IMAGE_SUPPORT is false");
}

std::string ImageUnsupportedReason(cl_context context, cl_device_id device,
                                   const std::string& label,
                                   const ImageDesc& desc) {
  if (std::string why = SamplerUnsupportedReason(device, label); !why.empty())
    return why;
  const cl_mem_flags flags = AccessFlags(desc.access);
  const cl_mem_object_type type = ClImageType(desc.dim);
  cl_uint count = 0;
  cl_int err =
      clGetSupportedImageFormats(context, flags, type, 0, nullptr, &count);
  std::vector<cl_image_format> formats(count);
  if (err == CL_SUCCESS && count > 0) {
    err = clGetSupportedImageFormats(context, flags, type, count,
                                     formats.data(), nullptr);
  }
  const cl_image_format want = ClFormat(desc);
  const bool found =
      err == CL_SUCCESS &&
      std::any_of(formats.begin(), formats.end(), [&](const auto& f) {
        return f.image_channel_order == want.image_channel_order &&
               f.image_channel_data_type == want.image_channel_data_type;
      });
  if (!found) {
    return absl::StrCat(
        label, ": format ", spirv::ChannelOrderName(desc.order), " ",
        spirv::ChannelTypeName(desc.type),
        " not in clGetSupportedImageFormats for ", DimWords(desc.dim), " ",
        spirv::ImageAccessName(desc.access), " images",
        err == CL_SUCCESS ? ""
                          : absl::StrCat(" (the query returned ", err, ")"));
  }
  const size_t w2 = DeviceSize(device, CL_DEVICE_IMAGE2D_MAX_WIDTH);
  const size_t h2 = DeviceSize(device, CL_DEVICE_IMAGE2D_MAX_HEIGHT);
  const size_t arr = DeviceSize(device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE);
  std::array<std::string, 3> why;
  switch (desc.dim) {
    case ImageDim::k1D:
      why[0] =
          Limit(label, "width", desc.width, w2, "CL_DEVICE_IMAGE2D_MAX_WIDTH");
      break;
    case ImageDim::k1DBuffer:
      why[0] = Limit(label, "width", desc.width,
                     DeviceSize(device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE),
                     "CL_DEVICE_IMAGE_MAX_BUFFER_SIZE");
      break;
    case ImageDim::k1DArray:
      why[0] =
          Limit(label, "width", desc.width, w2, "CL_DEVICE_IMAGE2D_MAX_WIDTH");
      why[1] = Limit(label, "array size", desc.array_size, arr,
                     "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE");
      break;
    case ImageDim::k2D:
    case ImageDim::k2DArray:
      why[0] =
          Limit(label, "width", desc.width, w2, "CL_DEVICE_IMAGE2D_MAX_WIDTH");
      why[1] = Limit(label, "height", desc.height, h2,
                     "CL_DEVICE_IMAGE2D_MAX_HEIGHT");
      if (desc.dim == ImageDim::k2DArray)
        why[2] = Limit(label, "array size", desc.array_size, arr,
                       "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE");
      break;
    case ImageDim::k3D:
      why[0] = Limit(label, "width", desc.width,
                     DeviceSize(device, CL_DEVICE_IMAGE3D_MAX_WIDTH),
                     "CL_DEVICE_IMAGE3D_MAX_WIDTH");
      why[1] = Limit(label, "height", desc.height,
                     DeviceSize(device, CL_DEVICE_IMAGE3D_MAX_HEIGHT),
                     "CL_DEVICE_IMAGE3D_MAX_HEIGHT");
      why[2] = Limit(label, "depth", desc.depth,
                     DeviceSize(device, CL_DEVICE_IMAGE3D_MAX_DEPTH),
                     "CL_DEVICE_IMAGE3D_MAX_DEPTH");
      break;
  }
  for (const std::string& w : why)
    if (!w.empty()) return w;
  return "";
}

cl_mem CreateClImage(cl_context context, const ImageDesc& desc,
                     const std::vector<uint8_t>& texels, cl_mem* backing,
                     cl_int* err, const char** call) {
  const cl_mem_flags flags = AccessFlags(desc.access);
  void* host = texels.empty() ? nullptr : const_cast<uint8_t*>(texels.data());
  const cl_image_format format = ClFormat(desc);
  *backing = nullptr;
  if (desc.dim == ImageDim::k1DBuffer) {
    // The texels live in the buffer; the image is a view of it and takes no
    // host pointer of its own.
    *call = "clCreateBuffer";
    *backing = clCreateBuffer(
        context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
        spirv::ImageBytes(desc), host, err);
    if (!*backing) return nullptr;
    const cl_image_desc d = ClDesc(desc, *backing);
    *call = "clCreateImage";
    return clCreateImage(context, flags, &format, &d, nullptr, err);
  }
  const cl_image_desc d = ClDesc(desc, nullptr);
  *call = "clCreateImage";
  return clCreateImage(context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0),
                       &format, &d, host, err);
}

cl_sampler CreateClSampler(cl_context context, const spirv::SamplerDesc& desc,
                           cl_int* err) {
  return clCreateSampler(
      context, desc.normalized ? CL_TRUE : CL_FALSE,
      static_cast<cl_addressing_mode>(0x1130 +
                                      static_cast<int>(desc.addressing)),
      static_cast<cl_filter_mode>(0x1140 + static_cast<int>(desc.filter)), err);
}

cl_int ReadClImage(cl_command_queue queue, cl_mem image, const ImageDesc& desc,
                   std::vector<uint8_t>* out) {
  out->assign(spirv::ImageBytes(desc), 0);
  const std::array<uint64_t, 3> extent = spirv::StorageExtent(desc);
  const size_t origin[3] = {0, 0, 0};
  const size_t region[3] = {extent[0], extent[1], extent[2]};
  return clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0, 0,
                            out->data(), 0, nullptr, nullptr);
}

}  // namespace l0spv::oracles
