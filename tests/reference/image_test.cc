// Images and samplers end to end through SPIR-V: sampler-less reads and
// writes, sampled reads, queries, literal samplers, argument binding and
// the undefined-behaviour checks of image access.
#include <cstring>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace l0spv::oracles::reference::test
