// tests/spirv/image_kernel_prelude.h — the opening every hand-written image
// kernel of the tests and benchmarks shares, so that a change to it (a
// capability, a consumer's quirk) is made once.
//
// Contract: ImageKernelModule(body) returns a complete assembly module:
// the prelude below followed by `body`, which holds the kernel's own types,
// constants and its entry point %k. The prelude declares
//   capabilities Addresses, Kernel, Int64, ImageBasic (+ SampledBuffer for
//   kBuffer); Physical64 OpenCL; OpEntryPoint Kernel %k "k" %gid, %gid the
//   Constant GlobalInvocationId input (%ptr_in, a %v3ulong);
//   %void %bool %uint %ulong %float %v2uint %v4uint %v2float %v4float
//   %v3ulong; %img_ro / %img_wo, the read-only / write-only images of `dim`
//   (sampled type void, Unknown format); for k2D also %smp (OpTypeSampler)
//   and %simg (OpTypeSampledImage %img_ro). SPIR-V forbids a sampled image
//   of a buffer image, so kBuffer declares neither.
// Names the body does not use cost nothing: unused types are valid SPIR-V
// and every consumer here (the reference, PoCL and Oclgrind through
// llvm-spirv-14 -r, ocloc) ignores them.
//
// Header-only and standard-library-only: bench/ includes it as well as
// tests/, and neither needs to link a test library for it.
#pragma once

#include <string>
#include <string_view>

namespace l0spv::spirv::test {

enum class PreludeImageDim { k2D, kBuffer };

inline std::string ImageKernelModule(
    std::string_view body, PreludeImageDim dim = PreludeImageDim::k2D) {
  const bool buffer = dim == PreludeImageDim::kBuffer;
  std::string text = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability ImageBasic
)";
  if (buffer) text += "OpCapability SampledBuffer\n";
  text += R"(OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%v4uint = OpTypeVector %uint 4
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%v3ulong = OpTypeVector %ulong 3
%ptr_in = OpTypePointer Input %v3ulong
%gid = OpVariable %ptr_in Input
)";
  const std::string_view d = buffer ? "Buffer" : "2D";
  text += "%img_ro = OpTypeImage %void ";
  text += d;
  text += " 0 0 0 0 Unknown ReadOnly\n%img_wo = OpTypeImage %void ";
  text += d;
  text += " 0 0 0 0 Unknown WriteOnly\n";
  if (!buffer)
    text += "%smp = OpTypeSampler\n%simg = OpTypeSampledImage %img_ro\n";
  text += body;
  return text;
}

}  // namespace l0spv::spirv::test
