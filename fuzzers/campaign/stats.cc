#include "fuzzers/campaign/stats.h"

#include <chrono>

namespace l0spv::campaign {

void TargetCounters::Count(oracles::VerdictKind kind, uint64_t run_nanos) {
  ++runs;
  ++verdicts[oracles::VerdictKindName(kind)];
  nanos += run_nanos;
}

void CampaignStats::Add(const CampaignStats& o) {
  cases += o.cases;
  generator_errors += o.generator_errors;
  new_findings += o.new_findings;
  duplicate_hits += o.duplicate_hits;
  case_nanos += o.case_nanos;
  harness_nanos += o.harness_nanos;
  for (const auto& [name, c] : o.targets) {
    TargetCounters& mine = targets[name];
    mine.runs += c.runs;
    mine.nanos += c.nanos;
    for (const auto& [kind, n] : c.verdicts) mine.verdicts[kind] += n;
  }
}

nlohmann::json CampaignStats::ToJson() const {
  nlohmann::json t = nlohmann::json::object();
  for (const auto& [name, c] : targets) {
    t[name] = {{"runs", c.runs}, {"nanos", c.nanos}, {"verdicts", c.verdicts}};
  }
  return {{"cases", cases},
          {"generator_errors", generator_errors},
          {"new_findings", new_findings},
          {"duplicate_hits", duplicate_hits},
          {"case_nanos", case_nanos},
          {"harness_nanos", harness_nanos},
          {"targets", t}};
}

absl::StatusOr<CampaignStats> CampaignStats::FromJson(const nlohmann::json& j) {
  CampaignStats s;
  if (!j.is_object()) return absl::InvalidArgumentError("stats: not an object");
  try {
    s.cases = j.at("cases").get<uint64_t>();
    s.generator_errors = j.value("generator_errors", uint64_t{0});
    s.new_findings = j.at("new_findings").get<uint64_t>();
    s.duplicate_hits = j.at("duplicate_hits").get<uint64_t>();
    s.case_nanos = j.value("case_nanos", uint64_t{0});
    s.harness_nanos = j.value("harness_nanos", uint64_t{0});
    for (const auto& [name, t] : j.at("targets").items()) {
      TargetCounters c;
      c.runs = t.at("runs").get<uint64_t>();
      c.nanos = t.value("nanos", uint64_t{0});
      c.verdicts = t.at("verdicts").get<std::map<std::string, uint64_t>>();
      s.targets[name] = std::move(c);
    }
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(
        std::string("stats: missing or malformed field (") + e.what() + ")");
  }
  return s;
}

std::string StatsSnapshotLine(const CampaignStats& run, double elapsed_seconds,
                              uint64_t unique_findings) {
  const auto unix_s = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const nlohmann::json line{{"elapsed_s", elapsed_seconds},
                            {"unix_s", unix_s},
                            {"unique_findings", unique_findings},
                            {"stats", run.ToJson()}};
  return line.dump() + "\n";
}

}  // namespace l0spv::campaign
