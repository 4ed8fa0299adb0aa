// reducers/dedup.h — re-bucketing findings after reduction.
//
// Contract: DedupFindings looks at every OUT/findings/<name>/ with a
// reduced/ bundle. Findings whose reduced cases have the same final
// signature (and, for transformed cases, the same set of transformation
// kinds) are one bug: the first by name stays the bucket, the others move
// (rename, atomic) into its duplicates/<name>/ with everything they held,
// and their seeds are added to the bucket's seeds/ — a count, every seed
// kept. Findings without reduced/ are left alone. Idempotent.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace l0spv::reducers {

struct DedupResult {
  uint64_t findings = 0;  // reduced findings looked at
  uint64_t merged = 0;    // moved under another finding
};

absl::StatusOr<DedupResult> DedupFindings(const std::string& out_dir);

}  // namespace l0spv::reducers
