// fuzzers/cli/case_input.h — the one way commands read an input test case:
// a case directory (case.json), or a module file (.spv) with the corpus
// sidecar named by --sidecar.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "spirv/test_case.h"

namespace l0spv::fuzzers::cli {

absl::StatusOr<spirv::TestCase> ReadCaseInput(const std::string& path);

// (Whether a case can run at all: spirv::CheckCaseRunnable, spirv/link.h.)

// An output directory must not be (or hold) an input: writing it would
// overwrite the original silently.
absl::Status CheckOutIsNotInput(const std::string& input,
                                const std::string& out);

}  // namespace l0spv::fuzzers::cli
