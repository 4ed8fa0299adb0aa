// fuzzers/campaign/job.h — one job of a campaign: a process forked by
// RunCampaign that runs its share of the seeds (case index job, job + jobs,
// ...) group by group until done, out of time or told to stop.
//
// Contract:
//  - RunJob generates each case of a group and runs it on the reference in
//    process (CaseWork), then runs every target on the whole group (batched
//    by RunOnTarget), records findings (findings.h) and, at the end of each
//    group, writes its JobState (atomically) to JobStatePath: a resume
//    continues at `next`. The case it is on is in `running` (a job that dies
//    is recorded against it by the campaign).
//  - It returns 0 when done; exits kJobSetupFailed when it cannot build its
//    targets and kJobWriteFailed when a state or finding write fails (the
//    campaign then stops, and a resume redoes the group). SIGTERM/SIGINT end
//    it after the current case; it gets SIGTERM when its parent dies.
//  - Campaign-internal: only campaign.cc calls it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "fuzzers/campaign/campaign.h"
#include "fuzzers/campaign/running_cases.h"
#include "fuzzers/campaign/stats.h"
#include "nlohmann/json.hpp"
#include "oracles/targets/target.h"
#include "oracles/verdict/verdict.h"

namespace l0spv::fuzzers::campaign {

// Exit code of a job that could not construct its targets.
constexpr int kJobSetupFailed = 3;

// Exit code of a job that could not write its state or a finding (disk
// full, read-only --out): the campaign stops; a resume redoes the case.
constexpr int kJobWriteFailed = 4;

// OUT/state/job-N.json.
std::string JobStatePath(const std::string& out, uint32_t job);

// Written at the end of every group (and read at a resume). Which case a
// job is on lives in RunningCases, not here: a file write per case cost
// more than a batched spirv-opt run spends on some stages.
struct JobState {
  uint64_t next = 0;  // next per-job case number
  CampaignStats stats;
};

nlohmann::json JobStateToJson(const JobState& s);
// A missing file is a fresh job; a malformed one an error naming the field.
absl::StatusOr<JobState> LoadJobState(const std::string& path);
// During a run every state file was written by a job, atomically.
JobState LoadJobStateOrEmpty(const std::string& path);

// The reproduce command of a finding with verdict `v` ({case}: its case
// directory): `run --target=ref` for the reference's own findings, else
// `check --target=T --signature=S`.
std::string ReproduceCommand(const CampaignOptions& o,
                             const oracles::Verdict& v);

// options.make_target's target, or MakeTarget's.
absl::StatusOr<std::unique_ptr<oracles::Target>> BuildTarget(
    const CampaignOptions& o, const std::string& name);

// One job: runs its cases until done, out of time or told to stop.
int RunJob(const CampaignOptions& o, uint32_t job,
           std::chrono::steady_clock::time_point deadline,
           RunningCases& running);

}  // namespace l0spv::fuzzers::campaign
