// fuzzers/campaign/running_cases.h — which case each campaign job's
// in-process work is on, readable by the campaign when the job dies.
//
// A job runs the generator and the reference interpreter in its own process;
// when that process dies, the campaign records the crash against the case
// the job was on and restarts the job. The job used to say which case by
// rewriting its state file before every case (0.16 ms a case, 4 % of a
// batched spirv-opt campaign); it now stores the seed in memory shared with
// the campaign, and writes the state file once per group.
//
// Contract:
//  - Make(jobs) maps one slot per job, shared (MAP_SHARED) with every
//    process forked after it; each slot starts at kNone. Fails (with the
//    system's reason) only when the kernel refuses the mapping.
//  - Set/Get are lock-free atomics on the shared page: what a job stored
//    last is what the campaign reads after waitpid reports the job's end.
//  - Movable, not copyable; the mapping ends with the last owner in this
//    process (forked copies keep theirs until they exit).
#pragma once

#include <atomic>
#include <cstdint>

#include "absl/status/statusor.h"

namespace l0spv::fuzzers::campaign {

class RunningCases {
 public:
  static constexpr int64_t kNone = -1;

  static absl::StatusOr<RunningCases> Make(uint32_t jobs);
  RunningCases(RunningCases&& other) noexcept;
  RunningCases& operator=(RunningCases&& other) noexcept;
  RunningCases(const RunningCases&) = delete;
  RunningCases& operator=(const RunningCases&) = delete;
  ~RunningCases();

  void Set(uint32_t job, int64_t seed) {
    slots_[job].store(seed, std::memory_order_release);
  }
  int64_t Get(uint32_t job) const {
    return slots_[job].load(std::memory_order_acquire);
  }

 private:
  RunningCases(std::atomic<int64_t>* slots, uint32_t jobs)
      : slots_(slots), jobs_(jobs) {}
  static size_t MappedBytes(uint32_t jobs);
  std::atomic<int64_t>* slots_ = nullptr;
  uint32_t jobs_ = 0;
};

}  // namespace l0spv::fuzzers::campaign
