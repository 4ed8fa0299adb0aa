// Images and samplers on the l0spv reference driver through the real loader:
// device image properties, zeImage*/zeSampler* with their error codes,
// copies between memory and images (whole and by region) and between
// images, image/sampler kernel arguments; and the ze <-> OpenCL format
// mapping (ze_image_format.h) the driver and the gpu target share.
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "oracles/reference/interpreter.h"
#include "oracles/reference/level_zero/ze_image_format.h"
#include "spirv/spirv_tools.h"
#include "tests/level_zero/ze_test_util.h"

namespace l0spv::zeref_test {
namespace {

namespace co = spirv::channel_order;
namespace ct = spirv::channel_type;

ze_image_desc_t Desc2D(
    uint32_t w, uint32_t h,
    ze_image_format_layout_t layout = ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8) {
  auto d = Desc<ze_image_desc_t>(ZE_STRUCTURE_TYPE_IMAGE_DESC);
  d.type = ZE_IMAGE_TYPE_2D;
  d.format = {layout,
              ZE_IMAGE_FORMAT_TYPE_UINT,
              ZE_IMAGE_FORMAT_SWIZZLE_R,
              ZE_IMAGE_FORMAT_SWIZZLE_G,
              ZE_IMAGE_FORMAT_SWIZZLE_B,
              ZE_IMAGE_FORMAT_SWIZZLE_A};
  d.width = w;
  d.height = h;
  return d;
}

// --- the shared format mapping ---------------------------------------------

TEST(ZeImageFormatTest, EveryOpenClFormatRoundTripsOrIsRefusedWithWhy) {
  int mapped = 0;
  for (uint32_t order = 0; order < 20; ++order) {
    for (uint32_t type = 0; type <= ct::kFloat; ++type) {
      if (spirv::TexelBytes(order, type) == 0) continue;
      auto ze = zeref::ZeFormatOf(order, type);
      if (!ze.ok()) {
        EXPECT_EQ(ze.status().code(), absl::StatusCode::kUnimplemented)
            << order << " " << type;
        EXPECT_NE(ze.status().message().find("Level Zero"), std::string::npos);
        continue;
      }
      ++mapped;
      auto back = zeref::SpirvFormatOf(*ze);
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(back->first, order);
      EXPECT_EQ(back->second, type);
    }
  }
  EXPECT_GT(mapped, 40);
  EXPECT_FALSE(zeref::ZeFormatOf(co::kSRGBA, ct::kUnormInt8).ok());
  EXPECT_FALSE(zeref::ZeFormatOf(co::kRGB, ct::kUnormShort555).ok());
  EXPECT_FALSE(zeref::ZeFormatOf(co::kRGB, ct::kUnormInt101010).ok());
  EXPECT_EQ(zeref::ZeFormatOf(co::kRGBA, ct::kUnsignedInt8)->layout,
            ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8);
  EXPECT_EQ(zeref::ZeFormatOf(co::kR, ct::kHalfFloat)->layout,
            ZE_IMAGE_FORMAT_LAYOUT_16);
}

TEST(ZeImageFormatTest, SwizzleOfMissingComponentsReadsAsZeroOrOne) {
  // The common "always RGBA" descriptor of a one-channel layout is R.
  ze_image_format_t f{ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_FLOAT,
                      ZE_IMAGE_FORMAT_SWIZZLE_R, ZE_IMAGE_FORMAT_SWIZZLE_G,
                      ZE_IMAGE_FORMAT_SWIZZLE_B, ZE_IMAGE_FORMAT_SWIZZLE_A};
  auto r = zeref::SpirvFormatOf(f);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->first, co::kR);
  EXPECT_EQ(r->second, ct::kFloat);
  f.layout = ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8;
  f.type = ZE_IMAGE_FORMAT_TYPE_UNORM;
  f.x = ZE_IMAGE_FORMAT_SWIZZLE_B;
  f.z = ZE_IMAGE_FORMAT_SWIZZLE_R;
  EXPECT_EQ(zeref::SpirvFormatOf(f)->first, co::kBGRA);
  f.layout = ZE_IMAGE_FORMAT_LAYOUT_11_11_10;
  EXPECT_EQ(zeref::SpirvFormatOf(f).status().code(),
            absl::StatusCode::kUnimplemented);
  f.layout = ZE_IMAGE_FORMAT_LAYOUT_32;  // no 32-bit UNORM in OpenCL
  EXPECT_EQ(zeref::SpirvFormatOf(f).status().code(),
            absl::StatusCode::kUnimplemented);
}

TEST(ZeImageFormatTest, DescriptorsAndSamplersRoundTrip) {
  spirv::ImageDesc d;
  d.dim = spirv::ImageDim::k1DBuffer;
  d.order = co::kRGBA;
  d.type = ct::kFloat;
  d.width = 10;
  d.access = spirv::ImageAccess::kReadWrite;
  auto z = zeref::ZeImageDescOf(d);
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->type, ZE_IMAGE_TYPE_BUFFER);
  EXPECT_EQ(z->width, 160u);  // bytes for buffer images
  EXPECT_EQ(z->flags, ze_image_flags_t{ZE_IMAGE_FLAG_KERNEL_WRITE});
  EXPECT_EQ(*zeref::ImageDescOf(*z), d);
  d.dim = spirv::ImageDim::k2DArray;
  d.width = 4;
  d.height = 3;
  d.array_size = 5;
  d.access = spirv::ImageAccess::kReadOnly;
  z = zeref::ZeImageDescOf(d);
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->type, ZE_IMAGE_TYPE_2DARRAY);
  EXPECT_EQ(z->arraylevels, 5u);
  EXPECT_EQ(*zeref::ImageDescOf(*z), d);

  for (auto mode :
       {spirv::AddressingMode::kNone, spirv::AddressingMode::kClampToEdge,
        spirv::AddressingMode::kClamp, spirv::AddressingMode::kRepeat,
        spirv::AddressingMode::kRepeatMirrored}) {
    spirv::SamplerDesc s{true, mode, spirv::FilterMode::kLinear};
    EXPECT_EQ(*zeref::SamplerDescOf(zeref::ZeSamplerDescOf(s)), s);
  }
  EXPECT_EQ(zeref::ZeAddressModeOf(spirv::AddressingMode::kClampToEdge),
            ZE_SAMPLER_ADDRESS_MODE_CLAMP);
  EXPECT_EQ(zeref::ZeAddressModeOf(spirv::AddressingMode::kClamp),
            ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
}

// --- the driver ------------------------------------------------------------

class ZeImageTest : public ZeTest {
 protected:
  ze_image_handle_t Image(const ze_image_desc_t& desc) {
    ze_image_handle_t image = nullptr;
    EXPECT_EQ(zeImageCreate(context_, device_, &desc, &image),
              ZE_RESULT_SUCCESS);
    images_.push_back(image);
    return image;
  }
  void TearDown() override {
    for (auto i : images_) EXPECT_EQ(zeImageDestroy(i), ZE_RESULT_SUCCESS);
    ZeTest::TearDown();
  }
  std::vector<ze_image_handle_t> images_;
};

TEST_F(ZeImageTest, GivenDeviceThenImagePropertiesReportImages) {
  auto p = Desc<ze_device_image_properties_t>(
      ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES);
  ASSERT_EQ(zeDeviceGetImageProperties(device_, &p), ZE_RESULT_SUCCESS);
  EXPECT_EQ(p.maxImageDims1D, 16384u);
  EXPECT_EQ(p.maxImageDims2D, 16384u);
  EXPECT_EQ(p.maxImageDims3D, 2048u);
  EXPECT_GT(p.maxImageBufferSize, 0u);
  EXPECT_EQ(p.maxImageArraySlices, 2048u);
  EXPECT_GT(p.maxSamplers, 0u);
  EXPECT_GT(p.maxReadImageArgs, 0u);
  EXPECT_GT(p.maxWriteImageArgs, 0u);
}

TEST_F(ZeImageTest, GivenDescriptorsWhenGettingPropertiesThenFiltersOrError) {
  ze_image_desc_t d = Desc2D(4, 4);
  auto props = Desc<ze_image_properties_t>(ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES);
  ASSERT_EQ(zeImageGetProperties(device_, &d, &props), ZE_RESULT_SUCCESS);
  EXPECT_EQ(props.samplerFilterFlags, ze_image_sampler_filter_flags_t{
                                          ZE_IMAGE_SAMPLER_FILTER_FLAG_POINT |
                                          ZE_IMAGE_SAMPLER_FILTER_FLAG_LINEAR});
  EXPECT_EQ(zeImageGetProperties(device_, nullptr, &props),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  d.format.layout = ZE_IMAGE_FORMAT_LAYOUT_NV12;
  EXPECT_EQ(zeImageGetProperties(device_, &d, &props),
            ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
}

TEST_F(ZeImageTest, GivenBadDescriptorsWhenCreatingThenTheRightError) {
  ze_image_handle_t image = nullptr;
  EXPECT_EQ(zeImageCreate(context_, device_, nullptr, &image),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  ze_image_desc_t d = Desc2D(4, 4, ZE_IMAGE_FORMAT_LAYOUT_11_11_10);
  EXPECT_EQ(zeImageCreate(context_, device_, &d, &image),
            ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  d = Desc2D(4, 4);
  d.format.type = ZE_IMAGE_FORMAT_TYPE_FLOAT;  // 8-bit float: none
  EXPECT_EQ(zeImageCreate(context_, device_, &d, &image),
            ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT);
  d = Desc2D(0, 4);
  EXPECT_EQ(zeImageCreate(context_, device_, &d, &image),
            ZE_RESULT_ERROR_INVALID_SIZE);
  d = Desc2D(16385, 4);
  EXPECT_EQ(zeImageCreate(context_, device_, &d, &image),
            ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  d = Desc2D(4, 4);
  d.type = static_cast<ze_image_type_t>(9);
  EXPECT_EQ(zeImageCreate(context_, device_, &d, &image),
            ZE_RESULT_ERROR_INVALID_ENUMERATION);
  d = Desc2D(4, 4);
  d.type = ZE_IMAGE_TYPE_BUFFER;
  d.width = 6;  // bytes: not a whole number of 4-byte texels
  EXPECT_EQ(zeImageCreate(context_, device_, &d, &image),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeImageDestroy(nullptr), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

TEST_F(ZeImageTest, GivenTexelsWhenCopyingThroughImagesThenRegionsMove) {
  // 4x3 RGBA8 image: upload 0..47, read back whole and a 2x2 region at (1,1),
  // copy a region into a second image, read that back.
  ze_image_handle_t a = Image(Desc2D(4, 3));
  ze_image_handle_t b = Image(Desc2D(4, 3));
  std::vector<uint8_t> in(48);
  std::iota(in.begin(), in.end(), 0);
  std::vector<uint8_t> whole(48, 0xEE), part(16, 0xEE), other(48, 0xEE);
  ze_command_list_handle_t list = NewList();
  const ze_image_region_t region{1, 1, 0, 2, 2, 1};
  const ze_image_region_t at_origin{0, 0, 0, 2, 2, 1};
  ASSERT_EQ(zeCommandListAppendImageCopyFromMemory(list, a, in.data(), nullptr,
                                                   nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListAppendImageCopyToMemory(list, whole.data(), a, nullptr,
                                                 nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListAppendImageCopyToMemory(list, part.data(), a, &region,
                                                 nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListAppendImageCopyRegion(list, b, a, &at_origin, &region,
                                               nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListAppendImageCopyToMemory(list, other.data(), b, nullptr,
                                                 nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  ASSERT_EQ(Execute(list), ZE_RESULT_SUCCESS);
  EXPECT_EQ(whole, in);
  // Texel (x, y) starts at byte (y * 4 + x) * 4.
  const std::vector<uint8_t> want_part = {20, 21, 22, 23, 24, 25, 26, 27,
                                          36, 37, 38, 39, 40, 41, 42, 43};
  EXPECT_EQ(part, want_part);
  EXPECT_EQ(std::vector<uint8_t>(other.begin(), other.begin() + 8),
            std::vector<uint8_t>(want_part.begin(), want_part.begin() + 8));
  EXPECT_EQ(std::vector<uint8_t>(other.begin() + 16, other.begin() + 24),
            std::vector<uint8_t>(want_part.begin() + 8, want_part.end()));
  EXPECT_EQ(other[8], 0);  // untouched texels of a new image are zero
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);

  // Whole-image copy between images.
  list = NewList();
  ASSERT_EQ(zeCommandListAppendImageCopy(list, b, a, nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListAppendImageCopyToMemory(list, other.data(), b, nullptr,
                                                 nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  ASSERT_EQ(Execute(list), ZE_RESULT_SUCCESS);
  EXPECT_EQ(other, in);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ZeImageTest, GivenArrayImageWhenCopyingLayerRegionThenThatLayer) {
  // A 2D array's layers are z in ze_image_region_t.
  auto d = Desc2D(2, 2, ZE_IMAGE_FORMAT_LAYOUT_8);
  d.type = ZE_IMAGE_TYPE_2DARRAY;
  d.arraylevels = 3;
  ze_image_handle_t a = Image(d);
  std::vector<uint8_t> in(12);
  std::iota(in.begin(), in.end(), 1);
  std::vector<uint8_t> layer(4, 0);
  const ze_image_region_t second{0, 0, 1, 2, 2, 1};
  ze_command_list_handle_t list = NewList();
  ASSERT_EQ(zeCommandListAppendImageCopyFromMemory(list, a, in.data(), nullptr,
                                                   nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListAppendImageCopyToMemory(list, layer.data(), a, &second,
                                                 nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  ASSERT_EQ(Execute(list), ZE_RESULT_SUCCESS);
  EXPECT_EQ(layer, (std::vector<uint8_t>{5, 6, 7, 8}));
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ZeImageTest, GivenBadCopiesWhenAppendingThenTheRightError) {
  ze_image_handle_t a = Image(Desc2D(4, 3));
  ze_image_handle_t small = Image(Desc2D(2, 2));
  ze_image_handle_t one_byte = Image(Desc2D(4, 3, ZE_IMAGE_FORMAT_LAYOUT_8));
  std::vector<uint8_t> mem(64);
  ze_command_list_handle_t list = NewList();
  const ze_image_region_t outside{3, 0, 0, 2, 1, 1};
  const ze_image_region_t empty{0, 0, 0, 0, 1, 1};
  EXPECT_EQ(zeCommandListAppendImageCopyToMemory(list, mem.data(), a, &outside,
                                                 nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeCommandListAppendImageCopyFromMemory(list, a, mem.data(), &empty,
                                                   nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_SIZE);
  EXPECT_EQ(zeCommandListAppendImageCopyToMemory(list, nullptr, a, nullptr,
                                                 nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeCommandListAppendImageCopyFromMemory(
                list, nullptr, mem.data(), nullptr, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  // Whole images of other sizes, and texels of other sizes.
  EXPECT_EQ(zeCommandListAppendImageCopy(list, small, a, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(
      zeCommandListAppendImageCopy(list, one_byte, a, nullptr, 0, nullptr),
      ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ZeImageTest, GivenSamplerDescriptorsWhenCreatingThenModesChecked) {
  auto d = Desc<ze_sampler_desc_t>(ZE_STRUCTURE_TYPE_SAMPLER_DESC);
  for (auto mode :
       {ZE_SAMPLER_ADDRESS_MODE_NONE, ZE_SAMPLER_ADDRESS_MODE_REPEAT,
        ZE_SAMPLER_ADDRESS_MODE_CLAMP, ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        ZE_SAMPLER_ADDRESS_MODE_MIRROR}) {
    d.addressMode = mode;
    d.filterMode = ZE_SAMPLER_FILTER_MODE_LINEAR;
    d.isNormalized = 1;
    ze_sampler_handle_t s = nullptr;
    ASSERT_EQ(zeSamplerCreate(context_, device_, &d, &s), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeSamplerDestroy(s), ZE_RESULT_SUCCESS);
  }
  ze_sampler_handle_t s = nullptr;
  d.addressMode = static_cast<ze_sampler_address_mode_t>(7);
  EXPECT_EQ(zeSamplerCreate(context_, device_, &d, &s),
            ZE_RESULT_ERROR_INVALID_ENUMERATION);
  EXPECT_EQ(zeSamplerCreate(context_, device_, nullptr, &s),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeSamplerDestroy(nullptr), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

}  // namespace
}  // namespace l0spv::zeref_test
namespace l0spv::zeref_test {
namespace {

// k(read_only image2d_t img, sampler_t s, global uint* out, write_only
// image1d_t w): out[0] = 7; queries nothing of the images, so it runs on
// an interpreter that does not sample.
constexpr char kImageArgs[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability ImageBasic
OpCapability Image1D
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%uint_7 = OpConstant %uint 7
%img2 = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%img1 = OpTypeImage %void 1D 0 0 0 0 Unknown WriteOnly
%smp = OpTypeSampler
%ptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %img2 %smp %ptr %img1
%k = OpFunction %void None %fn
%i = OpFunctionParameter %img2
%s = OpFunctionParameter %smp
%out = OpFunctionParameter %ptr
%w = OpFunctionParameter %img1
%e = OpLabel
OpStore %out %uint_7 Aligned 4
OpReturn
OpFunctionEnd
)";

// Images (ZeImageTest), kernel "k" of a module and a clamp sampler, all
// destroyed, and checked to be, at tear-down.
class ZeImageKernelTest : public ZeImageTest {
 protected:
  ze_kernel_handle_t KernelK(const std::vector<uint32_t>& words) {
    ze_module_handle_t module = nullptr;
    std::string log;
    EXPECT_EQ(CreateModule(words, &module, &log), ZE_RESULT_SUCCESS) << log;
    if (!module) return nullptr;
    modules_.push_back(module);
    auto kd = Desc<ze_kernel_desc_t>(ZE_STRUCTURE_TYPE_KERNEL_DESC);
    kd.pKernelName = "k";
    ze_kernel_handle_t kernel = nullptr;
    EXPECT_EQ(zeKernelCreate(module, &kd, &kernel), ZE_RESULT_SUCCESS);
    if (kernel) kernels_.push_back(kernel);
    return kernel;
  }
  ze_sampler_handle_t ClampSampler() {
    auto sd = Desc<ze_sampler_desc_t>(ZE_STRUCTURE_TYPE_SAMPLER_DESC);
    sd.addressMode = ZE_SAMPLER_ADDRESS_MODE_CLAMP;
    ze_sampler_handle_t sampler = nullptr;
    EXPECT_EQ(zeSamplerCreate(context_, device_, &sd, &sampler),
              ZE_RESULT_SUCCESS);
    if (sampler) samplers_.push_back(sampler);
    return sampler;
  }
  void TearDown() override {
    for (auto s : samplers_) EXPECT_EQ(zeSamplerDestroy(s), ZE_RESULT_SUCCESS);
    for (auto k : kernels_) EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    for (auto m : modules_) EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
    ZeImageTest::TearDown();
  }
  std::vector<ze_module_handle_t> modules_;
  std::vector<ze_kernel_handle_t> kernels_;
  std::vector<ze_sampler_handle_t> samplers_;
};

TEST_F(ZeImageKernelTest, GivenImageAndSamplerParamsThenArgumentsChecked) {
  auto words = spirv::Assemble(kImageArgs);
  ASSERT_TRUE(words.ok()) << words.status();
  ze_kernel_handle_t kernel = KernelK(*words);
  ASSERT_NE(kernel, nullptr);

  ze_image_handle_t img2 = Image(Desc2D(4, 4));
  auto d1 = Desc2D(8, 1);
  d1.type = ZE_IMAGE_TYPE_1D;
  d1.flags = ZE_IMAGE_FLAG_KERNEL_WRITE;
  ze_image_handle_t img1 = Image(d1);
  ze_sampler_handle_t sampler = ClampSampler();
  ASSERT_TRUE(img1 && img2 && sampler);
  void* out = Shared(4);

  // Wrong dimensionality, wrong sizes, wrong handle kinds.
  EXPECT_EQ(zeKernelSetArgumentValue(kernel, 0, sizeof img1, &img1),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeKernelSetArgumentValue(kernel, 0, 4, &img2),
            ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  EXPECT_EQ(zeKernelSetArgumentValue(kernel, 0, sizeof sampler, &sampler),
            ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeKernelSetArgumentValue(kernel, 1, sizeof img2, &img2),
            ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeKernelSetArgumentValue(kernel, 1, sizeof sampler, nullptr),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);

  ASSERT_EQ(zeKernelSetArgumentValue(kernel, 0, sizeof img2, &img2),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeKernelSetArgumentValue(kernel, 1, sizeof sampler, &sampler),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeKernelSetArgumentValue(kernel, 2, sizeof out, &out),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeKernelSetArgumentValue(kernel, 3, sizeof img1, &img1),
            ZE_RESULT_SUCCESS);
  ze_command_list_handle_t list = NewList();
  const ze_group_count_t one{1, 1, 1};
  ASSERT_EQ(
      zeCommandListAppendLaunchKernel(list, kernel, &one, nullptr, 0, nullptr),
      ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  EXPECT_EQ(Execute(list), ZE_RESULT_SUCCESS);
  EXPECT_EQ(*static_cast<uint32_t*>(out), 7u);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ZeImageKernelTest, GivenImageKernelThenApiRunEqualsReference) {
  // Images uploaded and read back by copies around a launch that reads,
  // samples and writes them: the same texels and buffers as RunReference.
  const spirv::TestCase tc = ImageKernelCase();
  const oracles::Execution ref = oracles::reference::RunReference(
      tc, oracles::reference::ReferenceOptions());
  ASSERT_EQ(ref.status, oracles::ExecutionStatus::kOk) << ref.message;
  const oracles::Execution got = RunThroughApi(context_, device_, tc);
  ASSERT_EQ(got.status, oracles::ExecutionStatus::kOk) << got.message;
  ASSERT_EQ(got.buffers.size(), 4u);
  EXPECT_EQ(got.buffers[0], tc.args[0].bytes);  // read-only: unchanged
  EXPECT_EQ(got.buffers[1], ref.buffers[1]);
  EXPECT_EQ(got.buffers[3], ref.buffers[3]);
  EXPECT_NE(got.buffers[1], tc.args[1].bytes);  // the kernel wrote it
}

TEST_F(ZeImageKernelTest, GivenSameImageReadAndWrittenThenUnsupported) {
  // dst and src bound to one image: images travel by value, so aliasing a
  // written image is refused rather than run wrongly.
  auto words = spirv::Assemble(ImageKernel());
  ASSERT_TRUE(words.ok());
  ze_kernel_handle_t kernel = KernelK(*words);
  ASSERT_NE(kernel, nullptr);
  auto d = Desc2D(4, 4);
  d.flags = ZE_IMAGE_FLAG_KERNEL_WRITE;
  ze_image_handle_t image = Image(d);
  ze_sampler_handle_t sampler = ClampSampler();
  ASSERT_TRUE(image && sampler);
  void* out = Shared(256);
  ASSERT_EQ(zeKernelSetArgumentValue(kernel, 0, sizeof image, &image),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeKernelSetArgumentValue(kernel, 1, sizeof image, &image),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeKernelSetArgumentValue(kernel, 2, sizeof sampler, &sampler),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeKernelSetArgumentValue(kernel, 3, sizeof out, &out),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeKernelSetGroupSize(kernel, 2, 2, 1), ZE_RESULT_SUCCESS);
  ze_command_list_handle_t list = NewList();
  const ze_group_count_t groups{2, 2, 1};
  ASSERT_EQ(zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0,
                                            nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  EXPECT_EQ(Execute(list), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

}  // namespace
}  // namespace l0spv::zeref_test
