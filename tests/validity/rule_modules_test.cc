// Data-driven rule tests: every tests/validity/modules/<RULE>/fail*.spvasm
// must produce a finding of exactly <RULE>; every pass*.spvasm must lint
// clean (spirv-val passes, no Level Zero finding at all) on its profile.
#include <map>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"
#include "tests/validity/test_modules.h"

namespace l0spv::oracles::validity_testing {
// Readable test parameter names in failure output.
void PrintTo(const TestModule& m, std::ostream* os) { *os << m.path; }
}  // namespace l0spv::oracles::validity_testing

namespace l0spv::oracles {
namespace {

using validity_testing::AllTestModules;
using validity_testing::TestModule;

std::string ParamName(const ::testing::TestParamInfo<TestModule>& info) {
  std::string out = absl::StrCat(info.param.rule_id, "_", info.param.name);
  for (char& c : out) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return out;
}

class RuleModuleTest : public ::testing::TestWithParam<TestModule> {};

TEST_P(RuleModuleTest, LintsAsExpected) {
  const TestModule& m = GetParam();
  ASSERT_NE(FindLintRule(m.rule_id), nullptr)
      << "module directory names no rule: " << m.rule_id;
  auto words = validity_testing::AssembleTestModule(m);
  ASSERT_TRUE(words.ok()) << words.status();
  auto module = spirv::ReadModuleWords(*words);
  ASSERT_TRUE(module.ok()) << module.status();
  auto profile = FindDeviceProfile(m.profile);
  ASSERT_TRUE(profile.ok()) << profile.status();

  const LintReport report = LintModule(*module, *profile);
  for (const LintFinding& f : report.findings) {
    EXPECT_NE(FindLintRule(f.rule_id), nullptr) << f.rule_id;
    EXPECT_FALSE(f.message.empty());
  }
  if (m.expect_fail) {
    bool found = false;
    for (const LintFinding& f : report.findings) {
      found = found || f.rule_id == m.rule_id;
    }
    EXPECT_TRUE(found) << m.path << " should produce a " << m.rule_id
                       << " finding; got:\n"
                       << report.ToText();
  } else {
    EXPECT_TRUE(report.ok()) << m.path << " should lint clean on profile '"
                             << m.profile << "'; got:\n"
                             << report.ToText();
  }
}

INSTANTIATE_TEST_SUITE_P(Modules, RuleModuleTest,
                         ::testing::ValuesIn(AllTestModules()), ParamName);

// The rules table cannot grow untested: each rule has a passing and a
// failing module, and every module directory is a rule.
TEST(RuleModuleCoverageTest, EveryRuleHasPassAndFailModules) {
  std::map<std::string, std::pair<int, int>> counts;  // rule -> (pass, fail)
  for (const TestModule& m : AllTestModules()) {
    EXPECT_NE(FindLintRule(m.rule_id), nullptr)
        << "directory for unknown rule " << m.rule_id;
    auto& c = counts[m.rule_id];
    (m.expect_fail ? c.second : c.first)++;
  }
  for (const RuleInfo& rule : AllLintRules()) {
    const std::string id(rule.id);
    EXPECT_GE(counts[id].first, 1) << id << " has no pass*.spvasm module";
    EXPECT_GE(counts[id].second, 1) << id << " has no fail*.spvasm module";
  }
}

TEST(RuleModuleCoverageTest, ModuleNamesSayPassOrFail) {
  for (const TestModule& m : AllTestModules()) {
    EXPECT_TRUE(m.name.rfind("pass", 0) == 0 || m.name.rfind("fail", 0) == 0)
        << m.path;
  }
}

}  // namespace
}  // namespace l0spv::oracles
