// reducers/known_match.h — is this finding an already-known consumer bug?
//
// Contract: `MatchKnownBug` compares a (preferably reduced) finding with the
// registry entries of the same consumer and verdict kind:
//  - signature: the entry's reproducer, run on the finding's target, gives
//    the finding's signature (SignatureMatches: a mismatch matches any
//    mismatch of the same target, so for a mismatch the construct below
//    must hold as well);
//  - construct: every distinctive instruction of the entry's reproducer
//    (its function-body opcodes and OpenCL.std calls, minus loads, stores,
//    address arithmetic, control flow and other boilerplate) occurs in the
//    finding's module.
// The first entry that matches by signature wins, else the first by
// construct; none = a new finding. `LabelFinding` records the answer in
// FINDING_DIR/known.json ({"known": NAME|null, "how": ...}) and on the
// first line of its README ("Known: NAME ..."); `ReadKnownLabel` reads it.
#pragma once

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "reducers/finding.h"

namespace l0spv::reducers {

struct KnownMatch {
  std::string name;  // registry entry
  std::string how;   // "signature" or "construct"
};

absl::StatusOr<std::optional<KnownMatch>> MatchKnownBug(const Finding& finding);

// Matches FINDING_DIR (its reduced/ case when present) and writes the label.
absl::StatusOr<std::optional<KnownMatch>> LabelFinding(const std::string& dir);

// The label LabelFinding wrote: nullopt when unlabelled, "" when new.
std::optional<std::string> ReadKnownLabel(const std::string& dir);

}  // namespace l0spv::reducers
