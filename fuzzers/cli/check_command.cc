// `l0spv-fuzz check CASE_DIR --target=LIST [--signature=SIG]`: re-runs the
// oracle that produced a finding; the interestingness test of reduction.
#include <iostream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "fuzzers/cli/commands.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_registry.h"
#include "oracles/verdict/verdict.h"

ABSL_DECLARE_FLAG(std::string, target);
ABSL_DECLARE_FLAG(int, timeout);
ABSL_DECLARE_FLAG(bool, json);
ABSL_FLAG(std::string, signature, "",
          "interesting only when a verdict has exactly this signature");

namespace l0spv::cli {
namespace {

int RunCheck(const std::vector<std::string>& positional) {
  if (positional.size() != 1) {
    return UsageError("check", "expected exactly one CASE_DIR");
  }
  auto tc = spirv::ReadTestCase(positional[0]);
  if (!tc.ok()) return UsageError("check", std::string(tc.status().message()));
  auto names = oracles::ParseTargetList(absl::GetFlag(FLAGS_target));
  if (!names.ok())
    return UsageError("check", std::string(names.status().message()));
  const std::string want = absl::GetFlag(FLAGS_signature);
  oracles::TargetRunLimits limits;
  limits.wall_time = std::chrono::seconds(absl::GetFlag(FLAGS_timeout));

  auto ref = oracles::MakeTarget("ref");
  if (!ref.ok())
    return UsageError("check", std::string(ref.status().message()));
  const oracles::Execution reference = (*ref)->Run(*tc, limits);
  std::vector<oracles::Verdict> verdicts{oracles::JudgeReference(reference)};
  if (reference.status == oracles::ExecutionStatus::kOk) {
    for (const std::string& name : *names) {
      if (name == "ref") continue;
      auto target = oracles::MakeTarget(name);
      if (!target.ok()) {
        return UsageError("check",
                          name + ": " + std::string(target.status().message()));
      }
      const oracles::Execution e = (*target)->Run(*tc, limits);
      verdicts.push_back(oracles::Judge(*tc, reference, (*target)->name(),
                                        (*target)->executes(), e));
    }
  }
  bool interesting = false;
  nlohmann::json out = nlohmann::json::array();
  for (const oracles::Verdict& v : verdicts) {
    const bool hit = want.empty() ? v.IsFinding() : v.signature == want;
    interesting = interesting || hit;
    out.push_back(v.ToJson());
    if (!absl::GetFlag(FLAGS_json)) {
      std::cout << (hit ? "* " : "  ") << oracles::VerdictKindName(v.kind)
                << "  " << v.target
                << (v.signature.empty() ? "" : "  " + v.signature) << "\n";
      if (v.IsFinding()) std::cout << "    " << v.explanation << "\n";
    }
  }
  if (absl::GetFlag(FLAGS_json)) {
    std::cout << nlohmann::json{{"interesting", interesting}, {"verdicts", out}}
                     .dump(2)
              << "\n";
  } else {
    std::cout << (interesting ? "interesting" : "not interesting") << "\n";
  }
  return interesting ? kExitFinding : kExitOk;
}

}  // namespace

Command CheckCommand() {
  return {"check",
          "re-run a case on the reference and targets; exit 1 if interesting",
          "check CASE_DIR --target=LIST [--signature=SIG] [--timeout=S] "
          "[--json]\n\n"
          "Runs the case on the reference interpreter and on each target (in "
          "worker processes with limits) and judges each target as the "
          "campaign does. Interesting = some verdict has signature SIG (or, "
          "without --signature, any finding). Exit 1 interesting, 0 not, 2 "
          "on bad input — a finding's README gives its check command.",
          {"target", "signature", "timeout", "json"},
          RunCheck};
}

}  // namespace l0spv::cli
