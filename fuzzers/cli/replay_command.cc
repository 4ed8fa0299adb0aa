// `l0spv-fuzz replay`: re-applies a transformation log to the case it was
// recorded on and writes the result (byte-identical to the transformed case
// the log came from).
#include <filesystem>
#include <fstream>
#include <iostream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "fuzzers/cli/case_input.h"
#include "fuzzers/cli/commands.h"
#include "generators/transform/engine.h"
#include "generators/transform/semantics_check.h"
#include "spirv/json_reader.h"

ABSL_DECLARE_FLAG(std::string, out);
ABSL_DECLARE_FLAG(bool, check);
ABSL_FLAG(bool, skip_inapplicable, false,
          "skip records whose precondition fails instead of stopping (for "
          "shrunken logs)");

namespace l0spv::fuzzers::cli {
namespace {

// A log file, or the transformation_log of a case directory.
absl::StatusOr<nlohmann::json> ReadLog(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    auto tc = spirv::ReadTestCase(path);
    if (!tc.ok()) return tc.status();
    if (!tc->transformation_log)
      return absl::InvalidArgumentError(absl::StrCat(
          "case '", path, "' has no transformation_log in its case.json"));
    return *tc->transformation_log;
  }
  return spirv::ReadJsonFile(path);
}

int RunReplay(const std::vector<std::string>& positional) {
  if (positional.size() != 2)
    return UsageError("replay",
                      "expected ORIGINAL (CASE_DIR or FILE.spv --sidecar) and "
                      "LOG (log JSON or transformed CASE_DIR)");
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty() && !absl::GetFlag(FLAGS_check))
    return UsageError("replay", "nothing to do: give --out=DIR or --check");
  if (!out.empty()) {
    for (const std::string& in : positional) {
      if (absl::Status s = CheckOutIsNotInput(in, out); !s.ok())
        return UsageError("replay", std::string(s.message()));
    }
  }
  auto original = ReadCaseInput(positional[0]);
  if (!original.ok())
    return UsageError("replay", std::string(original.status().message()));
  auto log = ReadLog(positional[1]);
  if (!log.ok())
    return UsageError("replay", std::string(log.status().message()));
  generators::transform::ReplayOptions options;
  options.skip_inapplicable = absl::GetFlag(FLAGS_skip_inapplicable);
  auto result = generators::transform::Replay(*original, *log, options);
  if (!result.ok())
    return UsageError(
        "replay", absl::StrCat(positional[1], ": ", result.status().message()));
  if (!result->skipped.empty()) {
    std::cerr << "skipped " << result->skipped.size()
              << " record(s) whose precondition failed:";
    for (size_t i : result->skipped) std::cerr << " " << i;
    std::cerr << "\n";
  }
  if (absl::GetFlag(FLAGS_check)) {
    if (absl::Status s = generators::transform::CheckTransformed(
            *original, result->test_case);
        !s.ok()) {
      if (absl::IsFailedPrecondition(s))
        return UsageError("replay", std::string(s.message()));
      std::cerr << "NOT preserved: " << s.message() << "\n";
      return kExitFinding;
    }
    std::cerr << "valid and equal to the original on ref\n";
  }
  if (!out.empty()) {
    if (absl::Status s = spirv::WriteTestCase(result->test_case, out); !s.ok())
      return UsageError("replay", std::string(s.message()));
    std::cerr << "wrote " << out << "\n";
  }
  return kExitOk;
}

}  // namespace

Command ReplayCommand() {
  return {"replay",
          "re-apply a transformation log to its original case",
          "replay (CASE_DIR | FILE.spv --sidecar=JSON) (LOG.json | "
          "TRANSFORMED_CASE_DIR) [--out=DIR] [--check] "
          "[--skip_inapplicable]\n\n"
          "Re-applies every record of the log in order and writes the "
          "transformed case; with the original case it was recorded on, the "
          "module is byte-identical to the one `transform` wrote. A record "
          "that does not apply (another module, an edited log) is an error "
          "naming it, unless --skip_inapplicable.",
          {"out", "check", "skip_inapplicable", "sidecar"},
          RunReplay};
}

}  // namespace l0spv::fuzzers::cli
