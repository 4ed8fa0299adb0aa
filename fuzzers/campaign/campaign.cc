#include "fuzzers/campaign/campaign.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "fuzzers/campaign/findings.h"
#include "fuzzers/campaign/job.h"
#include "fuzzers/campaign/running_cases.h"
#include "oracles/known_bugs/registry.h"
#include "oracles/targets/target_kinds.h"
#include "oracles/validity/device_profile.h"
#include "oracles/verdict/verdict.h"
#include "spirv/binary.h"
#include "spirv/json_reader.h"

namespace l0spv::fuzzers::campaign {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

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
absl::Status AppendSnapshot(const std::string& out, const CampaignStats& total,
                            const CampaignStats& before, double elapsed) {
  return spirv::AppendTextFile(
      out + "/stats-history.jsonl",
      StatsSnapshotLine(total.Since(before), elapsed, CountFindings(out)));
}

absl::Status CheckOrWriteCampaignFile(const CampaignOptions& o) {
  const std::string path = o.out + "/campaign.json";
  const nlohmann::json mine{{"format", "l0spv-campaign/1"},
                            {"seed", o.seed},
                            {"jobs", o.jobs},
                            {"shard", o.shard},
                            {"shards", o.shards},
                            {"profile", o.generator.profile}};
  std::error_code ec;
  if (fs::exists(path, ec)) {
    auto theirs = spirv::ReadJsonFile(path);
    if (!theirs.ok()) return theirs.status();
    if (!theirs->is_object() || !theirs->contains("format") ||
        (*theirs)["format"] != mine["format"]) {
      return absl::InvalidArgumentError(
          absl::StrCat(path,
                       ": expected an object with \"format\": "
                       "\"l0spv-campaign/1\" (a campaign writes it); "
                       "restore it or use another --out"));
    }
    for (const char* key : {"seed", "jobs", "shard", "shards", "profile"}) {
      if (!theirs->contains(key) || (*theirs)[key] != mine[key]) {
        return absl::FailedPreconditionError(absl::StrCat(
            o.out, " holds a campaign started with ", key, "=",
            theirs->contains(key) ? (*theirs)[key].dump() : "(none)",
            " (this run: ", mine[key].dump(),
            "); resume it with the same flags or use another --out"));
      }
    }
    return absl::OkStatus();
  }
  return spirv::WriteJsonFile(path, mine);
}

}  // namespace

uint64_t CaseSeed(const CampaignOptions& o, uint64_t index) {
  return o.seed + index * o.shards + o.shard;
}

CaseRouter RouterOf(const CampaignOptions& o) {
  std::vector<RouteTarget> targets;
  for (const std::string& name : o.targets) {
    RouteTarget t;
    t.name = name;
    t.consumers = o.avoid_known_bugs ? oracles::ConsumersOfTarget(name) : 0u;
    t.newest_spirv =
        o.spirv_version_fixed ? ~0u : oracles::NewestSpirvVersionOfTarget(name);
    if (o.avoid_known_bugs) {
      for (oracles::KnownBugId id : oracles::KnownBugsOpenOnTarget(name))
        t.open_bugs.push_back(static_cast<uint32_t>(id));
    }
    if (o.profile_per_case) {
      t.profile = oracles::DeviceProfileOfTarget(name);
      if (auto p = oracles::FindDeviceProfile(t.profile); p.ok())
        t.profile_breadth = p->Breadth();
    }
    targets.push_back(std::move(t));
  }
  std::vector<uint32_t> entry_consumers;
  if (o.avoid_known_bugs && o.per_release) {
    if (const auto& registry = oracles::EmbeddedKnownBugs(); registry.ok())
      for (const oracles::KnownBug& b : registry->bugs)
        entry_consumers.push_back(b.consumers);
  }
  return CaseRouter(std::move(targets),
                    o.avoid_known_bugs ? o.route : RouteMode::kAll,
                    std::move(entry_consumers));
}

namespace {

// The campaign's lock on OUT: one campaign per directory (two would run the
// same seeds and race on the state files). Held while RunCampaign runs (the
// forked jobs share it); `*fd` is closed by the caller to release it.
absl::Status LockOut(const std::string& out, int* lock_fd) {
  const std::string path = out + "/.lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    return absl::PermissionDeniedError(
        absl::StrCat(path, ": cannot create (", std::strerror(err),
                     "); choose a writable --out"));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return absl::FailedPreconditionError(
        absl::StrCat("another campaign is running in ", out, " (it holds ",
                     path, "); wait for it, or use another --out"));
  }
  const std::string pid = absl::StrCat(::getpid(), "\n");
  if (::ftruncate(fd, 0) != 0 || ::write(fd, pid.data(), pid.size()) < 0) {
    const int err = errno;
    ::close(fd);
    return absl::ResourceExhaustedError(
        absl::StrCat(path, ": cannot write (", std::strerror(err), ")"));
  }
  *lock_fd = fd;
  return absl::OkStatus();
}

// Closes the lock file (releasing the lock) when RunCampaign returns.
struct LockRelease {
  int fd = -1;
  ~LockRelease() {
    if (fd >= 0) ::close(fd);
  }
};

std::atomic<bool> g_parent_stop{false};
void OnParentSignal(int) { g_parent_stop = true; }

}  // namespace

absl::StatusOr<CampaignResult> RunCampaign(const CampaignOptions& options,
                                           std::ostream& progress) {
  CampaignOptions o = options;
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
  for (const char* sub : {"/state", "/findings"}) {
    fs::create_directories(o.out + sub, ec);
    if (ec) {
      return absl::PermissionDeniedError(
          absl::StrCat(o.out, sub, ": cannot create (", ec.message(),
                       "); choose a writable --out"));
    }
  }
  LockRelease lock;
  if (auto s = LockOut(o.out, &lock.fd); !s.ok()) return s;
  // Consumers' scratch files live under OUT, so a campaign killed with
  // SIGKILL leaves nothing in /tmp, and the next run clears them.
  // Absolute: consumers' workers run inside their scratch directories, so
  // a relative --out would resolve somewhere else there.
  if (o.target_options.scratch_dir.empty()) {
    o.target_options.scratch_dir =
        fs::absolute(fs::path(o.out) / ".scratch", ec).string();
    fs::remove_all(o.target_options.scratch_dir, ec);
  }
  // A state file that does not read is an error now, not a crash later.
  CampaignStats before;  // earlier runs' counters (resume): not this run's
  for (uint32_t j = 0; j < o.jobs; ++j) {
    auto state = LoadJobState(JobStatePath(o.out, j));
    if (!state.ok()) return state.status();
    before.Add(state->stats);
  }
  if (auto s = CheckOrWriteCampaignFile(o); !s.ok()) return s;
  RemoveIncomplete(o.out);
  // Which case each job is on, for when one dies.
  auto running_cases = RunningCases::Make(o.jobs);
  if (!running_cases.ok()) return running_cases.status();

  // SIGINT / SIGTERM: stop within a second, write stats.json, clean up.
  g_parent_stop = false;
  struct sigaction sa {
  }, old_int{}, old_term{};
  sa.sa_handler = OnParentSignal;
  ::sigaction(SIGINT, &sa, &old_int);
  ::sigaction(SIGTERM, &sa, &old_term);

  const auto start = Clock::now();
  const bool timed = o.iterations == 0;
  const auto deadline = timed ? start + o.time : Clock::time_point::max();
  std::vector<pid_t> pids(o.jobs, -1);
  auto spawn = [&](uint32_t job) {
    progress.flush();
    const pid_t pid = ::fork();
    if (pid == 0) {
      // Only the campaign process holds OUT's lock: a job or one of its
      // workers outliving a SIGKILLed campaign must not block the resume.
      ::close(lock.fd);
      const int rc = RunJob(o, job, deadline, *running_cases);
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
      now.Add(LoadJobStateOrEmpty(JobStatePath(o.out, j)).stats);
    return now;
  };
  // Why the campaign stops early (a failed write, a signal); empty = ran out
  // of time or cases.
  absl::Status write_error;
  std::optional<Clock::time_point> stopping_since;
  auto stop_jobs = [&]() {
    if (stopping_since) return;
    stopping_since = Clock::now();
    for (pid_t p : pids)
      if (p > 0) ::kill(p, SIGTERM);
  };
  while (running > 0) {
    if (g_parent_stop) stop_jobs();
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      uint32_t job = 0;
      while (job < o.jobs && pids[job] != pid) ++job;
      if (job == o.jobs) continue;
      pids[job] = -1;
      --running;
      if (WIFEXITED(status) && WEXITSTATUS(status) == kJobWriteFailed) {
        // The job said why on stderr; stop the others within their case.
        if (write_error.ok()) {
          write_error = absl::ResourceExhaustedError(absl::StrCat(
              "stopped: job ", job, " could not write to ", o.out,
              " (the reason is printed above); free space or fix the "
              "permissions, then re-run the same command to resume"));
        }
        stop_jobs();
        continue;
      }
      // A job ends with 0 (done), kJobSetupFailed (cannot build its
      // targets: restarting would not help), or dies: by a signal, or —
      // under sanitizers, whose handlers turn a crash into exit(1) — with
      // another exit code. Jobs the campaign stopped itself did not die.
      const bool died =
          !stopping_since && (WIFSIGNALED(status) ||
                              (WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
                               WEXITSTATUS(status) != kJobSetupFailed));
      if (died) {
        const std::string how =
            WIFSIGNALED(status) ? absl::StrCat("signal-", WTERMSIG(status))
                                : absl::StrCat("exit-", WEXITSTATUS(status));
        // In-process code crashed: record it against ref, skip the case.
        const std::string state_path = JobStatePath(o.out, job);
        JobState s = LoadJobStateOrEmpty(state_path);
        const int64_t running_seed = running_cases->Get(job);
        running_cases->Set(job, RunningCases::kNone);
        if (running_seed != RunningCases::kNone) {
          generators::kernel::GeneratorOptions g = o.generator;
          g.seed = static_cast<uint64_t>(running_seed);
          absl::Status written;
          if (auto tc = generators::kernel::GenerateTestCase(g); tc.ok()) {
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
            FindingRecord r{v,
                            *tc,
                            g.seed,
                            {{"ref", e}},
                            ReproduceCommand(o, v),
                            std::nullopt,
                            {}};
            auto is_new = RecordFinding(o.out, r);
            if (!is_new.ok()) {
              written = is_new.status();
            } else if (*is_new) {
              ++s.stats.new_findings;
            }
          }
          if (written.ok()) {
            ++s.next;
            ++s.stats.cases;
            written = spirv::WriteJsonFile(state_path, JobStateToJson(s));
          }
          if (!written.ok()) {
            progress << "\nl0spv-fuzz campaign: " << written.message() << "\n";
            if (write_error.ok())
              write_error = absl::ResourceExhaustedError(absl::StrCat(
                  "stopped: cannot record a finding in ", o.out,
                  "; free space or fix the permissions, then re-run the "
                  "same command to resume"));
            stop_jobs();
          }
        }
        if (Clock::now() < deadline && !stopping_since) {
          spawn(job);
          ++running;
        }
      }
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start).count();
    // Past the deadline, jobs finish their current case; a job stuck beyond
    // the per-case limit is killed (its state still points at the case). A
    // stop (signal, failed write) gives jobs one second to finish.
    const bool overdue =
        (timed &&
         now > deadline + o.limits.wall_time * 4 + std::chrono::seconds(10)) ||
        (stopping_since && now - *stopping_since > std::chrono::seconds(1));
    if (overdue) {
      for (pid_t p : pids)
        if (p > 0) ::kill(p, SIGKILL);
    }
    if (now - last_snapshot > std::chrono::seconds(kSnapshotSeconds) &&
        write_error.ok()) {
      if (auto s = AppendSnapshot(o.out, aggregate(), before, elapsed);
          !s.ok()) {
        progress << "\nl0spv-fuzz campaign: " << s.message() << "\n";
        write_error = absl::ResourceExhaustedError(absl::StrCat(
            "stopped: cannot write to ", o.out,
            "; free space or fix the permissions, then re-run the same "
            "command to resume"));
        stop_jobs();
      }
      last_snapshot = now;
    }
    const bool line_due = o.live_progress
                              ? now - last_line > std::chrono::milliseconds(500)
                              : now - last_line > std::chrono::seconds(10);
    if (line_due) {
      const CampaignStats run = aggregate().Since(before);
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
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  RemoveIncomplete(o.out);
  fs::remove_all(o.out + "/.scratch", ec);

  CampaignResult result;
  const CampaignStats total = aggregate();
  result.stats = total.Since(before);
  result.unique_findings = CountFindings(o.out);
  result.interrupted = g_parent_stop;
  result.elapsed_seconds =
      std::chrono::duration<double>(Clock::now() - start).count();
  if (!write_error.ok()) return write_error;
  if (auto s = AppendSnapshot(o.out, total, before, result.elapsed_seconds);
      !s.ok())
    return s;
  nlohmann::json stats = total.ToJson();
  stats["format"] = "l0spv-stats/1";
  stats["shard"] = o.shard;
  stats["shards"] = o.shards;
  stats["seed"] = o.seed;
  stats["unique_findings"] = result.unique_findings;
  stats["yield"] = YieldJson(total, result.unique_findings);
  if (auto s = spirv::WriteJsonFile(o.out + "/stats.json", stats); !s.ok())
    return s;
  progress << ProgressLine(result.stats, result.unique_findings,
                           result.elapsed_seconds, 0)
           << (result.interrupted ? " (interrupted)" : "") << "\n";
  return result;
}

}  // namespace l0spv::fuzzers::campaign
