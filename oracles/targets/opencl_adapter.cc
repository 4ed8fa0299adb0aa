#include "oracles/targets/opencl_adapter.h"

#include <memory>
#include <span>
#include <vector>

#include "absl/strings/str_cat.h"
#include "oracles/targets/target_registry.h"
#include "oracles/targets/tool_adapter.h"
#include "spirv/kernel_batch.h"

namespace l0spv::oracles {

OpenClTargetOptions OpenClRunOptions(const std::string& platform,
                                     const TargetOptions& options,
                                     const TargetRunLimits& limits) {
  OpenClTargetOptions o;
  o.platform = platform;
  o.time_limit = limits.wall_time;
  o.memory_limit_bytes = limits.memory_bytes;
  o.scratch_dir = options.scratch_dir;
  o.build_options = options.build_options;
  return o;
}

namespace {

class OpenClTarget : public AdapterBase {
 public:
  OpenClTarget(std::string name, std::string platform, std::string consumer,
               std::vector<std::string> environment,
               const TargetOptions& options)
      : AdapterBase(std::move(name), /*executes=*/true, std::move(consumer),
                    options),
        platform_(std::move(platform)),
        environment_(std::move(environment)) {}

  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) override {
    return RunBatch(std::span<const spirv::TestCase>(&test_case, 1), limits)
        .front();
  }
  bool batches() const override { return true; }
  std::vector<Execution> RunBatch(std::span<const spirv::TestCase> launches,
                                  const TargetRunLimits& limits) override {
    if (launches.size() > 1 && !spirv::SharesOneModule(launches))
      return Target::RunBatch(launches, limits);
    OpenClTargetOptions o = OpenClRunOptions(platform_, options(), limits);
    o.environment = environment_;
    auto results = RunBatchOnOpenCl(launches, o, Warm(environment_));
    if (!results.ok()) {
      return ForEveryLaunch(HarnessFailure(absl::StrCat(
                                name(), ": ", results.status().message())),
                            launches.size());
    }
    return *std::move(results);
  }

 private:
  OpenClWarmWorker* Warm(const std::vector<std::string>& environment) {
    return WarmWorkerIn(warm_, options().warm_workers, environment,
                        options().scratch_dir);
  }

  std::string platform_;
  std::vector<std::string> environment_;  // the release's OCL_ICD_VENDORS
  std::unique_ptr<OpenClWarmWorker> warm_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeOpenClTarget(
    const TargetName& name, const TargetOptions& options) {
  auto info = DescribeTarget(name.full);
  if (!info.ok()) return info.status();
  if (!info->available) return UnavailableStatus(*info);
  return std::make_unique<OpenClTarget>(name.full, name.param, info->consumer,
                                        info->environment, options);
}

}  // namespace l0spv::oracles
