// fuzzers/campaign/stats.h — campaign counters: per target and verdict,
// per job, summed across jobs and shards.
//
// Contract: plain values with a JSON form (the `stats.json` of a campaign
// or shard, and each job's state file). Add() sums counters (saturating);
// Read/FromJson accept exactly what ToJson writes and report anything else
// as InvalidArgument naming the file and field.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "oracles/verdict/verdict.h"
#include "spirv/json_reader.h"

namespace l0spv::fuzzers::campaign {

struct TargetCounters {
  uint64_t runs = 0;
  std::map<std::string, uint64_t> verdicts;  // by VerdictKindName
  uint64_t nanos = 0;                        // time inside Target::Run
  // --batch: consumer invocations that ran a batch of several cases, and
  // cases run again (in a smaller batch or alone) because their batch gave
  // them anything but ok: what bisection cost.
  uint64_t batches = 0;
  uint64_t reruns = 0;

  void Count(oracles::VerdictKind kind, uint64_t run_nanos);
};

// The language one target received (stats.json "coverage"): the usable
// core opcodes outside images and the OpenCL.std instructions, by name, of
// the cases it ran to a verdict other than `skipped`
// (generators/kernel/opcode_stats.h, AddCoverageNames).
struct TargetCoverage {
  std::set<std::string> core;
  std::set<std::string> opencl_std;

  void Add(const TargetCoverage& other) {
    core.insert(other.core.begin(), other.core.end());
    opencl_std.insert(other.opencl_std.begin(), other.opencl_std.end());
  }
};

struct CampaignStats {
  uint64_t cases = 0;
  uint64_t generator_errors = 0;
  // Cases run as several modules (--split; the rest had nothing to move).
  uint64_t split_cases = 0;
  std::map<std::string, TargetCounters> targets;  // "ref" included
  uint64_t new_findings = 0;
  uint64_t duplicate_hits = 0;
  uint64_t case_nanos = 0;     // wall time of whole cases
  uint64_t harness_nanos = 0;  // case time outside every Target::Run
  // --mutate=spirv-fuzz: what became of each case's mutant (keys: runs,
  // the engine's outcomes — mutated, tool-crashed, tool-timed-out,
  // tool-failed, fixup-refused, invalid, not-applicable —, ub-dropped,
  // changed-results (spirv-fuzz bugs), usable, transformations, and
  // fixup.<what> per Kernel fix-up). Written as "spirv_fuzz" when not empty.
  std::map<std::string, uint64_t> spirv_fuzz;
  // By target name (original and mutated cases alike). Add() unites the
  // sets; Since() keeps them whole (a resumed run's reach includes what
  // it inherited). Written as "coverage" when not empty.
  std::map<std::string, TargetCoverage> coverage;

  // Sums saturate at kMaxCounter (a merged or resumed campaign cannot wrap).
  void Add(const CampaignStats& other);
  // This minus `earlier` (a snapshot of the same counters taken before):
  // what one run of a resumed campaign did.
  CampaignStats Since(const CampaignStats& earlier) const;
  nlohmann::json ToJson() const;
  // Reads what ToJson writes; any other shape, or a counter above
  // kMaxCounter, is an error on the field's reader.
  static CampaignStats Read(spirv::JsonField field);
  // `file` names the document in errors.
  static absl::StatusOr<CampaignStats> FromJson(const nlohmann::json& j,
                                                const std::string& file);
};

// The yield of a campaign, from its counters: "job_hours" (the
// jobs' case time: a job is one pipeline, its consumers run one at a time,
// so a job-hour is a CPU-hour of the 2-core budget), "cases_per_job_second",
// "unique_findings_per_job_hour", and per target "cases_per_second" (cases
// over the time inside that target, batches included). Written into
// stats.json as "yield"; the campaign command adds the new/known split.
nlohmann::json YieldJson(const CampaignStats& stats, uint64_t unique_findings);

// Counters are exact JSON integers (2^53) and far beyond any campaign.
inline constexpr uint64_t kMaxCounter = uint64_t{1} << 53;

// One line of OUT/stats-history.jsonl, which the campaign appends every
// kSnapshotSeconds and at its end so reports can plot a run over time:
// {"elapsed_s", "unix_s", "unique_findings", "stats": ToJson() of this
// run's counters}. A line cut by a kill is the reader's to skip.
inline constexpr int kSnapshotSeconds = 10;
std::string StatsSnapshotLine(const CampaignStats& run, double elapsed_seconds,
                              uint64_t unique_findings);

}  // namespace l0spv::fuzzers::campaign
