#include "reducers/pipeline.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "generators/transform/engine.h"
#include "reducers/bundle.h"
#include "reducers/collapse_passes.h"
#include "reducers/finding.h"
#include "reducers/kernel_passes.h"
#include "reducers/log_stage.h"
#include "reducers/merge_modules.h"
#include "reducers/module_edit.h"
#include "reducers/shrink_images.h"
#include "reducers/spirv_fuzz_shrink_stage.h"
#include "spirv/text_bytes.h"

namespace l0spv::reducers {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

nlohmann::json ReductionReport::ToJson() const {
  nlohmann::json stages_json = nlohmann::json::array();
  for (const StageReport& s : stages) {
    nlohmann::json j = {{"name", s.name},
                        {"rounds", s.rounds},
                        {"kept", s.kept},
                        {"interestingness_runs", s.runs},
                        {"seconds", s.seconds},
                        {"instructions_removed", s.instructions_removed}};
    if (!s.unsupported.empty()) j["unsupported"] = s.unsupported;
    stages_json.push_back(std::move(j));
  }
  return {{"signature", signature},
          {"final_signature", final_signature},
          {"instructions_before", instructions_before},
          {"instructions_after", instructions_after},
          {"words_before", words_before},
          {"words_after", words_after},
          {"work_items_before", work_items_before},
          {"work_items_after", work_items_after},
          {"interestingness_runs", interestingness_runs},
          {"rounds", rounds},
          {"seconds", seconds},
          {"budget_spent", budget_spent},
          {"transformation_records_before", log_records_before},
          {"transformation_records_after", log_records_after},
          {"stages", stages_json}};
}

std::vector<std::unique_ptr<Stage>> DefaultStages(
    const SpirvReduceOptions& spirv_reduce,
    std::optional<spirv::TestCase> original,
    const std::string& spirv_fuzz_transformations) {
  std::vector<std::unique_ptr<Stage>> stages;
  std::optional<SpirvFuzzShrinkInput> sfuzz;
  if (original && !spirv_fuzz_transformations.empty())
    sfuzz = SpirvFuzzShrinkInput{*original, spirv_fuzz_transformations};
  // First of all: spirv-fuzz's sequence describes only the mutant itself.
  stages.push_back(
      std::make_unique<SpirvFuzzShrinkStage>(spirv_reduce, std::move(sfuzz)));
  // First: a log describes the module only until another stage edits it.
  stages.push_back(MakeLogShrinkStage(std::move(original)));
  stages.push_back(MakeMergeModulesStage());
  stages.push_back(MakeNdRangeStage());
  stages.push_back(MakeBufferStage());
  stages.push_back(MakeShrinkImagesStage());
  stages.push_back(MakeExtInstToConstantStage());
  stages.push_back(MakeRemoveStatementsStage());
  stages.push_back(MakeValueToConstantStage());
  stages.push_back(MakeRemoveUnusedStage());
  stages.push_back(MakeSimplifyBranchesStage());
  stages.push_back(MakeRemoveUnusedStage());
  stages.push_back(MakeInlineSingleCallsStage());
  stages.push_back(MakeRemoveFunctionsStage());
  stages.push_back(MakeFoldLaneAccessesStage());
  stages.push_back(MakeVectorsToScalarsStage());
  stages.push_back(MakeRemoveUnusedStage());
  stages.push_back(std::make_unique<SpirvReduceStage>(spirv_reduce));
  stages.push_back(MakeShrinkConstantsStage());
  stages.push_back(MakeDropUnusedArgsStage());
  return stages;
}

std::string ReproCommand(const std::string& self,
                         const std::vector<std::string>& targets,
                         const std::string& signature,
                         uint64_t reference_steps) {
  // Every word quoted: target names may hold spaces ("opencl:Portable
  // Computing Language"), signatures shell metacharacters.
  std::vector<std::string> repro = {
      spirv::ShellQuote(self),
      "check",
      "\"$(dirname \"$0\")\"",
      spirv::ShellQuote("--target=" + (targets.empty()
                                           ? std::string("ref")
                                           : absl::StrJoin(targets, ","))),
      spirv::ShellQuote("--signature=" + signature),
      "--strict"};
  if (reference_steps != 0)
    repro.push_back(absl::StrCat("--ref_steps=", reference_steps));
  return absl::StrJoin(repro, " ");
}

std::chrono::milliseconds CandidateWallLimit(Clock::duration first_check) {
  const auto scaled =
      std::chrono::duration_cast<std::chrono::milliseconds>(first_check * 4);
  return std::max<std::chrono::milliseconds>(scaled, std::chrono::seconds(5));
}

namespace {
constexpr std::chrono::milliseconds kTimeoutFindingCheck{10000};
}  // namespace

absl::StatusOr<ReductionReport> ReduceFinding(const std::string& finding_dir,
                                              const ReduceOptions& options) {
  const Clock::time_point start = Clock::now();
  auto finding = ReadFinding(finding_dir);
  if (!finding.ok()) return finding.status();

  InterestingnessOptions io;
  if (finding->target != "ref") io.targets.push_back(finding->target);
  io.signature = finding->signature;
  io.limits.wall_time = options.target_timeout;
  // A hang costs every candidate the whole limit, so a timeout finding is
  // reduced against a 10 s limit (hangs are nearly always endless; its
  // first check must still time out at 10 s, or there is nothing to do).
  if (finding->kind == "timeout")
    io.limits.wall_time = std::min<std::chrono::milliseconds>(
        io.limits.wall_time, kTimeoutFindingCheck);
  io.make_target = options.make_target;
  io.max_undefs = CountUndefs(finding->test_case.module_words);
  auto oracle = Interestingness::Make(io);
  if (!oracle.ok()) {
    return absl::Status(
        oracle.status().code(),
        absl::StrCat(finding_dir,
                     "/verdict.json: field 'target': cannot rebuild the "
                     "finding's oracle: ",
                     oracle.status().message()));
  }
  const Clock::time_point first_start = Clock::now();
  const CheckOutcome first = (*oracle)->Check(finding->test_case);
  const Clock::duration first_time = Clock::now() - first_start;
  if (!first.interesting) {
    std::string seen;
    for (const oracles::Verdict& v : first.verdicts)
      if (!v.signature.empty()) absl::StrAppend(&seen, " ", v.signature);
    return absl::FailedPreconditionError(absl::StrCat(
        finding_dir, ": the finding does not reproduce here (wanted ",
        finding->signature, "; got",
        first.rejected.empty() ? (seen.empty() ? " no finding" : seen)
                               : " rejected: " + first.rejected.substr(0, 300),
        "), so there is nothing to reduce against"));
  }

  // Candidates may loop far longer than the finding did (a loop bound
  // shrunk to 0 that counts down): cap the reference at 4x the original's
  // steps, so such a candidate is rejected in milliseconds, not seconds.
  uint64_t reference_steps = 0;
  if (auto it = first.executions.find("ref"); it != first.executions.end())
    reference_steps =
        std::max<uint64_t>(it->second.instructions_executed * 4, 1'000'000);
  if (reference_steps != 0) {
    if (auto s = (*oracle)->LimitReferenceSteps(reference_steps); !s.ok())
      return s;
  }
  // The same for wall time: a candidate that takes far longer than the
  // finding did (a consumer compiling a blown-up loop, a hang the reduction
  // introduced) is not the bug; waiting the full --timeout for each of them
  // is what made reductions overrun their budget.
  // A timeout finding keeps its fixed check limit: a candidate is
  // interesting exactly when it still times out there.
  if (finding->kind != "timeout")
    (*oracle)->LimitWallTime(CandidateWallLimit(first_time));

  ReductionReport report;
  report.signature = finding->signature;
  report.instructions_before = FunctionBodyInstructionCount(finding->test_case);
  report.words_before = WordCount(finding->test_case);
  report.work_items_before =
      spirv::GlobalWorkItems(finding->test_case.nd_range);

  SpirvReduceOptions so;
  so.program = options.spirv_reduce;
  so.check_command = options.check_command;
  so.targets = io.targets;
  so.signature = finding->signature;
  so.target_timeout_seconds = static_cast<uint32_t>(
      std::chrono::duration_cast<std::chrono::seconds>(io.limits.wall_time)
          .count());
  so.scratch_parent = options.scratch_dir;
  so.reference_steps = reference_steps;
  std::vector<std::unique_ptr<Stage>> stages =
      DefaultStages(so, finding->original, finding->spirv_fuzz_transformations);
  report.stages.resize(stages.size());
  for (size_t i = 0; i < stages.size(); ++i) {
    report.stages[i].name = stages[i]->name();
    if (auto* s = dynamic_cast<SpirvReduceStage*>(stages[i].get()))
      report.stages[i].unsupported = s->unsupported();
    if (auto* s = dynamic_cast<SpirvFuzzShrinkStage*>(stages[i].get()))
      report.stages[i].unsupported = s->unsupported();
  }

  // --reduce_time bounds the whole reduction: the stages stop early enough
  // for a candidate still in flight and the final re-check to fit in it —
  // each costs about what the finding's first check did, candidates being
  // smaller (a pathological candidate can still run to its wall limit) —
  // but keep at least half of the budget.
  const Clock::duration reserve = 2 * first_time;
  const Clock::duration stage_budget =
      std::max<Clock::duration>(options.budget - reserve, options.budget / 2);
  ReductionContext ctx(finding->test_case, oracle->get(), start + stage_budget);
  for (bool progress = true; progress && !ctx.Expired();) {
    progress = false;
    ++report.rounds;
    for (size_t i = 0; i < stages.size() && !ctx.Expired(); ++i) {
      StageReport& sr = report.stages[i];
      if (!sr.unsupported.empty()) continue;
      const uint64_t runs0 = (*oracle)->runs();
      auto* spirv_reduce = dynamic_cast<SpirvReduceStage*>(stages[i].get());
      auto* sfuzz = dynamic_cast<SpirvFuzzShrinkStage*>(stages[i].get());
      const uint64_t script0 = spirv_reduce ? spirv_reduce->script_runs()
                               : sfuzz      ? sfuzz->script_runs()
                                            : 0;
      const size_t before = FunctionBodyInstructionCount(ctx.current());
      const Clock::time_point t0 = Clock::now();
      const bool kept = stages[i]->Run(ctx);
      sr.seconds += Seconds(Clock::now() - t0);
      ++sr.rounds;
      sr.runs += (*oracle)->runs() - runs0;
      if (spirv_reduce) sr.runs += spirv_reduce->script_runs() - script0;
      if (sfuzz) sr.runs += sfuzz->script_runs() - script0;
      const size_t after = FunctionBodyInstructionCount(ctx.current());
      if (after < before) sr.instructions_removed += before - after;
      if (kept) {
        ++sr.kept;
        progress = true;
      }
      if (options.log != nullptr) {
        *options.log << absl::StrFormat(
            "reduce: round %d %-22s %s  %4d -> %4d instructions, %.1f s\n",
            report.rounds, sr.name, kept ? "kept" : "    ", before, after,
            sr.seconds);
      }
    }
  }
  report.budget_spent = ctx.Expired();

  // The reduced case's own verdicts, for the bundle.
  const CheckOutcome last = (*oracle)->Check(ctx.current());
  oracles::Verdict matched;
  for (const oracles::Verdict& v : last.verdicts)
    if (SignatureMatches(finding->signature, v)) matched = v;
  if (!last.interesting) {
    // A flaky consumer: keep the campaign's verdict text, say so.
    matched.target = finding->target;
    matched.signature = finding->signature;
    matched.explanation =
        "(the final re-check did not reproduce: the consumer may be flaky)";
  }
  report.final_signature = matched.signature;
  report.instructions_after = FunctionBodyInstructionCount(ctx.current());
  report.words_after = WordCount(ctx.current());
  report.work_items_after = spirv::GlobalWorkItems(ctx.current().nd_range);
  auto count_records = [](const spirv::TestCase& tc) -> uint64_t {
    if (!tc.transformation_log) return 0;
    auto r = generators::transform::LogRecords(*tc.transformation_log);
    return r.ok() ? r->size() : 0;
  };
  report.log_records_before = count_records(finding->test_case);
  report.log_records_after = count_records(ctx.current());
  uint64_t runs = (*oracle)->runs();
  for (const StageReport& s : report.stages)
    if (s.name == "spirv-reduce") runs += s.runs;
  report.interestingness_runs = runs;
  report.seconds = Seconds(Clock::now() - start);

  ReducedBundle bundle;
  bundle.test_case = ctx.current();
  bundle.verdict = matched;
  bundle.executions = last.executions;
  bundle.report = report.ToJson();
  bundle.instructions_before = report.instructions_before;
  bundle.instructions_after = report.instructions_after;
  bundle.repro_command = ReproCommand(options.self_command, io.targets,
                                      finding->signature, reference_steps);
  if (auto s = WriteReducedBundle(*finding, bundle); !s.ok()) return s;
  return report;
}

}  // namespace l0spv::reducers
