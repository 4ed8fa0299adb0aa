// fuzzers/cli/case_input.h — the one way commands read an input test case:
// a case directory (case.json), or a module file (.spv) with the corpus
// sidecar named by --sidecar.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "spirv/test_case.h"

namespace l0spv::fuzzers::cli {

absl::StatusOr<spirv::TestCase> ReadCaseInput(const std::string& path);

// A case no target can run — its module has no Kernel entry point of that
// name, or the kernel takes another number of arguments than the case
// gives — is bad input (exit 2) for every command, whatever the target
// (a compile-only target would otherwise accept it). `where` names it.
absl::Status CheckRunnable(const spirv::TestCase& test_case,
                           const std::string& where);

// An output directory must not be (or hold) an input: writing it would
// overwrite the original silently.
absl::Status CheckOutIsNotInput(const std::string& input,
                                const std::string& out);

}  // namespace l0spv::fuzzers::cli
