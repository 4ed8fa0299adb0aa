// Unit tests of the shrink-images stage (reducers/shrink_images.h): texel
// layout kept through resizing, re-encoding by channel meaning, and the
// stage's steps under simple predicates (no kernel runs: the predicates read
// the case; the golden runs the real oracle).
#include "reducers/shrink_images.h"

#include <cstring>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/consumers.h"
#include "spirv/image_format.h"

namespace l0spv::reducers {
namespace {

using spirv::AddressingMode;
using spirv::FilterMode;
using spirv::ImageDesc;
using spirv::ImageDim;
using spirv::KernelArg;
using spirv::TestCase;
using ::testing::ElementsAre;
namespace order = spirv::channel_order;
namespace type = spirv::channel_type;

ImageDesc Desc(ImageDim dim, uint32_t o, uint32_t t, uint64_t w, uint64_t h,
               uint64_t d, uint64_t a) {
  ImageDesc desc;
  desc.dim = dim;
  desc.order = o;
  desc.type = t;
  desc.width = w;
  desc.height = h;
  desc.depth = d;
  desc.array_size = a;
  return desc;
}

// Texel i of an R UnsignedInt8 image holds i.
std::vector<uint8_t> Iota(const ImageDesc& d) {
  std::vector<uint8_t> v(spirv::ImageBytes(d));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i);
  return v;
}

KernelArg ImageArg(const ImageDesc& d, std::vector<uint8_t> bytes) {
  KernelArg a;
  a.kind = KernelArg::Kind::kImage;
  a.image = d;
  a.bytes = std::move(bytes);
  return a;
}

TEST(ResizeTexels, KeepsEachSurvivingTexelAtItsCoordinates) {
  const ImageDesc from =
      Desc(ImageDim::k2D, order::kR, type::kUnsignedInt8, 4, 3, 1, 1);
  ImageDesc to = from;
  to.width = 2;
  to.height = 2;
  // Row y holds 4y .. 4y+3; the 2x2 corner keeps (0,0) (1,0) (0,1) (1,1).
  EXPECT_THAT(ResizeTexels(from, Iota(from), to), ElementsAre(0, 1, 4, 5));
}

TEST(ResizeTexels, ArrayLayersAreTheOuterStorageAxis) {
  // 2D array 2x2 with 3 layers: layer l starts at texel 4l.
  const ImageDesc from =
      Desc(ImageDim::k2DArray, order::kR, type::kUnsignedInt8, 2, 2, 1, 3);
  ImageDesc to = from;
  to.height = 1;
  to.array_size = 2;
  EXPECT_THAT(ResizeTexels(from, Iota(from), to), ElementsAre(0, 1, 4, 5));
  // 1D array: layers are the second axis.
  const ImageDesc a1 =
      Desc(ImageDim::k1DArray, order::kR, type::kUnsignedInt8, 3, 1, 1, 2);
  ImageDesc b1 = a1;
  b1.width = 1;
  EXPECT_THAT(ResizeTexels(a1, Iota(a1), b1), ElementsAre(0, 3));
}

TEST(ReencodeTexels, ReordersByChannelMeaning) {
  const ImageDesc from =
      Desc(ImageDim::k1D, order::kBGRA, type::kUnormInt8, 1, 1, 1, 1);
  ImageDesc to = from;
  to.order = order::kRGBA;
  // Stored b=1 g=2 r=3 a=4.
  EXPECT_THAT(ReencodeTexels(from, {1, 2, 3, 4}, to), ElementsAre(3, 2, 1, 4));
  to.order = order::kR;
  EXPECT_THAT(ReencodeTexels(from, {1, 2, 3, 4}, to), ElementsAre(3));
}

TEST(ReencodeTexels, NormalisedValuesRoundToUnormInt8) {
  const ImageDesc from =
      Desc(ImageDim::k1D, order::kRG, type::kUnormInt16, 1, 1, 1, 1);
  ImageDesc to = from;
  to.order = order::kRGBA;
  to.type = type::kUnormInt8;
  // r = 0xffff -> 255, g = 0x8080 -> 128; b missing -> 0, alpha -> 255.
  EXPECT_THAT(ReencodeTexels(from, {0xff, 0xff, 0x80, 0x80}, to),
              ElementsAre(255, 128, 0, 255));
  // Snorm: negative values clamp to 0, 127 is 1.0.
  ImageDesc snorm = from;
  snorm.order = order::kRG;
  snorm.type = type::kSnormInt8;
  to.order = order::kRG;
  EXPECT_THAT(ReencodeTexels(snorm, {0x80, 0x7f}, to), ElementsAre(0, 255));
}

TEST(ReencodeTexels, HalfBecomesFloatAndIntegersWiden) {
  const ImageDesc half =
      Desc(ImageDim::k1D, order::kR, type::kHalfFloat, 1, 1, 1, 1);
  ImageDesc to = half;
  to.type = type::kFloat;
  const std::vector<uint8_t> f = ReencodeTexels(half, {0x00, 0x3c}, to);
  ASSERT_EQ(f.size(), 4u);
  float value;
  std::memcpy(&value, f.data(), 4);
  EXPECT_EQ(value, 1.0f);

  const ImageDesc s8 =
      Desc(ImageDim::k1D, order::kR, type::kSignedInt8, 1, 1, 1, 1);
  to = s8;
  to.type = type::kSignedInt32;
  EXPECT_THAT(ReencodeTexels(s8, {0xfe}, to),
              ElementsAre(0xfe, 0xff, 0xff, 0xff));
  const ImageDesc u16 =
      Desc(ImageDim::k1D, order::kR, type::kUnsignedInt16, 1, 1, 1, 1);
  to = u16;
  to.type = type::kUnsignedInt32;
  to.order = order::kRGBA;  // missing channels 0, alpha 1
  EXPECT_THAT(
      ReencodeTexels(u16, {0x34, 0x12}, to),
      ElementsAre(0x34, 0x12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0));
}

TEST(ReencodeTexels, LuminanceAndPackedTypes) {
  const ImageDesc lum =
      Desc(ImageDim::k1D, order::kLuminance, type::kUnormInt8, 1, 1, 1, 1);
  ImageDesc to = lum;
  to.order = order::kRGBA;
  EXPECT_THAT(ReencodeTexels(lum, {7}, to), ElementsAre(7, 7, 7, 255));
  // 565: r = 31 (1.0), g = 0, b = 0.
  const ImageDesc p565 =
      Desc(ImageDim::k1D, order::kRGB, type::kUnormShort565, 1, 1, 1, 1);
  EXPECT_THAT(ReencodeTexels(p565, {0x00, 0xf8}, to),
              ElementsAre(255, 0, 0, 255));
}

TestCase CaseWith(std::vector<KernelArg> args) {
  TestCase tc;
  tc.entry_point = "k";
  tc.args = std::move(args);
  return tc;
}

TEST(ShrinkImageArguments, HalvesEachAxisWhileInterestingAndKeepsTexels) {
  const ImageDesc d =
      Desc(ImageDim::k3D, order::kR, type::kUnsignedInt8, 4, 4, 8, 1);
  TestCase tc = CaseWith({ImageArg(d, Iota(d))});
  // Interesting while the image is at least 2 deep and texel (0,0,1) is 16.
  auto keep = [](const TestCase& c) {
    const KernelArg& a = c.args[0];
    const auto e = spirv::StorageExtent(a.image);
    return e[2] >= 2 && a.bytes.size() > e[0] * e[1] &&
           a.bytes[e[0] * e[1]] == 16;
  };
  EXPECT_TRUE(ShrinkImageArguments(tc, keep, [] { return false; }));
  EXPECT_EQ(tc.args[0].image.width, 1u);
  EXPECT_EQ(tc.args[0].image.height, 1u);
  EXPECT_EQ(tc.args[0].image.depth, 2u);
  EXPECT_THAT(tc.args[0].bytes, ElementsAre(0, 16));
  // R UnsignedInt32 was tried and lost the finding (texel (0,0,1) moved to
  // byte 4), so the type stays.
  EXPECT_EQ(tc.args[0].image.type, type::kUnsignedInt8);
  // A fixed point: nothing more to keep.
  EXPECT_FALSE(ShrinkImageArguments(tc, keep, [] { return false; }));
}

TEST(ShrinkImageArguments, ThreeDImagesStayAtLeastTwoDeep) {
  const ImageDesc d =
      Desc(ImageDim::k3D, order::kR, type::kUnsignedInt8, 2, 2, 4, 1);
  TestCase tc = CaseWith({ImageArg(d, Iota(d))});
  EXPECT_TRUE(ShrinkImageArguments(
      tc, [](const TestCase&) { return true; }, [] { return false; }));
  EXPECT_EQ(tc.args[0].image.depth, 2u);
  EXPECT_EQ(tc.args[0].image.width, 1u);
  EXPECT_EQ(tc.args[0].image.height, 1u);
  // 2D arrays may go down to one layer.
  const ImageDesc a =
      Desc(ImageDim::k2DArray, order::kR, type::kUnsignedInt8, 1, 1, 1, 4);
  TestCase ta = CaseWith({ImageArg(a, Iota(a))});
  EXPECT_TRUE(ShrinkImageArguments(
      ta, [](const TestCase&) { return true; }, [] { return false; }));
  EXPECT_EQ(ta.args[0].image.array_size, 1u);
}

TEST(ShrinkImageArguments, FormatsMoveTowardsRThenRgba) {
  const ImageDesc d =
      Desc(ImageDim::k2D, order::kBGRA, type::kSignedInt8, 1, 1, 1, 1);
  TestCase tc = CaseWith({ImageArg(d, {1, 2, 3, 4})});
  // Any format with 4 channels, texels non-zero.
  auto keep = [](const TestCase& c) {
    return spirv::ChannelCount(c.args[0].image.order) == 4 &&
           c.args[0].bytes[0] != 0;
  };
  EXPECT_TRUE(ShrinkImageArguments(tc, keep, [] { return false; }));
  EXPECT_EQ(tc.args[0].image.order, order::kRGBA);
  EXPECT_EQ(tc.args[0].image.type, type::kSignedInt32);
  EXPECT_THAT(tc.args[0].bytes,
              ElementsAre(3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0));
  // Everything allowed: R, zero texels.
  TestCase all = CaseWith({ImageArg(d, {1, 2, 3, 4})});
  EXPECT_TRUE(ShrinkImageArguments(
      all, [](const TestCase&) { return true; }, [] { return false; }));
  EXPECT_EQ(all.args[0].image.order, order::kR);
  EXPECT_EQ(all.args[0].image.type, type::kSignedInt32);
  EXPECT_THAT(all.args[0].bytes, ElementsAre(0, 0, 0, 0));
}

// The seed-189 PoCL finding: with every candidate interesting,
// an RGBA image became R and the reduction slipped into pocl_image_r_alpha.
// With PoCL's bugs avoided it stops at RGBA; with llvm-spirv's, an
// unsigned image is never made plainer into another unsigned type either.
TEST(ShrinkImageArguments, NeverProposesAFormatWithAFiledBugOfTheTargets) {
  const ImageDesc d =
      Desc(ImageDim::k1D, order::kRGBA, type::kSignedInt8, 1, 1, 1, 1);
  const auto always = [](const TestCase&) { return true; };
  TestCase pocl = CaseWith({ImageArg(d, {1, 2, 3, 4})});
  EXPECT_TRUE(ShrinkImageArguments(
      pocl, always, [] { return false; }, oracles::kConsumerPocl));
  EXPECT_EQ(pocl.args[0].image.order, order::kRGBA);
  EXPECT_EQ(pocl.args[0].image.type, type::kSignedInt32);
  TestCase ref = CaseWith({ImageArg(d, {1, 2, 3, 4})});
  EXPECT_TRUE(ShrinkImageArguments(
      ref, always, [] { return false; }, 0));
  EXPECT_EQ(ref.args[0].image.order, order::kR);

  const ImageDesc u =
      Desc(ImageDim::k1D, order::kBGRA, type::kUnsignedInt8, 1, 1, 1, 1);
  TestCase spirv = CaseWith({ImageArg(u, {1, 2, 3, 4})});
  ShrinkImageArguments(
      spirv, always, [] { return false; }, oracles::kConsumerLlvmSpirv);
  EXPECT_EQ(spirv.args[0].image.order, order::kBGRA);
  EXPECT_EQ(spirv.args[0].image.type, type::kUnsignedInt8);
}

TEST(ShrinkImageArguments, SamplersBecomeNearestClampToEdge) {
  KernelArg s;
  s.kind = KernelArg::Kind::kSampler;
  s.sampler.normalized = true;
  s.sampler.addressing = AddressingMode::kRepeatMirrored;
  s.sampler.filter = FilterMode::kLinear;
  KernelArg none = s;
  none.sampler.addressing = AddressingMode::kNone;
  none.sampler.filter = FilterMode::kNearest;
  TestCase tc = CaseWith({s, none});
  int runs = 0;
  EXPECT_TRUE(ShrinkImageArguments(
      tc,
      [&runs](const TestCase&) {
        ++runs;
        return true;
      },
      [] { return false; }));
  EXPECT_EQ(runs, 2);  // the None/Nearest sampler is already plain
  EXPECT_EQ(tc.args[0].sampler.filter, FilterMode::kNearest);
  EXPECT_EQ(tc.args[0].sampler.addressing, AddressingMode::kClampToEdge);
  EXPECT_TRUE(tc.args[0].sampler.normalized);
  EXPECT_EQ(tc.args[1].sampler, none.sampler);
}

TEST(ShrinkImageArguments, CasesWithoutImagesRunNoTest) {
  KernelArg buffer;
  buffer.bytes = {1, 2, 3, 4};
  TestCase tc = CaseWith({buffer});
  bool called = false;
  EXPECT_FALSE(ShrinkImageArguments(
      tc,
      [&called](const TestCase&) {
        called = true;
        return true;
      },
      [] { return false; }));
  EXPECT_FALSE(called);
  EXPECT_THAT(tc.args[0].bytes, ElementsAre(1, 2, 3, 4));
}

TEST(ShrinkImageArguments, StopsWhenExpired) {
  const ImageDesc d =
      Desc(ImageDim::k2D, order::kRGBA, type::kUnormInt16, 8, 8, 1, 1);
  TestCase tc = CaseWith({ImageArg(d, Iota(d))});
  EXPECT_FALSE(ShrinkImageArguments(
      tc, [](const TestCase&) { return true; }, [] { return true; }));
  EXPECT_EQ(tc.args[0].image, d);
}

}  // namespace
}  // namespace l0spv::reducers
