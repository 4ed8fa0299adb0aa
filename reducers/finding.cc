#include "reducers/finding.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "oracles/validity/device_profile.h"
#include "spirv/binary.h"
#include "spirv/file_io.h"
#include "spirv/json_reader.h"
#include "spirv/link.h"

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
  auto j = spirv::ReadJsonFile(verdict_path);
  if (!j.ok()) return j.status();
  Finding f;
  f.dir = dir;
  spirv::JsonReader reader(verdict_path, *j,
                           "the campaign writes it; re-record the finding "
                           "with `l0spv-fuzz check CASE --save_finding=OUT`");
  spirv::JsonField root = reader.root();
  if (!root.ExpectObject()) return reader.status();
  f.kind =
      root["kind"].Enum({"crash", "timeout", "rejected-valid",
                         "accepted-invalid", "mismatch", "target-ub", "ub"});
  f.target = root["target"].String();
  f.signature = root["signature"].String();
  f.explanation = root["explanation"].String("");
  (void)root["first_seed"].Uint(0, 0, ~uint64_t{0});
  (void)root["reproduce"].String("");
  for (auto& [consumer, version] : root["consumer_versions"].Members(16, false))
    (void)version.String();
  if (!reader.ok()) return reader.status();
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
  if (auto p = oracles::FindDeviceProfile(tc->profile); !p.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        dir, "/case/case.json: field 'profile': ", p.status().message()));
  }
  // A module swapped for another kernel must be named as such, not taken
  // to "not reproduce".
  if (auto s = spirv::CheckCaseRunnable(*tc, dir + "/case"); !s.ok()) return s;
  f.test_case = std::move(*tc);
  if (fs::exists(dir + "/original/case.json", ec)) {
    auto original = spirv::ReadTestCase(dir + "/original");
    if (!original.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(dir, "/original: ", original.status().message()));
    }
    if (auto s = spirv::CheckCaseRunnable(*original, dir + "/original");
        !s.ok())
      return s;
    f.original = std::move(*original);
    if (fs::exists(dir + "/spirv-fuzz/transformations", ec)) {
      auto t = spirv::ReadTextFile(dir + "/spirv-fuzz/transformations");
      if (!t.ok())
        return absl::InvalidArgumentError(absl::StrCat(
            dir, "/spirv-fuzz/transformations: ", t.status().message()));
      f.spirv_fuzz_transformations = std::move(*t);
    }
  }
  for (const auto& e : fs::directory_iterator(dir + "/seeds", ec))
    f.seeds.push_back(e.path().filename().string());
  std::sort(f.seeds.begin(), f.seeds.end());
  return f;
}

}  // namespace l0spv::reducers
