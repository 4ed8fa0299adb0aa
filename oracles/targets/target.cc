#include "oracles/targets/target.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "oracles/targets/level_zero_adapter.h"
#include "oracles/targets/llvm_spirv_adapter.h"
#include "oracles/targets/oclgrind_adapter.h"
#include "oracles/targets/ocloc_adapter.h"
#include "oracles/targets/opencl_adapter.h"
#include "oracles/targets/ref_adapter.h"
#include "oracles/targets/spirv_opt_adapter.h"
#include "oracles/targets/target_name.h"
#include "oracles/targets/target_registry.h"

namespace l0spv::oracles {

absl::StatusOr<std::unique_ptr<Target>> MakeTarget(
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
  if (kind == "gpu") return MakeLevelZeroTarget(param, options);

  // The kinds without a parameter. Their factories probe their consumer
  // themselves.
  const bool known =
      kind == "ref" || kind == "oclgrind" || kind == "llvm-spirv";
  if (known && has_param) {
    return absl::InvalidArgumentError(absl::StrCat(
        "target '", kind, "' takes no ':' parameter (got '", name, "')"));
  }
  if (kind == "ref") return MakeRefTarget(options);
  if (kind == "oclgrind") return MakeOclgrindTarget(options);
  if (kind == "llvm-spirv") return MakeLlvmSpirvTarget(options);
  auto info = DescribeTarget(name);  // InvalidArgument for unknown kinds
  if (!info.ok()) return info.status();
  if (!info->available) return UnavailableStatus(*info);
  return absl::FailedPreconditionError(
      absl::StrCat(name, ": no adapter for this kind in this build"));
}

}  // namespace l0spv::oracles
