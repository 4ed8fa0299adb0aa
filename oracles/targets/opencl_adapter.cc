#include "oracles/targets/opencl_adapter.h"

#include "absl/strings/str_cat.h"
#include "oracles/targets/adapter_util.h"
#include "oracles/targets/opencl_target.h"
#include "oracles/targets/target_registry.h"

namespace l0spv::oracles {
namespace {

class OpenClTarget : public Target {
 public:
  OpenClTarget(std::string name, std::string platform, std::string consumer,
               const TargetOptions& options)
      : name_(std::move(name)),
        platform_(std::move(platform)),
        consumer_(std::move(consumer)),
        options_(options) {}

  const std::string& name() const override { return name_; }
  bool executes() const override { return true; }
  const std::string& consumer() const override { return consumer_; }

  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) override {
    OpenClTargetOptions o;
    o.platform = platform_;
    o.time_limit = limits.wall_time;
    o.memory_limit_bytes = limits.memory_bytes;
    o.scratch_dir = options_.scratch_dir;
    o.build_options = options_.build_options;
    auto e = RunOnOpenCl(test_case, o);
    if (!e.ok()) {
      return FailedExecution(
          ExecutionStatus::kUnsupported,
          absl::StrCat("harness: ", name_, ": ", e.status().message()));
    }
    return *std::move(e);
  }

 private:
  std::string name_, platform_, consumer_;
  TargetOptions options_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeOpenClTarget(
    const std::string& platform, const TargetOptions& options) {
  const std::string name =
      platform.empty() ? "opencl" : absl::StrCat("opencl:", platform);
  auto info = DescribeTarget(name);
  if (!info.ok()) return info.status();
  if (!info->available) return UnavailableStatus(*info);
  return std::unique_ptr<Target>(
      new OpenClTarget(name, platform, info->consumer, options));
}

}  // namespace l0spv::oracles
