#include "oracles/reference/builtins.h"

#include <algorithm>
#include <cstring>

namespace l0spv::oracles::reference {

std::array<uint64_t, 3> GroupSize(const Geometry& g,
                                  const std::array<uint64_t, 3>& group) {
  std::array<uint64_t, 3> size;
  for (int d = 0; d < 3; ++d)
    size[d] = std::min(g.local[d], g.global[d] - group[d] * g.local[d]);
  return size;
}

void InitWorkItem(const Program& program, const Geometry& g,
                  const std::array<uint64_t, 3>& group, uint32_t local_index,
                  Invocation& inv) {
  const std::array<uint64_t, 3> size = GroupSize(g, group);
  inv.local_index = local_index;
  inv.local_id[0] = local_index % size[0];
  inv.local_id[1] = (local_index / size[0]) % size[1];
  inv.local_id[2] = local_index / (size[0] * size[1]);
  for (int d = 0; d < 3; ++d)
    inv.global_id[d] = g.offset[d] + group[d] * g.local[d] + inv.local_id[d];
  const uint32_t sg = std::max<uint32_t>(1, g.subgroup_size);
  inv.subgroup = local_index / sg;
  const uint64_t items = size[0] * size[1] * size[2];
  const uint64_t enqueued_items = g.local[0] * g.local[1] * g.local[2];

  inv.builtins.assign(program.builtin_block_bytes, 0);
  for (const StaticAlloc& a : program.static_allocs) {
    if (a.kind != AllocKind::kBuiltin) continue;
    std::array<uint64_t, 3> v{0, 0, 0};
    switch (a.builtin) {
      case Builtin::kGlobalInvocationId:
        v = inv.global_id;
        break;
      case Builtin::kLocalInvocationId:
        v = inv.local_id;
        break;
      case Builtin::kWorkgroupId:
        v = group;
        break;
      case Builtin::kNumWorkgroups:
        v = g.groups;
        break;
      case Builtin::kGlobalSize:
        v = g.global;
        break;
      case Builtin::kWorkgroupSize:
        v = size;
        break;
      case Builtin::kEnqueuedWorkgroupSize:
        v = g.local;
        break;
      case Builtin::kGlobalOffset:
        v = g.offset;
        break;
      case Builtin::kWorkDim:
        v[0] = g.dims;
        break;
      case Builtin::kGlobalLinearId:
        v[0] = ((inv.global_id[2] - g.offset[2]) * g.global[1] +
                (inv.global_id[1] - g.offset[1])) *
                   g.global[0] +
               (inv.global_id[0] - g.offset[0]);
        break;
      case Builtin::kLocalInvocationIndex:
        v[0] = local_index;
        break;
      case Builtin::kSubgroupSize:
        v[0] = std::min<uint64_t>(sg, items - uint64_t{inv.subgroup} * sg);
        break;
      case Builtin::kSubgroupMaxSize:
        v[0] = sg;
        break;
      case Builtin::kNumSubgroups:
        v[0] = (items + sg - 1) / sg;
        break;
      case Builtin::kNumEnqueuedSubgroups:
        v[0] = (enqueued_items + sg - 1) / sg;
        break;
      case Builtin::kSubgroupId:
        v[0] = inv.subgroup;
        break;
      case Builtin::kSubgroupLocalInvocationId:
        v[0] = local_index % sg;
        break;
      case Builtin::kSubgroupEqMask:
      case Builtin::kSubgroupGeMask:
      case Builtin::kSubgroupGtMask:
      case Builtin::kSubgroupLeMask:
      case Builtin::kSubgroupLtMask: {
        // Bits of the subgroup's invocations (lane < its size) compared
        // with this lane; 4 x 32 bits.
        const uint64_t lane = local_index % sg;
        const uint64_t size =
            std::min<uint64_t>(sg, items - uint64_t{inv.subgroup} * sg);
        uint32_t words[4] = {0, 0, 0, 0};
        for (uint64_t bit = 0; bit < size && bit < 128; ++bit) {
          bool set = false;
          switch (a.builtin) {
            case Builtin::kSubgroupEqMask:
              set = bit == lane;
              break;
            case Builtin::kSubgroupGeMask:
              set = bit >= lane;
              break;
            case Builtin::kSubgroupGtMask:
              set = bit > lane;
              break;
            case Builtin::kSubgroupLeMask:
              set = bit <= lane;
              break;
            default:
              set = bit < lane;
              break;
          }
          if (set) words[bit / 32] |= 1u << (bit % 32);
        }
        std::memcpy(inv.builtins.data() + a.builtin_offset, words, 16);
        continue;
      }
    }
    uint8_t* out = inv.builtins.data() + a.builtin_offset;
    for (int l = 0; l < a.builtin_lanes; ++l)
      std::memcpy(out + l * a.builtin_lane_bytes, &v[l], a.builtin_lane_bytes);
  }
}

}  // namespace l0spv::oracles::reference
