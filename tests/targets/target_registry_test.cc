#include "oracles/targets/target_registry.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

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

}  // namespace
}  // namespace l0spv::oracles
