#include "oracles/reference/race.h"

#include <algorithm>

#include "absl/base/attributes.h"
#include "absl/strings/str_format.h"

namespace l0spv::oracles::reference {
namespace {

// Memory-semantics bits (SPIR-V) that fence each RaceClass.
constexpr uint32_t kWorkgroupMemory = 0x100;
constexpr uint32_t kCrossWorkgroupMemory = 0x200;

}  // namespace

uint32_t RaceDetector::Tick() {
  // Clock 0 means "nothing recorded"; stop checking before it wraps.
  if (clock_ >= 0xFFFFFFF0u) enabled_ = false;
  return ++clock_;
}

void RaceDetector::StartGroup(const std::array<uint64_t, 3>& group,
                              uint32_t first_tag, uint32_t items,
                              Invocation* const* invocations) {
  if (!enabled_) return;
  if (uint64_t{first_tag} + items >= kManyBit) {
    enabled_ = false;
    return;
  }
  group_sync_ = Tick();
  first_tag_ = first_tag;
  groups_.push_back({first_tag, group});
  for (uint32_t i = 0; i < items; ++i) {
    Invocation& inv = *invocations[i];
    inv.sync = {group_sync_, group_sync_};
    inv.wg_sync = {group_sync_, group_sync_};
  }
}

void RaceDetector::Barrier(Invocation* const* members, size_t count,
                           uint32_t semantics, bool workgroup) {
  if (!enabled_) return;
  const bool fence[2] = {(semantics & kWorkgroupMemory) != 0,
                         (semantics & kCrossWorkgroupMemory) != 0};
  if (!fence[0] && !fence[1]) return;
  const uint32_t now = Tick();
  for (size_t i = 0; i < count; ++i) {
    Invocation& inv = *members[i];
    for (int c = 0; c < 2; ++c) {
      if (!fence[c]) continue;
      inv.sync[c] = now;
      if (workgroup) inv.wg_sync[c] = now;
    }
  }
}

ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool RaceDetector::Ordered(
    uint32_t tag, uint32_t sync, RaceClass cls, const Invocation& inv) const {
  if (sync == 0) return true;  // nothing recorded
  // An earlier work-group: its Workgroup memory is gone, its global
  // accesses are unordered with this group's.
  if (sync < group_sync_) return cls == kRaceLocal;
  if (tag == inv.tag) return true;
  // Without a subgroup barrier since the last work-group barrier both
  // thresholds agree: skip working out the other access's subgroup.
  if (inv.sync[cls] == inv.wg_sync[cls]) return sync < inv.wg_sync[cls];
  bool same_subgroup;
  if ((tag & kManyBit) == 0) {
    same_subgroup =
        (tag - first_tag_) / std::max<uint32_t>(1, geo_.subgroup_size) ==
        inv.subgroup;
  } else {
    same_subgroup = tag != kMixedReaders && (tag & ~kManyBit) == inv.subgroup;
  }
  return sync < (same_subgroup ? inv.sync[cls] : inv.wg_sync[cls]);
}

ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool RaceDetector::Step(
    RaceCell& c, RaceClass cls, bool write, const Invocation& inv,
    RaceConflict* conflict) {
  const uint32_t now = inv.sync[cls];
  if (!Ordered(c.w_tag, c.w_sync, cls, inv)) {
    conflict->kind = write ? "write-after-write" : "read-after-write";
    conflict->other_tag = c.w_tag;
    conflict->several = false;
    conflict->other_group = c.w_sync < group_sync_;
    return false;
  }
  if (write) {
    if (!Ordered(c.r_tag, c.r_sync, cls, inv)) {
      conflict->kind = "write-after-read";
      conflict->other_tag = c.r_tag;
      conflict->several = (c.r_tag & kManyBit) != 0;
      conflict->other_group = c.r_sync < group_sync_;
      return false;
    }
    c = RaceCell{inv.tag, now, 0, 0};
    return true;
  }
  // Reader summary: a reader ordered before this one is forgotten (any
  // later access unordered with it is unordered with this one too),
  // except global readers of an earlier group, which stay a hazard.
  if (c.r_sync == 0 ||
      (c.r_sync < group_sync_ ? cls == kRaceLocal
                              : Ordered(c.r_tag, c.r_sync, cls, inv))) {
    c.r_tag = inv.tag;
    c.r_sync = now;
  } else if (c.r_sync < group_sync_) {
    // keep the earlier group's reader
  } else if (c.r_tag == inv.tag) {
    c.r_sync = std::max(c.r_sync, now);
  } else {
    const uint32_t sg = std::max<uint32_t>(1, geo_.subgroup_size);
    const uint32_t old_sg =
        (c.r_tag & kManyBit)
            ? (c.r_tag == kMixedReaders ? 0xFFFFFFFFu : (c.r_tag & ~kManyBit))
            : (c.r_tag - first_tag_) / sg;
    c.r_tag =
        old_sg == inv.subgroup ? (kManyBit | inv.subgroup) : kMixedReaders;
    c.r_sync = std::max(c.r_sync, now);
  }
  return true;
}

bool RaceDetector::Check(RaceCell* cells, uint64_t bytes, RaceClass cls,
                         bool write, const Invocation& inv,
                         RaceConflict* conflict) {
  if (!enabled_ || bytes == 0) return true;
  // Fast path: an access usually meets identical records on all its bytes
  // (the same earlier access); judge once and copy the outcome.
  const RaceCell first = cells[0];
  uint64_t same = 1;
  while (same < bytes && cells[same].w_tag == first.w_tag &&
         cells[same].w_sync == first.w_sync &&
         cells[same].r_tag == first.r_tag && cells[same].r_sync == first.r_sync)
    ++same;
  if (same == bytes) {
    RaceCell c = first;
    if (!Step(c, cls, write, inv, conflict)) {
      conflict->byte = 0;
      return false;
    }
    for (uint64_t i = 0; i < bytes; ++i) cells[i] = c;
    return true;
  }
  for (uint64_t i = 0; i < bytes; ++i) {
    if (!Step(cells[i], cls, write, inv, conflict)) {
      conflict->byte = static_cast<uint32_t>(i);
      return false;
    }
  }
  return true;
}

std::string RaceDetector::DescribeTag(uint32_t tag) const {
  auto it =
      std::upper_bound(groups_.begin(), groups_.end(), tag,
                       [](uint32_t t, const auto& g) { return t < g.first; });
  if (it == groups_.begin()) return absl::StrFormat("work-item #%u", tag);
  --it;
  const std::array<uint64_t, 3>& group = it->second;
  const uint32_t index = tag - it->first;
  const std::array<uint64_t, 3> size = GroupSize(geo_, group);
  const std::array<uint64_t, 3> local = {index % size[0],
                                         (index / size[0]) % size[1],
                                         index / (size[0] * size[1])};
  std::array<uint64_t, 3> global;
  for (int d = 0; d < 3; ++d)
    global[d] = geo_.offset[d] + group[d] * geo_.local[d] + local[d];
  return absl::StrFormat(
      "work-item global id (%d, %d, %d) (local (%d, %d, %d), work-group "
      "(%d, %d, %d))",
      global[0], global[1], global[2], local[0], local[1], local[2], group[0],
      group[1], group[2]);
}

}  // namespace l0spv::oracles::reference
