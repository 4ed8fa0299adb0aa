#include "oracles/targets/target.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "oracles/targets/adapter_util.h"
#include "oracles/targets/level_zero_adapter.h"
#include "oracles/targets/llvm_spirv_adapter.h"
#include "oracles/targets/oclgrind_adapter.h"
#include "oracles/targets/ocloc_adapter.h"
#include "oracles/targets/opencl_adapter.h"
#include "oracles/targets/ref_adapter.h"
#include "oracles/targets/spirv_fuzz_adapter.h"
#include "oracles/targets/spirv_link_adapter.h"
#include "oracles/targets/spirv_opt_adapter.h"
#include "oracles/targets/spirv_versions.h"
#include "oracles/targets/target_name.h"
#include "oracles/targets/target_registry.h"
#include "oracles/validity/device_profile.h"

namespace l0spv::oracles {
namespace {

// Answers `unsupported` for a module newer than the SPIR-V its target's
// consumer reads (spirv_versions.h), so such a module is never
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
  const std::string& kind = parsed.kind;
  const std::string& param = parsed.param;
  const bool has_param = parsed.has_param;
  if (kind == "opencl" && has_param && param.empty()) {
    return absl::InvalidArgumentError(
        "target 'opencl:' needs a platform name after the colon, or none at "
        "all (opencl)");
  }
  if (kind == "opencl") return MakeOpenClTarget(param, options);
  if (kind == "ocloc") {
    if (param.empty()) {
      return absl::InvalidArgumentError(
          "target 'ocloc' needs a device, e.g. ocloc:tgllp");
    }
    return MakeOclocTarget(param, options);
  }
  if (kind == "spirv-opt") return MakeSpirvOptTarget(param, options);
  if (kind == "spirv-fuzz") return MakeSpirvFuzzTarget(param, options);
  if (kind == "gpu") return MakeLevelZeroTarget(param, options);

  // The kinds without a parameter. Their factories probe their consumer
  // themselves.
  const bool known = kind == "ref" || kind == "oclgrind" ||
                     kind == "llvm-spirv" || kind == "spirv-link";
  if (known && has_param) {
    return absl::InvalidArgumentError(absl::StrCat(
        "target '", kind, "' takes no ':' parameter (got '", name, "')"));
  }
  if (kind == "ref") return MakeRefTarget(options);
  if (kind == "oclgrind") return MakeOclgrindTarget(options);
  if (kind == "llvm-spirv") return MakeLlvmSpirvTarget(options);
  if (kind == "spirv-link") return MakeSpirvLinkTarget(options);
  auto info = DescribeTarget(name);  // InvalidArgument for unknown kinds
  if (!info.ok()) return info.status();
  if (!info->available) return UnavailableStatus(*info);
  return absl::FailedPreconditionError(
      absl::StrCat(name, ": no adapter for this kind in this build"));
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
