// Image and sampler descriptors: names, layout, validation, the case.json
// round trip and the --arg / sidecar forms.
#include "spirv/image_format.h"

#include <cmath>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/launch_spec.h"
#include "spirv/test_case.h"
#include "tests/spirv/test_support.h"

namespace l0spv::spirv {
namespace {

using ::testing::HasSubstr;

std::vector<uint32_t> AnyModuleWords() {
  return *test::AssembleHandWritten(test::HandWrittenModuleNames().front());
}

TEST(ImageFormatTest, NamesComeFromTheGrammarAndParseCaseInsensitively) {
  EXPECT_EQ(ChannelOrderName(channel_order::kRGBA), "RGBA");
  EXPECT_EQ(ChannelTypeName(channel_type::kUnormInt8), "UnormInt8");
  EXPECT_EQ(*ParseChannelOrder("bgra"), channel_order::kBGRA);
  EXPECT_EQ(*ParseChannelType("halffloat"), channel_type::kHalfFloat);
  EXPECT_EQ(*ParseAddressingMode("ClampToEdge"), AddressingMode::kClampToEdge);
  EXPECT_EQ(*ParseFilterMode("linear"), FilterMode::kLinear);
  EXPECT_EQ(*ParseImageDim("2d_array"), ImageDim::k2DArray);
  EXPECT_THAT(ParseChannelOrder("Depth").status().message(),
              HasSubstr("unsupported channel order 'Depth'"));
  EXPECT_THAT(ParseChannelType("UnormInt24").status().message(),
              HasSubstr("one of: SnormInt8"));
}

TEST(ImageFormatTest, TexelSizesFollowOpenCl) {
  using namespace channel_order;
  using namespace channel_type;
  EXPECT_EQ(TexelBytes(kRGBA, kUnormInt8), 4u);
  EXPECT_EQ(TexelBytes(kRGBA, kFloat), 16u);
  EXPECT_EQ(TexelBytes(kRG, kHalfFloat), 4u);
  EXPECT_EQ(TexelBytes(kRGB, kUnormShort565), 2u);
  EXPECT_EQ(TexelBytes(kRGB, kUnormInt101010), 4u);
  EXPECT_EQ(TexelBytes(kIntensity, kFloat), 4u);
  // Pairs OpenCL does not define.
  EXPECT_EQ(TexelBytes(kRGB, kUnormInt8), 0u);
  EXPECT_EQ(TexelBytes(kBGRA, kFloat), 0u);
  EXPECT_EQ(TexelBytes(kIntensity, kSignedInt8), 0u);
  EXPECT_EQ(TexelBytes(kSRGBA, kUnormInt16), 0u);
}

TEST(ImageFormatTest, StorageExtentPutsLayersLast) {
  ImageDesc d;
  d.dim = ImageDim::k1DArray;
  d.width = 5;
  d.array_size = 3;
  EXPECT_EQ(StorageExtent(d), (std::array<uint64_t, 3>{5, 3, 1}));
  d.dim = ImageDim::k2DArray;
  d.height = 2;
  EXPECT_EQ(StorageExtent(d), (std::array<uint64_t, 3>{5, 2, 3}));
  EXPECT_EQ(ImageBytes(d), 5u * 2 * 3 * 4);
}

TEST(ImageFormatTest, ValidationNamesTheField) {
  ImageDesc d;
  d.dim = ImageDim::k1D;
  d.height = 2;
  EXPECT_THAT(ValidateImageDesc(d, 1 << 20).message(),
              HasSubstr("image.height: must be 1"));
  d.height = 1;
  d.width = 0;
  EXPECT_THAT(ValidateImageDesc(d, 1 << 20).message(),
              HasSubstr("image.width"));
  d.width = 1 << 14;
  d.dim = ImageDim::k2D;
  d.height = 1 << 14;
  EXPECT_THAT(ValidateImageDesc(d, 1 << 20).message(),
              HasSubstr("more than the limit"));
  d = ImageDesc{};
  d.order = channel_order::kBGRA;
  d.type = channel_type::kFloat;
  EXPECT_THAT(ValidateImageDesc(d, 1 << 20).message(),
              HasSubstr("does not define channel order BGRA"));
  SamplerDesc s;
  s.addressing = AddressingMode::kRepeat;
  EXPECT_THAT(ValidateSamplerDesc(s).message(), HasSubstr("undefined"));
  s.normalized = true;
  EXPECT_TRUE(ValidateSamplerDesc(s).ok());
}

TEST(ImageFormatTest, UnpacksPackedAndPlainTexels) {
  const uint16_t rgb565 = (0x1f << 11) | (0x2a << 5) | 0x03;
  auto c =
      UnpackStoredChannels(channel_order::kRGB, channel_type::kUnormShort565,
                           reinterpret_cast<const uint8_t*>(&rgb565));
  EXPECT_EQ(c, (std::array<uint32_t, 4>{0x1f, 0x2a, 0x03, 0}));
  const uint8_t rg16[] = {0x34, 0x12, 0x78, 0x56};
  c = UnpackStoredChannels(channel_order::kRG, channel_type::kUnsignedInt16,
                           rg16);
  EXPECT_EQ(c, (std::array<uint32_t, 4>{0x1234, 0x5678, 0, 0}));
}

TEST(ImageFormatTest, SeededFloatTexelsAreFiniteSmallAndDeterministic) {
  ImageDesc d;
  d.type = channel_type::kFloat;
  d.width = 8;
  d.height = 8;
  const auto a = ImageTexelsFromSeed(d, 7);
  EXPECT_EQ(a, ImageTexelsFromSeed(d, 7));
  EXPECT_NE(a, ImageTexelsFromSeed(d, 8));
  for (size_t i = 0; i < a.size(); i += 4) {
    float f;
    std::memcpy(&f, &a[i], 4);
    EXPECT_LE(std::abs(f), 4.0f);
    EXPECT_EQ(f * 64, std::round(f * 64));
  }
}

TEST(ImageArgSpecTest, ParsesImagesAndSamplers) {
  auto arg =
      ParseArgSpec("image:2d_array:RGBA:UnormInt8:4x3x2:read_write:seed=5");
  ASSERT_TRUE(arg.ok()) << arg.status();
  EXPECT_EQ(arg->kind, KernelArg::Kind::kImage);
  EXPECT_EQ(arg->image.width, 4u);
  EXPECT_EQ(arg->image.height, 3u);
  EXPECT_EQ(arg->image.array_size, 2u);
  EXPECT_EQ(arg->image.access, ImageAccess::kReadWrite);
  EXPECT_TRUE(arg->is_result);
  EXPECT_EQ(arg->bytes.size(), 4u * 3 * 2 * 4);
  auto sampler = ParseArgSpec("sampler:normalized:Repeat:Linear");
  ASSERT_TRUE(sampler.ok()) << sampler.status();
  EXPECT_EQ(sampler->kind, KernelArg::Kind::kSampler);
  EXPECT_TRUE(sampler->sampler.normalized);
  EXPECT_EQ(sampler->sampler.addressing, AddressingMode::kRepeat);
  EXPECT_EQ(sampler->sampler.filter, FilterMode::kLinear);
}

TEST(ImageArgSpecTest, RejectsMalformedSpecsNamingTheProblem) {
  const std::pair<const char*, const char*> kBad[] = {
      {"image:2d:RGBA:UnormInt8", "wrong field count"},
      {"image:4d:RGBA:UnormInt8:4x4", "unknown image dimensionality"},
      {"image:2d:RGBZ:UnormInt8:4x4", "channel order 'RGBZ'"},
      {"image:2d:RGBA:UnormInt8:4", "takes 2 size(s)"},
      {"image:2d:RGBA:UnormInt8:4xq", "is not a size"},
      {"image:2d:BGRA:Float:4x4", "does not define"},
      {"image:2d:RGBA:UnormInt8:4x4:sideways", "access qualifier"},
      {"image:2d:RGBA:UnormInt8:4x4:seed=x", "seed=NUMBER"},
      {"image:2d:RGBA:UnormInt8:4x4:@/nonexistent/file", "nonexistent"},
      {"sampler:normalized:Repeat", "wrong field count"},
      {"sampler:maybe:Repeat:Linear", "neither normalized"},
      {"sampler:unnormalized:Repeat:Linear", "undefined"},
      {"sampler:normalized:Wrap:Linear", "addressing mode 'Wrap'"},
      {"sampler:normalized:Clamp:Cubic", "filter mode 'Cubic'"},
  };
  for (const auto& [spec, message] : kBad) {
    auto arg = ParseArgSpec(spec);
    ASSERT_FALSE(arg.ok()) << spec;
    EXPECT_THAT(std::string(arg.status().message()), HasSubstr(message))
        << spec;
  }
}

TEST(ImageCaseTest, CaseJsonRoundTripsImagesAndSamplers) {
  TestCase tc;
  tc.module_words = AnyModuleWords();
  tc.entry_point = "k";
  KernelArg image = *ParseArgSpec("image:3d:RG:HalfFloat:2x3x4:seed=1");
  image.image.access = ImageAccess::kWriteOnly;
  image.is_result = true;
  tc.args.push_back(image);
  tc.args.push_back(*ParseArgSpec("sampler:normalized:ClampToEdge:Nearest"));
  const std::string dir = ::testing::TempDir() + "/image_case";
  ASSERT_TRUE(WriteTestCase(tc, dir).ok());
  auto back = ReadTestCase(dir);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->args.size(), 2u);
  EXPECT_EQ(back->args[0].kind, KernelArg::Kind::kImage);
  EXPECT_EQ(back->args[0].image, image.image);
  EXPECT_EQ(back->args[0].bytes, image.bytes);
  EXPECT_TRUE(back->args[0].is_result);
  EXPECT_EQ(back->args[1].kind, KernelArg::Kind::kSampler);
  EXPECT_EQ(back->args[1].sampler, tc.args[1].sampler);
}

TEST(ImageCaseTest, SidecarImagesAndErrorsNameTheField) {
  const auto good = nlohmann::json::parse(R"({
    "kernel": "k", "global": [4],
    "args": [
      {"kind": "image", "image": {"dim": "1d_buffer", "order": "R",
                                  "type": "Float", "width": 64},
       "init": "random", "seed": 3},
      {"kind": "sampler", "sampler": {"normalized": false,
                                      "addressing": "None",
                                      "filter": "Nearest"}},
      {"kind": "buffer", "bytes": 16, "result": true}],
    "tolerances": [{"arg": 2, "type": "f32", "ulp": 2}]})");
  auto tc = TestCaseFromSidecar(good, AnyModuleWords(), "s.json");
  ASSERT_TRUE(tc.ok()) << tc.status();
  EXPECT_EQ(tc->args[0].bytes.size(), 256u);
  EXPECT_FALSE(tc->args[0].is_result);
  EXPECT_EQ(tc->args[1].sampler.addressing, AddressingMode::kNone);
  ASSERT_EQ(tc->tolerances.size(), 1u);
  EXPECT_EQ(tc->tolerances[0].ulp, 2);

  const std::pair<const char*, const char*> kBad[] = {
      {R"({"kind": "image"})", "args[0].image"},
      {R"({"kind": "image", "image": {"dim": "2d", "order": "RGBA",
          "type": 7, "width": 4}})",
       "args[0].image.type"},
      {R"({"kind": "image", "image": {"dim": "2d", "order": "RGBA",
          "type": "Float", "width": 4, "depth": 2}})",
       "args[0].image.depth"},
      {R"({"kind": "image", "image": {"dim": "2d", "order": "A",
          "type": "UnormShort565", "width": 4}})",
       "args[0].image.type"},
      {R"({"kind": "sampler", "sampler": {"normalized": "yes",
          "addressing": "None", "filter": "Nearest"}})",
       "args[0].sampler.normalized"},
      {R"({"kind": "sampler", "sampler": {"normalized": false,
          "addressing": "Repeat", "filter": "Nearest"}})",
       "args[0].sampler.addressing"},
  };
  for (const auto& [arg, field] : kBad) {
    auto j = nlohmann::json::parse(
        absl::StrCat(R"({"kernel": "k", "global": [1], "args": [)", arg, "]}"));
    auto bad = TestCaseFromSidecar(j, AnyModuleWords(), "s.json");
    ASSERT_FALSE(bad.ok()) << arg;
    EXPECT_THAT(std::string(bad.status().message()), HasSubstr(field)) << arg;
  }
}

}  // namespace
}  // namespace l0spv::spirv
