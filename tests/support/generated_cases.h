// tests/support/generated_cases.h — generated test cases for tests that need
// real kernels: `count` cases from `first_seed` on, generated as a campaign
// on `target` would (its known bugs avoided, its newest SPIR-V, an ocloc
// device's profile) or with the defaults when `target` is empty.
#pragma once

#include <string>
#include <vector>

#include "generators/kernel/generator.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/target_kinds.h"
#include "spirv/test_case.h"

namespace l0spv::test_support {

inline std::vector<spirv::TestCase> GeneratedCases(
    uint64_t first_seed, size_t count, const std::string& target = "") {
  generators::kernel::GeneratorOptions g;
  if (!target.empty()) {
    g.avoid_known_bugs = oracles::ConsumersOfTarget(target);
    g.max_spirv_version = oracles::NewestSpirvVersionOfTarget(target);
    if (target.rfind("ocloc:", 0) == 0) g.profile = target.substr(6);
  }
  std::vector<spirv::TestCase> cases;
  for (uint64_t seed = first_seed; cases.size() < count; ++seed) {
    g.seed = seed;
    auto tc = generators::kernel::GenerateTestCase(g);
    EXPECT_TRUE(tc.ok()) << tc.status();
    if (tc.ok()) cases.push_back(*std::move(tc));
  }
  return cases;
}

}  // namespace l0spv::test_support
