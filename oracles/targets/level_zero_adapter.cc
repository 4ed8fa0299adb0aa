#include "oracles/targets/level_zero_adapter.h"

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracles/targets/consumer_probe.h"
#include "oracles/targets/level_zero_target.h"

namespace l0spv::oracles {
namespace {

class LevelZeroTarget : public Target {
 public:
  LevelZeroTarget(std::string name, std::string device, std::string consumer,
                  const TargetOptions& options)
      : name_(std::move(name)),
        device_(std::move(device)),
        consumer_(std::move(consumer)),
        build_flags_(options.build_options) {}

  const std::string& name() const override { return name_; }
  bool executes() const override { return true; }
  const std::string& consumer() const override { return consumer_; }

  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) override {
    LevelZeroTargetOptions o;
    o.device = device_;
    o.time_limit = limits.wall_time;
    o.memory_limit_bytes = limits.memory_bytes;
    o.build_flags = build_flags_;
    auto e = RunOnLevelZero(test_case, o);
    if (!e.ok()) {
      Execution failed;
      failed.status = ExecutionStatus::kUnsupported;
      failed.message =
          absl::StrCat("harness: ", name_, ": ", e.status().message());
      return failed;
    }
    return *std::move(e);
  }

 private:
  std::string name_, device_, consumer_, build_flags_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeLevelZeroTarget(
    const std::string& device, const TargetOptions& options) {
  const std::string name =
      device.empty() ? "gpu" : absl::StrCat("gpu:", device);
  const LevelZeroProbe probe = ProbeLevelZero();
  if (probe.devices.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        name, ": ", probe.error.empty() ? "no Level Zero device" : probe.error,
        " (to use the l0spv reference driver, set "
        "ZE_ENABLE_ALT_DRIVERS=/abs/path/libze_l0spv_reference.so)"));
  }
  std::vector<std::string> names;
  for (const LevelZeroDevice& d : probe.devices) {
    names.push_back(d.name);
    if (device.empty() || absl::StrContains(absl::AsciiStrToLower(d.name),
                                            absl::AsciiStrToLower(device))) {
      return std::unique_ptr<Target>(new LevelZeroTarget(
          name, device, absl::StrCat("Level Zero: ", d.name), options));
    }
  }
  return absl::NotFoundError(
      absl::StrCat(name, ": no Level Zero device matches \"", device,
                   "\"; devices: \"", absl::StrJoin(names, "\", \""), "\""));
}

}  // namespace l0spv::oracles
