#include "tests/campaign/fault_target.h"

#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <span>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "oracles/process/subprocess.h"
#include "oracles/reference/interpreter.h"

namespace l0spv::testing {
namespace {}  // namespace

bool IsPoisoned(const spirv::TestCase& tc) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the arguments' bytes
  for (const spirv::KernelArg& a : tc.args)
    for (uint8_t b : a.bytes) h = (h ^ b) * 1099511628211ull;
  return h % 4 == 0;
}

namespace {

class FaultTarget : public oracles::Target {
 public:
  FaultTarget(std::string name, std::string mode, uint64_t kill_at)
      : name_(std::move(name)), mode_(std::move(mode)), kill_at_(kill_at) {}
  const std::string& name() const override { return name_; }
  bool executes() const override {
    return mode_ != "reject" && mode_ != "batch-reject";
  }
  bool batches() const override { return mode_.rfind("batch-", 0) == 0; }

  // "batch-reject": a module holding a poisoned kernel is rejected as a
  // whole, batch or not; "batch-wrong": only a poisoned launch's result is
  // wrong. Either way only bisection can name the poisoned case.
  std::vector<oracles::Execution> RunBatch(
      std::span<const spirv::TestCase> launches,
      const oracles::TargetRunLimits& limits) override {
    bool poisoned = false;
    for (const spirv::TestCase& l : launches) poisoned |= IsPoisoned(l);
    std::vector<oracles::Execution> out;
    for (const spirv::TestCase& l : launches) {
      if (mode_ == "batch-reject" && poisoned) {
        out.push_back(Rejection());
      } else {
        out.push_back(RunOne(l, limits));
      }
    }
    return out;
  }
  const std::string& consumer() const override { return consumer_; }

  oracles::Execution Run(const spirv::TestCase& tc,
                         const oracles::TargetRunLimits& limits) override {
    ++runs_;
    if (mode_ == "batch-reject" && IsPoisoned(tc)) return Rejection();
    return RunOne(tc, limits);
  }

 private:
  static oracles::Execution Rejection() {
    oracles::Execution r;
    r.status = oracles::ExecutionStatus::kBuildFailed;
    r.message = "build failed";
    r.log = "error: fake consumer rejects instruction %42 at line 12\n";
    return r;
  }

  oracles::Execution RunOne(const spirv::TestCase& tc,
                            const oracles::TargetRunLimits& limits) {
    oracles::Execution e = oracles::reference::RunReference(
        tc, oracles::reference::ReferenceOptions{});
    if (mode_ == "kill-job" && runs_ == kill_at_) ::raise(SIGSEGV);
    // "wrong-if-transformed": a consumer bug only transformations reach.
    if (mode_ == "wrong" ||
        (mode_ == "wrong-if-transformed" && tc.transformation_log) ||
        (mode_ == "batch-wrong" && IsPoisoned(tc))) {
      for (size_t i = 0; i < tc.args.size(); ++i) {
        if (tc.args[i].is_result && !e.buffers[i].empty()) {
          e.buffers[i][0] ^= 0x5a;
          break;
        }
      }
    }
    if (mode_ == "reject") return Rejection();
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
  for (const char* m :
       {"ok", "crash", "hang", "leak", "wrong", "wrong-if-transformed",
        "reject", "kill-job", "batch-reject", "batch-wrong"}) {
    if (mode == m) return std::make_unique<FaultTarget>(name, mode, kill_at);
  }
  return absl::InvalidArgumentError("unknown fault mode " + mode);
}

}  // namespace l0spv::testing
