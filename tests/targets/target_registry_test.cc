#include "oracles/targets/target_registry.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/targets/target_name.h"

namespace l0spv::oracles {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ParseTargetList, SplitsKindsAndOclocDevices) {
  auto t = ParseTargetList("ref,ocloc:tgllp,dg2,pvc,spirv-opt:-O,llvm-spirv");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(*t, ElementsAre("ref", "ocloc:tgllp", "ocloc:dg2", "ocloc:pvc",
                              "spirv-opt:-O", "llvm-spirv"));
}

TEST(ParseTargetList, RejectsUnknownKinds) {
  auto t = ParseTargetList("ref,cuda");
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.status().message(), HasSubstr("unknown target 'cuda'"));
  EXPECT_THAT(t.status().message(), HasSubstr("l0spv-fuzz targets"));
}

TEST(ParseTargetList, RejectsOclocWithoutDeviceAndEmptyLists) {
  EXPECT_FALSE(ParseTargetList("ocloc").ok());
  EXPECT_FALSE(ParseTargetList(",,").ok());
  // A bare word is only an ocloc device right after an ocloc entry.
  EXPECT_FALSE(ParseTargetList("ref,tgllp").ok());
}

TEST(ParseTargetList, BareWordsAfterSpirvOptExtendItsPassList) {
  auto t = ParseTargetList("spirv-opt:ccp,vector-dce,ref,ocloc:tgllp,dg2");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(*t, ElementsAre("spirv-opt:ccp,vector-dce", "ref", "ocloc:tgllp",
                              "ocloc:dg2"));
  // Plain `spirv-opt` (the default recipe) takes no bare words.
  EXPECT_FALSE(ParseTargetList("spirv-opt,ccp").ok());
}

TEST(DescribeTarget, RejectsMalformedNamesAndExplainsUnavailability) {
  for (const char* bad : {"cuda", "ref:x", "gpu:", "ocloc",
                          "ocloc:", "opencl:", "oclgrind:x", "llvm-spirv:y"}) {
    auto t = DescribeTarget(bad);
    EXPECT_FALSE(t.ok()) << bad;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  // gpu:DEVICE names one Level Zero device; the adapter matches the name.
  auto gpu_device = DescribeTarget("gpu:0");
  ASSERT_TRUE(gpu_device.ok());
  EXPECT_EQ(gpu_device->name, "gpu:0");
  auto ref = DescribeTarget("ref");
  ASSERT_TRUE(ref.ok());
  EXPECT_TRUE(ref->available);
  auto gpu = DescribeTarget("gpu");
  ASSERT_TRUE(gpu.ok());
  if (!gpu->available) {
    EXPECT_FALSE(gpu->reason.empty());
    EXPECT_EQ(UnavailableStatus(*gpu).code(),
              absl::StatusCode::kFailedPrecondition);
  }
  auto cl = DescribeTarget("opencl:l0spv-no-such-platform");
  ASSERT_TRUE(cl.ok());
  EXPECT_FALSE(cl->available);
  EXPECT_FALSE(cl->reason.empty());
}

TEST(ListTargets, InstalledToolsAreAvailableAndMissingOnesSayWhy) {
  for (const TargetInfo& t : ListTargets()) {
    if (t.name == "gpu") continue;  // its adapter is written separately
    if (t.available) {
      EXPECT_TRUE(t.reason.empty()) << t.name;
      EXPECT_FALSE(t.consumer.empty()) << t.name;
    } else {
      EXPECT_THAT(t.reason, ::testing::Not(HasSubstr("not implemented")))
          << t.name;
    }
  }
}

TEST(ListTargets, EveryUnavailableTargetSaysWhy) {
  const std::vector<TargetInfo> targets = ListTargets();
  ASSERT_FALSE(targets.empty());
  bool saw_gpu = false, saw_ref = false;
  for (const TargetInfo& t : targets) {
    if (!t.available) {
      EXPECT_FALSE(t.reason.empty()) << t.name;
    }
    saw_gpu |= t.name == "gpu";
    if (t.name == "ref") {
      saw_ref = true;
      EXPECT_TRUE(t.available) << "the reference interpreter is built in";
    }
  }
  EXPECT_TRUE(saw_gpu);
  EXPECT_TRUE(saw_ref);
}

TEST(TargetName, SplitsKindAndParameterAtTheFirstColon) {
  const TargetName ocloc = ParseTargetName("ocloc:tgllp");
  EXPECT_EQ(ocloc.kind, "ocloc");
  EXPECT_EQ(ocloc.param, "tgllp");
  EXPECT_TRUE(ocloc.has_param);
  const TargetName cl = ParseTargetName("opencl:Intel(R): GPU");
  EXPECT_EQ(cl.kind, "opencl");
  EXPECT_EQ(cl.param, "Intel(R): GPU");
  const TargetName empty = ParseTargetName("opencl:");
  EXPECT_TRUE(empty.has_param);
  EXPECT_EQ(empty.param, "");
  const TargetName ref = ParseTargetName("ref");
  EXPECT_EQ(ref.kind, "ref");
  EXPECT_FALSE(ref.has_param);
  EXPECT_EQ(TargetKind("spirv-opt:-O"), "spirv-opt");
  EXPECT_EQ(TargetKind(""), "");
}

TEST(DescribeTarget, AnAvailableToolTargetCarriesTheProgramItFound) {
  auto info = DescribeTarget("spirv-opt");
  ASSERT_TRUE(info.ok()) << info.status();
  if (!info->available) GTEST_SKIP() << info->reason;
  EXPECT_THAT(info->program, testing::EndsWith("/spirv-opt"));
  EXPECT_THAT(info->consumer, testing::HasSubstr(info->program));
  auto ref = DescribeTarget("ref");
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->program, "");
}

}  // namespace
}  // namespace l0spv::oracles
