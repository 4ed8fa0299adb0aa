// reducers/known_match.h — is this finding an already-known consumer bug?
//
// Contract: `MatchKnownBug` compares a (preferably reduced) finding with the
// registry entries of the consumer families its target runs (never another
// family's: an Intel CPU runtime finding is not an IGC bug):
//  - signature: the entry's reproducer, run on the finding's target (the
//    release the finding was seen on), gives the finding's signature
//    (SignatureMatches);
//  - construct: every distinctive instruction of the entry's reproducer
//    (its function-body opcodes and OpenCL.std calls, minus loads, stores,
//    address arithmetic, control flow and other boilerplate) occurs in the
//    finding's module.
// Known (`certain`) needs both: the first entry whose signature and
// construct match. Either alone (the signature of an unrelated crash of the
// same tool; the construct of an entry whose consumer is not installed, of
// the finding's verdict kind) is only "possibly known": reported as such,
// counted as new. `LabelFinding` records the answer in
// FINDING_DIR/known.json ({"known": NAME|null, "possibly": NAME|null,
// "how": ...}) and on the first line of its README ("Known: NAME ...",
// "Possibly known: NAME (why)" or "New: ..."); `ReadKnownLabel` reads it
// ("" for new and possibly known).
#pragma once

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "reducers/finding.h"

namespace l0spv::reducers {

struct KnownMatch {
  std::string name;  // registry entry
  // "signature and construct"; for a possible match what alone held
  // ("signature only: ...", "construct only: ...").
  std::string how;
  bool certain = true;  // false: "possibly known", counted as new
};

absl::StatusOr<std::optional<KnownMatch>> MatchKnownBug(const Finding& finding);

// Matches FINDING_DIR (its reduced/ case when present) and writes the label.
absl::StatusOr<std::optional<KnownMatch>> LabelFinding(const std::string& dir);

// The label LabelFinding wrote: nullopt when unlabelled, "" when new.
std::optional<std::string> ReadKnownLabel(const std::string& dir);

}  // namespace l0spv::reducers
