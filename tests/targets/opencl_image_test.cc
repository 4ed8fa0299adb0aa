// Image and sampler arguments on the OpenCL targets (PoCL through `opencl`,
// Oclgrind through `oclgrind`, both on the SPIR path) and image modules
// through ocloc: texels written and read back, every sampler setting
// against a small model of OpenCL's sampling rules, a 1D buffer image, and
// a format the device lacks coming back as kUnsupported with the reason.
// Each test skips when its consumer is not installed. One build per test
// (~1 s on PoCL).
#include <cmath>
#include <cstring>
#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/targets/target.h"
#include "spirv/image_format.h"
#include "spirv/spirv_tools.h"
#include "tests/spirv/image_kernel_prelude.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

// out[g*5 + j] = read_imagef(src, s_j, c).x, where c is the unnormalised
// pair coords[g].xy for samplers 0, 1, 4 and the normalised pair
// coords[g].zw for samplers 2, 3; then dst(g % 4, g / 4) =
// (src(g % 4, g / 4).x * 10 / 255, 0, 1, 1) through a sampler-less read.
// Vectors are built with OpCompositeInsert, not OpCompositeConstruct or
// OpVectorShuffle: llvm-spirv-14 -r crashes on those with run-time
// operands (known bugs composite_construct_runtime, vector_shuffle_mixed).
// After the shared image prelude (image_kernel_prelude.h).
constexpr char kSampleKernel[] = R"(
%ptr_v4 = OpTypePointer CrossWorkgroup %v4float
%ptr_f = OpTypePointer CrossWorkgroup %float
%kfn = OpTypeFunction %void %img_ro %img_wo %smp %smp %smp %smp %smp %ptr_v4 %ptr_f
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%float_k = OpConstant %float 0.03921568627
%ulong_1 = OpConstant %ulong 1
%ulong_2 = OpConstant %ulong 2
%ulong_3 = OpConstant %ulong 3
%ulong_4 = OpConstant %ulong 4
%ulong_5 = OpConstant %ulong 5
%uint_4 = OpConstant %uint 4
%undef_v2float = OpUndef %v2float
%undef_v2uint = OpUndef %v2uint
%const_w = OpConstantComposite %v4float %float_0 %float_0 %float_1 %float_1
%k = OpFunction %void None %kfn
%src = OpFunctionParameter %img_ro
%dst = OpFunctionParameter %img_wo
%s0 = OpFunctionParameter %smp
%s1 = OpFunctionParameter %smp
%s2 = OpFunctionParameter %smp
%s3 = OpFunctionParameter %smp
%s4 = OpFunctionParameter %smp
%coords = OpFunctionParameter %ptr_v4
%out = OpFunctionParameter %ptr_f
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%g = OpCompositeExtract %ulong %gv 0
%pc = OpInBoundsPtrAccessChain %ptr_v4 %coords %g
%c = OpLoad %v4float %pc Aligned 16
%c0 = OpCompositeExtract %float %c 0
%c1 = OpCompositeExtract %float %c 1
%c2 = OpCompositeExtract %float %c 2
%c3 = OpCompositeExtract %float %c 3
%uv0 = OpCompositeInsert %v2float %c0 %undef_v2float 0
%uv = OpCompositeInsert %v2float %c1 %uv0 1
%st0 = OpCompositeInsert %v2float %c2 %undef_v2float 0
%st = OpCompositeInsert %v2float %c3 %st0 1
%b0 = OpIMul %ulong %g %ulong_5
%b1 = OpIAdd %ulong %b0 %ulong_1
%b2 = OpIAdd %ulong %b0 %ulong_2
%b3 = OpIAdd %ulong %b0 %ulong_3
%b4 = OpIAdd %ulong %b0 %ulong_4
%i0 = OpSampledImage %simg %src %s0
%r0 = OpImageSampleExplicitLod %v4float %i0 %uv Lod %float_0
%x0 = OpCompositeExtract %float %r0 0
%p0 = OpInBoundsPtrAccessChain %ptr_f %out %b0
OpStore %p0 %x0 Aligned 4
%i1 = OpSampledImage %simg %src %s1
%r1 = OpImageSampleExplicitLod %v4float %i1 %uv Lod %float_0
%x1 = OpCompositeExtract %float %r1 0
%p1 = OpInBoundsPtrAccessChain %ptr_f %out %b1
OpStore %p1 %x1 Aligned 4
%i2 = OpSampledImage %simg %src %s2
%r2 = OpImageSampleExplicitLod %v4float %i2 %st Lod %float_0
%x2 = OpCompositeExtract %float %r2 0
%p2 = OpInBoundsPtrAccessChain %ptr_f %out %b2
OpStore %p2 %x2 Aligned 4
%i3 = OpSampledImage %simg %src %s3
%r3 = OpImageSampleExplicitLod %v4float %i3 %st Lod %float_0
%x3 = OpCompositeExtract %float %r3 0
%p3 = OpInBoundsPtrAccessChain %ptr_f %out %b3
OpStore %p3 %x3 Aligned 4
%i4 = OpSampledImage %simg %src %s4
%r4 = OpImageSampleExplicitLod %v4float %i4 %uv Lod %float_0
%x4 = OpCompositeExtract %float %r4 0
%p4 = OpInBoundsPtrAccessChain %ptr_f %out %b4
OpStore %p4 %x4 Aligned 4
%gu = OpUConvert %uint %g
%xi = OpUMod %uint %gu %uint_4
%yi = OpUDiv %uint %gu %uint_4
%ic0 = OpCompositeInsert %v2uint %xi %undef_v2uint 0
%ic = OpCompositeInsert %v2uint %yi %ic0 1
%t = OpImageRead %v4float %src %ic
%tx = OpCompositeExtract %float %t 0
%tv = OpFMul %float %tx %float_k
%w = OpCompositeInsert %v4float %tv %const_w 0
OpImageWrite %dst %ic %w
OpReturn
OpFunctionEnd
)";

// dst[x] = src[x] + (1, 2, 3, 4) on RGBA SignedInt32 1D buffer images.
// Signed, not unsigned: llvm-spirv-14 -r turns every integer OpImageRead /
// OpImageWrite into read_imagei / write_imagei (SPIR-V 1.2 has no
// signedness), which Oclgrind refuses on UnsignedInt images.
// After the shared prelude with buffer images.
constexpr char kBufferImageKernel[] = R"(
%kfn = OpTypeFunction %void %img_ro %img_wo
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%add = OpConstantComposite %v4uint %uint_1 %uint_2 %uint_3 %uint_4
%k = OpFunction %void None %kfn
%src = OpFunctionParameter %img_ro
%dst = OpFunctionParameter %img_wo
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%g = OpCompositeExtract %ulong %gv 0
%x = OpUConvert %uint %g
%v = OpImageRead %v4uint %src %x
%s = OpIAdd %v4uint %v %add
OpImageWrite %dst %x %s
OpReturn
OpFunctionEnd
)";

using spirv::AddressingMode;
using spirv::FilterMode;
using spirv::ImageDesc;
using spirv::ImageDim;
using spirv::KernelArg;
using spirv::SamplerDesc;

constexpr int kW = 4, kH = 2;
// The source image: R Float, texel (x, y) = 1 + x + 4y.
float Texel(int x, int y) { return static_cast<float>(1 + x + kW * y); }

// OpenCL's addressing for one texel index; nullopt = the border colour
// (CL_R: x = 0).
std::optional<int> Address(int i, int size, AddressingMode mode) {
  if (mode == AddressingMode::kClamp && (i < 0 || i >= size))
    return std::nullopt;
  return std::clamp(i, 0, size - 1);  // clamp to edge; repeat/mirror: done
}

float Fetch(int x, int y, AddressingMode mode) {
  const auto ax = Address(x, kW, mode), ay = Address(y, kH, mode);
  return ax && ay ? Texel(*ax, *ay) : 0.0f;
}

// The x channel OpenCL 1.2 §8.2 gives for sampler `s` at coordinate (u, v)
// (normalised when s.normalized). Repeat and mirrored repeat reduce the
// coordinate first, then index like clamp to edge.
float Sample(const SamplerDesc& s, float u, float v) {
  float cu = u, cv = v;
  if (s.normalized) {
    if (s.addressing == AddressingMode::kRepeat) {
      cu = u - std::floor(u);
      cv = v - std::floor(v);
    } else if (s.addressing == AddressingMode::kRepeatMirrored) {
      cu = std::fabs(u - 2.0f * std::rint(0.5f * u));
      cv = std::fabs(v - 2.0f * std::rint(0.5f * v));
    }
    cu *= kW;
    cv *= kH;
  }
  if (s.filter == FilterMode::kNearest) {
    return Fetch(static_cast<int>(std::floor(cu)),
                 static_cast<int>(std::floor(cv)), s.addressing);
  }
  const float fu = cu - 0.5f, fv = cv - 0.5f;
  const int i0 = static_cast<int>(std::floor(fu));
  const int j0 = static_cast<int>(std::floor(fv));
  const float a = fu - std::floor(fu), b = fv - std::floor(fv);
  return (1 - a) * (1 - b) * Fetch(i0, j0, s.addressing) +
         a * (1 - b) * Fetch(i0 + 1, j0, s.addressing) +
         (1 - a) * b * Fetch(i0, j0 + 1, s.addressing) +
         a * b * Fetch(i0 + 1, j0 + 1, s.addressing);
}

// Each normalisation, addressing mode and filter appears at least once.
const SamplerDesc kSamplers[5] = {
    {false, AddressingMode::kClampToEdge, FilterMode::kNearest},
    {false, AddressingMode::kClamp, FilterMode::kLinear},
    {true, AddressingMode::kRepeat, FilterMode::kNearest},
    {true, AddressingMode::kRepeatMirrored, FilterMode::kLinear},
    {false, AddressingMode::kNone, FilterMode::kNearest},
};
// (u, v) unnormalised, (s, t) normalised; inside and outside the image.
const float kCoords[8][4] = {
    {1.5f, 0.5f, 0.375f, 0.25f},   {-0.75f, 1.25f, 1.3f, -0.2f},
    {4.75f, 2.5f, -0.6f, 0.75f},   {2.25f, 1.75f, 2.125f, 1.6f},
    {0.25f, 0.25f, 0.9f, 0.4f},    {3.75f, 1.5f, -1.2f, 2.3f},
    {2.0f, 1.0f, 0.5625f, 0.625f}, {-3.0f, -2.0f, 3.7f, -0.45f},
};
// Sampler 4 (no addressing) is undefined outside the image.
bool Inside(const float* c) {
  return c[0] >= 0 && c[0] < kW && c[1] >= 0 && c[1] < kH;
}

KernelArg Image(ImageDesc desc, std::vector<uint8_t> texels, bool result) {
  KernelArg a;
  a.kind = KernelArg::Kind::kImage;
  a.image = desc;
  a.bytes = std::move(texels);
  a.is_result = result;
  return a;
}

KernelArg Sampler(const SamplerDesc& s) {
  KernelArg a;
  a.kind = KernelArg::Kind::kSampler;
  a.sampler = s;
  return a;
}

template <typename T>
KernelArg Buffer(const std::vector<T>& values, bool result) {
  KernelArg a;
  a.kind = KernelArg::Kind::kBuffer;
  a.bytes.resize(values.size() * sizeof(T));
  std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  a.is_result = result;
  return a;
}

ImageDesc Desc2D(uint32_t order, uint32_t type, spirv::ImageAccess access) {
  ImageDesc d;
  d.dim = ImageDim::k2D;
  d.order = order;
  d.type = type;
  d.width = kW;
  d.height = kH;
  d.access = access;
  return d;
}

spirv::TestCase SampleCase(uint32_t src_order, uint32_t src_type) {
  namespace co = spirv::channel_order;
  namespace ct = spirv::channel_type;
  spirv::TestCase tc;
  auto words = spirv::Assemble(spirv::test::ImageKernelModule(kSampleKernel));
  EXPECT_TRUE(words.ok()) << words.status();
  if (words.ok()) tc.module_words = *words;
  EXPECT_TRUE(spirv::Validate(tc.module_words, SPV_ENV_OPENCL_2_2).ok());
  tc.entry_point = "k";
  tc.nd_range.global[0] = 8;
  std::vector<float> src(kW * kH);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) src[y * kW + x] = Texel(x, y);
  const ImageDesc sd =
      Desc2D(src_order, src_type, spirv::ImageAccess::kReadOnly);
  std::vector<uint8_t> src_bytes(spirv::ImageBytes(sd));
  std::memcpy(src_bytes.data(), src.data(),
              std::min(src_bytes.size(), src.size() * 4));
  tc.args.push_back(Image(sd, std::move(src_bytes), false));
  const ImageDesc dd =
      Desc2D(co::kRGBA, ct::kUnormInt8, spirv::ImageAccess::kWriteOnly);
  tc.args.push_back(
      Image(dd, std::vector<uint8_t>(spirv::ImageBytes(dd), 0xee), true));
  for (const SamplerDesc& s : kSamplers) tc.args.push_back(Sampler(s));
  std::vector<float> coords(&kCoords[0][0], &kCoords[0][0] + 32);
  tc.args.push_back(Buffer(coords, false));
  tc.args.push_back(Buffer(std::vector<float>(40, -99.0f), true));
  return tc;
}

TargetRunLimits Limits() {
  TargetRunLimits l;
  l.wall_time = 60s;
  return l;
}

#define MAKE_OR_SKIP(var, name)                                          \
  auto var##_or = MakeTarget(name, TargetOptions{});                     \
  if (!var##_or.ok() &&                                                  \
      var##_or.status().code() == absl::StatusCode::kFailedPrecondition) \
    GTEST_SKIP() << var##_or.status();                                   \
  ASSERT_TRUE(var##_or.ok()) << var##_or.status();                       \
  std::unique_ptr<Target> var = *std::move(var##_or)

// The `opencl` target on PoCL only: Intel's ICD cannot even be enumerated
// under ASan (docs/CONSUMERS.md).
void UsePocl() {
  const char* pocl = "/etc/OpenCL/vendors/pocl.icd";
  if (std::filesystem::exists(pocl)) setenv("OCL_ICD_VENDORS", pocl, 1);
}

void ExpectSampledAndWritten(const char* target_name) {
  namespace co = spirv::channel_order;
  namespace ct = spirv::channel_type;
  MAKE_OR_SKIP(target, target_name);
  const spirv::TestCase tc = SampleCase(co::kR, ct::kFloat);
  const Execution e = target->Run(tc, Limits());
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message << "\n" << e.log;
  ASSERT_EQ(e.buffers.size(), tc.args.size());
  // Every image is read back, the read-only source unchanged.
  EXPECT_EQ(e.buffers[0], tc.args[0].bytes);
  ASSERT_EQ(e.buffers[1].size(), 4u * kW * kH);
  for (int g = 0; g < kW * kH; ++g) {
    const uint8_t want[4] = {static_cast<uint8_t>(10 * (g + 1)), 0, 255, 255};
    for (int c = 0; c < 4; ++c)
      EXPECT_EQ(e.buffers[1][g * 4 + c], want[c])
          << "dst texel " << g << " channel " << c;
  }
  ASSERT_EQ(e.buffers[8].size(), 40u * 4);
  std::vector<float> out(40);
  std::memcpy(out.data(), e.buffers[8].data(), 160);
  for (int g = 0; g < 8; ++g) {
    for (int j = 0; j < 5; ++j) {
      if (j == 4 && !Inside(kCoords[g])) continue;
      const bool norm = kSamplers[j].normalized;
      const float want = Sample(kSamplers[j], kCoords[g][norm ? 2 : 0],
                                kCoords[g][norm ? 3 : 1]);
      // Linear filtering may use reduced-precision weights (OpenCL leaves
      // them implementation-defined); nearest is exact.
      const float tol =
          kSamplers[j].filter == FilterMode::kLinear ? 0.05f : 0.0f;
      EXPECT_NEAR(out[g * 5 + j], want, tol)
          << "coordinate " << g << ", sampler "
          << spirv::DescribeSampler(kSamplers[j]);
    }
  }
}

TEST(OpenClImages, PoclSamplesWithEverySamplerSettingAndWritesTexels) {
  UsePocl();
  ExpectSampledAndWritten("opencl");
}

TEST(OpenClImages, OclgrindSamplesWithEverySamplerSettingAndWritesTexels) {
  ExpectSampledAndWritten("oclgrind");
}

spirv::TestCase BufferImageCase(uint32_t type) {
  spirv::TestCase tc;
  auto words = spirv::Assemble(spirv::test::ImageKernelModule(
      kBufferImageKernel, spirv::test::PreludeImageDim::kBuffer));
  EXPECT_TRUE(words.ok()) << words.status();
  if (words.ok()) tc.module_words = *words;
  EXPECT_TRUE(spirv::Validate(tc.module_words, SPV_ENV_OPENCL_2_2).ok());
  tc.entry_point = "k";
  tc.nd_range.global[0] = 16;
  ImageDesc d;
  d.dim = ImageDim::k1DBuffer;
  d.order = spirv::channel_order::kRGBA;
  d.type = type;
  d.width = 16;
  tc.args.push_back(Image(d, spirv::ImageTexelsFromSeed(d, 7), false));
  d.access = spirv::ImageAccess::kWriteOnly;
  tc.args.push_back(
      Image(d, std::vector<uint8_t>(spirv::ImageBytes(d), 0), true));
  return tc;
}

void ExpectBufferImage(const char* target_name) {
  MAKE_OR_SKIP(target, target_name);
  const spirv::TestCase tc = BufferImageCase(spirv::channel_type::kSignedInt32);
  const Execution e = target->Run(tc, Limits());
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message << "\n" << e.log;
  ASSERT_EQ(e.buffers.size(), 2u);
  EXPECT_EQ(e.buffers[0], tc.args[0].bytes);
  ASSERT_EQ(e.buffers[1].size(), 256u);
  for (int i = 0; i < 64; ++i) {
    uint32_t in, out;
    std::memcpy(&in, &tc.args[0].bytes[i * 4], 4);
    std::memcpy(&out, &e.buffers[1][i * 4], 4);
    EXPECT_EQ(out, in + 1 + i % 4) << "channel " << i;
  }
}

TEST(OpenClImages, PoclRunsA1DBufferImage) {
  UsePocl();
  ExpectBufferImage("opencl");
}

TEST(OpenClImages, OclgrindRunsA1DBufferImage) {
  ExpectBufferImage("oclgrind");
}

// known-consumer-bugs/llvm_spirv_image_unsigned: a crash naming the cause.
TEST(OpenClImages, OclgrindUnsignedIntImagesCrashNamingTheCause) {
  MAKE_OR_SKIP(target, "oclgrind");
  const Execution e = target->Run(
      BufferImageCase(spirv::channel_type::kUnsignedInt8), Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kCrashed) << e.message;
  EXPECT_THAT(e.message, HasSubstr("llvm-spirv -r turns read_imageui"));
  EXPECT_THAT(e.message,
              HasSubstr("Unsupported image channel data type: 10DA"));
}

// RGB UnormShort565 is an OpenCL 1.2 format neither PoCL 3.1 nor Oclgrind
// 21.10 lists; PoCL also lacks RG.
TEST(OpenClImages, AFormatTheDeviceLacksIsUnsupportedWithTheReason) {
  namespace co = spirv::channel_order;
  namespace ct = spirv::channel_type;
  UsePocl();
  MAKE_OR_SKIP(target, "opencl");
  const Execution e =
      target->Run(SampleCase(co::kRGB, ct::kUnormShort565), Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << e.message;
  EXPECT_THAT(e.message,
              HasSubstr("argument 0: Portable Computing Language device "));
  EXPECT_THAT(e.message,
              HasSubstr(": format RGB UnormShort565 not in "
                        "clGetSupportedImageFormats for 2D read_only images"));
  EXPECT_TRUE(e.buffers.empty());
}

TEST(OpenClImages, OclocCompilesAnImageModule) {
  MAKE_OR_SKIP(target, "ocloc:tgllp");
  namespace co = spirv::channel_order;
  namespace ct = spirv::channel_type;
  const Execution e = target->Run(SampleCase(co::kR, ct::kFloat), Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kOk) << e.message << "\n" << e.log;
}

// A profile with `images: false` (baseline; every ocloc device's profile
// has images) makes ocloc:DEVICE refuse image cases before compiling; a
// stand-in compiler (/bin/true) shows it is never called.
TEST(OpenClImages, OclocRefusesImagesForAProfileWithoutThem) {
  namespace co = spirv::channel_order;
  namespace ct = spirv::channel_type;
  TargetOptions o;
  o.program = "/bin/true";
  auto target = MakeTarget("ocloc:baseline", o);
  ASSERT_TRUE(target.ok()) << target.status();
  const Execution e = (*target)->Run(SampleCase(co::kR, ct::kFloat), Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << e.message;
  EXPECT_EQ(e.message,
            "device profile baseline has no image support (images: false in "
            "oracles/validity/profiles.json)");
  auto tgllp = MakeTarget("ocloc:tgllp", o);
  ASSERT_TRUE(tgllp.ok()) << tgllp.status();
  EXPECT_EQ((*tgllp)->Run(SampleCase(co::kR, ct::kFloat), Limits()).status,
            ExecutionStatus::kOk);
}

}  // namespace
}  // namespace l0spv::oracles
