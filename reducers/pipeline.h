// reducers/pipeline.h — reduce one finding: the stage list, the fixed-point
// loop under a time budget, and the reproducer bundle.
//
// Contract:
//  - ReduceFinding reads FINDING_DIR (finding.h), re-checks that its case is
//    interesting with the finding's own target and signature (else
//    FailedPrecondition: the finding does not reproduce, nothing written),
//    then runs the stages in order, repeating the list until a whole round
//    keeps nothing or the budget is spent. The current case is interesting
//    after every step, so stopping at any time leaves a valid reproducer.
//    The budget covers the whole call: the stages stop early enough for a
//    candidate in flight and the final re-check (about twice the
//    finding's first check).
//  - Stage order (DefaultStages): spirv-fuzz-shrink (findings with
//    original/ and spirv-fuzz/transformations; spirv_fuzz_shrink_stage.h),
//    shrink-log (findings with original/ and a transformation log;
//    log_stage.h), nd-range, buffers,
//    ext-inst-to-constant, remove-statements, value-to-constant,
//    remove-unused, simplify-branches, remove-unused, remove-functions,
//    spirv-reduce, shrink-constants, drop-unused-args.
//  - Output: FINDING_DIR/reduced/ (module.spv, module.spvasm, case.json and
//    argN.bin, outputs/<target>.json, differences.json for mismatches — only
//    the differing elements —, repro.sh, reduction.json) built in a
//    temporary sibling and renamed into place; the finding's README.md is
//    rewritten (atomically) around the reduced case, the campaign's text kept
//    below it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "reducers/interestingness.h"
#include "reducers/spirv_reduce_stage.h"
#include "reducers/stage.h"

namespace l0spv::reducers {

struct ReduceOptions {
  std::chrono::milliseconds budget{std::chrono::minutes(5)};
  // Limits of each target run inside an interestingness test.
  std::chrono::seconds target_timeout{10};
  // For spirv-reduce's script: the command before CASE_DIR (e.g. the
  // l0spv-fuzz binary and "check"); empty = skip spirv-reduce.
  std::vector<std::string> check_command;
  std::string spirv_reduce;  // empty = spirv-reduce from PATH
  std::string scratch_dir;   // empty = system temp directory
  // How repro.sh calls the tool (the same binary as check_command[0]).
  std::string self_command = "l0spv-fuzz";
  // null = oracles::MakeTarget (tests inject fault targets).
  MakeTargetFn make_target;
  std::ostream* log = nullptr;  // one line per stage round, or null
};

struct StageReport {
  std::string name;
  uint64_t rounds = 0;  // times it ran
  uint64_t kept = 0;    // rounds in which it changed the case
  uint64_t runs = 0;    // interestingness runs it made (spirv-reduce: its own)
  double seconds = 0;
  uint64_t instructions_removed = 0;  // function-body instructions
  std::string unsupported;            // why it could not run, if so
};

struct ReductionReport {
  std::string signature;             // the finding's
  std::string final_signature;       // the reduced case's verdict
  uint64_t instructions_before = 0;  // function-body instructions
  uint64_t instructions_after = 0;
  uint64_t words_before = 0;
  uint64_t words_after = 0;
  uint64_t work_items_before = 0;
  uint64_t work_items_after = 0;
  uint64_t interestingness_runs = 0;  // in-process + spirv-reduce's
  uint64_t log_records_before = 0;    // transformation-log records
  uint64_t log_records_after = 0;
  uint64_t rounds = 0;
  double seconds = 0;
  bool budget_spent = false;
  std::vector<StageReport> stages;
  nlohmann::json ToJson() const;
};

// `original`: the untransformed case of a --mutate finding (enables log
// shrinking); `spirv_fuzz_transformations`: what spirv-fuzz applied to it
// (--mutate=spirv-fuzz; enables spirv-fuzz's shrinker).
std::vector<std::unique_ptr<Stage>> DefaultStages(
    const SpirvReduceOptions& spirv_reduce,
    std::optional<spirv::TestCase> original = std::nullopt,
    const std::string& spirv_fuzz_transformations = "");

// repro.sh's command: `self check <the script's directory> --target=...
// --signature=... --strict [--ref_steps=N]`, every word shell-quoted.
std::string ReproCommand(const std::string& self,
                         const std::vector<std::string>& targets,
                         const std::string& signature,
                         uint64_t reference_steps);

// Wall-clock limit of each candidate's runs: 4x the finding's own first
// check, at least 5 s (never above ReduceOptions::target_timeout).
std::chrono::milliseconds CandidateWallLimit(
    std::chrono::steady_clock::duration first_check);

absl::StatusOr<ReductionReport> ReduceFinding(const std::string& finding_dir,
                                              const ReduceOptions& options);

}  // namespace l0spv::reducers
