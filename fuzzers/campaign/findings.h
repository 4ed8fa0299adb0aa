// fuzzers/campaign/findings.h — the findings directory of a campaign:
// one sub-directory per unique signature, written atomically, duplicates
// counted by seed.
//
// Contract:
//  - RecordFinding writes `DIR/findings/<name>/` (name = FindingDirName of
//    the signature) holding case/ (the test case), outputs/<target>.json for
//    every execution given, original/ (the untransformed case, when given),
//    verdict.json, extra_files (sub-directories made as needed), README.md
//    (what went wrong in one
//    paragraph and the command that reproduces it) and seeds/<seed> (one
//    empty file per seed that hit the signature). Everything is built in a
//    temporary sibling directory and renamed into place, so a reader (or a
//    campaign killed with SIGKILL) never sees half a finding. When the
//    finding already exists only seeds/<seed> is added: re-recording the
//    same seed (a resumed campaign) counts it once. Safe across processes.
//  - Returns whether the finding is new.
//  - RemoveIncomplete deletes temporary directories left by a killed run.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "oracles/execution.h"
#include "oracles/verdict/verdict.h"
#include "spirv/test_case.h"

namespace l0spv::fuzzers::campaign {

std::string FindingDirName(const std::string& signature);

struct FindingRecord {
  oracles::Verdict verdict;
  spirv::TestCase test_case;
  uint64_t seed = 0;
  // Executions by target name ("ref", "ocloc:tgllp", ...).
  std::map<std::string, oracles::Execution> outputs;
  // The command that reproduces the verdict from the finding directory.
  std::string reproduce;
  // For a transformed case (--mutate): the case before the transformations,
  // written to original/, so the reducer can replay shrunk logs on it.
  std::optional<spirv::TestCase> original;
  // Further files by path relative to the finding directory (--mutate=
  // spirv-fuzz: spirv-fuzz/transformations, .../transformations.json,
  // .../seed, .../raw.spv — what its shrinker replays on original/).
  std::map<std::string, std::string> extra_files;
};

absl::StatusOr<bool> RecordFinding(const std::string& out_dir,
                                   const FindingRecord& record);

// Number of seeds recorded for a finding directory.
uint64_t FindingSeedCount(const std::string& finding_dir);

void RemoveIncomplete(const std::string& out_dir);

}  // namespace l0spv::fuzzers::campaign
