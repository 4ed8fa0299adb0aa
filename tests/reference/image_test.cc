// Images and samplers end to end through SPIR-V: sampler-less reads and
// writes, sampled reads, queries, literal samplers, argument binding and
// the undefined-behaviour checks of image access.
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "oracles/reference/interpreter.h"
#include "spirv/image_format.h"
#include "tests/reference/image_test_util.h"
#include "tests/reference/test_util.h"

namespace l0spv::oracles::reference::test {
namespace {

namespace co = spirv::channel_order;
namespace ct = spirv::channel_type;
using spirv::ImageAccess;

constexpr char kCopyBody[] = R"(
%c = OpCompositeConstruct %v2uint %x %y
%t = OpImageRead %v4float %src %c
OpImageWrite %dst %c %t
)";

Execution Run2D(const std::string& decls, const std::string& body,
                std::vector<std::pair<std::string, std::string>> params,
                std::vector<spirv::KernelArg> args, uint64_t w, uint64_t h,
                const ReferenceOptions& opts = {}) {
  return RunReference(MakeCase(AssembleOrDie(ImageKernel(decls, params, body)),
                               {w, h}, std::nullopt, std::move(args)),
                      opts);
}

TEST(ReferenceImage, ReadWriteCopiesUnorm8ToFloat) {
  const auto src = Desc2D(co::kRGBA, ct::kUnormInt8, 4, 3);
  const auto dst = Desc2D(co::kRGBA, ct::kFloat, 4, 3, ImageAccess::kWriteOnly);
  std::vector<uint8_t> texels(spirv::ImageBytes(src));
  for (size_t i = 0; i < texels.size(); ++i)
    texels[i] = static_cast<uint8_t>(i * 7);
  Execution e = Run2D("", kCopyBody, {{"%src", "%i2d_ro"}, {"%dst", "%i2d_wo"}},
                      {ImageArg(src, texels, false), ImageArg(dst, {})}, 4, 3);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  ASSERT_EQ(e.buffers[1].size(), 4u * 3 * 16);
  const auto f = As<float>(e.buffers[1]);
  for (size_t i = 0; i < texels.size(); ++i)
    EXPECT_EQ(f[i], static_cast<float>(texels[i]) / 255.0f) << i;
  EXPECT_EQ(e.buffers[0], texels);  // unchanged read-only image
}

TEST(ReferenceImage, QuerySizeLod) {
  const auto img = Desc2D(co::kRGBA, ct::kFloat, 5, 7);
  Execution e = Run2D(R"(%ptr_g_v2uint = OpTypePointer CrossWorkgroup %v2uint
)",
                      R"(
%s = OpImageQuerySizeLod %v2uint %img %uint_0
OpStore %out %s Aligned 8
)",
                      {{"%img", "%i2d_ro"}, {"%out", "%ptr_g_v2uint"}},
                      {ImageArg(img, {}, false), Buffer(8)}, 1, 1);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<uint32_t>(e.buffers[1]), (std::vector<uint32_t>{5, 7}));
}

// A 4x4 R Float image whose texel (i, j) is 10 j + i.
spirv::KernelArg Grid4(ImageAccess access = ImageAccess::kReadOnly) {
  const auto d = Desc2D(co::kR, ct::kFloat, 4, 4, access);
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[i] = static_cast<float>(10 * (i / 4) + i % 4);
  std::vector<uint8_t> bytes(64);
  std::memcpy(bytes.data(), v.data(), 64);
  return ImageArg(d, bytes, false);
}

spirv::SamplerDesc Sampler(bool normalized, spirv::AddressingMode a,
                           spirv::FilterMode f) {
  spirv::SamplerDesc s;
  s.normalized = normalized;
  s.addressing = a;
  s.filter = f;
  return s;
}

constexpr char kOutF[] =
    "%ptr_g_v4float = OpTypePointer CrossWorkgroup %v4float\n";

TEST(ReferenceImage, SampledReadsWithSamplerArgumentAndLiteralSampler) {
  Execution e =
      Run2D(std::string(kOutF) + R"(
%lit = OpConstantSampler %smp Repeat 1 Linear
%float_1_25 = OpConstant %float 1.25
%float_0_375 = OpConstant %float 0.375
%cn = OpConstantComposite %v2float %float_1_25 %float_0_375
%cu = OpConstantComposite %v2float %float_2 %float_1
)",
            R"(
%si = OpSampledImage %s2d %img %s
%a = OpImageSampleExplicitLod %v4float %si %cu Lod %float_0
OpStore %out %a Aligned 16
%sl = OpSampledImage %s2d %img %lit
%b = OpImageSampleExplicitLod %v4float %sl %cn Lod %float_0
%o1 = OpInBoundsPtrAccessChain %ptr_g_v4float %out %uint_1
OpStore %o1 %b Aligned 16
)",
            {{"%img", "%i2d_ro"}, {"%s", "%smp"}, {"%out", "%ptr_g_v4float"}},
            {Grid4(),
             SamplerArg(Sampler(false, spirv::AddressingMode::kClampToEdge,
                                spirv::FilterMode::kNearest)),
             Buffer(32)},
            1, 1);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const auto f = As<float>(e.buffers[2]);
  // Unnormalised nearest (2, 1): texel (2, 1) = 12, alpha 1 (R order).
  EXPECT_EQ(f[0], 12.0f);
  EXPECT_EQ(f[3], 1.0f);
  // Repeat linear at (1.25, 0.375): u = 0.25*4 = 1 → i0 = 0, a = 0.5;
  // v = 1.5 → j0 = 1, b = 0: 0.5*10 + 0.5*11.
  EXPECT_EQ(f[4], 10.5f);
}

TEST(ReferenceImage, IntegerCoordinatesNeedAnUnnormalisedNearestSampler) {
  const std::string body = R"(
%si = OpSampledImage %s2d %img %s
%c = OpCompositeConstruct %v2uint %uint_3 %int_m1
%a = OpImageSampleExplicitLod %v4float %si %c Lod %float_0
OpStore %out %a Aligned 16
)";
  const std::vector<std::pair<std::string, std::string>> params = {
      {"%img", "%i2d_ro"}, {"%s", "%smp"}, {"%out", "%ptr_g_v4float"}};
  using A = spirv::AddressingMode;
  Execution ok = Run2D(
      kOutF, body, params,
      {Grid4(),
       SamplerArg(Sampler(false, A::kClampToEdge, spirv::FilterMode::kNearest)),
       Buffer(16)},
      1, 1);
  ASSERT_EQ(ok.status, ExecutionStatus::kOk) << ok.message;
  EXPECT_EQ(As<float>(ok.buffers[2])[0], 3.0f);  // (3, -1) → (3, 0)
  Execution bad = Run2D(
      kOutF, body, params,
      {Grid4(),
       SamplerArg(Sampler(true, A::kClampToEdge, spirv::FilterMode::kNearest)),
       Buffer(16)},
      1, 1);
  EXPECT_EQ(bad.status, ExecutionStatus::kUbDetected);
  EXPECT_NE(bad.message.find("integer coordinates"), std::string::npos)
      << bad.message;
}

TEST(ReferenceImage, QueriesReturnSpirvEnumsAndSizes) {
  spirv::ImageDesc arr;
  arr.dim = spirv::ImageDim::k2DArray;
  arr.order = co::kBGRA;
  arr.type = ct::kUnormInt8;
  arr.width = 3;
  arr.height = 2;
  arr.array_size = 5;
  spirv::ImageDesc buf;
  buf.dim = spirv::ImageDim::k1DBuffer;
  buf.order = co::kR;
  buf.type = ct::kSignedInt32;
  buf.width = 9;
  // spirv-val allows OpImageQuerySamples only on multisampled images, which
  // OpenCL does not have: run this module unvalidated.
  ReferenceOptions no_validation;
  no_validation.skip_validation = true;
  Execution e =
      Run2D(R"(%ptr_g_v4uint = OpTypePointer CrossWorkgroup %v4uint
)",
            R"(
%fmt = OpImageQueryFormat %uint %a
%ord = OpImageQueryOrder %uint %a
%lev = OpImageQueryLevels %uint %a
%smp_n = OpImageQuerySamples %uint %a
%q0 = OpCompositeConstruct %v4uint %fmt %ord %lev %smp_n
OpStore %out %q0 Aligned 16
%sz = OpImageQuerySizeLod %v3uint %a %uint_0
%s0 = OpCompositeExtract %uint %sz 0
%s1 = OpCompositeExtract %uint %sz 1
%s2 = OpCompositeExtract %uint %sz 2
%bw = OpImageQuerySize %uint %b
%q1 = OpCompositeConstruct %v4uint %s0 %s1 %s2 %bw
%o1 = OpInBoundsPtrAccessChain %ptr_g_v4uint %out %uint_1
OpStore %o1 %q1 Aligned 16
)",
            {{"%a", "%i2da_ro"}, {"%b", "%i1db_ro"}, {"%out", "%ptr_g_v4uint"}},
            {ImageArg(arr, {}, false), ImageArg(buf, {}, false), Buffer(32)}, 1,
            1, no_validation);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(
      As<uint32_t>(e.buffers[2]),
      (std::vector<uint32_t>{ct::kUnormInt8, co::kBGRA, 1, 1, 3, 2, 5, 9}));
}

TEST(ReferenceImage, HalfAndIntegerTexels) {
  // read_imageh from RGBA half, write_imagef of it to RGBA float; read_imagei
  // from RGBA SignedInt8, write_imagei (+200) to RGBA SignedInt16 (no
  // saturation needed) and to RGBA SignedInt8 (saturates).
  spirv::ImageDesc h = Desc2D(co::kRGBA, ct::kHalfFloat, 1, 1);
  std::vector<uint8_t> hb(8);
  const uint16_t hv[4] = {0x3C00, 0xC000, 0x3800, 0x0000};  // 1 -2 0.5 0
  std::memcpy(hb.data(), hv, 8);
  spirv::ImageDesc i8 = Desc2D(co::kRGBA, ct::kSignedInt8, 1, 1);
  std::vector<uint8_t> ib = {0x05, 0xFB, 0x7F, 0x80};  // 5 -5 127 -128
  Execution e = Run2D(
      R"(
%uint_200 = OpConstant %uint 200
%v4uint_200 = OpConstantComposite %v4uint %uint_200 %uint_200 %uint_200 %uint_200
)",
      R"(
%c = OpCompositeConstruct %v2uint %uint_0 %uint_0
%hv = OpImageRead %v4half %h %c
%fv = OpFConvert %v4float %hv
OpImageWrite %fo %c %fv
OpImageWrite %ho %c %hv
%iv = OpImageRead %v4uint %i %c
%iv2 = OpIAdd %v4uint %iv %v4uint_200
OpImageWrite %i16 %c %iv2
OpImageWrite %i8o %c %iv2
)",
      {{"%h", "%i2d_ro"},
       {"%fo", "%i2d_wo"},
       {"%ho", "%i2d_wo"},
       {"%i", "%i2d_ro"},
       {"%i16", "%i2d_wo"},
       {"%i8o", "%i2d_wo"}},
      {ImageArg(h, hb, false),
       ImageArg(Desc2D(co::kRGBA, ct::kFloat, 1, 1, ImageAccess::kWriteOnly),
                {}),
       ImageArg(Desc2D(co::kRGBA, ct::kFloat, 1, 1, ImageAccess::kWriteOnly),
                {}),
       ImageArg(i8, ib, false),
       ImageArg(
           Desc2D(co::kRGBA, ct::kSignedInt16, 1, 1, ImageAccess::kWriteOnly),
           {}),
       ImageArg(
           Desc2D(co::kRGBA, ct::kSignedInt8, 1, 1, ImageAccess::kWriteOnly),
           {})},
      1, 1);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<float>(e.buffers[1]),
            (std::vector<float>{1.0f, -2.0f, 0.5f, 0.0f}));
  EXPECT_EQ(As<float>(e.buffers[2]),
            (std::vector<float>{1.0f, -2.0f, 0.5f, 0.0f}));
  EXPECT_EQ(As<int16_t>(e.buffers[4]),
            (std::vector<int16_t>{205, 195, 327, 72}));
  EXPECT_EQ(As<int8_t>(e.buffers[5]), (std::vector<int8_t>{127, 127, 127, 72}));
}

TEST(ReferenceImage, EveryDimensionality) {
  // 1D buffer: sampler-less read of texel 2 written to a 1D image; 1D array
  // sampled at (x, layer 1); 2D array written at (0, 1, layer 2); 3D
  // sampled at its last texel.
  spirv::ImageDesc b;
  b.dim = spirv::ImageDim::k1DBuffer;
  b.order = co::kR;
  b.type = ct::kFloat;
  b.width = 4;
  std::vector<uint8_t> bb(16);
  const float bv[4] = {1, 2, 3, 4};
  std::memcpy(bb.data(), bv, 16);
  spirv::ImageDesc d1 = b;
  d1.dim = spirv::ImageDim::k1D;
  d1.access = ImageAccess::kWriteOnly;
  spirv::ImageDesc a1 = b;
  a1.dim = spirv::ImageDim::k1DArray;
  a1.width = 2;
  a1.array_size = 2;  // texels 1 2 | 3 4
  spirv::ImageDesc a2 = b;
  a2.dim = spirv::ImageDim::k2DArray;
  a2.width = 1;
  a2.height = 2;
  a2.array_size = 3;
  a2.access = ImageAccess::kWriteOnly;
  spirv::ImageDesc v3 = b;
  v3.dim = spirv::ImageDim::k3D;
  v3.width = 1;
  v3.height = 2;
  v3.depth = 2;
  Execution e =
      Run2D(std::string(kOutF) + R"(
%lit = OpConstantSampler %smp ClampToEdge 0 Nearest
%float_7 = OpConstant %float 7
%c1a = OpConstantComposite %v2float %float_1 %float_1
%c3 = OpConstantComposite %v4float %float_7 %float_7 %float_7 %float_0
%c2a = OpConstantComposite %v4uint %uint_0 %uint_1 %uint_2 %uint_0
)",
            R"(
%t = OpImageRead %v4float %buf %uint_2
OpImageWrite %one %uint_0 %t
%s1 = OpSampledImage %s1da %arr %lit
%u = OpImageSampleExplicitLod %v4float %s1 %c1a Lod %float_0
OpStore %out %u Aligned 16
OpImageWrite %arr2 %c2a %u
%s3 = OpSampledImage %s3d %vol %lit
%w = OpImageSampleExplicitLod %v4float %s3 %c3 Lod %float_0
%o1 = OpInBoundsPtrAccessChain %ptr_g_v4float %out %uint_1
OpStore %o1 %w Aligned 16
)",
            {{"%buf", "%i1db_ro"},
             {"%one", "%i1d_wo"},
             {"%arr", "%i1da_ro"},
             {"%arr2", "%i2da_wo"},
             {"%vol", "%i3d_ro"},
             {"%out", "%ptr_g_v4float"}},
            {ImageArg(b, bb, false), ImageArg(d1, {}), ImageArg(a1, bb, false),
             ImageArg(a2, {}), ImageArg(v3, bb, false), Buffer(32)},
            1, 1);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_EQ(As<float>(e.buffers[1]), (std::vector<float>{3, 0, 0, 0}));
  const auto out = As<float>(e.buffers[5]);
  EXPECT_EQ(out[0], 4.0f);  // 1D array (1, layer 1)
  EXPECT_EQ(out[4], 4.0f);  // 3D clamped to (0, 1, 1)
  const auto arr2 = As<float>(e.buffers[3]);
  EXPECT_EQ(arr2[5], 4.0f);  // (0, 1, layer 2) = index 2*2 + 1
  EXPECT_EQ(arr2[0], 0.0f);
}

// ---- undefined behaviour ------------------------------------------------

Execution RunUb(const std::string& decls, const std::string& body,
                std::vector<std::pair<std::string, std::string>> params,
                std::vector<spirv::KernelArg> args, uint64_t items = 1,
                uint64_t local = 1) {
  return RunReference(
      MakeCase(AssembleOrDie(ImageKernel(decls, params, body)), {items},
               std::vector<uint64_t>{local}, std::move(args)),
      ReferenceOptions{});
}

void ExpectUb(const Execution& e, const std::string& check) {
  EXPECT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message;
  EXPECT_NE(e.message.find(check), std::string::npos) << e.message;
}

TEST(ReferenceImageUb, AccessQualifiers) {
  const auto wo = Desc2D(co::kRGBA, ct::kFloat, 2, 2, ImageAccess::kWriteOnly);
  const auto ro = Desc2D(co::kRGBA, ct::kFloat, 2, 2);
  const std::string read = R"(
%c = OpCompositeConstruct %v2uint %uint_0 %uint_1
%t = OpImageRead %v4float %img %c
)";
  const std::string write = R"(
%c = OpCompositeConstruct %v2uint %uint_0 %uint_1
OpImageWrite %img %c %v4float_0
)";
  // The kernel's access qualifier binds to an argument of the same access;
  // a module may still read a write-only image or write a read-only one.
  ExpectUb(RunUb("", read, {{"%img", "%i2d_wo"}}, {ImageArg(wo, {})}),
           "read of a write-only image");
  ExpectUb(RunUb("", write, {{"%img", "%i2d_ro"}}, {ImageArg(ro, {})}),
           "write to a read-only image");
  EXPECT_EQ(RunUb("", read, {{"%img", "%i2d_ro"}}, {ImageArg(ro, {})}).status,
            ExecutionStatus::kOk);
  EXPECT_EQ(RunUb("", write, {{"%img", "%i2d_wo"}}, {ImageArg(wo, {})}).status,
            ExecutionStatus::kOk);
}

TEST(ReferenceImageUb, OutOfRangeSamplerlessReadsAndWrites) {
  const auto ro = Desc2D(co::kRGBA, ct::kFloat, 2, 3);
  const auto wo = Desc2D(co::kRGBA, ct::kFloat, 2, 3, ImageAccess::kWriteOnly);
  auto read = [](const char* x, const char* y) {
    return absl::StrCat("%c = OpCompositeConstruct %v2uint ", x, " ", y,
                        "\n%t = OpImageRead %v4float %img %c\n");
  };
  auto write = [](const char* x, const char* y) {
    return absl::StrCat("%c = OpCompositeConstruct %v2uint ", x, " ", y,
                        "\nOpImageWrite %img %c %v4float_0\n");
  };
  EXPECT_EQ(RunUb("", read("%uint_1", "%uint_2"), {{"%img", "%i2d_ro"}},
                  {ImageArg(ro, {})})
                .status,
            ExecutionStatus::kOk);
  Execution r = RunUb("", read("%uint_2", "%uint_0"), {{"%img", "%i2d_ro"}},
                      {ImageArg(ro, {})});
  ExpectUb(r, "image read outside the image");
  EXPECT_NE(r.message.find("texel (2, 0)"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("global id (0, 0, 0)"), std::string::npos)
      << r.message;
  ExpectUb(RunUb("", read("%uint_0", "%int_m1"), {{"%img", "%i2d_ro"}},
                 {ImageArg(ro, {})}),
           "texel (0, -1)");
  EXPECT_EQ(RunUb("", write("%uint_1", "%uint_2"), {{"%img", "%i2d_wo"}},
                  {ImageArg(wo, {})})
                .status,
            ExecutionStatus::kOk);
  ExpectUb(RunUb("", write("%uint_1", "%uint_3"), {{"%img", "%i2d_wo"}},
                 {ImageArg(wo, {})}),
           "image write outside the image");
}

TEST(ReferenceImageUb, SampledReadsOutOfRangeWithAddressingNone) {
  const std::string decls = std::string(kOutF) + R"(
%none = OpConstantSampler %smp None 0 Nearest
%rep = OpConstantSampler %smp Repeat 0 Nearest
%float_3_5 = OpConstant %float 3.5
%float_4_5 = OpConstant %float 4.5
%in = OpConstantComposite %v2float %float_3_5 %float_half
%outside = OpConstantComposite %v2float %float_4_5 %float_half
)";
  auto body = [](const char* sampler, const char* coord) {
    return absl::StrCat("%si = OpSampledImage %s2d %img ", sampler,
                        "\n%a = OpImageSampleExplicitLod %v4float %si ", coord,
                        " Lod %float_0\nOpStore %out %a Aligned 16\n");
  };
  const std::vector<std::pair<std::string, std::string>> params = {
      {"%img", "%i2d_ro"}, {"%out", "%ptr_g_v4float"}};
  Execution ok =
      RunUb(decls, body("%none", "%in"), params, {Grid4(), Buffer(16)});
  ASSERT_EQ(ok.status, ExecutionStatus::kOk) << ok.message;
  EXPECT_EQ(As<float>(ok.buffers[1])[0], 3.0f);
  ExpectUb(
      RunUb(decls, body("%none", "%outside"), params, {Grid4(), Buffer(16)}),
      "addressing mode None");
  ExpectUb(RunUb(decls, body("%rep", "%in"), params, {Grid4(), Buffer(16)}),
           "repeat or mirrored-repeat addressing with unnormalized");
}

TEST(ReferenceImageUb, ReadOfWrongValueTypeAndNonZeroLod) {
  const auto i32 = Desc2D(co::kRGBA, ct::kSignedInt32, 1, 1);
  ExpectUb(RunUb("", R"(
%c = OpCompositeConstruct %v2uint %uint_0 %uint_0
%t = OpImageRead %v4float %img %c
)",
                 {{"%img", "%i2d_ro"}}, {ImageArg(i32, {})}),
           "image read of the wrong value type");
  ExpectUb(RunUb(std::string(kOutF) + R"(
%lit = OpConstantSampler %smp ClampToEdge 1 Nearest
%c = OpConstantComposite %v2float %float_half %float_half
)",
                 R"(
%si = OpSampledImage %s2d %img %lit
%a = OpImageSampleExplicitLod %v4float %si %c Lod %float_1
)",
                 {{"%img", "%i2d_ro"}}, {Grid4()}),
           "missing mip level");
}

// Read-write images: work-item x writes texel (x, 0) and then reads texel
// (x + shift) % 4.
std::string RwBody(const char* between, const char* shift) {
  return absl::StrCat(R"(
%c = OpCompositeConstruct %v2uint %x %uint_0
OpImageWrite %img %c %v4float_0
)",
                      between, R"(
%x1 = OpIAdd %uint %x )",
                      shift, R"(
%xm = OpUMod %uint %x1 %uint_4
%c2 = OpCompositeConstruct %v2uint %xm %uint_0
%t = OpImageRead %v4float %img %c2
)");
}

constexpr char kRwDecls[] = R"(
%uint_2056 = OpConstant %uint 2056
%uint_264_ = OpConstant %uint 264
)";
constexpr char kImageBarrier[] = "OpControlBarrier %uint_2 %uint_2 %uint_2056";
constexpr char kGlobalBarrier[] = "OpControlBarrier %uint_2 %uint_2 %uint_264_";
constexpr char kImageFence[] = "OpMemoryBarrier %uint_4 %uint_2056";

Execution RunRw(const char* between, const char* shift, uint64_t local) {
  return RunUb(
      kRwDecls, RwBody(between, shift), {{"%img", "%i2d_rw"}},
      {ImageArg(Desc2D(co::kRGBA, ct::kFloat, 4, 1, ImageAccess::kReadWrite),
                {})},
      4, local);
}

TEST(ReferenceImageUb, ReadWriteImageOwnWriteNeedsAnImageFence) {
  ExpectUb(RunRw("", "%uint_0", 4), "this work-item wrote, without an image");
  EXPECT_EQ(RunRw(kImageFence, "%uint_0", 4).status, ExecutionStatus::kOk);
  EXPECT_EQ(RunRw(kImageBarrier, "%uint_0", 4).status, ExecutionStatus::kOk);
}

TEST(ReferenceImageUb, ReadWriteImageOtherWritersNeedABarrier) {
  Execution e = RunRw("", "%uint_1", 4);
  ExpectUb(e, "another work-item wrote, without a barrier");
  EXPECT_NE(e.message.find("written by local work-item"), std::string::npos);
  // A fence of the reader alone, or a barrier without image semantics,
  // does not order another work-item's write.
  ExpectUb(RunRw(kImageFence, "%uint_1", 4), "another work-item wrote");
  ExpectUb(RunRw(kGlobalBarrier, "%uint_1", 4), "another work-item wrote");
  EXPECT_EQ(RunRw(kImageBarrier, "%uint_1", 4).status, ExecutionStatus::kOk);
  // Nothing orders work-groups.
  ExpectUb(RunRw(kImageBarrier, "%uint_1", 1), "another work-group");
}

TEST(ReferenceImageUb, SampledReadOfReadWriteImage) {
  ExpectUb(RunUb(R"(
%lit = OpConstantSampler %smp ClampToEdge 1 Nearest
%c = OpConstantComposite %v2float %float_half %float_half
%s2d_rw = OpTypeSampledImage %i2d_rw
)",
                 R"(
%si = OpSampledImage %s2d_rw %img %lit
%a = OpImageSampleExplicitLod %v4float %si %c Lod %float_0
)",
                 {{"%img", "%i2d_rw"}},
                 {ImageArg(Desc2D(co::kRGBA, ct::kFloat, 1, 1,
                                  ImageAccess::kReadWrite),
                           {})}),
           "sampled read of a read-write image");
}

// ---- argument binding ---------------------------------------------------

TEST(ReferenceImageArgs, MismatchesAreBuildErrorsNamingTheProblem) {
  const std::string body = "";
  auto run = [&](const std::string& type, spirv::KernelArg arg) {
    return RunUb("", body, {{"%p", type}}, {std::move(arg)});
  };
  const auto ro = Desc2D(co::kRGBA, ct::kFloat, 2, 2);
  auto expect = [](const Execution& e, const std::string& text) {
    EXPECT_EQ(e.status, ExecutionStatus::kBuildFailed) << e.message;
    EXPECT_NE(e.message.find(text), std::string::npos) << e.message;
  };
  EXPECT_EQ(run("%i2d_ro", ImageArg(ro, {})).status, ExecutionStatus::kOk);
  expect(run("%i2d_ro", Buffer(16)),
         "the kernel takes an image, the test case gives a buffer");
  expect(run("%ptr_g_float", ImageArg(ro, {})),
         "the kernel takes a global or constant pointer, the test case gives "
         "an image");
  expect(run("%i2d_ro", SamplerArg(spirv::SamplerDesc{})), "gives a sampler");
  expect(run("%smp", ImageArg(ro, {})),
         "the kernel takes a sampler, the test case gives an image");
  expect(run("%smp", Scalar<uint64_t>(1)), "gives a scalar");
  expect(run("%i3d_ro", ImageArg(ro, {})),
         "the kernel takes a 3d image, the test case gives a 2d image");
  expect(run("%i2d_wo", ImageArg(ro, {})),
         "the kernel takes a write_only image, the test case gives a "
         "read_only one");
  spirv::KernelArg short_texels = ImageArg(ro, {});
  short_texels.bytes.resize(8);
  expect(run("%i2d_ro", short_texels), "bytes of texels");
  spirv::SamplerDesc bad;
  bad.normalized = false;
  bad.addressing = spirv::AddressingMode::kRepeat;
  expect(run("%smp", SamplerArg(bad)), "sampler");
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
