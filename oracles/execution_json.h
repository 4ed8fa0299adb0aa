// oracles/execution_json.h — Execution <-> JSON, for worker processes that
// hand results to their parent and for `--json` output.
//
// Contract: round-trips every field (buffers base64-encoded, wall time in
// nanoseconds). Parsing reports malformed input as InvalidArgument.
#pragma once

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "oracles/execution.h"

namespace l0spv::oracles {

nlohmann::json ExecutionToJson(const Execution& execution);
absl::StatusOr<Execution> ExecutionFromJson(const nlohmann::json& json);

}  // namespace l0spv::oracles
