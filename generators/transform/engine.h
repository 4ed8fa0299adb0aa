// generators/transform/engine.h — applies random transformations to a test
// case and replays logs.
//
// Contract:
//  - Transform(case, options) is deterministic in (case, options): it
//    applies up to `count` transformations drawn from the enabled kinds and
//    returns the transformed case, whose `transformation_log` is the log.
//    A module that is not valid, or that has no entry point named by the
//    case, is an InvalidArgument error (nothing to preserve).
//  - Replay(original, log) re-applies the log: with the default options it
//    returns a case byte-identical to the one Transform returned, or an
//    error naming the record that does not apply (wrong module, edited log,
//    unknown kind). With skip_inapplicable (the reducer shrinking a log),
//    records whose precondition fails are skipped and listed instead.
//  - Two kinds work on the whole case rather than on its module, and come
//    last in a log (the kinds before them edit one module): `split_module`
//    (split_module.h; record {"kind", "seed", "modules"}) moves functions
//    into further modules behind Export/Import, and `duplicate_linkonce`
//    (duplicate_linkonce.h; record {"kind", "seed", "avoid_known_bugs"})
//    then gives some
//    exported functions LinkOnceODR copies in the modules importing them.
//    SplitAndLog / DuplicateLinkOnceAndLog apply one and append its record
//    to the case's log; Replay applies them after the module-level records,
//    in order; Transform refuses a case of several modules (transform, then
//    split).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "generators/transform/duplicate_linkonce.h"
#include "generators/transform/split_module.h"
#include "nlohmann/json.hpp"
#include "oracles/known_bugs/known_bug_ids.h"
#include "spirv/test_case.h"

namespace l0spv::generators::transform {

inline constexpr char kLogFormat[] = "l0spv-transform-log/1";

struct TransformOptions {
  uint64_t seed = 0;
  // Transformations to apply; 0 = draw 1..200 from the seed.
  uint32_t count = 0;
  // Kinds that may be used; empty = a random non-empty subset of all kinds
  // (swarm testing: each case exercises a different mix).
  std::vector<std::string> kinds;
  // oracles::ConsumerBit mask: kinds with a known_bugs() entry of these
  // families (unless in allowed_bugs; oracles::KnownBugsAllowed) are never
  // used (swarm) or rejected (explicit --kinds).
  uint32_t avoid_known_bugs = 0;
  // Entries of those families a kind may still trigger: open on none of the
  // releases the case runs (a campaign's CaseRoute::allowed_bugs).
  std::vector<oracles::KnownBugId> allowed_bugs;
  // Validate the input module with spirv-val first (benchmarks turn it off
  // to time the transformations alone).
  bool validate_input = true;
};

struct TransformResult {
  spirv::TestCase test_case;  // transformed, with transformation_log set
  nlohmann::json log;
  std::map<std::string, uint32_t> applied;  // per kind
  std::vector<std::string> enabled_kinds;
};

absl::StatusOr<TransformResult> Transform(const spirv::TestCase& original,
                                          const TransformOptions& options);

struct ReplayOptions {
  bool skip_inapplicable = false;
  // Refuse a log recorded on a module with another hash.
  bool check_module_hash = true;
};

struct ReplayResult {
  spirv::TestCase test_case;
  std::vector<size_t> skipped;  // record indices, skip_inapplicable only
};

absl::StatusOr<ReplayResult> Replay(const spirv::TestCase& original,
                                    const nlohmann::json& log,
                                    const ReplayOptions& options = {});

inline constexpr char kSplitModuleKind[] = "split_module";
inline constexpr char kDuplicateLinkOnceKind[] = "duplicate_linkonce";

// SplitModule(test_case, options), its record appended to the case's
// transformation log (a new log over its module when it has none). Errors
// as SplitModule's: FailedPrecondition leaves the case whole.
absl::StatusOr<spirv::TestCase> SplitAndLog(const spirv::TestCase& test_case,
                                            const SplitOptions& options);
// The same for DuplicateLinkOnce (FailedPrecondition: nothing to copy).
absl::StatusOr<spirv::TestCase> DuplicateLinkOnceAndLog(
    const spirv::TestCase& test_case, const DuplicateOptions& options);
// What `generate --split` and the campaign's --split do: SplitAndLog, then,
// when `linkonce` (the profile accepts SPV_KHR_linkonce_odr and no linker
// bug about it is avoided), DuplicateLinkOnceAndLog on half the cases
// (drawn from options.seed); a case with nothing to copy stays split.
absl::StatusOr<spirv::TestCase> SplitCase(const spirv::TestCase& test_case,
                                          const SplitOptions& options,
                                          bool linkonce);
// Whether a split case may get LinkOnceODR copies: none of the filed linker
// bugs about them is avoided (its consumers outside `avoid_known_bugs`, or
// it is in `allowed`: the release a campaign case runs does not have it).
bool LinkonceAllowed(uint32_t avoid_known_bugs,
                     std::span<const oracles::KnownBugId> allowed);

// The records of a log (InvalidArgument when it is not a log).
absl::StatusOr<std::vector<nlohmann::json>> LogRecords(
    const nlohmann::json& log);
// A log with these records, for `original`.
nlohmann::json MakeLog(std::span<const uint32_t> original_words,
                       std::vector<nlohmann::json> records);

// FNV-1a over the module words, as 16 hex digits: identifies the module a
// log was recorded on.
std::string ModuleHash(std::span<const uint32_t> words);

}  // namespace l0spv::generators::transform
