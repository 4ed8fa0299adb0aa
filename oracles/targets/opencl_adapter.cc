#include "oracles/targets/opencl_adapter.h"

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
               const TargetOptions& options)
      : AdapterBase(std::move(name), /*executes=*/true, std::move(consumer),
                    options),
        platform_(std::move(platform)) {}

  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) override {
    auto e =
        RunOnOpenCl(test_case, OpenClRunOptions(platform_, options(), limits));
    if (!e.ok())
      return HarnessFailure(absl::StrCat(name(), ": ", e.status().message()));
    return *std::move(e);
  }
  bool batches() const override { return true; }
  std::vector<Execution> RunBatch(std::span<const spirv::TestCase> launches,
                                  const TargetRunLimits& limits) override {
    if (!spirv::SharesOneModule(launches))
      return Target::RunBatch(launches, limits);
    auto results = RunBatchOnOpenCl(
        launches, OpenClRunOptions(platform_, options(), limits));
    if (!results.ok()) {
      return ForEveryLaunch(HarnessFailure(absl::StrCat(
                                name(), ": ", results.status().message())),
                            launches.size());
    }
    return *std::move(results);
  }

 private:
  std::string platform_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeOpenClTarget(
    const std::string& platform, const TargetOptions& options) {
  const std::string name =
      platform.empty() ? "opencl" : absl::StrCat("opencl:", platform);
  auto info = DescribeTarget(name);
  if (!info.ok()) return info.status();
  if (!info->available) return UnavailableStatus(*info);
  return std::make_unique<OpenClTarget>(name, platform, info->consumer,
                                        options);
}

}  // namespace l0spv::oracles
