#include "oracles/targets/target.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "oracles/targets/adapter_util.h"
#include "oracles/targets/target_kinds.h"
#include "oracles/targets/target_name.h"
#include "oracles/validity/device_profile.h"

namespace l0spv::oracles {
namespace {

// Answers `unsupported` for a module newer than the SPIR-V its target's
// consumer reads (target_kinds.h), so such a module is never
// sent to them: llvm-spirv 14 and ocloc refuse a 1.5 header outright, which
// is a limitation, not a finding (for every module of the case).
class VersionGate : public Target {
 public:
  explicit VersionGate(std::unique_ptr<Target> inner)
      : inner_(std::move(inner)),
        newest_(NewestSpirvVersionOfTarget(inner_->name())) {}
  const std::string& name() const override { return inner_->name(); }
  bool executes() const override { return inner_->executes(); }
  const std::string& consumer() const override { return inner_->consumer(); }
  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) override {
    for (const auto& words : test_case.linked_modules) {
      if (words.size() > 1 && words[1] > newest_) {
        Execution e;
        e.status = ExecutionStatus::kUnsupported;
        e.message = absl::StrCat(
            "a linked module is SPIR-V ", SpirvVersionString(words), "; ",
            name(), " reads SPIR-V 1.0 to ", SpirvVersionString(newest_));
        return e;
      }
    }
    if (test_case.module_words.size() > 1 &&
        test_case.module_words[1] > newest_) {
      Execution e;
      e.status = ExecutionStatus::kUnsupported;
      e.message = absl::StrCat(
          "the module is SPIR-V ", SpirvVersionString(test_case.module_words),
          "; ", name(), " reads SPIR-V 1.0 to ", SpirvVersionString(newest_));
      return e;
    }
    return inner_->Run(test_case, limits);
  }
  std::vector<Execution> RunBatch(std::span<const spirv::TestCase> launches,
                                  const TargetRunLimits& limits) override {
    // A batch newer than the consumer reads is run case by case, so each
    // case is judged (and refused) on its own version.
    if (!launches.empty() && launches[0].module_words.size() > 1 &&
        launches[0].module_words[1] > newest_)
      return Target::RunBatch(launches, limits);
    return inner_->RunBatch(launches, limits);
  }
  bool batches() const override { return inner_->batches(); }
  bool batches_by_key() const override { return inner_->batches_by_key(); }

 private:
  std::unique_ptr<Target> inner_;
  uint32_t newest_;
};

absl::StatusOr<std::unique_ptr<Target>> MakeUngatedTarget(
    const std::string& name, const TargetOptions& options) {
  const TargetName parsed = ParseTargetName(name);
  auto spec = CheckTargetName(parsed);
  if (!spec.ok()) return spec.status();
  return (*spec)->make(parsed, options);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeTarget(
    const std::string& name, const TargetOptions& options) {
  auto target = MakeUngatedTarget(name, options);
  if (!target.ok()) return target.status();
  return std::unique_ptr<Target>(
      std::make_unique<VersionGate>(std::move(*target)));
}

}  // namespace l0spv::oracles
