// The `gpu` target with image and sampler arguments, through the l0spv
// reference driver: the same verdict, texels and buffers as `ref`; formats
// Level Zero cannot express are unsupported with the reason.
#include <cstring>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/reference/interpreter.h"
#include "oracles/targets/level_zero_target.h"
#include "spirv/image_format.h"
#include "spirv/spirv_tools.h"

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

// k(read_only image2d_t src, write_only image2d_t dst, sampler_t s,
//   global uint4* out), on a 4x4 range:
//   dst[x,y] = read_imageui(src, (x,y)) + 1;
//   out[y*4+x] = read_imageui(src, s, (float2)(x - 0.5, y + 0.5));
// (nearest filtering of the texel to the left; clamped at x = 0).
constexpr char kImageKernel[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability ImageBasic
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%v4uint = OpTypeVector %uint 4
%v2float = OpTypeVector %float 2
%v3ulong = OpTypeVector %ulong 3
%ptr_in = OpTypePointer Input %v3ulong
%gid = OpVariable %ptr_in Input
%img_ro = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%img_wo = OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly
%smp = OpTypeSampler
%sampled = OpTypeSampledImage %img_ro
%ptr_out = OpTypePointer CrossWorkgroup %v4uint
%uint_1 = OpConstant %uint 1
%ulong_4 = OpConstant %ulong 4
%float_0 = OpConstant %float 0
%float_half = OpConstant %float 0.5
%v4uint_1 = OpConstantComposite %v4uint %uint_1 %uint_1 %uint_1 %uint_1
%fn = OpTypeFunction %void %img_ro %img_wo %smp %ptr_out
%k = OpFunction %void None %fn
%src = OpFunctionParameter %img_ro
%dst = OpFunctionParameter %img_wo
%s = OpFunctionParameter %smp
%out = OpFunctionParameter %ptr_out
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x64 = OpCompositeExtract %ulong %gv 0
%y64 = OpCompositeExtract %ulong %gv 1
%x = OpUConvert %uint %x64
%y = OpUConvert %uint %y64
%c = OpCompositeConstruct %v2uint %x %y
%t = OpImageRead %v4uint %src %c
%t1 = OpIAdd %v4uint %t %v4uint_1
OpImageWrite %dst %c %t1
%fx = OpConvertUToF %float %x
%fy = OpConvertUToF %float %y
%fxm = OpFSub %float %fx %float_half
%fyp = OpFAdd %float %fy %float_half
%cf = OpCompositeConstruct %v2float %fxm %fyp
%si = OpSampledImage %sampled %src %s
%v = OpImageSampleExplicitLod %v4uint %si %cf Lod %float_0
%row = OpIMul %ulong %y64 %ulong_4
%idx = OpIAdd %ulong %row %x64
%p = OpInBoundsPtrAccessChain %ptr_out %out %idx
OpStore %p %v Aligned 16
OpReturn
OpFunctionEnd
)";

spirv::TestCase ImageCase(uint32_t order = spirv::channel_order::kRGBA) {
  spirv::TestCase tc;
  auto words = spirv::Assemble(kImageKernel);
  EXPECT_TRUE(words.ok()) << words.status();
  if (words.ok()) tc.module_words = *words;
  tc.entry_point = "k";
  tc.nd_range.dims = 2;
  tc.nd_range.global = {4, 4, 1};
  tc.nd_range.local = std::array<uint64_t, 3>{2, 2, 1};
  spirv::KernelArg src;
  src.kind = spirv::KernelArg::Kind::kImage;
  src.image.dim = spirv::ImageDim::k2D;
  src.image.order = order;
  src.image.type = spirv::channel_type::kUnsignedInt8;
  src.image.width = 4;
  src.image.height = 4;
  src.image.access = spirv::ImageAccess::kReadOnly;
  src.bytes = spirv::ImageTexelsFromSeed(src.image, 17);
  spirv::KernelArg dst = src;
  dst.image.access = spirv::ImageAccess::kWriteOnly;
  dst.bytes.assign(spirv::ImageBytes(dst.image), 0);
  dst.is_result = true;
  spirv::KernelArg sampler;
  sampler.kind = spirv::KernelArg::Kind::kSampler;
  sampler.sampler = {false, spirv::AddressingMode::kClampToEdge,
                     spirv::FilterMode::kNearest};
  spirv::KernelArg out;
  out.bytes.assign(16 * 16, 0);
  out.is_result = true;
  tc.args = {src, dst, sampler, out};
  return tc;
}

TEST(LevelZeroTargetImageTest, GivenImageKernelThenGpuEqualsRef) {
  const spirv::TestCase tc = ImageCase();
  auto gpu = RunOnLevelZero(tc, WithDriver());
  ASSERT_TRUE(gpu.ok()) << gpu.status();
  const Execution ref =
      reference::RunReference(tc, reference::ReferenceOptions());
  ASSERT_EQ(ref.status, ExecutionStatus::kOk) << ref.message;
  ASSERT_EQ(gpu->status, ExecutionStatus::kOk)
      << gpu->message << "\n"
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
  spirv::TestCase tc = ImageCase(spirv::channel_order::kSRGBA);
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

}  // namespace
}  // namespace l0spv::oracles
