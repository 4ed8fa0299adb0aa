#include "oracles/targets/ref_adapter.h"

#include "oracles/targets/adapter_util.h"

namespace l0spv::oracles {
namespace {

class RefTarget : public Target {
 public:
  explicit RefTarget(const TargetOptions& options)
      : options_(options),
        consumer_(options.ref_in_process
                      ? "l0spv reference interpreter (in process)"
                      : "l0spv reference interpreter (worker process)") {}

  const std::string& name() const override { return name_; }
  bool executes() const override { return true; }
  const std::string& consumer() const override { return consumer_; }

  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) override {
    if (options_.ref_in_process)
      return reference::RunReference(test_case, options_.reference);
    return RunReferenceInWorker(test_case, options_.reference,
                                RunClock(limits.wall_time).Limits(limits));
  }

 private:
  TargetOptions options_;
  std::string name_ = "ref";
  std::string consumer_;
};

}  // namespace

std::unique_ptr<Target> MakeRefTarget(const TargetOptions& options) {
  return std::make_unique<RefTarget>(options);
}

}  // namespace l0spv::oracles
