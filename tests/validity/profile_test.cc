#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/validity/device_profile.h"
#include "oracles/validity/lint.h"
#include "tests/validity/test_modules.h"

namespace l0spv::oracles {
namespace {

using spv::Capability;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(DeviceProfileTest, EmbeddedProfilesLoad) {
  EXPECT_THAT(DeviceProfileNames(),
              ElementsAre("baseline", "full", "tgllp", "dg2", "pvc"));
  for (const std::string& name : DeviceProfileNames()) {
    auto p = FindDeviceProfile(name);
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(p->name, name);
    EXPECT_FALSE(p->description.empty());
  }
}

TEST(DeviceProfileTest, UnknownNameListsValidNames) {
  auto p = FindDeviceProfile("gen9");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  for (const std::string& name : DeviceProfileNames()) {
    EXPECT_THAT(std::string(p.status().message()), HasSubstr(name));
  }
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("gen9"));
}

// The environment's SPIR-V 1.0 required capabilities are in every profile.
TEST(DeviceProfileTest, EveryProfileHasTheRequiredCapabilities) {
  for (const std::string& name : DeviceProfileNames()) {
    auto p = FindDeviceProfile(name);
    ASSERT_TRUE(p.ok());
    for (Capability c :
         {Capability::Addresses, Capability::Float16Buffer, Capability::Int64,
          Capability::Int16, Capability::Int8, Capability::Kernel,
          Capability::Linkage, Capability::Vector16, Capability::GenericPointer,
          Capability::Groups}) {
      EXPECT_TRUE(p->HasCapability(c))
          << name << " lacks capability " << static_cast<int>(c);
    }
    const ProfileExtension* ext = p->FindExtension("SPV_INTEL_subgroups");
    ASSERT_NE(ext, nullptr) << name;
    EXPECT_THAT(ext->capabilities,
                ElementsAre(Capability::SubgroupShuffleINTEL,
                            Capability::SubgroupBufferBlockIOINTEL,
                            Capability::SubgroupImageBlockIOINTEL));
  }
}

TEST(DeviceProfileTest, BaselineIsMinimal) {
  auto p = FindDeviceProfile("baseline");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->max_spirv_version, 0x00010200u);
  EXPECT_EQ(p->MaxSpirvVersionString(), "1.2");
  EXPECT_FALSE(p->fp16 || p->fp64 || p->int64_atomics || p->images);
  EXPECT_EQ(p->capabilities.size(), 10u);
  EXPECT_FALSE(p->HasCapability(Capability::Float64));
  EXPECT_FALSE(p->HasCapability(Capability::ImageBasic));
}

TEST(DeviceProfileTest, FullHasEveryOptionalFeature) {
  auto p = FindDeviceProfile("full");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->max_spirv_version, 0x00010400u);
  EXPECT_TRUE(p->fp16 && p->fp64 && p->int64_atomics && p->images);
  for (Capability c :
       {Capability::Float16, Capability::Float64, Capability::Int64Atomics,
        Capability::ImageBasic, Capability::LiteralSampler,
        Capability::Sampled1D, Capability::Image1D, Capability::SampledBuffer,
        Capability::ImageBuffer, Capability::ImageReadWrite,
        Capability::GroupNonUniform, Capability::GroupNonUniformVote,
        Capability::GroupNonUniformBallot,
        Capability::GroupNonUniformArithmetic,
        Capability::GroupNonUniformShuffle,
        Capability::GroupNonUniformShuffleRelative,
        Capability::GroupNonUniformClustered}) {
    EXPECT_TRUE(p->HasCapability(c)) << static_cast<int>(c);
  }
  // Extended subgroups: every profile but `baseline` (Intel GPUs report the
  // cl_khr_subgroup_* extensions; ocloc 22.43 builds every one of them).
  for (auto [name, has] : {std::pair<const char*, bool>{"baseline", false},
                           {"tgllp", true},
                           {"dg2", true},
                           {"pvc", true}}) {
    auto d = FindDeviceProfile(name);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->HasCapability(Capability::GroupNonUniform), has) << name;
  }
  // Float atomics, from compute-runtime's fp atomic flags: full and pvc
  // every kind, dg2 fp32 add, tgllp none.
  const auto min_max = [](const char* name) {
    auto d = FindDeviceProfile(name);
    return d.ok() &&
           d->FindExtension("SPV_EXT_shader_atomic_float_min_max") != nullptr;
  };
  const auto add = [](const char* name) {
    auto d = FindDeviceProfile(name);
    return d.ok() &&
           d->FindExtension("SPV_EXT_shader_atomic_float_add") != nullptr;
  };
  EXPECT_TRUE(add("full") && min_max("full"));
  EXPECT_TRUE(add("pvc") && min_max("pvc"));
  EXPECT_TRUE(add("dg2") && !min_max("dg2"));
  EXPECT_FALSE(add("tgllp") || min_max("tgllp"));
  EXPECT_EQ(p->FindExtension("SPV_INTEL_media_block_io"), nullptr);
}

TEST(DeviceProfileTest, IntelDevicesDifferInFp64) {
  for (auto [name, fp64] : {std::pair<const char*, bool>{"tgllp", false},
                            {"dg2", false},
                            {"pvc", true}}) {
    auto p = FindDeviceProfile(name);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->fp64, fp64) << name;
    EXPECT_EQ(p->HasCapability(Capability::Float64), fp64) << name;
    EXPECT_TRUE(p->fp16 && p->int64_atomics && p->images) << name;
  }
}

constexpr char kFloat64Module[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Float64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "main"
     %double = OpTypeFloat 64
       %void = OpTypeVoid
         %fn = OpTypeFunction %void %double
       %main = OpFunction %void None %fn
          %d = OpFunctionParameter %double
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";

TEST(DeviceProfileTest, BaselineRejectsFloat64FullAcceptsIt) {
  auto module = validity_testing::AssembleText(kFloat64Module);
  ASSERT_TRUE(module.ok()) << module.status();
  auto baseline = FindDeviceProfile("baseline");
  auto full = FindDeviceProfile("full");
  ASSERT_TRUE(baseline.ok() && full.ok());

  const LintReport on_full = LintModule(*module, *full);
  EXPECT_TRUE(on_full.ok()) << on_full.ToText();

  const std::vector<LintFinding> on_baseline =
      CheckLevelZeroRules(*module, *baseline);
  bool declaration_flagged = false;
  for (const LintFinding& f : on_baseline) {
    if (f.rule_id == "L0-CAPABILITY" &&
        f.message.find("OpCapability Float64") != std::string::npos) {
      declaration_flagged = true;
    }
  }
  EXPECT_TRUE(declaration_flagged);
}

// ParseDeviceProfiles: load errors name what is wrong.
std::string Doc(const std::string& profile_body) {
  return R"({"profiles": [{"name": "p", "description": "d",
    "max_spirv_version": "1.2", "fp16": false, "fp64": false,
    "int64_atomics": false, "images": false, "extensions": [], )" +
         profile_body + "}]}";
}

TEST(ParseDeviceProfilesTest, AcceptsAMinimalProfile) {
  auto p =
      ParseDeviceProfiles(Doc(R"("capabilities": ["Kernel", "Addresses"])"));
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->size(), 1u);
  EXPECT_THAT((*p)[0].capabilities,
              ElementsAre(Capability::Addresses, Capability::Kernel));
}

TEST(ParseDeviceProfilesTest, UnknownCapabilityIsALoadError) {
  auto p = ParseDeviceProfiles(Doc(R"("capabilities": ["Kernel", "Warp9"])"));
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("Warp9"));
}

TEST(ParseDeviceProfilesTest, FlagMustAgreeWithCapabilities) {
  auto p = ParseDeviceProfiles(Doc(R"("capabilities": ["Kernel", "Float64"])"));
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("fp64"));
}

TEST(ParseDeviceProfilesTest, CapabilitiesMustBeClosedUnderImplication) {
  // Vector16 implicitly declares Kernel.
  auto p = ParseDeviceProfiles(Doc(R"("capabilities": ["Vector16"])"));
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()),
              HasSubstr("implicitly declares Kernel"));
}

TEST(ParseDeviceProfilesTest, RejectsBadDocuments) {
  for (const std::string& doc :
       {std::string("not json"), std::string("[]"), std::string("{}"),
        std::string(R"({"profiles": [42]})"),
        std::string(R"({"profiles": [{"name": "x"}]})"),
        Doc(R"("capabilities": "Kernel")"), Doc(R"("capabilities": [7])")}) {
    auto p = ParseDeviceProfiles(doc);
    EXPECT_FALSE(p.ok()) << doc;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << doc;
  }
  auto bad_version = ParseDeviceProfiles(
      R"({"profiles": [{"name": "p", "description": "d",
      "max_spirv_version": "2.0", "fp16": false, "fp64": false,
      "int64_atomics": false, "images": false, "extensions": [],
      "capabilities": ["Kernel"]}]})");
  EXPECT_FALSE(bad_version.ok());
  const std::string one = Doc(R"("capabilities": ["Kernel"])");
  const std::string body =
      one.substr(one.find('[') + 1, one.rfind(']') - one.find('[') - 1);
  auto twice =
      ParseDeviceProfiles(R"({"profiles": [)" + body + "," + body + "]}");
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(std::string(twice.status().message()), HasSubstr("twice"));
}

TEST(ParseDeviceProfilesTest, ImagesNeedTheirCompanions) {
  auto p = ParseDeviceProfiles(
      R"({"profiles": [{"name": "p", "description": "d",
      "max_spirv_version": "1.2", "fp16": false, "fp64": false,
      "int64_atomics": false, "images": true, "extensions": [],
      "capabilities": ["Kernel", "ImageBasic"]}]})");
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("LiteralSampler"));
}

TEST(SpirvVersionStringTest, Formats) {
  EXPECT_EQ(SpirvVersionString(0x00010000), "1.0");
  EXPECT_EQ(SpirvVersionString(0x00010500), "1.5");
}

}  // namespace
}  // namespace l0spv::oracles
