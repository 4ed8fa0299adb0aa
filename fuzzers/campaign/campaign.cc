#include "fuzzers/campaign/campaign.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "fuzzers/campaign/findings.h"
#include "generators/transform/engine.h"
#include "oracles/verdict/verdict.h"
#include "spirv/binary.h"

namespace l0spv::campaign {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::atomic<bool> g_stop{false};
// Exit code of a job that could not construct its targets.
constexpr int kJobSetupFailed = 3;
void OnTerm(int) { g_stop = true; }

absl::Status WriteJsonAtomically(const std::string& path,
                                 const nlohmann::json& j) {
  const std::string text = j.dump(2) + "\n";
  return spirv::WriteFileBytes(path,
                               std::vector<uint8_t>(text.begin(), text.end()));
}

absl::StatusOr<nlohmann::json> ReadJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(path + ": cannot open");
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded())
    return absl::InvalidArgumentError(path + ": not valid JSON");
  return j;
}

std::string JobStatePath(const std::string& out, uint32_t job) {
  return absl::StrCat(out, "/state/job-", job, ".json");
}

struct JobState {
  uint64_t next = 0;  // next per-job case number
  int64_t running_seed = -1;
  CampaignStats stats;
};

nlohmann::json JobStateToJson(const JobState& s) {
  return {{"next", s.next},
          {"running_seed", s.running_seed},
          {"stats", s.stats.ToJson()}};
}

JobState LoadJobState(const std::string& path) {
  JobState s;
  auto j = ReadJson(path);
  if (!j.ok()) return s;
  s.next = j->value("next", uint64_t{0});
  s.running_seed = j->value("running_seed", int64_t{-1});
  if (j->contains("stats")) {
    if (auto st = CampaignStats::FromJson((*j)["stats"]); st.ok())
      s.stats = *st;
  }
  return s;
}

std::string ReproduceCommand(const CampaignOptions& o,
                             const oracles::Verdict& v) {
  if (v.kind == oracles::VerdictKind::kUb ||
      (v.target == "ref" && v.kind == oracles::VerdictKind::kCrash)) {
    return absl::StrCat(o.self_command, " run {case} --target=ref");
  }
  return absl::StrCat(o.self_command, " check {case} --target='", v.target,
                      "' --signature='", v.signature, "'");
}

absl::StatusOr<std::unique_ptr<oracles::Target>> BuildTarget(
    const CampaignOptions& o, const std::string& name) {
  if (o.make_target) return o.make_target(name);
  return oracles::MakeTarget(name, o.target_options);
}

// One job: runs its cases until done, out of time or told to stop.
int RunJob(const CampaignOptions& o, uint32_t job, Clock::time_point deadline) {
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  struct sigaction sa {};
  sa.sa_handler = OnTerm;
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGINT, &sa, nullptr);

  oracles::TargetOptions ref_options = o.target_options;
  ref_options.ref_in_process = true;  // the job is itself a worker process
  auto ref = oracles::MakeTarget("ref", ref_options);
  if (!ref.ok()) return kJobSetupFailed;
  std::vector<std::unique_ptr<oracles::Target>> targets;
  for (const std::string& name : o.targets) {
    auto t = BuildTarget(o, name);
    if (!t.ok()) return kJobSetupFailed;
    targets.push_back(std::move(*t));
  }

  const std::string state_path = JobStatePath(o.out, job);
  JobState state = LoadJobState(state_path);
  state.running_seed = -1;
  while (!g_stop && Clock::now() < deadline) {
    const uint64_t index = job + state.next * o.jobs;
    if (o.iterations != 0 && index >= o.iterations) break;
    const uint64_t seed = CaseSeed(o, index);
    state.running_seed = static_cast<int64_t>(seed);
    (void)WriteJsonAtomically(state_path, JobStateToJson(state));

    const auto case_start = Clock::now();
    uint64_t inside_targets = 0;
    generators::GeneratorOptions g = o.generator;
    g.seed = seed;
    auto tc = generators::GenerateTestCase(g);
    if (!tc.ok()) {
      ++state.stats.generator_errors;
    } else {
      auto record_case = [&](const oracles::Verdict& v,
                             const spirv::TestCase& test_case,
                             std::map<std::string, oracles::Execution> outputs,
                             std::string reproduce) {
        FindingRecord r{v,
                        test_case,
                        seed,
                        std::move(outputs),
                        std::move(reproduce),
                        std::nullopt};
        if (test_case.transformation_log) r.original = *tc;
        auto is_new = RecordFinding(o.out, r);
        if (is_new.ok() && *is_new) {
          ++state.stats.new_findings;
        } else if (is_new.ok()) {
          ++state.stats.duplicate_hits;
        }
      };
      auto record = [&](const oracles::Verdict& v,
                        std::map<std::string, oracles::Execution> outputs) {
        record_case(v, *tc, std::move(outputs), ReproduceCommand(o, v));
      };
      std::map<std::string, std::string> original_signatures;
      auto t0 = Clock::now();
      const oracles::Execution reference = (*ref)->Run(*tc, o.limits);
      uint64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        Clock::now() - t0)
                        .count();
      inside_targets += ns;
      const oracles::Verdict rv = oracles::JudgeReference(reference);
      state.stats.targets["ref"].Count(rv.kind, ns);
      if (rv.IsFinding()) record(rv, {{"ref", reference}});
      if (rv.kind == oracles::VerdictKind::kOk) {
        for (auto& target : targets) {
          t0 = Clock::now();
          const oracles::Execution e = target->Run(*tc, o.limits);
          ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                   Clock::now() - t0)
                   .count();
          inside_targets += ns;
          const oracles::Verdict v = oracles::Judge(
              *tc, reference, target->name(), target->executes(), e);
          state.stats.targets[target->name()].Count(v.kind, ns);
          if (v.IsFinding())
            record(v, {{"ref", reference}, {target->name(), e}});
          original_signatures[target->name()] = v.signature;
        }
      }
      if (rv.kind == oracles::VerdictKind::kOk && o.mutate) {
        // Metamorphic testing: the same case after semantics-preserving
        // transformations must give every target the same results.
        transform::TransformOptions to;
        to.seed = seed;
        to.avoid_known_bugs = o.generator.avoid_known_bugs;
        auto mutated = transform::Transform(*tc, to);
        if (!mutated.ok()) {
          ++state.stats.generator_errors;
        } else {
          const spirv::TestCase& mt = mutated->test_case;
          t0 = Clock::now();
          const oracles::Execution mref = (*ref)->Run(mt, o.limits);
          ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                   Clock::now() - t0)
                   .count();
          inside_targets += ns;
          oracles::Verdict mrv = oracles::JudgeReference(mref);
          if (mrv.kind == oracles::VerdictKind::kOk) {
            // ref must agree with itself across the transformation;
            // otherwise a transformation kind is wrong (our bug).
            const oracles::Verdict self =
                oracles::Judge(mt, reference, "ref", true, mref);
            if (self.IsFinding()) {
              mrv = self;
              mrv.explanation = absl::StrCat(
                  "the transformations changed ref's results (a bug in a "
                  "transformation kind): ",
                  self.explanation);
              mrv.signature = "mismatch:ref:transformation changed results";
            }
          }
          state.stats.targets["ref~mutated"].Count(mrv.kind, ns);
          if (mrv.IsFinding()) {
            record_case(mrv, mt, {{"ref", reference}, {"ref~mutated", mref}},
                        absl::StrCat(o.self_command, " generate --seed=", seed,
                                     " --out=original && ", o.self_command,
                                     " replay original {case} --check"));
          } else if (mrv.kind == oracles::VerdictKind::kOk) {
            for (auto& target : targets) {
              t0 = Clock::now();
              const oracles::Execution e = target->Run(mt, o.limits);
              ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       Clock::now() - t0)
                       .count();
              inside_targets += ns;
              const oracles::Verdict v = oracles::Judge(
                  mt, mref, target->name(), target->executes(), e);
              state.stats.targets[target->name() + "~mutated"].Count(v.kind,
                                                                     ns);
              // A finding the original already showed is not new here.
              if (v.IsFinding() &&
                  v.signature != original_signatures[target->name()])
                record_case(v, mt, {{"ref", mref}, {target->name(), e}},
                            ReproduceCommand(o, v));
            }
          }
        }
      }
    }
    const uint64_t case_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() -
                                                             case_start)
            .count();
    ++state.stats.cases;
    state.stats.case_nanos += case_ns;
    state.stats.harness_nanos += case_ns - std::min(case_ns, inside_targets);
    ++state.next;
    state.running_seed = -1;
    (void)WriteJsonAtomically(state_path, JobStateToJson(state));
  }
  return 0;
}

std::string FormatDuration(double seconds) {
  const uint64_t s = static_cast<uint64_t>(seconds);
  return absl::StrFormat("%02u:%02u", s / 60, s % 60);
}

uint64_t CountFindings(const std::string& out) {
  std::error_code ec;
  uint64_t n = 0;
  for (const auto& e : fs::directory_iterator(out + "/findings", ec)) {
    if (e.is_directory() && e.path().filename().string().rfind(".tmp-", 0) != 0)
      ++n;
  }
  return n;
}

std::string ProgressLine(const CampaignStats& s, uint64_t findings,
                         double elapsed, double total) {
  std::string line = absl::StrFormat(
      "[%s/%s] %u cases (%.1f/s) | findings %u", FormatDuration(elapsed),
      total > 0 ? FormatDuration(total) : std::string("--:--"), s.cases,
      elapsed > 0 ? s.cases / elapsed : 0.0, findings);
  for (const auto& [name, c] : s.targets) {
    std::vector<std::string> parts;
    for (const auto& [kind, n] : c.verdicts) {
      if (n != 0) parts.push_back(absl::StrCat(kind, " ", n));
    }
    absl::StrAppend(&line, " | ", name, ": ", absl::StrJoin(parts, ", "));
  }
  return line;
}

// This run's counters (total minus what earlier runs of a resumed campaign
// counted) as a line of OUT/stats-history.jsonl.
void AppendSnapshot(const std::string& out, CampaignStats total,
                    const CampaignStats& before, double elapsed) {
  total.cases -= std::min(total.cases, before.cases);
  total.new_findings -= std::min(total.new_findings, before.new_findings);
  std::ofstream(out + "/stats-history.jsonl", std::ios::app)
      << StatsSnapshotLine(total, elapsed, CountFindings(out));
}

absl::Status CheckOrWriteCampaignFile(const CampaignOptions& o) {
  const std::string path = o.out + "/campaign.json";
  const nlohmann::json mine{{"format", "l0spv-campaign/1"},
                            {"seed", o.seed},
                            {"jobs", o.jobs},
                            {"shard", o.shard},
                            {"shards", o.shards},
                            {"profile", o.generator.profile}};
  if (fs::exists(path)) {
    auto theirs = ReadJson(path);
    if (!theirs.ok()) return theirs.status();
    for (const char* key : {"seed", "jobs", "shard", "shards", "profile"}) {
      if ((*theirs)[key] != mine[key]) {
        return absl::FailedPreconditionError(absl::StrCat(
            o.out, " holds a campaign started with ", key, "=",
            (*theirs)[key].dump(), " (this run: ", mine[key].dump(),
            "); resume it with the same flags or use another --out"));
      }
    }
    return absl::OkStatus();
  }
  return WriteJsonAtomically(path, mine);
}

}  // namespace

uint64_t CaseSeed(const CampaignOptions& o, uint64_t index) {
  return o.seed + index * o.shards + o.shard;
}

absl::StatusOr<CampaignResult> RunCampaign(const CampaignOptions& o,
                                           std::ostream& progress) {
  if (o.out.empty()) return absl::InvalidArgumentError("--out is required");
  if (o.jobs == 0) return absl::InvalidArgumentError("--jobs must be >= 1");
  if (o.shards == 0 || o.shard >= o.shards) {
    return absl::InvalidArgumentError("--shard=K/N needs 0 <= K < N");
  }
  // Every target must be constructible before anything is written.
  for (const std::string& name : o.targets) {
    auto t = BuildTarget(o, name);
    if (!t.ok()) {
      return absl::Status(
          t.status().code(),
          absl::StrCat("target ", name, ": ", t.status().message()));
    }
  }
  std::error_code ec;
  fs::create_directories(o.out + "/state", ec);
  fs::create_directories(o.out + "/findings", ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat(o.out, ": cannot create (", ec.message(), ")"));
  }
  if (auto s = CheckOrWriteCampaignFile(o); !s.ok()) return s;
  RemoveIncomplete(o.out);

  // Stats of earlier runs (resume) are not this run's.
  CampaignStats before;
  for (uint32_t j = 0; j < o.jobs; ++j)
    before.Add(LoadJobState(JobStatePath(o.out, j)).stats);

  const auto start = Clock::now();
  const bool timed = o.iterations == 0;
  const auto deadline = timed ? start + o.time : Clock::time_point::max();
  std::vector<pid_t> pids(o.jobs, -1);
  auto spawn = [&](uint32_t job) {
    progress.flush();
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int rc = RunJob(o, job, deadline);
      std::_Exit(rc);
    }
    pids[job] = pid;
  };
  for (uint32_t j = 0; j < o.jobs; ++j) spawn(j);

  auto last_line = Clock::now();
  auto last_snapshot = Clock::now();
  size_t running = o.jobs;
  auto aggregate = [&]() {
    CampaignStats now;
    for (uint32_t j = 0; j < o.jobs; ++j)
      now.Add(LoadJobState(JobStatePath(o.out, j)).stats);
    return now;
  };
  while (running > 0) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      uint32_t job = 0;
      while (job < o.jobs && pids[job] != pid) ++job;
      if (job == o.jobs) continue;
      pids[job] = -1;
      --running;
      // A job ends with 0 (done), kJobSetupFailed (cannot build its
      // targets: restarting would not help), or dies: by a signal, or —
      // under sanitizers, whose handlers turn a crash into exit(1) — with
      // another exit code.
      const bool died = WIFSIGNALED(status) ||
                        (WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
                         WEXITSTATUS(status) != kJobSetupFailed);
      if (died) {
        const std::string how =
            WIFSIGNALED(status) ? absl::StrCat("signal-", WTERMSIG(status))
                                : absl::StrCat("exit-", WEXITSTATUS(status));
        // In-process code crashed: record it against ref, skip the case.
        const std::string state_path = JobStatePath(o.out, job);
        JobState s = LoadJobState(state_path);
        if (s.running_seed >= 0) {
          generators::GeneratorOptions g = o.generator;
          g.seed = static_cast<uint64_t>(s.running_seed);
          if (auto tc = generators::GenerateTestCase(g); tc.ok()) {
            oracles::Verdict v;
            v.kind = oracles::VerdictKind::kCrash;
            v.target = "ref";
            v.explanation = absl::StrCat(
                "the campaign job died (", how,
                ") while running the case (reference interpreter, generator "
                "or harness)");
            v.signature = absl::StrCat("crash:ref:", how);
            oracles::Execution e;
            e.status = oracles::ExecutionStatus::kCrashed;
            e.message = v.explanation;
            FindingRecord r{
                v,           *tc, g.seed, {{"ref", e}}, ReproduceCommand(o, v),
                std::nullopt};
            if (auto is_new = RecordFinding(o.out, r); is_new.ok() && *is_new)
              ++s.stats.new_findings;
          }
          ++s.next;
          s.running_seed = -1;
          ++s.stats.cases;
          (void)WriteJsonAtomically(state_path, JobStateToJson(s));
        }
        if (Clock::now() < deadline && !g_stop) {
          spawn(job);
          ++running;
        }
      }
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start).count();
    // Past the deadline, jobs finish their current case; a job stuck beyond
    // the per-case limit is killed (its state still points at the case).
    if (timed &&
        now > deadline + o.limits.wall_time * 4 + std::chrono::seconds(10)) {
      for (pid_t p : pids)
        if (p > 0) ::kill(p, SIGKILL);
    }
    if (now - last_snapshot > std::chrono::seconds(kSnapshotSeconds)) {
      AppendSnapshot(o.out, aggregate(), before, elapsed);
      last_snapshot = now;
    }
    const bool line_due = o.live_progress
                              ? now - last_line > std::chrono::milliseconds(500)
                              : now - last_line > std::chrono::seconds(10);
    if (line_due) {
      CampaignStats s = aggregate();
      CampaignStats run = s;
      run.cases -= std::min(run.cases, before.cases);
      const std::string line = ProgressLine(
          run, CountFindings(o.out), elapsed,
          timed ? std::chrono::duration<double>(o.time).count() : 0);
      if (o.live_progress) {
        progress << "\r" << line << "\033[K" << std::flush;
      } else {
        progress << line << "\n" << std::flush;
      }
      last_line = now;
    }
  }
  if (o.live_progress) progress << "\n";

  CampaignResult result;
  const CampaignStats total = aggregate();
  result.stats = total;
  result.stats.cases -= std::min(total.cases, before.cases);
  result.stats.new_findings -=
      std::min(total.new_findings, before.new_findings);
  result.unique_findings = CountFindings(o.out);
  result.elapsed_seconds =
      std::chrono::duration<double>(Clock::now() - start).count();
  AppendSnapshot(o.out, total, before, result.elapsed_seconds);
  nlohmann::json stats = total.ToJson();
  stats["format"] = "l0spv-stats/1";
  stats["shard"] = o.shard;
  stats["shards"] = o.shards;
  stats["seed"] = o.seed;
  stats["unique_findings"] = result.unique_findings;
  if (auto s = WriteJsonAtomically(o.out + "/stats.json", stats); !s.ok())
    return s;
  progress << ProgressLine(result.stats, result.unique_findings,
                           result.elapsed_seconds, 0)
           << "\n";
  return result;
}

}  // namespace l0spv::campaign
