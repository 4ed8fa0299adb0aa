// fuzzers/cli/case_input.h — the one way commands read an input test case:
// a case directory (case.json), or a module file (.spv) with the corpus
// sidecar named by --sidecar.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "spirv/test_case.h"

namespace l0spv::cli {

absl::StatusOr<spirv::TestCase> ReadCaseInput(const std::string& path);

}  // namespace l0spv::cli
