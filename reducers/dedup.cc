#include "reducers/dedup.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "generators/transform/engine.h"
#include "nlohmann/json.hpp"
#include "spirv/binary.h"
#include "spirv/json_reader.h"

namespace l0spv::reducers {

namespace fs = std::filesystem;

namespace {

// The bucket key of a reduced finding, or "" when it has none.
std::string BucketKey(const fs::path& finding) {
  auto parsed =
      spirv::ReadJsonFile((finding / "reduced/reduction.json").string());
  if (!parsed.ok()) return "";
  const nlohmann::json& j = *parsed;
  if (!j.is_object() || !j.contains("final_signature") ||
      !j["final_signature"].is_string())
    return "";
  std::string key = j["final_signature"].get<std::string>();
  if (key.empty()) return "";
  // Transformed cases: the set of transformation kinds is part of the bug.
  auto c = spirv::ReadJsonFile((finding / "reduced/case.json").string());
  if (c.ok()) {
    const nlohmann::json& cj = *c;
    if (cj.is_object() && cj.contains("transformation_log")) {
      std::set<std::string> kinds;
      auto records =
          generators::transform::LogRecords(cj["transformation_log"]);
      if (records.ok())
        for (const auto& t : *records)
          kinds.insert(t["kind"].get<std::string>());
      absl::StrAppend(&key, "|", absl::StrJoin(kinds, ","));
    }
  }
  return key;
}

}  // namespace

absl::StatusOr<DedupResult> DedupFindings(const std::string& out_dir) {
  const fs::path findings = fs::path(out_dir) / "findings";
  std::error_code ec;
  if (!fs::is_directory(findings, ec)) {
    return absl::NotFoundError(absl::StrCat(
        findings.string(), ": no findings directory (pass a campaign --out)"));
  }
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(findings, ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && !name.empty() && name[0] != '.')
      dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  DedupResult result;
  std::map<std::string, fs::path> buckets;
  for (const fs::path& dir : dirs) {
    const std::string key = BucketKey(dir);
    if (key.empty()) continue;
    ++result.findings;
    auto [it, inserted] = buckets.emplace(key, dir);
    if (inserted) continue;
    const fs::path bucket = it->second;
    fs::create_directories(bucket / "seeds", ec);
    for (const auto& s : fs::directory_iterator(dir / "seeds", ec)) {
      const fs::path to = bucket / "seeds" / s.path().filename();
      if (!fs::exists(to, ec)) fs::copy_file(s.path(), to, ec);
    }
    fs::create_directories(bucket / "duplicates", ec);
    const fs::path to = bucket / "duplicates" / dir.filename();
    if (std::rename(dir.c_str(), to.c_str()) != 0) {
      return absl::InternalError(absl::StrCat("rename ", dir.string(), " -> ",
                                              to.string(), " failed"));
    }
    ++result.merged;
  }
  return result;
}

}  // namespace l0spv::reducers
