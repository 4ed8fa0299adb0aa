#include "reducers/finding.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "spirv/binary.h"

namespace l0spv::reducers {

namespace fs = std::filesystem;

absl::StatusOr<Finding> ReadFinding(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::NotFoundError(
        absl::StrCat(dir,
                     ": no such directory (pass a finding directory, "
                     "e.g. OUT/findings/<name>)"));
  }
  const std::string verdict_path = dir + "/verdict.json";
  if (!fs::exists(verdict_path, ec) || !fs::is_directory(dir + "/case", ec)) {
    return absl::InvalidArgumentError(absl::StrCat(
        dir,
        ": not a finding directory (needs verdict.json and case/, as the "
        "campaign writes under OUT/findings/<name>)"));
  }
  auto bytes = spirv::ReadFileBytes(verdict_path);
  if (!bytes.ok()) return bytes.status();
  nlohmann::json j =
      nlohmann::json::parse(bytes->begin(), bytes->end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(verdict_path,
                     ": not valid JSON (rewrite it or re-run "
                     "the campaign)"));
  }
  Finding f;
  f.dir = dir;
  auto field = [&](const char* name, std::string& out) -> absl::Status {
    if (!j.contains(name) || !j[name].is_string()) {
      return absl::InvalidArgumentError(absl::StrCat(
          verdict_path, ": field \"", name, "\" missing or not a string"));
    }
    out = j[name].get<std::string>();
    return absl::OkStatus();
  };
  for (auto [name, out] :
       {std::pair<const char*, std::string*>{"kind", &f.kind},
        {"target", &f.target},
        {"signature", &f.signature}}) {
    if (auto s = field(name, *out); !s.ok()) return s;
  }
  if (j.contains("explanation") && j["explanation"].is_string())
    f.explanation = j["explanation"].get<std::string>();
  if (f.signature.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(verdict_path,
                     ": empty signature (an ok/skipped verdict is not a "
                     "finding; nothing to reduce)"));
  }
  auto tc = spirv::ReadTestCase(dir + "/case");
  if (!tc.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(dir, "/case: ", tc.status().message()));
  }
  f.test_case = std::move(*tc);
  if (fs::exists(dir + "/original/case.json", ec)) {
    auto original = spirv::ReadTestCase(dir + "/original");
    if (!original.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(dir, "/original: ", original.status().message()));
    }
    f.original = std::move(*original);
  }
  for (const auto& e : fs::directory_iterator(dir + "/seeds", ec))
    f.seeds.push_back(e.path().filename().string());
  std::sort(f.seeds.begin(), f.seeds.end());
  return f;
}

}  // namespace l0spv::reducers
