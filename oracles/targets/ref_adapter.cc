#include "oracles/targets/ref_adapter.h"

#include "oracles/targets/tool_adapter.h"

namespace l0spv::oracles {
namespace {

class RefTarget : public AdapterBase {
 public:
  explicit RefTarget(const TargetOptions& options)
      : AdapterBase("ref", /*executes=*/true,
                    options.ref_in_process
                        ? "l0spv reference interpreter (in process)"
                        : "l0spv reference interpreter (worker process)",
                    options) {}

  Execution Run(const spirv::TestCase& test_case,
                const TargetRunLimits& limits) override {
    if (options().ref_in_process)
      return reference::RunReference(test_case, options().reference);
    return RunReferenceInWorker(test_case, options().reference,
                                RunClock(limits.wall_time).Limits(limits));
  }
};

}  // namespace

std::unique_ptr<Target> MakeRefTarget(const TargetOptions& options) {
  return std::make_unique<RefTarget>(options);
}

}  // namespace l0spv::oracles
