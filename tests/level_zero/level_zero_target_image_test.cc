// The `gpu` target with image and sampler arguments, through the l0spv
// reference driver: the same verdict, texels and buffers as `ref`; formats
// Level Zero cannot express are unsupported with the reason.
#include <cstring>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/reference/interpreter.h"
#include "oracles/targets/level_zero_target.h"
#include "spirv/image_format.h"
#include "tests/level_zero/ze_test_util.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;

LevelZeroTargetOptions WithDriver() {
  LevelZeroTargetOptions options;
  options.environment = {std::string("ZE_ENABLE_ALT_DRIVERS=") +
                         L0SPV_REFERENCE_DRIVER};
  options.time_limit = std::chrono::seconds(60);
  return options;
}

TEST(LevelZeroTargetImageTest, GivenImageKernelThenGpuEqualsRef) {
  const spirv::TestCase tc = zeref_test::ImageKernelCase();
  auto gpu = RunOnLevelZero(tc, WithDriver());
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  const Execution ref =
      reference::RunReference(tc, reference::ReferenceOptions());
  ASSERT_EQ(ref.status, ExecutionStatus::kOk) << ref.message;
  ASSERT_EQ(gpu->status, ExecutionStatus::kOk) << gpu->message << "\n"
                                               << gpu->log;
  ASSERT_EQ(gpu->buffers.size(), 4u);
  EXPECT_EQ(gpu->buffers[1], ref.buffers[1]);  // written image
  EXPECT_EQ(gpu->buffers[3], ref.buffers[3]);  // sampled texels
  // And the kernel did what it says: dst = src + 1 per channel (8-bit).
  for (size_t i = 0; i < tc.args[0].bytes.size(); ++i)
    ASSERT_EQ(gpu->buffers[1][i],
              static_cast<uint8_t>(tc.args[0].bytes[i] + 1));
  // out[y*4+x] is texel (max(x-1,0), y) of src, widened to uint4.
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 4; ++x) {
      const uint32_t sx = x == 0 ? 0 : x - 1;
      for (uint32_t c = 0; c < 4; ++c) {
        uint32_t got = 0;
        std::memcpy(&got, &gpu->buffers[3][((y * 4 + x) * 4 + c) * 4], 4);
        EXPECT_EQ(got, tc.args[0].bytes[(y * 4 + sx) * 4 + c]);
      }
    }
  }
}

TEST(LevelZeroTargetImageTest, GivenFormatWithoutZeEquivalentThenUnsupported) {
  // sRGBA has no Level Zero format: said before anything is built.
  spirv::TestCase tc =
      zeref_test::ImageKernelCase(spirv::channel_order::kSRGBA);
  for (int i : {0, 1}) {
    tc.args[i].image.type = spirv::channel_type::kUnormInt8;
    tc.args[i].bytes.assign(spirv::ImageBytes(tc.args[i].image), 0);
  }
  auto gpu = RunOnLevelZero(tc, WithDriver());
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  EXPECT_EQ(gpu->status, ExecutionStatus::kUnsupported);
  EXPECT_THAT(gpu->message, HasSubstr("argument 0"));
  EXPECT_THAT(gpu->message, HasSubstr("Level Zero has no format"));
}

TEST(LevelZeroTargetImageTest, GivenDeviceWithoutImagesThenUnsupportedWithWhy) {
  LevelZeroTargetOptions options = WithDriver();
  options.environment.push_back("L0SPV_REFERENCE_NO_IMAGES=1");
  auto gpu = RunOnLevelZero(zeref_test::ImageKernelCase(), options);
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  EXPECT_EQ(gpu->status, ExecutionStatus::kUnsupported);
  EXPECT_THAT(gpu->message, HasSubstr("the device has no samplers"));
  // Without sampler arguments, the image limit is what is missing.
  spirv::TestCase tc = zeref_test::ImageKernelCase();
  tc.args[2].kind = spirv::KernelArg::Kind::kScalar;
  gpu = RunOnLevelZero(tc, options);
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  EXPECT_EQ(gpu->status, ExecutionStatus::kUnsupported);
  EXPECT_THAT(gpu->message, HasSubstr("no 2d images (maxImageDims2D is 0)"));
}

}  // namespace
}  // namespace l0spv::oracles
