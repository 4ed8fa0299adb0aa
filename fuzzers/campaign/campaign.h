// fuzzers/campaign/campaign.h — the campaign: generate → run every target →
// judge against the reference → record findings, in parallel jobs, for a
// time or a number of cases, resumable and shardable.
//
// Contract:
//  - Case i of the campaign has seed `seed + i * shards + shard`, so shards
//    K/N of one seed base split the seed space deterministically; job j of
//    `jobs` takes the cases i ≡ j (mod jobs), in increasing order, a group
//    of cases at a time (enough to fill the largest batch of its targets
//    at their routed share): each case's own work first (generate,
//    reference, transform), then every target on the cases routed to it
//    (routing.h), batched (batch_runner.h).
//  - Jobs are forked worker processes (each target additionally runs its
//    consumer in its own worker, see oracles/targets/target.h). A job's
//    progress lives in OUT/state/job-J.json, rewritten atomically after every
//    case; a case counts as done only after its findings are on disk. A
//    campaign killed at any point (even SIGKILL) and restarted with the same
//    --out resumes where its jobs stopped: no finding lost, none duplicated
//    (findings dedup by signature and count seeds, see findings.h).
//  - A job that dies (a crash of in-process code) is recorded as a `crash`
//    finding against `ref` for the case it was running, skipped past, and
//    restarted. (While the targets run on a group, that is the group's
//    first case: consumers run in workers, so only harness code is left.
//    A group's progress is saved at its end: a resume redoes the group.)
//  - Errors before the start (unknown or unavailable target, OUT created by
//    a campaign with other --jobs/--shard/--seed, a malformed state file,
//    another campaign holding OUT's lock) are returned as Status; nothing
//    is written then.
//  - Every write is checked. A job whose state or finding write fails (disk
//    full, read-only OUT) prints the path and errno and stops; the campaign
//    then stops the other jobs within their current case and returns
//    ResourceExhausted. The state stays consistent: the failed case is not
//    counted, so re-running the same command after freeing space redoes it.
//    No `.tmp-*` directory is left behind.
//  - SIGINT/SIGTERM to the campaign process stop it within about a second
//    (jobs get SIGTERM, then SIGKILL): stats.json is written, temporary
//    directories removed, and `interrupted` is set; a resume continues.
//  - Consumers' scratch files live in OUT/.scratch (cleared at start/end).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "fuzzers/campaign/routing.h"
#include "fuzzers/campaign/stats.h"
#include "generators/kernel/generator.h"
#include "oracles/targets/target.h"

namespace l0spv::fuzzers::campaign {

struct CampaignOptions {
  std::vector<std::string> targets;  // besides `ref`, which always runs
  std::string out;
  uint64_t seed = 0;
  uint64_t iterations = 0;  // 0 = until `time` is spent
  std::chrono::seconds time{60};
  uint32_t jobs = 1;
  uint32_t shard = 0;
  uint32_t shards = 1;
  // Seed, avoid_known_bugs and (unless spirv_version_fixed) the newest
  // SPIR-V version are set per case from its route.
  generators::kernel::GeneratorOptions generator;
  // Which targets each case is generated for (routing.h): kSwarm gives
  // each case a drawn subset, avoiding only their known bugs; kAll sends
  // every case everywhere, avoiding every target's.
  RouteMode route = RouteMode::kSwarm;
  bool avoid_known_bugs = true;  // false: --allow_known_bugs
  // An entry gates only the releases it is open on (registry not_on;
  // routing.h): false avoids every entry of a routed family.
  bool per_release = true;
  // --spirv_version given: every case is in generator's range, whatever
  // its targets read (a consumer that cannot read it says unsupported).
  bool spirv_version_fixed = false;
  // --profile=auto: each case is generated for the narrowest device profile
  // of its routed targets (ocloc:tgllp's), generator.profile when none
  // names one; otherwise every case is generator.profile's.
  bool profile_per_case = false;
  oracles::TargetRunLimits limits;
  oracles::TargetOptions target_options;
  // Builds a target by name; null = oracles::MakeTarget(name,
  // target_options). Tests inject fault targets through it.
  std::function<absl::StatusOr<std::unique_ptr<oracles::Target>>(
      const std::string&)>
      make_target;
  // Metamorphic testing: every case is also transformed (seeded by the
  // case) and run again on ref and every target; a target whose results
  // change is a finding reported with the transformation log.
  //  - kOurs: generators/transform (a ref difference is our bug: a finding).
  //  - kSpirvFuzz: generators/spirv_fuzz (spirv-fuzz + the Kernel fix-up).
  //    Mutants ref finds UB in are dropped and counted; one whose ref
  //    results differ from the original's is a spirv-fuzz bug, recorded
  //    against `spirv-fuzz:SEED+fixup` with the original case; a crash or
  //    hang of spirv-fuzz is recorded against `spirv-fuzz:SEED`. Consumer
  //    findings on a mutant keep original/ and spirv-fuzz/ (its
  //    transformation sequence) for spirv-fuzz's shrinker. Counters:
  //    CampaignStats::spirv_fuzz.
  enum class MutateEngine { kNone, kOurs, kSpirvFuzz };
  MutateEngine mutate = MutateEngine::kNone;
  std::string spirv_fuzz;  // the spirv-fuzz executable (kSpirvFuzz)
  // Cases of several modules: each case (and its mutated version) is split
  // by generators/transform/split_module.h (0 off, 1 = 2-4 modules drawn,
  // else the count); a case with no movable function stays whole. Only
  // ref and the linking targets run such cases; the others say unsupported.
  uint32_t split_modules = 0;
  // Split cases may get LinkOnceODR copies (duplicate_linkonce): those
  // whose profile accepts SPV_KHR_linkonce_odr and whose route avoids no
  // linker bug about it.
  bool split_linkonce = false;
  // Batches: a target that builds a module once for several
  // kernels (Target::batches) gets up to this many cases per consumer
  // invocation (spirv/kernel_batch.h; fuzzers/campaign/batch_runner.h
  // bisects a batch that fails, so findings stay single cases). 0 = each
  // target's measured size (DefaultBatchSize), 1 = off.
  uint32_t batch = 0;
  bool live_progress = false;  // rewrite one progress line (a terminal)
  std::string self_command = "l0spv-fuzz";  // for reproduce commands
};

struct CampaignResult {
  CampaignStats stats;           // this run (all jobs, after resume)
  uint64_t unique_findings = 0;  // finding directories in OUT
  double elapsed_seconds = 0;
  bool interrupted = false;  // stopped by SIGINT/SIGTERM
};

absl::StatusOr<CampaignResult> RunCampaign(const CampaignOptions& options,
                                           std::ostream& progress);

// Seed of global case index i.
uint64_t CaseSeed(const CampaignOptions& options, uint64_t index);

// The campaign's router: its targets in order, each with the consumers to
// avoid for it (none without avoid_known_bugs), the newest SPIR-V its
// consumer reads (no limit with spirv_version_fixed) and its device profile
// (with profile_per_case); kAll when known bugs are not avoided (nothing
// to route by).
CaseRouter RouterOf(const CampaignOptions& options);

}  // namespace l0spv::fuzzers::campaign
