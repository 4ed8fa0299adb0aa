// oracles/reference/memory.h — the interpreter's memory: every allocation
// (buffer argument, __local allocation, private variable, module-scope
// variable, built-in input) is a record with a size, and pointers are
// (allocation id << 32 | byte offset) so any access can be checked.
//
// Contract: Resolve() is the only way the executor turns a pointer into host
// memory; it returns nullptr and a Fault instead of ever handing out bytes
// outside a live allocation. Allocation ids are never reused within a run,
// so a pointer to a private variable whose frame returned stays detectably
// dangling. Id 0 is the null pointer. Pointer arithmetic wraps within the
// 32-bit offset field (a pointer moved more than 4 GiB away from its
// allocation may alias back into it; documented limitation).
// Every byte the memory owns is charged against a limit; Charge() fails
// when it would be exceeded.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace l0spv::oracles::reference {

inline constexpr uint32_t kSharedOwner = 0xFFFFFFFFu;

struct RaceCell;

inline constexpr uint64_t MakePointer(uint32_t id, uint32_t offset) {
  return (uint64_t{id} << 32) | offset;
}
inline constexpr uint32_t PointerId(uint64_t p) {
  return static_cast<uint32_t>(p >> 32);
}
inline constexpr uint32_t PointerOffset(uint64_t p) {
  return static_cast<uint32_t>(p);
}

struct Allocation {
  uint8_t* data = nullptr;
  uint64_t size = 0;
  uint32_t owner = kSharedOwner;  // private allocations: the work-item tag
  uint8_t storage_class = 0;
  bool alive = false;
  bool read_only = false;
  // Shadow state, present only while the matching check is on: one byte
  // per byte, non-zero once written (nullptr: everything initialised), and
  // the data-race record per byte (nullptr: not tracked).
  uint8_t* init = nullptr;
  RaceCell* race = nullptr;
};

enum class Fault : uint8_t {
  kNone,
  kNull,
  kForged,    // id never allocated
  kDangling,  // allocation no longer alive
  kOutOfBounds,
  kMisaligned,
  kReadOnly,
  kOtherPrivate,  // another work-item's private memory
};

const char* FaultName(Fault f);

class Memory {
 public:
  explicit Memory(uint64_t limit_bytes) : limit_(limit_bytes) {
    records_.emplace_back();  // id 0: null
  }

  // Accounts for `bytes` more host memory; false when over the limit.
  bool Charge(uint64_t bytes) {
    if (bytes > limit_ || used_ > limit_ - bytes) return false;
    used_ += bytes;
    return true;
  }
  void Uncharge(uint64_t bytes) { used_ -= bytes < used_ ? bytes : used_; }
  uint64_t used() const { return used_; }

  // New allocation whose bytes the caller owns (or that Memory owns when
  // `owned` is given). Returns 0 when the id space or the limit is spent.
  uint32_t Add(uint8_t* data, uint64_t size, uint8_t storage_class,
               uint32_t owner, bool read_only);
  // New allocation backed by Memory-owned zeroed bytes; 0 on failure.
  uint32_t AddOwned(uint64_t size, uint8_t storage_class, bool read_only);

  Allocation& record(uint32_t id) { return records_[id]; }
  const Allocation& record(uint32_t id) const { return records_[id]; }
  uint32_t size() const { return static_cast<uint32_t>(records_.size()); }

  void Kill(uint32_t id) {
    records_[id].alive = false;
    records_[id].data = nullptr;
    records_[id].init = nullptr;
    records_[id].race = nullptr;
  }

  // Host address of [p, p + bytes) or nullptr with *fault set.
  inline uint8_t* Resolve(uint64_t p, uint64_t bytes, uint32_t align,
                          bool write, uint32_t owner, Fault* fault) {
    const uint32_t id = PointerId(p);
    const uint32_t off = PointerOffset(p);
    if (id == 0) {
      *fault = Fault::kNull;
      return nullptr;
    }
    if (id >= records_.size()) {
      *fault = Fault::kForged;
      return nullptr;
    }
    Allocation& a = records_[id];
    if (!a.alive) {
      *fault = Fault::kDangling;
      return nullptr;
    }
    if (off > a.size || bytes > a.size - off) {
      *fault = Fault::kOutOfBounds;
      return nullptr;
    }
    if (align > 1 && (off & (align - 1)) != 0) {
      *fault = Fault::kMisaligned;
      return nullptr;
    }
    if (write && a.read_only) {
      *fault = Fault::kReadOnly;
      return nullptr;
    }
    if (a.owner != kSharedOwner && a.owner != owner) {
      *fault = Fault::kOtherPrivate;
      return nullptr;
    }
    return a.data + off;
  }

  // Human-readable description of the allocation a pointer names.
  std::string Describe(uint64_t p) const;

 private:
  std::vector<Allocation> records_;
  std::vector<std::unique_ptr<uint8_t[]>> owned_;
  uint64_t limit_;
  uint64_t used_ = 0;
};

// A chunked bump allocator for one work-item's frames and private
// variables. Addresses stay valid until popped (chunks never move).
class Stack {
 public:
  struct Mark {
    size_t chunk = 0;
    size_t used = 0;
  };

  // 16-byte aligned, zero-filled block; nullptr when the memory limit is
  // spent.
  uint8_t* Push(size_t bytes, Memory& memory);
  Mark GetMark() const { return {current_, current_used()}; }
  void Pop(const Mark& m) {
    current_ = m.chunk;
    if (current_ < chunks_.size()) chunks_[current_].used = m.used;
    for (size_t i = current_ + 1; i < chunks_.size(); ++i) chunks_[i].used = 0;
  }
  void Reset() { Pop(Mark{}); }
  // Returns every chunk's bytes to `memory`'s accounting.
  void Release(Memory& memory);

 private:
  struct Chunk {
    std::unique_ptr<uint8_t[]> data;
    size_t capacity = 0;
    size_t used = 0;
  };
  size_t current_used() const {
    return current_ < chunks_.size() ? chunks_[current_].used : 0;
  }
  std::vector<Chunk> chunks_;
  size_t current_ = 0;
};

}  // namespace l0spv::oracles::reference
