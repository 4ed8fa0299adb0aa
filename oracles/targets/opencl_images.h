// oracles/targets/opencl_images.h — image and sampler kernel arguments on an
// OpenCL device: the support checks made before creating one, creation from
// spirv/image_format.h descriptors, and reading an image's texels back.
//
// Contract: channel orders/types map to CL constants by offset (CL_R =
// 0x10B0 + order, CL_SNORM_INT8 = 0x10D0 + type); addressing and filter modes
// likewise (CL_ADDRESS_NONE = 0x1130 + mode, CL_FILTER_NEAREST = 0x1140 +
// mode). Texels travel tightly packed (row and slice pitch 0) in the layout
// of spirv/image_format.h. A 1D buffer image is backed by a buffer holding
// its texels; the caller owns and releases both objects. Nothing here keeps
// state; every function is safe to call with any descriptor that passed
// spirv::ValidateImageDesc.
#pragma once

// clCreateSampler: Oclgrind 21.10 and the report's host program are OpenCL
// 1.2 users.
#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#endif
#include <CL/cl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "spirv/image_format.h"

namespace l0spv::oracles {

// "Portable Computing Language device pthread-cpu": names the device in
// unsupported messages.
std::string DeviceLabel(const std::string& platform_name, cl_device_id device);

// Empty when `device` can hold an image of `desc` (image support, the format
// in clGetSupportedImageFormats for the access's mem flags and image type,
// the device's maximum sizes); otherwise why not, starting with `label`.
std::string ImageUnsupportedReason(cl_context context, cl_device_id device,
                                   const std::string& label,
                                   const spirv::ImageDesc& desc);
// Empty when `device` supports images at all (samplers need that).
std::string SamplerUnsupportedReason(cl_device_id device,
                                     const std::string& label);

// Creates the image with `texels` as its initial contents (none when empty).
// For a 1D buffer image, *backing receives the buffer behind it. On failure
// returns nullptr, *err says why and *call names the failing call.
cl_mem CreateClImage(cl_context context, const spirv::ImageDesc& desc,
                     const std::vector<uint8_t>& texels, cl_mem* backing,
                     cl_int* err, const char** call);
cl_sampler CreateClSampler(cl_context context, const spirv::SamplerDesc& desc,
                           cl_int* err);

// Reads the whole image into *out (resized to ImageBytes(desc)), blocking.
cl_int ReadClImage(cl_command_queue queue, cl_mem image,
                   const spirv::ImageDesc& desc, std::vector<uint8_t>* out);

}  // namespace l0spv::oracles
