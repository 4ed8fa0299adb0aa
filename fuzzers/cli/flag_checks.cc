#include "fuzzers/cli/flag_checks.h"

#include <unistd.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "fuzzers/cli/reduce_support.h"

ABSL_DECLARE_FLAG(int, timeout);
ABSL_DECLARE_FLAG(uint64_t, memory_limit_mb);
ABSL_DECLARE_FLAG(uint32_t, max_statements);
ABSL_DECLARE_FLAG(uint32_t, transformations);
ABSL_DECLARE_FLAG(uint32_t, jobs);
ABSL_DECLARE_FLAG(std::string, time);
ABSL_DECLARE_FLAG(std::string, reduce_time);
ABSL_DECLARE_FLAG(std::string, spirv_reduce);
ABSL_DECLARE_FLAG(std::string, target);
ABSL_DECLARE_FLAG(std::string, out);

namespace l0spv::fuzzers::cli {
namespace {

absl::Status Range(const std::string& flag, uint64_t value, uint64_t min,
                   uint64_t max, const std::string& note = "") {
  if (value >= min && value <= max) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "--", flag, "=", value, ": must be between ", min, " and ", max, note));
}

// One rule per flag name; a command is checked against the rules of the
// flags it accepts.
const std::map<std::string, std::function<absl::Status()>>& Rules() {
  static const auto* rules =
      new std::map<std::string, std::function<absl::Status()>>{
          {"timeout",
           [] {
             const int t = absl::GetFlag(FLAGS_timeout);
             if (t >= 1 && t <= kMaxTimeoutSeconds) return absl::OkStatus();
             return absl::InvalidArgumentError(
                 absl::StrCat("--timeout=", t, ": must be between 1 and ",
                              kMaxTimeoutSeconds, " seconds"));
           }},
          {"memory_limit_mb",
           [] {
             const uint64_t m = absl::GetFlag(FLAGS_memory_limit_mb);
             if (m == 0) return absl::OkStatus();  // unlimited
             return Range(
                 "memory_limit_mb", m, kMinMemoryLimitMb, uint64_t{1} << 24,
                 " MiB, or 0 for no limit (below 1 GiB consumers such as PoCL "
                 "fail to start or hang, which would read as findings)");
           }},
          {"max_statements",
           [] {
             return Range("max_statements", absl::GetFlag(FLAGS_max_statements),
                          1, kMaxStatements);
           }},
          {"transformations",
           [] {
             return Range("transformations",
                          absl::GetFlag(FLAGS_transformations), 0,
                          kMaxTransformations, " (0 = a random count 1..200)");
           }},
          {"jobs",
           [] {
             return Range("jobs", absl::GetFlag(FLAGS_jobs), 1, kMaxJobs);
           }},
          {"time",
           [] {
             return ParseDuration(absl::GetFlag(FLAGS_time), "--time").status();
           }},
          {"reduce_time",
           [] {
             return ParseDuration(absl::GetFlag(FLAGS_reduce_time),
                                  "--reduce_time")
                 .status();
           }},
          {"spirv_reduce",
           [] {
             const std::string path = absl::GetFlag(FLAGS_spirv_reduce);
             if (path.empty() || ::access(path.c_str(), X_OK) == 0)
               return absl::OkStatus();
             return absl::InvalidArgumentError(absl::StrCat(
                 "--spirv_reduce=", path,
                 ": not an executable file (omit the flag to use spirv-reduce "
                 "from PATH)"));
           }},
          {"target",
           [] {
             if (!absl::GetFlag(FLAGS_target).empty()) return absl::OkStatus();
             return absl::InvalidArgumentError(
                 "--target is empty: name targets (`l0spv-fuzz targets` lists "
                 "them) or --target=all");
           }},
      };
  return *rules;
}

}  // namespace

absl::Status CheckFlags(const Command& command) {
  for (const std::string& flag : command.flags) {
    auto it = Rules().find(flag);
    if (it == Rules().end()) continue;
    if (absl::Status s = it->second(); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace l0spv::fuzzers::cli
