// oracles/reference/race.h — data-race detection for the reference
// interpreter (internal to oracles/reference).
//
// Contract: every byte of a shared, writable allocation (Workgroup memory,
// CrossWorkgroup buffers and variables) has a RaceCell recording its last
// non-atomic writer and a summary of its readers since then, each with the
// synchronisation clock the accessor had at the time. Check() reports a
// conflict when a non-atomic access by one work-item meets an access by
// another work-item that no barrier orders before it:
//  - within a work-group, an access A is ordered before B when a
//    work-group barrier whose memory semantics fence A's storage class
//    (WorkgroupMemory for Workgroup memory, CrossWorkgroupMemory for
//    global memory) completed after A, or, for two work-items of the same
//    subgroup, a subgroup barrier with such a fence did;
//  - across work-groups (which the interpreter runs one after another)
//    nothing orders global memory: two groups touching a byte with at least
//    one write is a race; Workgroup memory of an earlier group is stale.
// Read-read is never a conflict; atomics are neither checked nor recorded.
// Clocks are 32-bit and tags must stay below 2^31: a run that would exceed
// either stops checking (Enabled() turns false) rather than misreport.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "oracles/reference/builtins.h"
#include "oracles/reference/executor.h"

namespace l0spv::oracles::reference {

struct RaceCell {
  uint32_t w_tag = 0;
  uint32_t w_sync = 0;  // 0: no writer recorded
  uint32_t r_tag = 0;   // a tag, or kManyBit | subgroup, or kMixedReaders
  uint32_t r_sync = 0;  // 0: no reader recorded (max over the readers)
};

// Storage classes the detector tells apart (their fences differ).
enum RaceClass : uint8_t { kRaceLocal = 0, kRaceGlobal = 1 };

struct RaceConflict {
  const char* kind = "";     // "read-after-write", ...
  uint32_t other_tag = 0;    // valid when !several
  bool several = false;      // a reader summary of several work-items
  bool other_group = false;  // the other access is in an earlier group
  uint32_t byte = 0;         // index of the byte within the access
};

class RaceDetector {
 public:
  static constexpr uint32_t kManyBit = 0x80000000u;
  static constexpr uint32_t kMixedReaders = 0xFFFFFFFFu;

  explicit RaceDetector(const Geometry& geometry) : geo_(geometry) {}

  bool Enabled() const { return enabled_; }

  // A new work-group whose work-items take tags first_tag .. +items-1;
  // sets their clocks.
  void StartGroup(const std::array<uint64_t, 3>& group, uint32_t first_tag,
                  uint32_t items, Invocation* const* invocations);
  // A barrier completed for `members` with memory `semantics`;
  // `workgroup` is true for work-group scope, false for subgroup scope.
  void Barrier(Invocation* const* members, size_t count, uint32_t semantics,
               bool workgroup);

  // Checks and records a non-atomic access of cells[0 .. bytes) of an
  // allocation of class `cls` by `inv`. False with *conflict set on a race.
  bool Check(RaceCell* cells, uint64_t bytes, RaceClass cls, bool write,
             const Invocation& inv, RaceConflict* conflict);

  // "work-item global id (x, y, z) (local ..., work-group ...)" of a tag
  // of this run.
  std::string DescribeTag(uint32_t tag) const;

 private:
  bool Ordered(uint32_t tag, uint32_t sync, RaceClass cls,
               const Invocation& inv) const;
  // Judges and updates one byte's record.
  bool Step(RaceCell& c, RaceClass cls, bool write, const Invocation& inv,
            RaceConflict* conflict);
  uint32_t Tick();

  const Geometry& geo_;
  bool enabled_ = true;
  uint32_t clock_ = 0;
  uint32_t group_sync_ = 0;  // the clock at the current group's start
  uint32_t first_tag_ = 0;   // first tag of the current group
  // Every group started so far: (first tag, group id), to name the other
  // work-item of a cross-group race.
  std::vector<std::pair<uint32_t, std::array<uint64_t, 3>>> groups_;
};

}  // namespace l0spv::oracles::reference
