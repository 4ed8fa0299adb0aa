// oracles/reference/image_args.cc — see image_args.h.
#include "oracles/reference/image_args.h"

#include "absl/strings/str_cat.h"

namespace l0spv::oracles::reference {
namespace {

const char* ParamKindName(KernelParam::Kind k) {
  switch (k) {
    case KernelParam::Kind::kBuffer:
      return "a global or constant pointer";
    case KernelParam::Kind::kLocal:
      return "a local pointer";
    case KernelParam::Kind::kImage:
      return "an image";
    case KernelParam::Kind::kSampler:
      return "a sampler";
    default:
      return "a value";
  }
}

const char* ArgKindName(spirv::KernelArg::Kind k) {
  using K = spirv::KernelArg::Kind;
  switch (k) {
    case K::kBuffer:
      return "a buffer";
    case K::kLocal:
      return "a local-memory size";
    case K::kImage:
      return "an image";
    case K::kSampler:
      return "a sampler";
    default:
      return "a scalar";
  }
}

// SPIR-V Dim / Arrayed as the project's dimensionality name.
std::string SpirvImageName(uint32_t dim, bool arrayed) {
  const char* base = dim == 0   ? "1d"
                     : dim == 1 ? "2d"
                     : dim == 2 ? "3d"
                     : dim == 5 ? "1d_buffer"
                                : nullptr;
  if (base == nullptr) return absl::StrCat("Dim ", dim);
  return absl::StrCat(base, arrayed ? "_array" : "");
}

}  // namespace

std::string CheckImageArg(const KernelParam& p, const spirv::KernelArg& a) {
  using K = spirv::KernelArg::Kind;
  const bool param_image = p.kind == KernelParam::Kind::kImage;
  const bool param_sampler = p.kind == KernelParam::Kind::kSampler;
  if ((param_image && a.kind != K::kImage) ||
      (param_sampler && a.kind != K::kSampler) ||
      (!param_image && !param_sampler))
    return absl::StrCat("the kernel takes ", ParamKindName(p.kind),
                        ", the test case gives ", ArgKindName(a.kind));
  if (param_sampler) {
    if (auto s = spirv::ValidateSamplerDesc(a.sampler); !s.ok())
      return std::string(s.message());
    return "";
  }
  if (auto s = spirv::ValidateImageDesc(a.image, ~uint64_t{0}); !s.ok())
    return std::string(s.message());
  if (a.bytes.size() != spirv::ImageBytes(a.image))
    return absl::StrCat("the image holds ", a.bytes.size(),
                        " bytes of texels, ", spirv::DescribeImage(a.image),
                        " needs ", spirv::ImageBytes(a.image));
  if (spirv::SpirvDim(a.image.dim) != p.image_dim ||
      spirv::IsArrayed(a.image.dim) != p.image_arrayed)
    return absl::StrCat("the kernel takes a ",
                        SpirvImageName(p.image_dim, p.image_arrayed),
                        " image, the test case gives a ",
                        spirv::ImageDimName(a.image.dim), " image");
  if (static_cast<uint32_t>(a.image.access) != p.image_access)
    return absl::StrCat(
        "the kernel takes a ",
        p.image_access <= 2
            ? spirv::ImageAccessName(
                  static_cast<spirv::ImageAccess>(p.image_access))
            : "unknown-access",
        " image, the test case gives a ",
        spirv::ImageAccessName(a.image.access), " one");
  return "";
}

bool BuildImageTable(const Program& prog, const spirv::TestCase& tc,
                     Memory& memory, ImageTable* table) {
  table->images.resize(prog.image_params);
  uint32_t sampler_params = 0;
  for (const KernelParam& p : prog.params)
    sampler_params += p.kind == KernelParam::Kind::kSampler ? 1 : 0;
  table->samplers.resize(prog.literal_samplers.size() + sampler_params);
  for (size_t i = 0; i < prog.literal_samplers.size(); ++i) {
    const Program::LiteralSampler& l = prog.literal_samplers[i];
    spirv::SamplerDesc& s = table->samplers[i];
    s.normalized = l.normalized;
    s.addressing = static_cast<spirv::AddressingMode>(l.addressing);
    s.filter = static_cast<spirv::FilterMode>(l.filter);
  }
  for (size_t i = 0; i < prog.params.size(); ++i) {
    const KernelParam& p = prog.params[i];
    const spirv::KernelArg& a = tc.args[i];
    if (p.kind == KernelParam::Kind::kSampler) {
      table->samplers[p.index] = a.sampler;
      continue;
    }
    if (p.kind != KernelParam::Kind::kImage) continue;
    ImageState& img = table->images[p.index];
    img.desc = a.image;
    img.arg = static_cast<uint32_t>(i);
    img.format = MakeTexelFormat(a.image.order, a.image.type);
    const auto e = spirv::StorageExtent(a.image);
    img.extent = {e[0], e[1], e[2]};
    const bool rw = a.image.access == spirv::ImageAccess::kReadWrite;
    const uint64_t texels = spirv::TexelCount(a.image);
    if (!memory.Charge(a.bytes.size() + (rw ? texels * sizeof(TexelWrite) : 0)))
      return false;
    img.texels = a.bytes;
    if (rw) img.writes.assign(texels, TexelWrite{});
  }
  return true;
}

}  // namespace l0spv::oracles::reference
