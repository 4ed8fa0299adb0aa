// fuzzers/cli/flag_checks.h — every flag's range, checked before any work.
//
// Contract: `CheckFlags(command)` runs after ParseArgs and before the
// command: every flag the command accepts that has a rule here (counts,
// sizes, times, paths that must exist) is checked, and the first violation is
// an InvalidArgument naming the flag, the value and the allowed range. A
// campaign therefore never learns of a bad --reduce_time or --spirv_reduce
// after its --time has run out, and no count is so large that a command
// cannot finish (`generate --max_statements=1000000000`).
#pragma once

#include "absl/status/status.h"
#include "fuzzers/cli/command.h"

namespace l0spv::fuzzers::cli {

// Upper bounds (documented in --help through the flags' help texts).
inline constexpr int kMaxTimeoutSeconds = 24 * 3600;
inline constexpr uint64_t kMinMemoryLimitMb = 1024;
inline constexpr uint64_t kMaxStatements = 10000;
inline constexpr uint32_t kMaxTransformations = 5000;
inline constexpr uint32_t kMaxJobs = 256;

absl::Status CheckFlags(const Command& command);

}  // namespace l0spv::fuzzers::cli
