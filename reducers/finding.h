// reducers/finding.h — reading a finding directory written by the campaign
// (fuzzers/campaign/findings.h): its verdict, case and seeds.
//
// Contract: ReadFinding validates what it reads and names the file at fault:
// NotFound (no such directory), InvalidArgument (not a finding directory —
// no verdict.json or case/ —, malformed verdict.json, a verdict without a
// signature, an unreadable case). It never writes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "spirv/test_case.h"

namespace l0spv::reducers {

struct Finding {
  std::string dir;
  std::string kind;       // "mismatch", "crash", ...
  std::string target;     // the target the verdict is about ("ref" for ub)
  std::string signature;  // what reduction must preserve
  std::string explanation;
  spirv::TestCase test_case;
  std::vector<std::string> seeds;  // names of seeds/<seed> files
  // original/: the case before its transformations (--mutate findings).
  std::optional<spirv::TestCase> original;
  // spirv-fuzz/transformations: the sequence spirv-fuzz applied to
  // original/ (--mutate=spirv-fuzz findings), for its shrinker.
  std::string spirv_fuzz_transformations;
};

absl::StatusOr<Finding> ReadFinding(const std::string& dir);

}  // namespace l0spv::reducers
