// reducers/bundle.h — the reproducer bundle of a reduced finding.
//
// Contract: WriteReducedBundle builds FINDING_DIR/reduced/ in a temporary
// sibling and renames it into place (replacing an earlier reduced/), then
// rewrites FINDING_DIR/README.md atomically around the reduced case; the
// campaign's README is kept once as README.campaign.md and quoted below.
// For a mismatch, differences.json lists only the differing elements of each
// result buffer (element size from the argument's type, bytes otherwise).
#pragma once

#include <map>
#include <string>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "oracles/execution.h"
#include "oracles/verdict/verdict.h"
#include "reducers/finding.h"
#include "spirv/test_case.h"

namespace l0spv::reducers {

struct ReducedBundle {
  spirv::TestCase test_case;
  oracles::Verdict verdict;  // the reduced case's matching verdict
  std::map<std::string, oracles::Execution> executions;
  nlohmann::json report;      // reduction.json
  std::string repro_command;  // one line, run from reduced/
  uint64_t instructions_before = 0;
  uint64_t instructions_after = 0;
};

absl::Status WriteReducedBundle(const Finding& finding,
                                const ReducedBundle& bundle);

// Differing elements of every result buffer between two executions
// (at most `limit` entries in total).
nlohmann::json BufferDifferences(const spirv::TestCase& test_case,
                                 const oracles::Execution& expected,
                                 const oracles::Execution& actual,
                                 size_t limit = 64);

}  // namespace l0spv::reducers
