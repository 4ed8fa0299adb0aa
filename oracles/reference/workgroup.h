// oracles/reference/workgroup.h — cooperative scheduling of the work-items
// of one work-group (internal to oracles/reference).
//
// Contract: RunWorkgroup runs every work-item of the group until each has
// returned from the kernel. A work-item reaching OpControlBarrier or a
// collective (OpGroup*) waits; when every work-item of the barrier's scope
// (work-group, or the work-item's subgroup) waits at the same instruction,
// the collective's results are computed (in LocalInvocationIndex order) and
// all of them resume. Work-items that wait at different instructions, or
// wait while others of their scope have finished, are barrier divergence
// (kUbDetected). Items run in LocalInvocationIndex order unless a schedule
// seed is given, in which case the order is re-drawn from the seed at the
// start and after every barrier.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "oracles/reference/builtins.h"
#include "oracles/reference/executor.h"

namespace l0spv::oracles::reference {

// An OpGroupAsyncCopy recorded until the OpGroupWaitEvents for its event.
struct PendingCopy {
  uint64_t dst = 0;
  uint64_t src = 0;
  uint64_t count = 0;
  uint64_t stride = 1;
  uint32_t element_bytes = 0;
  bool gather = true;  // stride on the source (destination is local)
  uint64_t event = 0;
  uint32_t pc = 0;
  bool done = false;
};

struct WorkgroupContext {
  RunState* state = nullptr;
  Executor* executor = nullptr;
  const Geometry* geometry = nullptr;
  std::optional<uint64_t> schedule_seed;
  // (allocation id, offset in the builtin block) of every builtin variable:
  // their data is re-pointed at the running work-item's block.
  std::vector<std::pair<uint32_t, uint32_t>> builtin_allocs;
  // Sets up a fresh work-item (entry frame, arguments); false on error.
  std::function<bool(Invocation&)> start;
  // The current work-group's async copies (cleared per group).
  std::vector<PendingCopy> async_copies;
};

// False when the run stopped (state->status says why).
bool RunWorkgroup(WorkgroupContext& ctx, const std::array<uint64_t, 3>& group,
                  std::vector<std::unique_ptr<Invocation>>& pool,
                  uint32_t* next_tag);

}  // namespace l0spv::oracles::reference
