// `l0spv-fuzz lint FILE.spv|DIR ... [--profile=NAME] [--json]`: spirv-val plus
// every Level Zero environment rule, per module.
#include <filesystem>
#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fuzzers/cli/commands.h"
#include "nlohmann/json.hpp"
#include "oracles/validity/device_profile.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"
#include "spirv/text_bytes.h"

ABSL_FLAG(std::string, profile, "full",
          "device profile the module must be valid for: baseline, full, or a "
          "device name (tgllp, dg2, pvc); `auto` = the Level Zero device's "
          "profile when one is present, else full");
ABSL_FLAG(bool, json, false, "print machine-readable JSON instead of text");

namespace l0spv::fuzzers::cli {
namespace {

namespace fs = std::filesystem;

// Expands directories to the *.spv files below them, sorted for determinism.
absl::StatusOr<std::vector<std::string>> ExpandInputs(
    const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      std::vector<std::string> found;
      for (const auto& e : fs::recursive_directory_iterator(in, ec)) {
        if (e.is_regular_file() && e.path().extension() == ".spv")
          found.push_back(e.path().string());
      }
      std::sort(found.begin(), found.end());
      if (found.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(in, ": directory contains no .spv files"));
      }
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(in);
    }
  }
  return files;
}

std::string ResolveProfileName(std::string name) {
  // Level Zero devices are probed by the `targets` machinery; without a
  // device (the common case on CI) `auto` means the full profile.
  return name == "auto" ? "full" : name;
}

int RunLint(const std::vector<std::string>& positional) {
  if (positional.empty()) {
    return UsageError("lint", "expected at least one FILE.spv or directory");
  }
  auto profile = oracles::FindDeviceProfile(
      ResolveProfileName(absl::GetFlag(FLAGS_profile)));
  if (!profile.ok())
    return UsageError("lint", std::string(profile.status().message()));
  auto files = ExpandInputs(positional);
  if (!files.ok())
    return UsageError("lint", std::string(files.status().message()));

  const bool json = absl::GetFlag(FLAGS_json);
  nlohmann::json results = nlohmann::json::array();
  int input_errors = 0, failing = 0;
  for (const std::string& file : *files) {
    auto bytes = spirv::ReadFileBytes(file, spirv::kMaxModuleFileBytes);
    absl::StatusOr<oracles::LintReport> report =
        bytes.ok() ? oracles::LintBinary(*bytes, *profile)
                   : absl::StatusOr<oracles::LintReport>(bytes.status());
    if (!report.ok()) {
      ++input_errors;
      const std::string msg = absl::StrCat(
          bytes.ok() ? file + ": " : std::string(), report.status().message(),
          bytes.ok() ? " — is this a SPIR-V binary (not .spvasm text)? "
                       "Assemble text with spirv-as first."
                     : "");
      if (json) {
        results.push_back({{"file", file}, {"error", msg}});
      } else {
        std::cerr << "error: " << msg << "\n";
      }
      continue;
    }
    if (!report->ok()) ++failing;
    if (json) {
      nlohmann::json j = report->ToJson();
      j["file"] = file;
      results.push_back(std::move(j));
    } else if (report->ok()) {
      std::cout << "ok    " << file << "\n";
    } else {
      std::cout << "FAIL  " << file << "\n" << report->ToText() << "\n";
    }
  }
  if (json) {
    std::cout << spirv::DumpJson(nlohmann::json{{"profile", profile->name},
                                                {"modules", results}},
                                 2)
              << "\n";
  } else {
    std::cout << files->size() << " module(s), profile " << profile->name
              << ": " << files->size() - failing - input_errors << " ok, "
              << failing << " failing lint, " << input_errors
              << " unreadable\n";
  }
  if (input_errors > 0) return kExitUsage;
  return failing > 0 ? kExitFinding : kExitOk;
}

}  // namespace

Command LintCommand() {
  return {"lint",
          "spirv-val + every Level Zero environment rule on modules",
          "lint FILE.spv|DIR... [--profile=NAME] [--json]\n\n"
          "Validates each module with spirv-val (OpenCL environment for its "
          "SPIR-V version), then checks every rule of the Level Zero SPIR-V "
          "execution environment for the device profile. Each violation names "
          "its rule id and the offending instruction. Directories are searched "
          "for *.spv files. Exit 1 when any module fails; 2 when a file cannot "
          "be read or is not a SPIR-V binary.",
          {"profile", "json"},
          RunLint};
}

}  // namespace l0spv::fuzzers::cli
