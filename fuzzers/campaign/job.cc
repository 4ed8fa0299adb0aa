#include "fuzzers/campaign/job.h"

#include <signal.h>
#include <sys/prctl.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fuzzers/campaign/batch_runner.h"
#include "fuzzers/campaign/findings.h"
#include "fuzzers/campaign/routing.h"
#include "generators/kernel/opcode_stats.h"
#include "generators/spirv_fuzz/engine.h"
#include "generators/transform/engine.h"
#include "generators/transform/split_module.h"
#include "oracles/targets/target_kinds.h"
#include "oracles/targets/target_name.h"
#include "oracles/validity/device_profile.h"
#include "oracles/verdict/verdict.h"
#include "spirv/binary.h"
#include "spirv/json_reader.h"
#include "spirv/text_bytes.h"

namespace l0spv::fuzzers::campaign {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string JobStatePath(const std::string& out, uint32_t job) {
  return absl::StrCat(out, "/state/job-", job, ".json");
}

nlohmann::json JobStateToJson(const JobState& s) {
  return {{"next", s.next}, {"stats", s.stats.ToJson()}};
}

absl::StatusOr<JobState> LoadJobState(const std::string& path) {
  JobState s;
  std::error_code ec;
  if (!fs::exists(path, ec)) return s;
  auto j = spirv::ReadJsonFile(path);
  if (!j.ok()) return j.status();
  spirv::JsonReader reader(path, *j,
                           "the campaign writes this file; restore it or "
                           "start the campaign in a new --out");
  spirv::JsonField root = reader.root();
  if (!root.ExpectObject()) return reader.status();
  s.next = root["next"].Uint(0, kMaxCounter);
  if (root["stats"].present()) s.stats = CampaignStats::Read(root["stats"]);
  if (!reader.ok()) return reader.status();
  return s;
}

JobState LoadJobStateOrEmpty(const std::string& path) {
  auto s = LoadJobState(path);
  return s.ok() ? *s : JobState{};
}

absl::StatusOr<std::unique_ptr<oracles::Target>> BuildTarget(
    const CampaignOptions& o, const std::string& name) {
  if (o.make_target) return o.make_target(name);
  return oracles::MakeTarget(name, o.target_options);
}

std::string ReproduceCommand(const CampaignOptions& o,
                             const oracles::Verdict& v) {
  if (v.kind == oracles::VerdictKind::kUb ||
      (v.target == "ref" && v.kind == oracles::VerdictKind::kCrash)) {
    return absl::StrCat(spirv::ShellQuote(o.self_command),
                        " run {case} --target=ref");
  }
  return absl::StrCat(spirv::ShellQuote(o.self_command), " check {case} ",
                      spirv::ShellQuote("--target=" + v.target), " ",
                      spirv::ShellQuote("--signature=" + v.signature));
}

namespace {

std::atomic<bool> g_stop{false};
void OnTerm(int) { g_stop = true; }

// A job's write failed: say where and why, and stop the job (the parent
// stops the campaign).
[[noreturn]] void JobWriteFailed(uint32_t job, const absl::Status& s) {
  std::cerr << "\nl0spv-fuzz campaign: job " << job << ": " << s.message()
            << "\n"
            << std::flush;
  std::_Exit(kJobWriteFailed);
}

// One case of a job's group: what runs in the job's own process (generate,
// split, reference, transform) before the targets run on the whole group.
struct CaseWork {
  uint64_t seed = 0;
  CaseRoute route;  // which targets run it, what it avoids
  absl::StatusOr<spirv::TestCase> test_case = absl::UnknownError("not run");
  // The whole case: what --mutate transforms (then splits alike).
  std::optional<spirv::TestCase> whole;
  oracles::Execution reference;
  bool original_ready = false;  // ref ok: the targets run the case
  std::optional<spirv::TestCase> mutated;
  oracles::Execution mutated_reference;
  bool mutated_ready = false;  // ref ok on the mutated case, and unchanged
  std::map<std::string, std::string> original_signatures;  // by target
  // --mutate=spirv-fuzz: what a finding on the mutant keeps (FindingRecord::
  // extra_files), and the mutant's target name ("spirv-fuzz:SEED").
  std::map<std::string, std::string> spirv_fuzz_files;
  // What a target that runs the case (or its mutant) to a verdict other
  // than skipped adds to its stats.json coverage.
  TargetCoverage names, mutated_names;
};

// The names of `c`'s modules for per-target coverage.
TargetCoverage CoverageOf(const spirv::TestCase& c,
                          const oracles::DeviceProfile& profile) {
  TargetCoverage names;
  generators::kernel::AddCoverageNames(c.module_words, profile, names.core,
                                       names.opencl_std);
  for (const auto& words : c.linked_modules)
    generators::kernel::AddCoverageNames(words, profile, names.core,
                                         names.opencl_std);
  return names;
}

// The device profile case `w` is generated for.
const std::string& ProfileOf(const CampaignOptions& o, const CaseWork& w) {
  return w.route.profile.empty() ? o.generator.profile : w.route.profile;
}

// `generate` flags that give what the campaign sent case `w`'s targets.
std::string GenerateFlagsOf(const CampaignOptions& o, const CaseWork& w) {
  std::string flags = " " + spirv::ShellQuote("--profile=" + ProfileOf(o, w));
  if (!o.avoid_known_bugs) return flags + " --allow_known_bugs";
  std::vector<std::string> routed;
  for (size_t i = 0; i < o.targets.size(); ++i)
    if (w.route.runs[i]) routed.push_back(o.targets[i]);
  if (routed.empty()) return flags + " --allow_known_bugs";
  return flags + " " +
         spirv::ShellQuote("--avoid=" + absl::StrJoin(routed, ","));
}

// Records a finding of case `w`; a write that fails stops the job before
// the case is counted, so a resume redoes it.
void RecordOrStop(const CampaignOptions& o, uint32_t job, const CaseWork& w,
                  const oracles::Verdict& v, const spirv::TestCase& test_case,
                  std::map<std::string, oracles::Execution> outputs,
                  std::string reproduce, CampaignStats& stats) {
  FindingRecord r{v,
                  test_case,
                  w.seed,
                  std::move(outputs),
                  std::move(reproduce),
                  std::nullopt,
                  {}};
  const bool on_mutant = w.mutated && &test_case == &*w.mutated;
  if (test_case.transformation_log ||
      (on_mutant && !w.spirv_fuzz_files.empty()))
    r.original = w.whole ? *w.whole : *w.test_case;
  if (on_mutant || oracles::TargetKind(v.target) == "spirv-fuzz")
    r.extra_files = w.spirv_fuzz_files;
  auto is_new = RecordFinding(o.out, r);
  if (!is_new.ok()) JobWriteFailed(job, is_new.status());
  if (*is_new) {
    ++stats.new_findings;
  } else {
    ++stats.duplicate_hits;
  }
}

using RecordFn =
    std::function<void(const oracles::Verdict&, const spirv::TestCase&,
                       std::map<std::string, oracles::Execution>, std::string)>;

// The files a spirv-fuzz finding keeps (FindingRecord::extra_files).
std::map<std::string, std::string> SpirvFuzzFiles(
    uint64_t seed, const generators::spirv_fuzz::Mutation& m) {
  std::map<std::string, std::string> files{
      {"spirv-fuzz/seed", absl::StrCat(seed, "\n")},
      {"spirv-fuzz/outcome.json",
       spirv::DumpJson(
           nlohmann::json{
               {"outcome", generators::spirv_fuzz::OutcomeName(m.outcome)},
               {"detail", m.detail},
               {"transformations", m.transformation_count},
               {"known_bugs_avoided", m.known_bugs_avoided},
               {"fixups", m.fixups.ToJson()}},
           2)}};
  if (!m.transformations.empty())
    files["spirv-fuzz/transformations"] = m.transformations;
  if (!m.transformations_json.empty())
    files["spirv-fuzz/transformations.json"] = m.transformations_json;
  if (!m.raw_words.empty()) {
    std::string raw(reinterpret_cast<const char*>(m.raw_words.data()),
                    m.raw_words.size() * sizeof(uint32_t));
    files["spirv-fuzz/raw.spv"] = std::move(raw);
  }
  return files;
}

// --mutate=spirv-fuzz for case `w` (its reference already ok): the engine,
// then ref on the mutant with every UB check (`ref` here checks
// uninitialised reads too: spirv-fuzz makes them, and a mutant reading
// garbage is no test) — UB drops it, a different result is a spirv-fuzz bug
// — and, when it is usable, the mutant for the targets.
template <typename Timed, typename Split>
void PrepareSpirvFuzzMutant(const CampaignOptions& o, CaseWork& w,
                            CampaignStats& stats, const Timed& timed,
                            const RecordFn& record, oracles::Target& ref,
                            const Split& split) {
  namespace sf = generators::spirv_fuzz;
  const spirv::TestCase& whole = w.whole ? *w.whole : *w.test_case;
  std::map<std::string, uint64_t>& c = stats.spirv_fuzz;
  ++c["runs"];
  sf::EngineOptions eo;
  eo.program = o.spirv_fuzz;
  eo.avoid_known_bugs = w.route.avoid;
  eo.scratch_dir = o.target_options.scratch_dir;
  eo.wall_time = std::max<std::chrono::milliseconds>(o.limits.wall_time,
                                                     std::chrono::seconds(30));
  auto m = sf::MutateWithSpirvFuzz(whole, w.seed, eo);
  if (!m.ok()) {
    ++stats.generator_errors;  // harness trouble (scratch, fork)
    return;
  }
  ++c[sf::OutcomeName(m->outcome)];
  w.spirv_fuzz_files = SpirvFuzzFiles(w.seed, *m);
  const std::string raw_target = absl::StrCat("spirv-fuzz:", w.seed);
  const std::string fixed_target = raw_target + "+fixup";
  if (m->outcome == sf::Outcome::kToolCrashed ||
      m->outcome == sf::Outcome::kToolTimedOut) {
    oracles::Execution e;
    e.status = m->outcome == sf::Outcome::kToolCrashed
                   ? oracles::ExecutionStatus::kCrashed
                   : oracles::ExecutionStatus::kTimedOut;
    e.message = m->detail;
    const oracles::Verdict v =
        oracles::Judge(whole, w.reference, raw_target, true, e);
    if (v.IsFinding())
      record(v, whole, {{"ref", w.reference}, {raw_target, e}},
             ReproduceCommand(o, v));
    return;
  }
  if (m->outcome != sf::Outcome::kMutated) return;
  c["transformations"] += m->transformation_count;
  c["known-bugs-avoided"] += m->known_bugs_avoided;
  const nlohmann::json fixups = m->fixups.ToJson();
  for (const auto& [what, n] : fixups.items()) {
    const uint64_t count = n.template get<uint64_t>();
    if (count != 0) c["fixup." + what] += count;
  }
  spirv::TestCase mutant = std::move(m->test_case);
  split(mutant);
  w.mutated = std::move(mutant);
  const spirv::TestCase& mt = *w.mutated;
  auto [mref, mns] = timed([&] { return ref.Run(mt, o.limits); });
  w.mutated_reference = std::move(mref);
  const oracles::Verdict mrv = oracles::JudgeReference(w.mutated_reference);
  if (mrv.kind == oracles::VerdictKind::kUb) {
    // spirv-fuzz's own UB (a data race from its pointer mutations, a null
    // dereference): not a finding of any consumer.
    ++c["ub-dropped"];
    stats.targets["ref~mutated"].Count(oracles::VerdictKind::kSkipped, mns);
    return;
  }
  stats.targets["ref~mutated"].Count(mrv.kind, mns);
  if (mrv.kind != oracles::VerdictKind::kOk) return;
  // The mutant's reference results are spirv-fuzz+fixup's output run: judged
  // as `check ORIGINAL --target=spirv-fuzz:SEED+fixup` would.
  const oracles::Verdict self = oracles::Judge(whole, w.reference, fixed_target,
                                               true, w.mutated_reference);
  if (self.IsFinding()) {
    ++c["changed-results"];
    record(self, whole,
           {{"ref", w.reference}, {fixed_target, w.mutated_reference}},
           ReproduceCommand(o, self));
    return;
  }
  ++c["usable"];
  w.mutated_ready = true;
}

// Generates, splits and runs case `w` on the reference, and with --mutate
// transforms it and checks the reference against itself; records what the
// reference finds. `timed` runs a target call and adds its time.
template <typename Timed>
void PrepareCase(const CampaignOptions& o, CaseWork& w,
                 const oracles::DeviceProfile& profile, CampaignStats& stats,
                 const Timed& timed, const RecordFn& record,
                 oracles::Target& ref, oracles::Target& strict_ref) {
  generators::kernel::GeneratorOptions g = o.generator;
  g.seed = w.seed;
  g.profile = ProfileOf(o, w);
  g.avoid_known_bugs = w.route.avoid;
  for (uint32_t id : w.route.allowed_bugs)
    g.allowed_bugs.push_back(static_cast<oracles::KnownBugId>(id));
  if (w.route.newest_spirv != ~0u)
    g.max_spirv_version =
        g.max_spirv_version == 0
            ? w.route.newest_spirv
            : std::min(g.max_spirv_version, w.route.newest_spirv);
  w.test_case = generators::kernel::GenerateTestCase(g);
  // LinkOnceODR copies while no linker release of the case has a bug
  // about them (the spirv-link 2023.1 entries are not on 2025.5).
  const bool linkonce =
      o.split_linkonce &&
      profile.FindExtension("SPV_KHR_linkonce_odr") != nullptr &&
      generators::transform::LinkonceAllowed(w.route.avoid, g.allowed_bugs);
  const auto split = [&](spirv::TestCase& c) {
    if (o.split_modules == 0) return;
    generators::transform::SplitOptions so;
    so.seed = w.seed;
    so.modules = o.split_modules == 1 ? 0 : o.split_modules;
    so.avoid_known_bugs = w.route.avoid;
    auto parts = generators::transform::SplitCase(c, so, linkonce);
    if (parts.ok()) {
      c = *std::move(parts);
    } else if (!absl::IsFailedPrecondition(parts.status())) {
      ++stats.generator_errors;  // FailedPrecondition: stays whole
    }
  };
  if (w.test_case.ok() && o.split_modules != 0) {
    w.whole = *w.test_case;
    split(*w.test_case);
    if (!w.test_case->linked_modules.empty()) ++stats.split_cases;
  }
  if (!w.test_case.ok()) {
    ++stats.generator_errors;
    return;
  }
  const spirv::TestCase& tc = *w.test_case;
  auto [reference, ns] = timed([&] { return ref.Run(tc, o.limits); });
  w.reference = std::move(reference);
  const oracles::Verdict rv = oracles::JudgeReference(w.reference);
  stats.targets["ref"].Count(rv.kind, ns);
  if (rv.IsFinding())
    record(rv, tc, {{"ref", w.reference}}, ReproduceCommand(o, rv));
  if (rv.kind != oracles::VerdictKind::kOk) return;
  w.original_ready = true;
  if (o.mutate == CampaignOptions::MutateEngine::kNone) return;
  if (o.mutate == CampaignOptions::MutateEngine::kSpirvFuzz) {
    PrepareSpirvFuzzMutant(o, w, stats, timed, record, strict_ref, split);
    return;
  }
  // Metamorphic testing: the same case after semantics-preserving
  // transformations must give every target the same results.
  generators::transform::TransformOptions to;
  to.seed = w.seed;
  to.avoid_known_bugs = w.route.avoid;
  to.allowed_bugs = g.allowed_bugs;
  auto mutated = generators::transform::Transform(w.whole ? *w.whole : tc, to);
  if (!mutated.ok()) {
    ++stats.generator_errors;
    return;
  }
  split(mutated->test_case);
  w.mutated = std::move(mutated->test_case);
  const spirv::TestCase& mt = *w.mutated;
  auto [mref, mns] = timed([&] { return ref.Run(mt, o.limits); });
  w.mutated_reference = std::move(mref);
  oracles::Verdict mrv = oracles::JudgeReference(w.mutated_reference);
  if (mrv.kind == oracles::VerdictKind::kOk) {
    // ref must agree with itself across the transformation; otherwise a
    // transformation kind is wrong (our bug).
    const oracles::Verdict self =
        oracles::Judge(mt, w.reference, "ref", true, w.mutated_reference);
    if (self.IsFinding()) {
      mrv = self;
      mrv.explanation = absl::StrCat(
          "the transformations changed ref's results (a bug in a "
          "transformation kind): ",
          self.explanation);
      mrv.signature = "mismatch:ref:transformation changed results";
    }
  }
  stats.targets["ref~mutated"].Count(mrv.kind, mns);
  if (mrv.IsFinding()) {
    record(
        mrv, mt, {{"ref", w.reference}, {"ref~mutated", w.mutated_reference}},
        absl::StrCat(spirv::ShellQuote(o.self_command),
                     " generate --seed=", w.seed, GenerateFlagsOf(o, w),
                     " --out=original && ", spirv::ShellQuote(o.self_command),
                     " replay original {case} --check"));
  } else if (mrv.kind == oracles::VerdictKind::kOk) {
    w.mutated_ready = true;
  }
}

// The batch size of `target` in this campaign: --batch, or with --batch=auto
// (0) what bench/targets/batch_bench measured for its consumer.
uint32_t BatchSizeFor(const CampaignOptions& o, const std::string& target) {
  return o.batch == 0 ? oracles::DefaultBatchSize(target) : o.batch;
}

// The cases a group needs for `target`'s batches to fill: its batch size,
// times four for a target that batches only cases of one key (spirv-opt:
// spirv::BatchKey splits a group of 16 generated cases into 3-4 batches).
// Measured on 640 cases, --target=spirv-opt --batch=16, one job: 175.8
// cases/s at 16 cases a group (135 batches), 199.6 at 32 (77), 213.6 at 64
// (57).
uint32_t GroupSizeFor(const CampaignOptions& o, const oracles::Target& target) {
  const uint32_t batch = BatchSizeFor(o, target.name());
  return batch > 1 && target.batches_by_key() ? 4 * batch : batch;
}

// A group's cases are held in memory and redone whole after a failed
// write: bounded whatever a target's share.
constexpr uint32_t kMaxGroupCases = 512;

}  // namespace

int RunJob(const CampaignOptions& o, uint32_t job, Clock::time_point deadline,
           RunningCases& running) {
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  struct sigaction sa {};
  sa.sa_handler = OnTerm;
  ::sigaction(SIGTERM, &sa, nullptr);
  ::sigaction(SIGINT, &sa, nullptr);

  oracles::TargetOptions ref_options = o.target_options;
  ref_options.ref_in_process = true;  // the job is itself a worker process
  auto ref = oracles::MakeTarget("ref", ref_options);
  if (!ref.ok()) return kJobSetupFailed;
  oracles::TargetOptions strict_options = ref_options;
  strict_options.reference.check_uninitialized = true;
  auto strict_ref = oracles::MakeTarget("ref", strict_options);
  if (!strict_ref.ok()) return kJobSetupFailed;
  std::vector<std::unique_ptr<oracles::Target>> targets;
  for (const std::string& name : o.targets) {
    auto t = BuildTarget(o, name);
    if (!t.ok()) return kJobSetupFailed;
    targets.push_back(std::move(*t));
  }

  const std::string state_path = JobStatePath(o.out, job);
  auto loaded = LoadJobState(state_path);
  if (!loaded.ok()) JobWriteFailed(job, loaded.status());
  JobState state = *loaded;
  // A group of cases at a time: first each case's own work (generate,
  // split, reference, transform), then every target on the cases of the
  // group routed to it (batched by RunOnTarget), so a consumer pays its
  // fixed cost once per batch. The group is large enough for each target's
  // batches to fill at its routed share.
  const CaseRouter router = RouterOf(o);
  uint32_t group_size = 1;
  for (size_t i = 0; i < targets.size(); ++i) {
    const double share = std::max(router.Share(i), 1.0 / 16);
    group_size = std::max(
        group_size,
        static_cast<uint32_t>(std::ceil(GroupSizeFor(o, *targets[i]) / share)));
  }
  group_size = std::min(group_size, kMaxGroupCases);
  // The profiles cases are generated for, by name (coverage counts what
  // each makes usable).
  std::map<std::string, oracles::DeviceProfile> profiles;
  std::vector<std::string> profile_names{o.generator.profile};
  for (const RouteTarget& t : router.targets())
    if (!t.profile.empty()) profile_names.push_back(t.profile);
  for (const std::string& name : profile_names) {
    if (profiles.contains(name)) continue;
    auto p = oracles::FindDeviceProfile(name);
    if (!p.ok()) return kJobSetupFailed;
    profiles.emplace(name, *std::move(p));
  }
  while (!g_stop && Clock::now() < deadline) {
    const auto group_start = Clock::now();
    uint64_t inside_targets = 0;
    const auto timed = [&](auto&& run) {
      const auto t0 = Clock::now();
      auto result = run();
      const uint64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                              Clock::now() - t0)
                              .count();
      inside_targets += ns;
      return std::make_pair(std::move(result), ns);
    };
    const uint64_t first = state.next;
    std::vector<CaseWork> group;
    group.reserve(group_size);
    // A group stops early at the deadline (it may hold 64 cases).
    for (uint64_t n = first; n < first + group_size && !g_stop &&
                             (n == first || Clock::now() < deadline);
         ++n) {
      const uint64_t index = job + n * o.jobs;
      if (o.iterations != 0 && index >= o.iterations) break;
      CaseWork& w = group.emplace_back();
      w.seed = CaseSeed(o, index);
      w.route = router.Route(w.seed);
      // In-process work runs now: a job dying here names this case. `next`
      // stays at the group's first case, so a resume after a failed write
      // redoes the whole group (a death skips the first case per restart).
      running.Set(job, static_cast<int64_t>(w.seed));
      const oracles::DeviceProfile& profile = profiles.at(ProfileOf(o, w));
      PrepareCase(
          o, w, profile, state.stats, timed,
          [&](const oracles::Verdict& v, const spirv::TestCase& test_case,
              std::map<std::string, oracles::Execution> outputs,
              std::string reproduce) {
            RecordOrStop(o, job, w, v, test_case, std::move(outputs),
                         std::move(reproduce), state.stats);
          },
          **ref, **strict_ref);
      if (w.original_ready) w.names = CoverageOf(*w.test_case, profile);
      if (w.mutated_ready) w.mutated_names = CoverageOf(*w.mutated, profile);
    }
    if (group.empty()) break;
    // The targets' turn: a job dying now is recorded against the group's
    // first case.
    running.Set(job, static_cast<int64_t>(group.front().seed));
    for (size_t t = 0; t < targets.size(); ++t) {
      oracles::Target& target = *targets[t];
      const std::string& name = target.name();
      for (const bool mutated : {false, true}) {
        std::vector<CaseOnTarget> runnable;
        std::vector<CaseWork*> owners;
        for (CaseWork& w : group) {
          const bool ready = mutated ? w.mutated_ready : w.original_ready;
          if (!ready || !w.route.runs[t]) continue;
          runnable.push_back({mutated ? &*w.mutated : &*w.test_case,
                              mutated ? &w.mutated_reference : &w.reference});
          owners.push_back(&w);
        }
        if (runnable.empty()) continue;
        const std::string counter_name = mutated ? name + "~mutated" : name;
        TargetCounters& counters = state.stats.targets[counter_name];
        const std::vector<TargetResult> results =
            timed([&] {
              return RunOnTarget(target, runnable, BatchSizeFor(o, name),
                                 o.limits, counters);
            }).first;
        for (size_t i = 0; i < results.size(); ++i) {
          CaseWork& w = *owners[i];
          const spirv::TestCase& tc = *runnable[i].test_case;
          const oracles::Execution& reference = *runnable[i].reference;
          const oracles::Execution& e = results[i].execution;
          const oracles::Verdict& v = results[i].verdict;
          counters.Count(v.kind, results[i].nanos);
          if (v.kind != oracles::VerdictKind::kSkipped)
            state.stats.coverage[name].Add(mutated ? w.mutated_names : w.names);
          if (!mutated) {
            w.original_signatures[name] = v.signature;
            if (v.IsFinding())
              RecordOrStop(o, job, w, v, tc, {{"ref", reference}, {name, e}},
                           ReproduceCommand(o, v), state.stats);
          } else if (v.IsFinding() &&
                     v.signature != w.original_signatures[name]) {
            // A finding the original already showed is not new here.
            RecordOrStop(o, job, w, v, tc, {{"ref", reference}, {name, e}},
                         ReproduceCommand(o, v), state.stats);
          }
        }
      }
    }
    const uint64_t group_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() -
                                                             group_start)
            .count();
    state.stats.cases += group.size();
    state.stats.case_nanos += group_ns;
    state.stats.harness_nanos += group_ns - std::min(group_ns, inside_targets);
    state.next = first + group.size();
    running.Set(job, RunningCases::kNone);
    if (auto s = spirv::WriteJsonFile(state_path, JobStateToJson(state));
        !s.ok())
      JobWriteFailed(job, s);
  }
  return 0;
}

}  // namespace l0spv::fuzzers::campaign
