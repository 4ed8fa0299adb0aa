#include "tests/reference/image_test_util.h"

#include "absl/strings/str_cat.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {

std::string ImageKernel(
    const std::string& decls,
    const std::vector<std::pair<std::string, std::string>>& params,
    const std::string& body) {
  std::string types = "%smp = OpTypeSampler\n";
  const std::pair<const char*, const char*> dims[] = {
      {"1d", "1D 0 0 0 0"}, {"1db", "Buffer 0 0 0 0"}, {"1da", "1D 0 1 0 0"},
      {"2d", "2D 0 0 0 0"}, {"2da", "2D 0 1 0 0"},     {"3d", "3D 0 0 0 0"}};
  for (const auto& [name, spec] : dims) {
    for (const auto& [acc, q] :
         {std::pair{"ro", "ReadOnly"}, std::pair{"wo", "WriteOnly"},
          std::pair{"rw", "ReadWrite"}})
      absl::StrAppend(&types, "%i", name, "_", acc, " = OpTypeImage %void ",
                      spec, " Unknown ", q, "\n");
    absl::StrAppend(&types, "%s", name, " = OpTypeSampledImage %i", name,
                    "_ro\n");
  }
  absl::StrAppend(&types, R"(
%float_half = OpConstant %float 0.5
%int_m1 = OpConstant %uint 4294967295
%v4float_0 = OpConstantComposite %v4float %float_0 %float_0 %float_0 %float_0
)");
  std::string fn_type = "%kfn = OpTypeFunction %void";
  std::string fn_params;
  for (const auto& [name, type] : params) {
    absl::StrAppend(&fn_type, " ", type);
    absl::StrAppend(&fn_params, name, " = OpFunctionParameter ", type, "\n");
  }
  return absl::StrCat(Prelude(R"(OpCapability ImageBasic
OpCapability ImageReadWrite
OpCapability LiteralSampler
OpCapability Sampled1D
OpCapability Image1D
OpCapability SampledBuffer
OpCapability ImageBuffer
OpCapability Float16
)"),
                      types, decls, fn_type,
                      "\n%k = OpFunction %void None %kfn\n", fn_params,
                      R"(%entry = OpLabel
%gidv = OpLoad %v3ulong %gid Aligned 32
%gx = OpCompositeExtract %ulong %gidv 0
%gy = OpCompositeExtract %ulong %gidv 1
%gz = OpCompositeExtract %ulong %gidv 2
%x = OpUConvert %uint %gx
%y = OpUConvert %uint %gy
%z = OpUConvert %uint %gz
)",
                      body, "\nOpReturn\nOpFunctionEnd\n");
}

spirv::KernelArg ImageArg(const spirv::ImageDesc& desc,
                          std::vector<uint8_t> texels, bool result) {
  spirv::KernelArg a;
  a.kind = spirv::KernelArg::Kind::kImage;
  a.image = desc;
  if (texels.empty()) texels.assign(spirv::ImageBytes(desc), 0);
  a.bytes = std::move(texels);
  a.is_result = result;
  return a;
}

spirv::KernelArg SamplerArg(const spirv::SamplerDesc& desc) {
  spirv::KernelArg a;
  a.kind = spirv::KernelArg::Kind::kSampler;
  a.sampler = desc;
  return a;
}

spirv::ImageDesc Desc2D(uint32_t order, uint32_t type, uint64_t w, uint64_t h,
                        spirv::ImageAccess access) {
  spirv::ImageDesc d;
  d.dim = spirv::ImageDim::k2D;
  d.order = order;
  d.type = type;
  d.width = w;
  d.height = h;
  d.access = access;
  return d;
}

}  // namespace l0spv::oracles::reference::test
