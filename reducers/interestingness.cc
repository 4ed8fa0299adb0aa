#include "reducers/interestingness.h"

#include "absl/strings/str_cat.h"
#include "oracles/compare/compare.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/target_kinds.h"
#include "oracles/targets/target_name.h"
#include "oracles/targets/target_registry.h"
#include "oracles/validity/device_profile.h"
#include "oracles/validity/lint.h"
#include "reducers/module_edit.h"
#include "spirv/binary.h"

namespace l0spv::reducers {
namespace {

// "mismatch:ocloc-tgllp:values" -> "mismatch:ocloc-tgllp:".
std::string KindAndTarget(const std::string& signature) {
  const size_t first = signature.find(':');
  if (first == std::string::npos) return signature;
  const size_t second = signature.find(':', first + 1);
  if (second == std::string::npos) return signature + ":";
  return signature.substr(0, second + 1);
}

}  // namespace

bool SignatureMatches(const std::string& want, const oracles::Verdict& v) {
  if (want.empty()) return v.IsFinding();
  if (v.signature == want) return true;
  if (v.kind != oracles::VerdictKind::kMismatch) return false;
  return want.rfind("mismatch:", 0) == 0 &&
         KindAndTarget(want) == KindAndTarget(v.signature);
}

namespace {

int64_t CountUndefsIn(const spirv::Module& module) {
  int64_t n = 0;
  module.ForEachInstruction([&](const spirv::Instruction& inst) {
    if (inst.opcode() == static_cast<uint32_t>(spv::Op::OpUndef)) ++n;
  });
  return n;
}

}  // namespace

int64_t CountUndefs(const std::vector<uint32_t>& words) {
  auto module = spirv::ReadModuleWords(words);
  return module.ok() ? CountUndefsIn(*module) : 0;
}

absl::StatusOr<std::unique_ptr<Interestingness>> Interestingness::Make(
    const InterestingnessOptions& options) {
  std::unique_ptr<Interestingness> self(new Interestingness());
  self->options_ = options;
  // Targets run as the campaign ran them. Only the candidate itself is held
  // to every UB check: a target that runs its own output on the reference
  // (spirv-opt, llvm-spirv) may legitimately speculate a load of memory
  // that is never written (loop-invariant code motion does), which the
  // uninitialised-read check would report instead of the real finding.
  oracles::TargetOptions target_options = options.target_options;
  if (options.reference_steps != 0)
    target_options.reference.step_budget = options.reference_steps;
  oracles::TargetOptions ref_options = target_options;
  if (options.strict_reference) {
    ref_options.reference.check_races = true;
    ref_options.reference.check_uninitialized = true;
  }
  auto make = [&](const std::string& name)
      -> absl::StatusOr<std::unique_ptr<oracles::Target>> {
    if (options.make_target) return options.make_target(name, target_options);
    return oracles::MakeTarget(name, target_options);
  };
  self->options_.target_options = ref_options;
  auto ref = oracles::MakeTarget("ref", ref_options);
  if (!ref.ok()) return ref.status();
  self->ref_ = std::move(*ref);
  for (const std::string& name : options.targets) {
    if (name == "ref") continue;
    auto t = make(name);
    if (!t.ok()) {
      return absl::Status(
          t.status().code(),
          absl::StrCat("target ", name, ": ", t.status().message()));
    }
    self->targets_.push_back(std::move(*t));
  }
  return self;
}

absl::Status Interestingness::LimitReferenceSteps(uint64_t steps) {
  if (steps == 0) return absl::OkStatus();
  options_.target_options.reference.step_budget = steps;
  auto ref = oracles::MakeTarget("ref", options_.target_options);
  if (!ref.ok()) return ref.status();
  ref_ = std::move(*ref);
  return absl::OkStatus();
}

uint32_t Interestingness::consumers() const {
  // Test doubles (fault targets) exercise no consumer.
  uint32_t mask = 0;
  for (const std::string& t : options_.targets)
    if (oracles::IsTargetKind(oracles::TargetKind(t)))
      mask |= oracles::ConsumersOfTarget(t);
  return mask;
}

CheckOutcome Interestingness::Check(const spirv::TestCase& candidate) {
  ++runs_;
  CheckOutcome out;
  // Parsed once: the OpUndef limit, the lint and the OpUndef variant below
  // all read it.
  auto module = spirv::ReadModuleWords(candidate.module_words);
  const int64_t undefs = module.ok() ? CountUndefsIn(*module) : 0;
  if (options_.max_undefs >= 0 && undefs > options_.max_undefs) {
    out.rejected = "more OpUndef than the original";
    return out;
  }
  if (options_.require_valid) {
    if (!module.ok()) {
      out.rejected = absl::StrCat("unreadable: ", module.status().message());
      return out;
    }
    auto profile = oracles::FindDeviceProfile(candidate.profile);
    if (!profile.ok()) {
      out.rejected = absl::StrCat("profile: ", profile.status().message());
      return out;
    }
    const oracles::LintReport report = oracles::LintCase(candidate, *profile);
    if (!report.ok()) {
      out.rejected = absl::StrCat("invalid: ", report.ToText());
      return out;
    }
  }
  const oracles::Execution reference = ref_->Run(candidate, options_.limits);
  out.verdicts.push_back(oracles::JudgeReference(reference));
  out.executions["ref"] = reference;
  if (reference.status == oracles::ExecutionStatus::kOk) {
    for (auto& target : targets_) {
      const oracles::Execution e = target->Run(candidate, options_.limits);
      out.executions[target->name()] = e;
      out.verdicts.push_back(oracles::Judge(
          candidate, reference, target->name(), target->executes(), e));
    }
  }
  for (const oracles::Verdict& v : out.verdicts) {
    if (SignatureMatches(options_.signature, v)) out.interesting = true;
  }
  // A reduction step can leave an OpUndef flowing into a branch or a store
  // (the original only used it as the base of inserts that overwrote it):
  // the reference reads it as zero, a target may pick anything. Such a
  // candidate is no reproducer: the reference must compute the same with
  // every OpUndef given other bits.
  if (out.interesting && options_.strict_reference && undefs > 0 &&
      reference.status == oracles::ExecutionStatus::kOk) {
    if (auto defined = WithUndefsDefined(*module)) {
      spirv::TestCase variant = candidate;
      variant.module_words = std::move(*defined);
      const oracles::Execution other = ref_->Run(variant, options_.limits);
      const bool same =
          other.status == oracles::ExecutionStatus::kOk &&
          oracles::CompareExecutions(candidate, reference, other,
                                     oracles::CompareOptionsFor(candidate))
              .equal;
      if (!same) {
        out.interesting = false;
        out.rejected = "its results depend on an OpUndef value";
      }
    }
  }
  return out;
}

}  // namespace l0spv::reducers
