// tests/consumers/sidecar_tolerance.h — reads the "tolerance" field of a
// corpus sidecar (corpora/README.md; "tolerances", the case.json name, is
// read the same way) into oracles::CompareOptions.
//
// Contract: a sidecar without either yields empty options (everything
// compared exactly). Every malformed entry is InvalidArgument naming the
// sidecar, the entry index and the field.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "oracles/compare/compare.h"

namespace l0spv::consumers_test {

absl::StatusOr<oracles::CompareOptions> ToleranceFromSidecar(
    const nlohmann::json& sidecar, const std::string& where);

}  // namespace l0spv::consumers_test
