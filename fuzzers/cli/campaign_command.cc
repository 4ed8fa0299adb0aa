// `l0spv-fuzz [--target=LIST] [--time=60s|--iterations=N] ...`: the
// campaign (also reachable as `l0spv-fuzz campaign ...`).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzzers/campaign/campaign.h"
#include "fuzzers/cli/commands.h"
#include "fuzzers/cli/reduce_support.h"
#include "oracles/targets/consumer_probe.h"
#include "oracles/targets/target_kinds.h"
#include "oracles/targets/target_registry.h"
#include "oracles/validity/device_profile.h"
#include "reducers/dedup.h"
#include "reducers/known_match.h"
#include "reducers/pipeline.h"
#include "spirv/json_reader.h"

ABSL_DECLARE_FLAG(std::string, target);
ABSL_DECLARE_FLAG(std::string, profile);
ABSL_DECLARE_FLAG(uint64_t, seed);
ABSL_DECLARE_FLAG(std::string, out);
ABSL_DECLARE_FLAG(int, timeout);
ABSL_DECLARE_FLAG(uint32_t, max_statements);
ABSL_DECLARE_FLAG(bool, allow_known_bugs);
ABSL_DECLARE_FLAG(bool, non_uniform);
ABSL_DECLARE_FLAG(std::string, reduce_time);
ABSL_DECLARE_FLAG(std::string, spirv_reduce);
ABSL_DECLARE_FLAG(std::string, spirv_version);
ABSL_FLAG(std::string, time, "60s",
          "how long to run: 90, 90s, 10m, 2h (ignored with --iterations)");
ABSL_FLAG(uint64_t, iterations, 0, "number of test cases (0 = use --time)");
ABSL_FLAG(uint32_t, jobs, 1, "parallel pipelines (worker processes)");
ABSL_FLAG(std::string, shard, "0/1",
          "K/N: run only shard K of N of the seed space (batch schedulers)");
ABSL_FLAG(std::string, batch, "auto",
          "cases per consumer invocation for targets that build a module "
          "once for several kernels (ocloc, Oclgrind, PoCL, llvm-spirv, "
          "spirv-opt): auto (each consumer's measured size), off (= 1), or "
          "a count 1..64; a batch holds only cases of one batch key "
          "(decoration groups, extensions); a batch that fails is bisected, "
          "so findings stay single cases");
ABSL_FLAG(std::string, mutate, "off",
          "also transform each case and run the mutant everywhere: `ours` "
          "(or --mutate alone: our semantics-preserving transformations), "
          "`spirv-fuzz` (SPIRV-Tools' spirv-fuzz + the Kernel fix-up; "
          "install it with ci/install-spirv-fuzz.sh), or off");
ABSL_FLAG(std::string, route, "swarm",
          "which targets each case is generated for: swarm (default: a "
          "drawn subset of about half the targets per case, avoiding only "
          "their known bugs, so one consumer's bug or limitation never "
          "narrows what the others get) or all (every case on every "
          "target, avoiding all their bugs)");
ABSL_FLAG(bool, no_reduce, false,
          "do not reduce findings after the campaign (see `reduce`)");

namespace l0spv::fuzzers::cli {
namespace {

// Every available consumer target; `ref` is implied by the campaign, and
// spirv-fuzz is a mutation engine (--mutate=spirv-fuzz) that campaigns only
// run as a target when asked (its raw output is no Kernel module).
std::vector<std::string> AvailableTargets() {
  std::vector<std::string> names;
  for (const oracles::TargetInfo& t : oracles::ListTargets()) {
    if (t.available && t.in_default) names.push_back(t.name);
  }
  return names;
}

std::string DescribeTargets() {
  std::string text;
  for (const oracles::TargetInfo& t : oracles::ListTargets()) {
    absl::StrAppend(&text, "  ",
                    t.available ? "available    " : "unavailable  ", t.name,
                    t.available ? "" : absl::StrCat(" — ", t.reason), "\n");
  }
  return text;
}

// "routing swarm (each target about 45% of the cases)" for the banner.
std::string RoutingText(const fuzzers::campaign::CampaignOptions& o) {
  const fuzzers::campaign::CaseRouter router = fuzzers::campaign::RouterOf(o);
  if (router.mode() == fuzzers::campaign::RouteMode::kAll ||
      o.targets.size() < 2)
    return "every case on every target";
  std::vector<std::string> shares;
  for (size_t i = 0; i < o.targets.size(); ++i)
    shares.push_back(
        absl::StrFormat("%s %.0f%%", o.targets[i], 100 * router.Share(i)));
  return "routing swarm (cases per target: " + absl::StrJoin(shares, ", ") +
         ")";
}

// One line per target at the campaign's end: the cases it ran and the
// language they held (stats.json "coverage"), then the union.
void PrintReach(const fuzzers::campaign::CampaignOptions& o,
                const fuzzers::campaign::CampaignStats& stats,
                std::ostream& out) {
  fuzzers::campaign::TargetCoverage all;
  for (const std::string& t : o.targets) {
    auto counters = stats.targets.find(t);
    if (counters == stats.targets.end()) continue;
    const uint64_t runs = counters->second.runs;
    auto skipped = counters->second.verdicts.find("skipped");
    fuzzers::campaign::TargetCoverage reach;
    if (auto c = stats.coverage.find(t); c != stats.coverage.end())
      reach = c->second;
    all.Add(reach);
    out << absl::StrFormat(
        "reach %s: %u of %u cases (%.0f%%, %u skipped), %u core opcodes, "
        "%u OpenCL.std\n",
        t, runs, stats.cases,
        stats.cases == 0 ? 0.0 : 100.0 * runs / stats.cases,
        skipped == counters->second.verdicts.end() ? 0 : skipped->second,
        reach.core.size(), reach.opencl_std.size());
  }
  if (o.targets.size() > 1)
    out << absl::StrFormat(
        "reach of all targets: %u core opcodes, %u OpenCL.std\n",
        all.core.size(), all.opencl_std.size());
}

// Reduces every finding of OUT without a reduced/ bundle (one --reduce_time
// budget each), then re-buckets findings whose reduced cases share a
// signature. A finding that does not reproduce is reported and left as is.
void ReduceNewFindings(const std::string& out) {
  auto options = ReduceOptionsFromFlags();
  if (!options.ok()) {
    std::cerr << "campaign: not reducing: " << options.status().message()
              << "\n";
    return;
  }
  options->log = nullptr;
  std::error_code ec;
  std::vector<std::string> dirs;
  for (const auto& e :
       std::filesystem::directory_iterator(out + "/findings", ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || name.empty() || name[0] == '.') continue;
    if (std::filesystem::exists(e.path() / "reduced", ec)) continue;
    dirs.push_back(e.path().string());
  }
  std::sort(dirs.begin(), dirs.end());
  for (const std::string& dir : dirs) {
    std::cerr << "campaign: reducing " << dir << "\n";
    auto report = reducers::ReduceFinding(dir, *options);
    if (!report.ok()) {
      std::cerr << "campaign: not reduced: " << report.status().message()
                << "\n";
      continue;
    }
    std::cerr << "campaign: reduced " << report->instructions_before << " -> "
              << report->instructions_after << " instructions in "
              << static_cast<uint64_t>(report->seconds) << " s\n";
  }
  auto dedup = reducers::DedupFindings(out);
  if (dedup.ok() && dedup->merged > 0) {
    std::cerr << "campaign: " << dedup->merged
              << " finding(s) are duplicates after reduction (moved under "
                 "their bucket's duplicates/)\n";
  }
}

// --batch: "auto" = 0 (each target's DefaultBatchSize), "off" = 1, or N.
absl::StatusOr<uint32_t> BatchFromFlag(const std::string& flag) {
  if (flag == "auto") return 0u;
  if (flag == "off") return 1u;
  uint32_t n = 0;
  if (!absl::SimpleAtoi(flag, &n) || n < 1 || n > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("--batch=", flag,
                     ": expected auto, off or a count of cases from 1 to 64"));
  }
  return n;
}

// Labels every finding of OUT known (a registry entry matches) or new, and
// adds the split to OUT/stats.json ("known_findings": {NAME: [dirs]},
// "new_unique_findings", "known_unique_findings").
void LabelKnownFindings(const std::string& out) {
  std::error_code ec;
  std::vector<std::string> dirs;
  for (const auto& e :
       std::filesystem::directory_iterator(out + "/findings", ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_directory() && !name.empty() && name[0] != '.')
      dirs.push_back(e.path().string());
  }
  std::sort(dirs.begin(), dirs.end());
  nlohmann::json known = nlohmann::json::object();
  uint64_t new_count = 0, known_count = 0;
  for (const std::string& dir : dirs) {
    std::optional<std::string> label = reducers::ReadKnownLabel(dir);
    if (!label) {
      auto match = reducers::LabelFinding(dir);
      if (!match.ok()) {
        std::cerr << "campaign: not matched against the known bugs: "
                  << match.status().message() << "\n";
        continue;
      }
      label = *match && (*match)->certain ? (*match)->name : std::string();
      std::cerr << "campaign: " << dir << ": "
                << (!label->empty() ? "known: " + *label
                    : *match ? "new (possibly known: " + (*match)->name + ")"
                             : std::string("new"))
                << "\n";
    }
    if (label->empty()) {
      ++new_count;
    } else {
      ++known_count;
      known[*label].push_back(std::filesystem::path(dir).filename().string());
    }
  }
  auto stats = spirv::ReadJsonFile(out + "/stats.json");
  if (!stats.ok() || !stats->is_object()) return;
  (*stats)["known_findings"] = known;
  (*stats)["new_unique_findings"] = new_count;
  (*stats)["known_unique_findings"] = known_count;
  // Yield per job-hour (fuzzers/campaign/stats.h YieldJson).
  if ((*stats).contains("yield") && (*stats)["yield"].is_object()) {
    const double hours = (*stats)["yield"].value("job_hours", 0.0);
    (*stats)["yield"]["new_findings_per_job_hour"] =
        hours > 0 ? new_count / hours : 0.0;
    (*stats)["yield"]["known_findings_per_job_hour"] =
        hours > 0 ? known_count / hours : 0.0;
  }
  if (auto s = spirv::WriteJsonFile(out + "/stats.json", *stats); !s.ok())
    std::cerr << "campaign: " << s.message() << "\n";
}

int RunCampaignCommand(const std::vector<std::string>& positional) {
  if (!positional.empty()) {
    return UsageError("campaign",
                      "unexpected argument '" + positional[0] + "'");
  }
  fuzzers::campaign::CampaignOptions o;
  using Engine = fuzzers::campaign::CampaignOptions::MutateEngine;
  if (const std::string m = absl::GetFlag(FLAGS_mutate);
      m == "off" || m == "false" || m == "0" || m == "none") {
    o.mutate = Engine::kNone;
  } else if (m == "ours" || m == "true" || m == "1") {
    o.mutate = Engine::kOurs;
  } else if (m == "spirv-fuzz") {
    o.mutate = Engine::kSpirvFuzz;
    auto program = oracles::FindSpirvFuzz();
    if (!program)
      return UsageError("campaign",
                        absl::StrCat("--mutate=spirv-fuzz: ",
                                     oracles::kSpirvFuzzInstallHint));
    o.spirv_fuzz = *program;
  } else {
    return UsageError(
        "campaign",
        absl::StrCat("--mutate=", m, ": expected ours, spirv-fuzz or off"));
  }
  if (auto batch = BatchFromFlag(absl::GetFlag(FLAGS_batch)); !batch.ok()) {
    return UsageError("campaign", std::string(batch.status().message()));
  } else {
    o.batch = *batch;
  }
  // --target: explicit list, or every available target.
  const std::string list = absl::GetFlag(FLAGS_target);
  std::vector<std::string> requested;
  if (list == "all") {
    requested = AvailableTargets();
  } else {
    auto parsed = oracles::ParseTargetList(list);
    if (!parsed.ok())
      return UsageError("campaign", std::string(parsed.status().message()));
    requested = *parsed;
  }
  for (const std::string& name : requested) {
    if (name == "ref") continue;
    // Only the requested targets are probed: probing every one (ocloc's
    // device list, OpenCL's platforms, each tool's --version) cost a short
    // campaign ~0.15 s. A name the registry cannot parse is MakeTarget's to
    // refuse, with its own message.
    auto info = oracles::DescribeTarget(name);
    if (info.ok() && !info->available) {
      std::cerr << "l0spv-fuzz: target " << name << " is not available on "
                << "this machine: " << info->reason << "\n\nTargets here:\n"
                << DescribeTargets();
      return kExitUsage;
    }
    o.targets.push_back(name);
  }
  auto time = ParseDuration(absl::GetFlag(FLAGS_time), "--time");
  if (!time.ok())
    return UsageError("campaign", std::string(time.status().message()));
  o.time = *time;
  o.iterations = absl::GetFlag(FLAGS_iterations);
  o.seed = absl::GetFlag(FLAGS_seed);
  o.jobs = absl::GetFlag(FLAGS_jobs);
  o.out = absl::GetFlag(FLAGS_out);
  if (o.out.empty()) o.out = "l0spv-out";
  const std::vector<std::string> shard =
      absl::StrSplit(absl::GetFlag(FLAGS_shard), '/');
  if (shard.size() != 2 || !absl::SimpleAtoi(shard[0], &o.shard) ||
      !absl::SimpleAtoi(shard[1], &o.shards) || o.shards == 0 ||
      o.shard >= o.shards) {
    return UsageError("campaign", "--shard expects K/N with 0 <= K < N");
  }
  // --profile=auto: each case is generated for the narrowest device profile
  // of the targets it is routed to (a tgllp target must not get fp64
  // kernels it rightly rejects; a case without it may have them), `full`
  // when none names one.
  std::string profile = absl::GetFlag(FLAGS_profile);
  o.profile_per_case = profile == "auto";
  if (o.profile_per_case) profile = "full";
  auto device_profile = oracles::FindDeviceProfile(profile);
  if (!device_profile.ok()) {
    return UsageError("campaign",
                      std::string(device_profile.status().message()));
  }
  o.generator.profile = profile;
  o.generator.max_statements = absl::GetFlag(FLAGS_max_statements);
  // Each case avoids the known bugs of the targets it is routed to (and
  // only those), unless --allow_known_bugs.
  o.avoid_known_bugs = !absl::GetFlag(FLAGS_allow_known_bugs);
  const std::string route = absl::GetFlag(FLAGS_route);
  if (route != "swarm" && route != "all")
    return UsageError("campaign",
                      "--route expects swarm or all, not '" + route + "'");
  o.route = route == "all" ? fuzzers::campaign::RouteMode::kAll
                           : fuzzers::campaign::RouteMode::kSwarm;
  auto allowed = AllowedBugsFromFlag();
  if (!allowed.ok())
    return UsageError("campaign", std::string(allowed.status().message()));
  o.generator.allowed_bugs = *std::move(allowed);
  o.generator.allow_non_uniform = absl::GetFlag(FLAGS_non_uniform);
  auto images = ImageModeFromFlag();
  if (!images.ok())
    return UsageError("campaign", std::string(images.status().message()));
  o.generator.images = *images;
  auto printf_mode = PrintfModeFromFlag();
  if (!printf_mode.ok())
    return UsageError("campaign", std::string(printf_mode.status().message()));
  o.generator.printf = *printf_mode;
  auto split = SplitModulesFromFlag();
  if (!split.ok())
    return UsageError("campaign", std::string(split.status().message()));
  o.split_modules = *split;
  // Per case, only while its profile accepts them and no linker bug about
  // them is avoided (job.cc).
  o.split_linkonce = true;
  if (absl::Status v = SpirvVersionsFromFlag(*device_profile, o.generator);
      !v.ok())
    return UsageError("campaign", std::string(v.message()));
  // The version swarm stops at the newest SPIR-V every target of a case
  // reads (the router's, per case) and spirv-fuzz reads; a version asked
  // for explicitly is sent as asked (a consumer that cannot read it says
  // unsupported).
  o.spirv_version_fixed = absl::GetFlag(FLAGS_spirv_version) != "swarm";
  if (!o.spirv_version_fixed &&
      o.mutate ==
          fuzzers::campaign::CampaignOptions::MutateEngine::kSpirvFuzz) {
    const uint32_t newest = oracles::NewestSpirvVersionOfTarget("spirv-fuzz");
    if (newest != ~0u) o.generator.max_spirv_version = newest;
  }
  o.limits.wall_time = std::chrono::seconds(absl::GetFlag(FLAGS_timeout));
  // The reduction after the campaign must not find a bad flag only then.
  if (!absl::GetFlag(FLAGS_no_reduce)) {
    if (auto r = ReduceOptionsFromFlags(); !r.ok())
      return UsageError("campaign", std::string(r.status().message()));
  }
  o.live_progress = ::isatty(STDERR_FILENO);
  std::cerr << "campaign: targets ref" << (o.targets.empty() ? "" : ",")
            << absl::StrJoin(o.targets, ",") << "; profile "
            << (o.profile_per_case
                    ? "per case (" +
                          oracles::NarrowestProfileOf(o.targets, profile) +
                          " for cases routed to its target)"
                    : profile)
            << "; " << RoutingText(o) << "; " << o.jobs << " job(s); out "
            << o.out << "\n";
  auto result = fuzzers::campaign::RunCampaign(o, std::cerr);
  if (!result.ok()) {
    return UsageError("campaign", std::string(result.status().message()));
  }
  if (result->interrupted) {
    std::cerr << "campaign: interrupted; re-run the same command to resume"
              << (result->unique_findings > 0
                      ? " (findings are not reduced yet: `l0spv-fuzz reduce`)"
                      : "")
              << "\n";
  } else if (!absl::GetFlag(FLAGS_no_reduce) && result->unique_findings > 0) {
    ReduceNewFindings(o.out);
    LabelKnownFindings(o.out);
  }
  PrintReach(o, result->stats, std::cout);
  std::cout << "campaign done: " << result->stats.cases << " cases";
  if (o.split_modules != 0)
    std::cout << " (" << result->stats.split_cases << " of several modules)";
  std::cout << " in " << static_cast<uint64_t>(result->elapsed_seconds)
            << " s, " << result->unique_findings << " unique finding(s) in "
            << o.out << "/findings (stats: " << o.out << "/stats.json)\n";
  return result->unique_findings > 0 ? kExitFinding : kExitOk;
}

}  // namespace

Command CampaignCommand() {
  return {
      "campaign",
      "the campaign: generate, run every target, compare, keep findings",
      "[campaign] [--target=LIST] [--time=60s|--iterations=N] [--seed=N]\n"
      "           [--jobs=N] [--out=DIR] [--profile=NAME] [--shard=K/N]\n"
      "           [--timeout=SECONDS] [--allow_known_bugs | "
      "--allow_bug=NAME,...]\n"
      "           [--non_uniform]\n"
      "           [--images=off|swarm|on] [--printf=swarm|on|off]\n"
      "           [--spirv_version=swarm|1.N|1.N-1.M] [--batch=auto|off|N]\n"
      "           [--route=swarm|all]\n"
      "           [--no_reduce] [--reduce_time=5m] [--spirv_reduce=PATH]\n\n"
      "Generates test cases, runs each on the reference interpreter and on "
      "every target, and judges every target against the reference "
      "(crash, timeout, rejected-valid, mismatch, target-ub; ub in the "
      "reference = a generator bug). Findings land in DIR/findings/<name>/ "
      "with the case, every output, verdict.json and a README with the "
      "reproduce command; duplicates only add a seed. Killed and restarted "
      "with the same --out, a campaign resumes. --shard=K/N splits the "
      "seed space for batch schedulers; `l0spv-fuzz merge` combines the "
      "shards. Without --target: every available target (`l0spv-fuzz "
      "targets`). Each case is generated for a drawn subset of the targets "
      "(--route=swarm, default) and avoids only their known bugs; "
      "--route=all sends every case to every target. --images=on|swarm adds "
      "image and sampler kernels (as in "
      "`generate`); --printf likewise (default swarm). Each case is a SPIR-V "
      "version from 1.0 to the newest "
      "the profile and every target's consumer read (--spirv_version). After "
      "the campaign every new finding is reduced "
      "(`reduce`, --reduce_time each; --no_reduce skips it) and findings "
      "whose reduced cases share a signature are re-bucketed. --batch packs "
      "up to N cases into one module per consumer run (auto: what each "
      "consumer's benchmark measured; a failing batch is bisected down to "
      "the case at fault). Exit 1 when "
      "DIR holds findings.",
      {"target",
       "time",
       "iterations",
       "seed",
       "jobs",
       "out",
       "profile",
       "shard",
       "timeout",
       "max_statements",
       "allow_known_bugs",
       "allow_bug",
       "non_uniform",
       "images",
       "printf",
       "spirv_version",
       "split",
       "mutate",
       "batch",
       "route",
       "no_reduce",
       "reduce_time",
       "spirv_reduce"},
      RunCampaignCommand};
}

}  // namespace l0spv::fuzzers::cli
