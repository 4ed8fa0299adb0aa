#include "tests/campaign/fault_target.h"

#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "oracles/process/subprocess.h"
#include "oracles/reference/interpreter.h"

namespace l0spv::testing {
namespace {

class FaultTarget : public oracles::Target {
 public:
  FaultTarget(std::string name, std::string mode, uint64_t kill_at)
      : name_(std::move(name)), mode_(std::move(mode)), kill_at_(kill_at) {}
  const std::string& name() const override { return name_; }
  bool executes() const override { return mode_ != "reject"; }
  const std::string& consumer() const override { return consumer_; }

  oracles::Execution Run(const spirv::TestCase& tc,
                         const oracles::TargetRunLimits& limits) override {
    ++runs_;
    oracles::Execution e = oracles::reference::RunReference(
        tc, oracles::reference::ReferenceOptions{});
    if (mode_ == "kill-job" && runs_ == kill_at_) ::raise(SIGSEGV);
    // "wrong-if-transformed": a consumer bug only transformations reach.
    if (mode_ == "wrong" ||
        (mode_ == "wrong-if-transformed" && tc.transformation_log)) {
      for (size_t i = 0; i < tc.args.size(); ++i) {
        if (tc.args[i].is_result && !e.buffers[i].empty()) {
          e.buffers[i][0] ^= 0x5a;
          break;
        }
      }
    }
    if (mode_ == "reject") {
      oracles::Execution r;
      r.status = oracles::ExecutionStatus::kBuildFailed;
      r.message = "build failed";
      r.log = "error: fake consumer rejects instruction %42 at line 12\n";
      return r;
    }
    if (mode_ != "crash" && mode_ != "hang" && mode_ != "leak") return e;
    oracles::ChildLimits child;
    child.wall_time = limits.wall_time;
    child.memory_bytes = limits.memory_bytes;
    const std::string mode = mode_;
    auto result = oracles::RunInChild(
        [mode]() -> std::string {
          if (mode == "crash") ::raise(SIGSEGV);
          if (mode == "hang") ::sleep(3600);
          std::vector<std::unique_ptr<char[]>> hog;
          for (;;) {  // leak: grow until RLIMIT_AS refuses
            hog.emplace_back(new char[64 << 20]);
            std::memset(hog.back().get(), 1, 64 << 20);
          }
        },
        child);
    oracles::Execution out;
    if (!result.ok()) {
      out.status = oracles::ExecutionStatus::kUnsupported;
      out.message = std::string(result.status().message());
      return out;
    }
    out.status = result->ending == oracles::ChildResult::Ending::kTimedOut
                     ? oracles::ExecutionStatus::kTimedOut
                     : oracles::ExecutionStatus::kCrashed;
    out.message = result->Describe();
    out.log = result->stderr_text;
    return out;
  }

 private:
  std::string name_, mode_, consumer_ = "test fault injector";
  uint64_t kill_at_ = 0;
  uint64_t runs_ = 0;
};

}  // namespace

absl::StatusOr<std::unique_ptr<oracles::Target>> MakeFaultTarget(
    const std::string& name) {
  if (name.rfind("fault:", 0) != 0) return oracles::MakeTarget(name);
  std::string mode = name.substr(6);
  uint64_t kill_at = 0;
  if (mode.rfind("kill-job-at-", 0) == 0) {
    if (!absl::SimpleAtoi(mode.substr(12), &kill_at))
      return absl::InvalidArgumentError("bad kill-job-at-N");
    mode = "kill-job";
  }
  for (const char* m : {"ok", "crash", "hang", "leak", "wrong",
                        "wrong-if-transformed", "reject", "kill-job"}) {
    if (mode == m) return std::make_unique<FaultTarget>(name, mode, kill_at);
  }
  return absl::InvalidArgumentError("unknown fault mode " + mode);
}

}  // namespace l0spv::testing
