// tests/generator/same_results.h — a generated case must compute the same
// buffers however the reference is allowed to vary (subgroup size,
// work-item order).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "oracles/compare/compare.h"
#include "oracles/reference/interpreter.h"
#include "spirv/test_case.h"

namespace l0spv::generators::kernel {

// Runs `tc` on the reference with `base`, then with each named variant;
// every run must succeed and compare equal to the first.
inline void ExpectSameResults(
    const spirv::TestCase& tc, const std::string& what,
    const oracles::reference::ReferenceOptions& base,
    const std::vector<
        std::pair<std::string, oracles::reference::ReferenceOptions>>&
        variants) {
  const oracles::Execution first = oracles::reference::RunReference(tc, base);
  ASSERT_EQ(first.status, oracles::ExecutionStatus::kOk)
      << what << ": " << first.message;
  for (const auto& [name, options] : variants) {
    const oracles::Execution e = oracles::reference::RunReference(tc, options);
    ASSERT_EQ(e.status, oracles::ExecutionStatus::kOk)
        << what << ", " << name << ": " << e.message;
    const oracles::CompareResult r = oracles::CompareExecutions(
        tc, first, e, oracles::CompareOptionsFor(tc));
    EXPECT_TRUE(r.equal) << what << ", " << name << ": " << r.explanation;
  }
}

// The reference run under work-item orders drawn from each seed.
inline std::vector<
    std::pair<std::string, oracles::reference::ReferenceOptions>>
ScheduleVariants(std::initializer_list<uint64_t> seeds) {
  std::vector<std::pair<std::string, oracles::reference::ReferenceOptions>>
      variants;
  for (uint64_t schedule : seeds) {
    oracles::reference::ReferenceOptions o;
    o.schedule_seed = schedule;
    variants.emplace_back("schedule " + std::to_string(schedule), o);
  }
  return variants;
}

}  // namespace l0spv::generators::kernel
