// `l0spv-fuzz check CASE_DIR --target=LIST [--signature=SIG] [--strict]
// [--module=FILE.spv]`: re-runs the oracle that produced a finding; the
// interestingness test of reduction (reducers/check_case.h). With
// --save_finding=OUT every matching verdict is recorded as the campaign
// records it (OUT/findings/<name>/), so `reduce` can take a case that did
// not come from a campaign (a decoded fuzzer crash, a hand-written kernel).
#include <filesystem>
#include <iostream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "fuzzers/campaign/findings.h"
#include "fuzzers/cli/case_input.h"
#include "fuzzers/cli/commands.h"
#include "fuzzers/cli/reduce_support.h"
#include "oracles/targets/target_registry.h"
#include "oracles/verdict/verdict.h"
#include "reducers/check_case.h"
#include "spirv/link.h"
#include "spirv/test_case.h"
#include "spirv/text_bytes.h"

ABSL_DECLARE_FLAG(std::string, target);
ABSL_DECLARE_FLAG(int, timeout);
ABSL_DECLARE_FLAG(bool, json);
ABSL_FLAG(std::string, signature, "",
          "interesting only when a verdict has exactly this signature (a "
          "mismatch signature: any mismatch of the same target)");
ABSL_FLAG(bool, strict, false,
          "the reduction oracle: every reference UB check on (uninitialised "
          "reads too), the case must lint clean and hold no more OpUndef "
          "than CASE_DIR's module");
ABSL_FLAG(std::string, module, "",
          "take the module from this .spv file instead of CASE_DIR "
          "(spirv-reduce's candidate)");

ABSL_FLAG(bool, kernel_fixup, false,
          "with --module: the module is spirv-fuzz's raw output (its "
          "shrinker's candidate); apply the --mutate=spirv-fuzz engine's "
          "Kernel fix-up first (a candidate it cannot fix is not "
          "interesting)");

ABSL_FLAG(std::string, save_finding, "",
          "record every verdict that matches (any finding without "
          "--signature) under OUT/findings/<name>/, as a campaign does, for "
          "`l0spv-fuzz reduce`");

ABSL_FLAG(uint64_t, ref_steps, 0,
          "step budget of the reference interpreter (0 = its default); "
          "reduction caps it near the finding's own cost");

namespace l0spv::fuzzers::cli {
namespace {

// Records each verdict of `outcome` that matches the request's signature as
// a finding under OUT; prints the directories.
int SaveFindings(const reducers::CheckRequest& request,
                 const reducers::CheckOutcome& outcome,
                 const std::string& out) {
  auto tc = spirv::ReadTestCase(request.case_dir);
  if (!tc.ok()) return UsageError("check", std::string(tc.status().message()));
  for (const oracles::Verdict& v : outcome.verdicts) {
    if (!v.IsFinding() || !reducers::SignatureMatches(request.signature, v))
      continue;
    fuzzers::campaign::FindingRecord record;
    record.verdict = v;
    record.test_case = *tc;
    record.outputs = outcome.executions;
    record.reproduce =
        absl::StrCat(spirv::ShellQuote(SelfExecutable()), " check {case} ",
                     spirv::ShellQuote("--target=" + v.target), " ",
                     spirv::ShellQuote("--signature=" + v.signature));
    auto recorded = fuzzers::campaign::RecordFinding(out, record);
    if (!recorded.ok()) {
      std::cerr << "l0spv-fuzz check: --save_finding=" << out << ": "
                << recorded.status().message() << "\n";
      return kExitUsage;
    }
    std::cerr << "finding saved: "
              << (std::filesystem::path(out) / "findings" /
                  fuzzers::campaign::FindingDirName(v.signature))
                     .string()
              << "\n";
  }
  return kExitOk;
}

int RunCheck(const std::vector<std::string>& positional) {
  if (positional.size() != 1) {
    return UsageError("check", "expected exactly one CASE_DIR");
  }
  auto names = oracles::ParseTargetList(absl::GetFlag(FLAGS_target));
  if (!names.ok())
    return UsageError("check", std::string(names.status().message()));
  reducers::CheckRequest request;
  request.case_dir = positional[0];
  request.module_file = absl::GetFlag(FLAGS_module);
  request.targets = *names;
  request.signature = absl::GetFlag(FLAGS_signature);
  request.strict = absl::GetFlag(FLAGS_strict);
  request.kernel_fixup = absl::GetFlag(FLAGS_kernel_fixup);
  if (request.kernel_fixup && request.module_file.empty())
    return UsageError("check", "--kernel_fixup applies to a --module file");
  request.reference_steps = absl::GetFlag(FLAGS_ref_steps);
  request.timeout = std::chrono::seconds(absl::GetFlag(FLAGS_timeout));
  if (!absl::GetFlag(FLAGS_save_finding).empty() &&
      !request.module_file.empty()) {
    return UsageError("check",
                      "--save_finding records CASE_DIR as it is; it does not "
                      "combine with --module (write the module into a copy "
                      "of CASE_DIR instead)");
  }
  // The case itself must be runnable: a case no oracle can run is bad
  // input (exit 2), not "not interesting". (A --module candidate of
  // spirv-reduce that breaks is just not interesting.)
  if (request.module_file.empty()) {
    auto tc = ReadCaseInput(request.case_dir);
    if (!tc.ok())
      return UsageError("check", std::string(tc.status().message()));
    if (absl::Status s = spirv::CheckCaseRunnable(*tc, request.case_dir);
        !s.ok())
      return UsageError("check", std::string(s.message()));
  }
  auto outcome = reducers::CheckCaseDir(request);
  if (!outcome.ok())
    return UsageError("check", std::string(outcome.status().message()));
  if (request.module_file.empty()) {
    auto ref = outcome->executions.find("ref");
    const bool ref_cannot_run =
        ref != outcome->executions.end() &&
        (ref->second.status == oracles::ExecutionStatus::kUnsupported ||
         ref->second.status == oracles::ExecutionStatus::kBuildFailed ||
         ref->second.status == oracles::ExecutionStatus::kTimedOut);
    // A kernel that never ends (or ends past --timeout) has no reference
    // result to judge any target by: bad input, not "not interesting".
    const std::string timed_out_hint =
        ref != outcome->executions.end() &&
                ref->second.status == oracles::ExecutionStatus::kTimedOut
            ? absl::StrCat(
                  " (the kernel may never end; a longer --timeout "
                  "than ",
                  absl::GetFlag(FLAGS_timeout),
                  " s, or --ref_steps, if it does)")
            : "";
    if (!outcome->rejected.empty() || ref_cannot_run) {
      return UsageError(
          "check",
          absl::StrCat(
              request.case_dir, ": the case cannot run: ",
              !outcome->rejected.empty()
                  ? outcome->rejected
                  : absl::StrCat(
                        "the reference interpreter says ",
                        oracles::ExecutionStatusName(ref->second.status), ": ",
                        ref->second.message, timed_out_hint)));
    }
  }
  const std::string& want = request.signature;
  nlohmann::json out = nlohmann::json::array();
  for (const oracles::Verdict& v : outcome->verdicts) {
    const bool hit = reducers::SignatureMatches(want, v);
    out.push_back(v.ToJson());
    if (!absl::GetFlag(FLAGS_json)) {
      std::cout << (hit ? "* " : "  ") << oracles::VerdictKindName(v.kind)
                << "  " << v.target
                << (v.signature.empty() ? "" : "  " + v.signature) << "\n";
      if (v.IsFinding()) std::cout << "    " << v.explanation << "\n";
    }
  }
  const bool interesting = outcome->interesting;
  const std::string save_to = absl::GetFlag(FLAGS_save_finding);
  if (!save_to.empty() && interesting) {
    if (int rc = SaveFindings(request, *outcome, save_to); rc != kExitOk)
      return rc;
  }
  if (absl::GetFlag(FLAGS_json)) {
    nlohmann::json j{{"interesting", interesting}, {"verdicts", out}};
    if (!outcome->rejected.empty()) j["rejected"] = outcome->rejected;
    std::cout << spirv::DumpJson(j, 2) << "\n";
  } else {
    if (!outcome->rejected.empty())
      std::cout << "rejected: " << outcome->rejected << "\n";
    std::cout << (interesting ? "interesting" : "not interesting") << "\n";
  }
  return interesting ? kExitFinding : kExitOk;
}

}  // namespace

Command CheckCommand() {
  return {"check",
          "re-run a case on the reference and targets; exit 1 if interesting",
          "check CASE_DIR --target=LIST [--signature=SIG] [--strict] "
          "[--module=FILE.spv [--kernel_fixup]] [--ref_steps=N] [--timeout=S] "
          "[--json] "
          "[--save_finding=OUT]\n\n"
          "Runs the case on the reference interpreter and on each target (in "
          "worker processes with limits) and judges each target as the "
          "campaign does. Interesting = some verdict has signature SIG (a "
          "mismatch signature matches any mismatch of the same target; "
          "without --signature, any finding). --strict is the reduction "
          "oracle (see the flag). Exit 1 interesting, 0 not, 2 on bad input "
          "— a finding's README gives its check command; spirv-reduce wants "
          "the opposite convention, `reduce` wraps it. --save_finding=OUT "
          "records what it found as a campaign would (OUT/findings/<name>/), "
          "ready for `l0spv-fuzz reduce`.",
          {"target", "signature", "timeout", "json", "strict", "module",
           "kernel_fixup", "ref_steps", "save_finding"},
          RunCheck};
}

}  // namespace l0spv::fuzzers::cli
