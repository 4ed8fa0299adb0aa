// `l0spv-fuzz merge --out=DIR SHARD_DIR...`: combines the findings and
// stats of campaign shards.
#include <filesystem>
#include <iostream>
#include <set>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "fuzzers/campaign/findings.h"
#include "fuzzers/campaign/stats.h"
#include "fuzzers/cli/case_input.h"
#include "fuzzers/cli/commands.h"
#include "spirv/binary.h"
#include "spirv/file_io.h"
#include "spirv/json_reader.h"

ABSL_DECLARE_FLAG(std::string, out);

namespace l0spv::fuzzers::cli {
namespace {

namespace fs = std::filesystem;

int RunMerge(const std::vector<std::string>& positional) {
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty()) return UsageError("merge", "--out=DIR is required");
  if (positional.empty())
    return UsageError("merge", "expected one or more SHARD_DIRs");
  // Read and check every shard before writing anything.
  struct Shard {
    std::string dir;
    fuzzers::campaign::CampaignStats stats;
    nlohmann::json id;               // {"seed", "shard", "shards"}
    std::vector<fs::path> findings;  // complete, checked
  };
  std::vector<Shard> shards;
  std::set<std::string> seen_dirs;
  std::error_code ec;
  for (const std::string& dir : positional) {
    if (absl::Status s = CheckOutIsNotInput(dir, out); !s.ok())
      return UsageError("merge", std::string(s.message()));
    const std::string canonical = fs::weakly_canonical(dir, ec).string();
    if (!seen_dirs.insert(canonical).second)
      return UsageError("merge", absl::StrCat(dir, " is given twice"));
    const std::string path = dir + "/stats.json";
    auto j = spirv::ReadJsonFile(path);
    if (!j.ok()) {
      return UsageError(
          "merge", absl::StrCat(j.status().message(),
                                " — is this a finished campaign's --out?"));
    }
    auto stats = fuzzers::campaign::CampaignStats::FromJson(*j, path);
    if (!stats.ok())
      return UsageError("merge", std::string(stats.status().message()));
    spirv::JsonReader reader(path, *j, "a campaign writes this file");
    Shard shard{dir, *stats, nlohmann::json::object(), {}};
    shard.id["seed"] = reader.root()["seed"].Uint(0, 0, ~uint64_t{0});
    shard.id["shards"] = reader.root()["shards"].Uint(1, 1, 1u << 30);
    shard.id["shard"] = reader.root()["shard"].Uint(0, 0, 1u << 30);
    if (!reader.ok())
      return UsageError("merge", std::string(reader.status().message()));
    for (const Shard& other : shards) {
      if (other.id == shard.id && !j->contains("merged_from")) {
        return UsageError(
            "merge",
            absl::StrCat(dir, " and ", other.dir, " are the same shard (",
                         shard.id.dump(), "): its cases would count twice"));
      }
    }
    // Every finding must be complete (a campaign writes verdict.json last
    // and renames the directory into place): anything else is not a
    // campaign's output, and merging it would spread the damage.
    const fs::path findings = fs::path(dir) / "findings";
    if (fs::exists(findings, ec) && !fs::is_directory(findings, ec)) {
      return UsageError("merge",
                        absl::StrCat(findings.string(), " is not a directory"));
    }
    for (const auto& f : fs::directory_iterator(findings, ec)) {
      const std::string name = f.path().filename().string();
      if (name.empty() || name[0] == '.') continue;  // .tmp-*: incomplete
      const std::string verdict = (f.path() / "verdict.json").string();
      auto vj = spirv::ReadJsonFile(verdict);
      if (!vj.ok()) {
        return UsageError(
            "merge",
            absl::StrCat(f.path().string(),
                         " is not a complete finding: ", vj.status().message(),
                         " (remove it, or merge without this shard)"));
      }
      spirv::JsonReader vr(verdict, *vj, "a campaign writes this file");
      if (vr.root().ExpectObject()) {
        (void)vr.root()["kind"].NonEmptyString();
        (void)vr.root()["target"].String();
        (void)vr.root()["signature"].NonEmptyString();
      }
      if (!vr.ok())
        return UsageError("merge", std::string(vr.status().message()));
      if (absl::Status inside = spirv::CheckTreeStaysInside(f.path().string());
          !inside.ok())
        return UsageError("merge", std::string(inside.message()));
      shard.findings.push_back(f.path());
    }
    shards.push_back(std::move(shard));
  }
  fs::create_directories(out + "/findings", ec);
  if (ec) {
    return UsageError("merge", absl::StrCat(out, ": cannot create directory (",
                                            ec.message(), ")"));
  }
  fuzzers::campaign::CampaignStats total;
  nlohmann::json merged_from = nlohmann::json::array();
  uint64_t copied = 0, merged = 0;
  for (const Shard& shard : shards) {
    total.Add(shard.stats);
    nlohmann::json entry = shard.id;
    entry["dir"] = shard.dir;
    merged_from.push_back(std::move(entry));
    for (const fs::path& finding : shard.findings) {
      const std::string name = finding.filename().string();
      const fs::directory_entry f(finding);
      const std::string target = out + "/findings/" + name;
      if (fs::exists(target + "/verdict.json", ec)) {
        fs::create_directories(target + "/seeds", ec);
        for (const auto& s : fs::directory_iterator(f.path() / "seeds", ec)) {
          fs::copy(s.path(), target + "/seeds/" + s.path().filename().string(),
                   fs::copy_options::skip_existing, ec);
          if (ec) {
            return UsageError(
                "merge", absl::StrCat("cannot copy ", s.path().string(), ": ",
                                      ec.message()));
          }
        }
        ++merged;
      } else {
        const std::string tmp = out + "/findings/.tmp-merge-" + name;
        fs::remove_all(tmp, ec);
        fs::copy(f.path(), tmp, fs::copy_options::recursive, ec);
        if (!ec) fs::rename(tmp, target, ec);
        if (ec) {
          const std::string why = ec.message();
          fs::remove_all(tmp, ec);
          return UsageError(
              "merge", absl::StrCat("cannot copy ", f.path().string(), " to ",
                                    target, ": ", why));
        }
        ++copied;
      }
    }
  }
  uint64_t unique = 0;
  for (const auto& f : fs::directory_iterator(out + "/findings", ec)) {
    if (f.is_directory() && f.path().filename().string().rfind(".", 0) != 0)
      ++unique;
  }
  nlohmann::json j = total.ToJson();
  j["format"] = "l0spv-stats/1";
  j["merged_from"] = merged_from;
  j["unique_findings"] = unique;
  if (auto s = spirv::WriteJsonFile(out + "/stats.json", j); !s.ok())
    return UsageError("merge", std::string(s.message()));
  std::cout << "merged " << shards.size() << " shard(s): " << total.cases
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

}  // namespace l0spv::fuzzers::cli
