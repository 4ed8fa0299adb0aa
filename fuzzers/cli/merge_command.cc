// `l0spv-fuzz merge --out=DIR SHARD_DIR...`: combines the findings and
// stats of campaign shards.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "fuzzers/campaign/findings.h"
#include "fuzzers/campaign/stats.h"
#include "fuzzers/cli/commands.h"
#include "spirv/binary.h"

ABSL_DECLARE_FLAG(std::string, out);

namespace l0spv::cli {
namespace {

namespace fs = std::filesystem;

int RunMerge(const std::vector<std::string>& positional) {
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty()) return UsageError("merge", "--out=DIR is required");
  if (positional.empty())
    return UsageError("merge", "expected one or more SHARD_DIRs");
  campaign::CampaignStats total;
  nlohmann::json shards = nlohmann::json::array();
  std::error_code ec;
  fs::create_directories(out + "/findings", ec);
  if (ec) return UsageError("merge", out + ": cannot create directory");
  uint64_t copied = 0, merged = 0;
  for (const std::string& dir : positional) {
    std::ifstream in(dir + "/stats.json");
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!in || j.is_discarded()) {
      return UsageError("merge", dir +
                                     "/stats.json: missing or not JSON — "
                                     "is this a campaign output directory?");
    }
    auto stats = campaign::CampaignStats::FromJson(j);
    if (!stats.ok())
      return UsageError("merge", dir + "/stats.json: " +
                                     std::string(stats.status().message()));
    total.Add(*stats);
    shards.push_back({{"dir", dir},
                      {"shard", j.value("shard", 0)},
                      {"shards", j.value("shards", 1)}});
    for (const auto& f : fs::directory_iterator(dir + "/findings", ec)) {
      const std::string name = f.path().filename().string();
      if (!f.is_directory() || name.rfind(".tmp-", 0) == 0) continue;
      const std::string target = out + "/findings/" + name;
      if (fs::exists(target + "/verdict.json")) {
        fs::create_directories(target + "/seeds", ec);
        for (const auto& s : fs::directory_iterator(f.path() / "seeds", ec))
          fs::copy(s.path(), target + "/seeds/" + s.path().filename().string(),
                   fs::copy_options::skip_existing, ec);
        ++merged;
      } else {
        const std::string tmp = out + "/findings/.tmp-merge-" + name;
        fs::remove_all(tmp, ec);
        fs::copy(f.path(), tmp, fs::copy_options::recursive, ec);
        if (ec) return UsageError("merge", "cannot copy " + f.path().string());
        fs::rename(tmp, target, ec);
        ++copied;
      }
    }
  }
  uint64_t unique = 0;
  for (const auto& f : fs::directory_iterator(out + "/findings", ec)) {
    if (f.is_directory() && f.path().filename().string().rfind(".tmp-", 0) != 0)
      ++unique;
  }
  nlohmann::json j = total.ToJson();
  j["format"] = "l0spv-stats/1";
  j["merged_from"] = shards;
  j["unique_findings"] = unique;
  const std::string text = j.dump(2) + "\n";
  if (auto s = spirv::WriteFileBytes(
          out + "/stats.json", std::vector<uint8_t>(text.begin(), text.end()));
      !s.ok())
    return UsageError("merge", std::string(s.message()));
  std::cout << "merged " << positional.size() << " shard(s): " << total.cases
            << " cases, " << unique << " unique finding(s) (" << copied
            << " copied, " << merged << " already present) into " << out
            << "\n";
  return unique > 0 ? kExitFinding : kExitOk;
}

}  // namespace

Command MergeCommand() {
  return {"merge",
          "combine the findings and stats.json of campaign shards",
          "merge --out=DIR SHARD_DIR...\n\n"
          "Copies every finding of each shard's DIR/findings into "
          "--out/findings (a finding already there only gains the shard's "
          "seeds) and writes --out/stats.json with the summed counters. Exit 1 "
          "when the result holds findings.",
          {"out"},
          RunMerge};
}

}  // namespace l0spv::cli
