#include "fuzzers/campaign/stats.h"

#include <algorithm>
#include <chrono>

#include "spirv/text_bytes.h"

namespace l0spv::fuzzers::campaign {

void TargetCounters::Count(oracles::VerdictKind kind, uint64_t run_nanos) {
  ++runs;
  ++verdicts[oracles::VerdictKindName(kind)];
  nanos += run_nanos;
}

namespace {
uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  return a > kMaxCounter - std::min(b, kMaxCounter) ? kMaxCounter : a + b;
}
uint64_t Minus(uint64_t a, uint64_t b) { return a - std::min(a, b); }
}  // namespace

void CampaignStats::Add(const CampaignStats& o) {
  cases = SaturatingAdd(cases, o.cases);
  generator_errors = SaturatingAdd(generator_errors, o.generator_errors);
  split_cases = SaturatingAdd(split_cases, o.split_cases);
  new_findings = SaturatingAdd(new_findings, o.new_findings);
  duplicate_hits = SaturatingAdd(duplicate_hits, o.duplicate_hits);
  case_nanos = SaturatingAdd(case_nanos, o.case_nanos);
  harness_nanos = SaturatingAdd(harness_nanos, o.harness_nanos);
  for (const auto& [name, n] : o.spirv_fuzz)
    spirv_fuzz[name] = SaturatingAdd(spirv_fuzz[name], n);
  for (const auto& [name, c] : o.coverage) coverage[name].Add(c);
  for (const auto& [name, c] : o.targets) {
    TargetCounters& mine = targets[name];
    mine.runs = SaturatingAdd(mine.runs, c.runs);
    mine.nanos = SaturatingAdd(mine.nanos, c.nanos);
    mine.batches = SaturatingAdd(mine.batches, c.batches);
    mine.reruns = SaturatingAdd(mine.reruns, c.reruns);
    for (const auto& [kind, n] : c.verdicts)
      mine.verdicts[kind] = SaturatingAdd(mine.verdicts[kind], n);
  }
}

CampaignStats CampaignStats::Since(const CampaignStats& e) const {
  CampaignStats d = *this;
  d.cases = Minus(cases, e.cases);
  d.generator_errors = Minus(generator_errors, e.generator_errors);
  d.split_cases = Minus(split_cases, e.split_cases);
  d.new_findings = Minus(new_findings, e.new_findings);
  d.duplicate_hits = Minus(duplicate_hits, e.duplicate_hits);
  d.case_nanos = Minus(case_nanos, e.case_nanos);
  d.harness_nanos = Minus(harness_nanos, e.harness_nanos);
  for (auto& [name, n] : d.spirv_fuzz) {
    if (auto it = e.spirv_fuzz.find(name); it != e.spirv_fuzz.end())
      n = Minus(n, it->second);
  }
  for (auto& [name, c] : d.targets) {
    auto it = e.targets.find(name);
    if (it == e.targets.end()) continue;
    c.runs = Minus(c.runs, it->second.runs);
    c.nanos = Minus(c.nanos, it->second.nanos);
    c.batches = Minus(c.batches, it->second.batches);
    c.reruns = Minus(c.reruns, it->second.reruns);
    for (auto& [kind, n] : c.verdicts) {
      auto k = it->second.verdicts.find(kind);
      if (k != it->second.verdicts.end()) n = Minus(n, k->second);
    }
  }
  return d;
}

nlohmann::json CampaignStats::ToJson() const {
  nlohmann::json t = nlohmann::json::object();
  for (const auto& [name, c] : targets) {
    t[name] = {{"runs", c.runs},
               {"nanos", c.nanos},
               {"verdicts", c.verdicts},
               {"batches", c.batches},
               {"reruns", c.reruns}};
  }
  nlohmann::json out = {{"cases", cases},
                        {"generator_errors", generator_errors},
                        {"split_cases", split_cases},
                        {"new_findings", new_findings},
                        {"duplicate_hits", duplicate_hits},
                        {"case_nanos", case_nanos},
                        {"harness_nanos", harness_nanos},
                        {"targets", t}};
  if (!spirv_fuzz.empty()) out["spirv_fuzz"] = spirv_fuzz;
  if (!coverage.empty()) {
    nlohmann::json& c = out["coverage"] = nlohmann::json::object();
    for (const auto& [name, reach] : coverage)
      c[name] = {{"core", reach.core}, {"opencl_std", reach.opencl_std}};
  }
  return out;
}

CampaignStats CampaignStats::Read(spirv::JsonField j) {
  CampaignStats s;
  if (!j.ExpectObject()) return s;
  s.cases = j["cases"].Uint(0, kMaxCounter);
  s.generator_errors = j["generator_errors"].Uint(0, 0, kMaxCounter);
  s.split_cases = j["split_cases"].Uint(0, 0, kMaxCounter);
  s.new_findings = j["new_findings"].Uint(0, kMaxCounter);
  s.duplicate_hits = j["duplicate_hits"].Uint(0, kMaxCounter);
  s.case_nanos = j["case_nanos"].Uint(0, 0, kMaxCounter);
  s.harness_nanos = j["harness_nanos"].Uint(0, 0, kMaxCounter);
  constexpr size_t kMaxTargets = 1024, kMaxKinds = 64;
  if (spirv::JsonField f = j["spirv_fuzz"]; f.present()) {
    for (auto& [name, n] : f.Members(kMaxKinds))
      s.spirv_fuzz[name] = n.Uint(0, kMaxCounter);
  }
  // stats.json's derived "yield" (YieldJson, plus the campaign command's
  // new/known split): not read back, but a malformed one is refused.
  if (spirv::JsonField y = j["yield"]; y.present() && y.ExpectObject()) {
    constexpr double kMax = 1e300;
    for (const char* key :
         {"job_hours", "cases_per_job_second", "unique_findings_per_job_hour",
          "new_findings_per_job_hour", "known_findings_per_job_hour"})
      if (y[key].present()) y[key].Number(0, kMax);
    for (auto& [name, t] : y["targets"].Members(kMaxTargets))
      t["cases_per_second"].Number(0, kMax);
  }
  // The grammar has under a thousand core opcodes and 162 OpenCL.std ones.
  constexpr size_t kMaxNames = 4096;
  for (auto& [name, t] : j["coverage"].Members(kMaxTargets, false)) {
    TargetCoverage& c = s.coverage[name];
    for (auto& op : t["core"].Array(kMaxNames))
      c.core.insert(op.NonEmptyString());
    for (auto& op : t["opencl_std"].Array(kMaxNames))
      c.opencl_std.insert(op.NonEmptyString());
  }
  for (auto& [name, t] : j["targets"].Members(kMaxTargets)) {
    TargetCounters c;
    c.runs = t["runs"].Uint(0, kMaxCounter);
    c.nanos = t["nanos"].Uint(0, 0, kMaxCounter);
    c.batches = t["batches"].Uint(0, 0, kMaxCounter);
    c.reruns = t["reruns"].Uint(0, 0, kMaxCounter);
    for (auto& [kind, n] : t["verdicts"].Members(kMaxKinds))
      c.verdicts[kind] = n.Uint(0, kMaxCounter);
    s.targets[name] = std::move(c);
  }
  return s;
}

absl::StatusOr<CampaignStats> CampaignStats::FromJson(const nlohmann::json& j,
                                                      const std::string& file) {
  spirv::JsonReader reader(file, j,
                           "a campaign writes this file; re-run the campaign "
                           "or restore the file");
  CampaignStats s = Read(reader.root());
  if (!reader.ok()) return reader.status();
  return s;
}

nlohmann::json YieldJson(const CampaignStats& stats, uint64_t unique_findings) {
  const double job_seconds = static_cast<double>(stats.case_nanos) / 1e9;
  const double job_hours = job_seconds / 3600;
  nlohmann::json targets = nlohmann::json::object();
  for (const auto& [name, c] : stats.targets) {
    const double seconds = static_cast<double>(c.nanos) / 1e9;
    targets[name] = {{"cases_per_second", seconds > 0 ? c.runs / seconds : 0}};
  }
  return {
      {"job_hours", job_hours},
      {"cases_per_job_second", job_seconds > 0 ? stats.cases / job_seconds : 0},
      {"unique_findings_per_job_hour",
       job_hours > 0 ? unique_findings / job_hours : 0},
      {"targets", targets}};
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
  return spirv::DumpJson(line) + "\n";
}

}  // namespace l0spv::fuzzers::campaign
