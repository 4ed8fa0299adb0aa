// reducers/interestingness.h — is a candidate test case still interesting:
// does it reproduce the finding's signature, with the same oracle?
//
// Contract:
//  - Check() runs the candidate on the reference interpreter (with every
//    undefined-behaviour check on: races and uninitialised reads) and on
//    each target, in worker processes under `limits`, and judges every
//    target exactly as the campaign does (oracles/verdict).
//  - Interesting iff some verdict matches the wanted signature
//    (SignatureMatches) and the candidate is a case the campaign could have
//    produced: it passes spirv-val plus the Level Zero rules for its profile
//    and holds no more OpUndef than the original (the reference reads undef
//    as zero, a device may not: an undef-made mismatch is not a bug).
//    Target verdicts need a clean reference run, so a candidate with
//    undefined behaviour is never interesting — reduction cannot create UB.
//    With strict_reference, the reference also runs the candidate with
//    every OpUndef given other bits (WithUndefsDefined): a candidate whose
//    results change is not interesting (a removed insert can leave an undef
//    steering a switch into OpUnreachable on a device).
//  - Errors (a target that cannot be built, bad profile) are returned from
//    Make(); Check() itself only says yes or no, with the verdicts.
//  - Not thread-safe (targets are not).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/targets/target.h"
#include "oracles/verdict/verdict.h"
#include "spirv/test_case.h"

namespace l0spv::reducers {

using MakeTargetFn =
    std::function<absl::StatusOr<std::unique_ptr<oracles::Target>>(
        const std::string& name, const oracles::TargetOptions& options)>;

struct InterestingnessOptions {
  // Targets besides `ref` (ref always runs).
  std::vector<std::string> targets;
  // Wanted signature; empty = any finding.
  std::string signature;
  oracles::TargetRunLimits limits;
  oracles::TargetOptions target_options;
  // Every reference UB check on (uninitialised reads too). `check` turns it
  // off without --strict to stay the campaign's exact oracle.
  bool strict_reference = true;
  // Reject candidates that fail spirv-val or a Level Zero rule.
  bool require_valid = true;
  // Reject candidates with more OpUndef than this (-1 = no limit).
  int64_t max_undefs = -1;
  // The reference's step budget (0 = its default).
  uint64_t reference_steps = 0;
  // null = oracles::MakeTarget; tests inject fault targets here.
  MakeTargetFn make_target;
};

struct CheckOutcome {
  bool interesting = false;
  // Why not, when the candidate never reached the targets ("invalid: ...").
  std::string rejected;
  std::vector<oracles::Verdict> verdicts;
  // Executions by target name ("ref" first), for reproducer bundles.
  std::map<std::string, oracles::Execution> executions;
};

// Wanted signature vs one verdict. Equal signatures match. A mismatch
// signature ("mismatch:KIND:DETAIL") matches any mismatch of the same target
// kind: which element differs, or how, may change while reducing.
bool SignatureMatches(const std::string& want, const oracles::Verdict& v);

class Interestingness {
 public:
  static absl::StatusOr<std::unique_ptr<Interestingness>> Make(
      const InterestingnessOptions& options);

  CheckOutcome Check(const spirv::TestCase& candidate);
  bool IsInteresting(const spirv::TestCase& candidate) {
    return Check(candidate).interesting;
  }
  uint64_t runs() const { return runs_; }
  // The consumers the targets exercise (oracles::ConsumersOfTarget, OR-ed;
  // test doubles none): stages keep candidates away from their filed bugs.
  uint32_t consumers() const;
  // Caps the reference's executed instructions from now on (a reduced loop
  // bound must not cost a full step budget per candidate). 0 = no change.
  absl::Status LimitReferenceSteps(uint64_t steps);
  // Lowers the wall-clock limit of every later run (never raises it).
  void LimitWallTime(std::chrono::milliseconds limit) {
    if (limit < options_.limits.wall_time) options_.limits.wall_time = limit;
  }

 private:
  Interestingness() = default;
  InterestingnessOptions options_;
  std::unique_ptr<oracles::Target> ref_;
  std::vector<std::unique_ptr<oracles::Target>> targets_;
  uint64_t runs_ = 0;
};

// Number of OpUndef instructions in a module (0 for an unreadable one).
int64_t CountUndefs(const std::vector<uint32_t>& words);

}  // namespace l0spv::reducers
