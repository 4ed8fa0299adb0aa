// fuzzers/cli/reduce_support.h — reduction settings shared by `reduce` and
// the campaign's automatic reduction (flags --reduce_time, --timeout,
// --spirv_reduce).
#pragma once

#include <chrono>
#include <string>

#include "absl/status/statusor.h"
#include "reducers/pipeline.h"

namespace l0spv::fuzzers::cli {

absl::StatusOr<std::chrono::seconds> ParseDuration(const std::string& text,
                                                   const std::string& flag);
// This executable's absolute path (for spirv-reduce's script and repro.sh).
std::string SelfExecutable();
absl::StatusOr<reducers::ReduceOptions> ReduceOptionsFromFlags();

}  // namespace l0spv::fuzzers::cli
