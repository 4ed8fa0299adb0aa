// oracles/reference/builtins.h — the ND-range geometry and the values of
// the OpenCL built-in variables for one work-item (internal to
// oracles/reference).
//
// Contract: values follow OpenCL 2.0 with non-uniform work-groups: the last
// work-group in a dimension may be smaller (WorkgroupSize is the actual
// size, EnqueuedWorkgroupSize the requested one). Subgroups are consecutive
// LocalInvocationIndex ranges of `subgroup_size` items; the last one of a
// work-group may be partial.
#pragma once

#include <array>
#include <cstdint>

#include "oracles/reference/executor.h"
#include "oracles/reference/program.h"

namespace l0spv::oracles::reference {

struct Geometry {
  uint32_t dims = 1;
  std::array<uint64_t, 3> global{1, 1, 1};
  std::array<uint64_t, 3> local{1, 1, 1};  // enqueued
  std::array<uint64_t, 3> offset{0, 0, 0};
  std::array<uint64_t, 3> groups{1, 1, 1};
  uint32_t subgroup_size = 8;
};

// Actual size of work-group `group` (non-uniform last groups).
std::array<uint64_t, 3> GroupSize(const Geometry& g,
                                  const std::array<uint64_t, 3>& group);

// Sets inv's ids, subgroup and builtin block for local linear index
// `local_index` of work-group `group`.
void InitWorkItem(const Program& program, const Geometry& g,
                  const std::array<uint64_t, 3>& group, uint32_t local_index,
                  Invocation& inv);

}  // namespace l0spv::oracles::reference
