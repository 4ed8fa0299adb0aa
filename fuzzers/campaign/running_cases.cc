#include "fuzzers/campaign/running_cases.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace l0spv::fuzzers::campaign {

static_assert(std::atomic<int64_t>::is_always_lock_free,
              "a slot is shared between processes: it must not need a lock");

// The bytes mapped for `jobs` slots: mmap takes no zero length.
size_t RunningCases::MappedBytes(uint32_t jobs) {
  return sizeof(std::atomic<int64_t>) * (jobs == 0 ? 1 : jobs);
}

absl::StatusOr<RunningCases> RunningCases::Make(uint32_t jobs) {
  const size_t bytes = MappedBytes(jobs);
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot map memory shared with the campaign's jobs (",
                     bytes, " bytes): ", std::strerror(errno)));
  }
  auto* slots = static_cast<std::atomic<int64_t>*>(p);
  for (uint32_t j = 0; j < jobs; ++j)
    new (&slots[j]) std::atomic<int64_t>(kNone);
  return RunningCases(slots, jobs);
}

RunningCases::RunningCases(RunningCases&& other) noexcept
    : slots_(std::exchange(other.slots_, nullptr)),
      jobs_(std::exchange(other.jobs_, 0)) {}

RunningCases& RunningCases::operator=(RunningCases&& other) noexcept {
  if (this != &other) {
    this->~RunningCases();
    slots_ = std::exchange(other.slots_, nullptr);
    jobs_ = std::exchange(other.jobs_, 0);
  }
  return *this;
}

RunningCases::~RunningCases() {
  if (slots_ != nullptr) ::munmap(slots_, MappedBytes(jobs_));
}

}  // namespace l0spv::fuzzers::campaign
