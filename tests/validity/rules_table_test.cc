#include <regex>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "oracles/validity/rules.h"

namespace l0spv::oracles {
namespace {

TEST(RulesTableTest, IdsAreUniqueAndWellFormed) {
  std::set<std::string_view> ids;
  const std::regex pattern("L0-[A-Z0-9]+(-[A-Z0-9]+)*");
  for (const RuleInfo& rule : AllLintRules()) {
    EXPECT_TRUE(ids.insert(rule.id).second) << "duplicate " << rule.id;
    EXPECT_TRUE(std::regex_match(std::string(rule.id), pattern)) << rule.id;
    EXPECT_FALSE(rule.summary.empty()) << rule.id;
    EXPECT_FALSE(rule.spec_reference.empty()) << rule.id;
  }
}

TEST(RulesTableTest, HasTheSpecifiedRules) {
  for (std::string_view id : {"L0-EXEC-MODEL",
                              "L0-ADDRESSING",
                              "L0-MEMORY-MODEL",
                              "L0-INT-SIGNEDNESS",
                              "L0-IMAGE-SAMPLED-TYPE",
                              "L0-IMAGE-SAMPLED",
                              "L0-IMAGE-MS",
                              "L0-IMAGE-ARRAYED",
                              "L0-IMAGE-FORMAT",
                              "L0-IMAGE-ACCESS-QUALIFIER",
                              "L0-IMAGE-WRITE-OPERANDS",
                              "L0-IMAGE-READ-CONSTOFFSET",
                              "L0-ATOMIC-WIDTH",
                              "L0-ATOMIC-STORAGE-CLASS",
                              "L0-RECURSION",
                              "L0-EXEC-SCOPE",
                              "L0-EXEC-SCOPE-ASYNC-COPY",
                              "L0-EXEC-SCOPE-NON-UNIFORM",
                              "L0-MEMORY-SCOPE",
                              "L0-KERNEL-ARG-TYPE",
                              "L0-KERNEL-ARG-WIDTH",
                              "L0-KERNEL-RETURN-TYPE",
                              "L0-CAPABILITY",
                              "L0-EXTENSION",
                              "L0-VECTOR-SIZE",
                              "L0-SPIRV-VERSION",
                              "L0-INT-WIDTH",
                              "L0-FLOAT-WIDTH",
                              "L0-SUBGROUP-TYPES",
                              "L0-NON-UNIFORM-TYPES",
                              "L0-EXTINST-SET"}) {
    EXPECT_NE(FindLintRule(id), nullptr) << id;
  }
}

TEST(RulesTableTest, FindUnknownRule) {
  EXPECT_EQ(FindLintRule("L0-NO-SUCH-RULE"), nullptr);
  EXPECT_EQ(FindLintRule(""), nullptr);
}

}  // namespace
}  // namespace l0spv::oracles
