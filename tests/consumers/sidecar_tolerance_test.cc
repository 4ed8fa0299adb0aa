// Tests of the sidecar "tolerance" parser.
#include "tests/consumers/sidecar_tolerance.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace l0spv::consumers_test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

nlohmann::json Sidecar(nlohmann::json tolerance) {
  nlohmann::json j = nlohmann::json::parse(R"({"kernel": "k", "args": [
      {"kind": "buffer", "bytes": 64}, {"kind": "buffer", "bytes": 64}]})");
  j["tolerance"] = std::move(tolerance);
  return j;
}

TEST(SidecarTolerance, AbsentMeansExact) {
  auto o = ToleranceFromSidecar(nlohmann::json::parse(R"({"kernel": "k"})"),
                                "k.json");
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_TRUE(o->tolerances.empty());
}

TEST(SidecarTolerance, ReadsEveryField) {
  auto o = ToleranceFromSidecar(Sidecar(nlohmann::json::parse(R"([
        {"arg": 1, "type": "f32", "ulp": 4, "record": 20, "fields": [0, 15]},
        {"arg": 0, "type": "f64", "relative": 0.01, "absolute": 1e-6},
        {"arg": 1, "type": "f16", "skip": true, "reason": "native_sin"}])")),
                                "k.json");
  ASSERT_TRUE(o.ok()) << o.status();
  ASSERT_EQ(o->tolerances.size(), 3u);
  const auto& t = o->tolerances;
  EXPECT_EQ(t[0].arg, 1u);
  EXPECT_EQ(t[0].type, oracles::FloatType::kF32);
  EXPECT_EQ(t[0].ulp, 4);
  EXPECT_EQ(t[0].record, 20u);
  EXPECT_THAT(t[0].fields, ElementsAre(0u, 15u));
  EXPECT_EQ(t[1].type, oracles::FloatType::kF64);
  EXPECT_EQ(t[1].relative, 0.01);
  EXPECT_EQ(t[1].absolute, 1e-6);
  EXPECT_TRUE(t[2].skip);
  EXPECT_EQ(t[2].reason, "native_sin");
}

TEST(SidecarTolerance, RejectsMalformedEntriesNamingThem) {
  const char* bad[] = {
      R"([{"type": "f32", "ulp": 1}])",                           // no arg
      R"([{"arg": 5, "type": "f32", "ulp": 1}])",                 // arg range
      R"([{"arg": 0, "type": "f8", "ulp": 1}])",                  // type
      R"([{"arg": 0, "type": "f32"}])",                           // no bound
      R"([{"arg": 0, "type": "f32", "ulp": -1}])",                // negative
      R"([{"arg": 0, "type": "f32", "ulp": 1, "fields": [0]}])",  // no record
      R"([{"arg": 0, "type": "f32", "ulp": 1, "record": 2, "fields": [2]}])",
      R"([{"arg": 0, "type": "f32", "skip": true}])",  // no reason
      R"({"arg": 0})",                                 // not a list
  };
  for (const char* text : bad) {
    auto o =
        ToleranceFromSidecar(Sidecar(nlohmann::json::parse(text)), "k.json");
    EXPECT_FALSE(o.ok()) << text;
    EXPECT_THAT(o.status().message(), HasSubstr("k.json")) << text;
  }
}

// Image sidecars use "tolerances", the case.json spelling.
TEST(SidecarTolerance, ReadsThePluralSpelling) {
  nlohmann::json j = Sidecar(nullptr);
  j.erase("tolerance");
  j["tolerances"] = nlohmann::json::parse(
      R"([{"arg": 1, "type": "f32", "ulp": 1.5, "reason": "unorm"}])");
  auto o = ToleranceFromSidecar(j, "k.json");
  ASSERT_TRUE(o.ok()) << o.status();
  ASSERT_EQ(o->tolerances.size(), 1u);
  EXPECT_EQ(o->tolerances[0].arg, 1u);
  EXPECT_EQ(o->tolerances[0].ulp, 1.5);
}

TEST(SidecarTolerance, RefusesBothSpellings) {
  nlohmann::json j = Sidecar(nlohmann::json::array());
  j["tolerances"] = nlohmann::json::array();
  auto o = ToleranceFromSidecar(j, "k.json");
  ASSERT_FALSE(o.ok());
  EXPECT_THAT(o.status().message(), HasSubstr("not both"));
}

}  // namespace
}  // namespace l0spv::consumers_test
