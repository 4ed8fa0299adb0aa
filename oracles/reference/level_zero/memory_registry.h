// oracles/reference/level_zero/memory_registry.h — the allocations of the
// reference device (zeMemAllocHost/Device/Shared).
//
// Contract: the device is the host, so every allocation is host memory that
// the interpreter reads and writes through copies (launch.h). The registry
// maps any address inside an allocation back to it (zeMemGetAllocProperties,
// zeMemGetAddressRange, kernel pointer arguments). Thread-safe: one mutex
// guards the map; the bytes themselves are the application's business, as on
// any Level Zero device.
#pragma once

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

namespace l0spv::zeref {

struct Context;

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;
  size_t alignment = 0;
  ze_memory_type_t type = ZE_MEMORY_TYPE_UNKNOWN;
  const Context* context = nullptr;
  uint64_t id = 0;  // unique per process, reported as the allocation id
};

class MemoryRegistry {
 public:
  // size 0 -> ZE_RESULT_ERROR_UNSUPPORTED_SIZE; alignment not 0 or a power of
  // two -> ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT; size above kMaxAllocation
  // -> ZE_RESULT_ERROR_UNSUPPORTED_SIZE. The memory is zero-filled so runs
  // are deterministic.
  ze_result_t Allocate(const Context* context, ze_memory_type_t type,
                       size_t size, size_t alignment, void** out);
  // Not the base of a live allocation of `context` ->
  // ZE_RESULT_ERROR_INVALID_ARGUMENT.
  ze_result_t Free(const Context* context, void* ptr);
  // The live allocation containing `ptr`, if any.
  std::optional<Allocation> Find(const void* ptr) const;

  // Largest single allocation (ze_device_properties_t::maxMemAllocSize).
  static constexpr size_t kMaxAllocation = size_t{1} << 30;

 private:
  mutable std::mutex mu_;
  std::map<uintptr_t, Allocation> allocations_;
  uint64_t next_id_ = 1;
};

MemoryRegistry& TheMemory();

}  // namespace l0spv::zeref
