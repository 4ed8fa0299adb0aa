#include "oracles/reference/level_zero/memory_registry.h"

#include <cstring>
#include <new>

namespace l0spv::zeref {

ze_result_t MemoryRegistry::Allocate(const Context* context,
                                     ze_memory_type_t type, size_t size,
                                     size_t alignment, void** out) {
  if (size == 0 || size > kMaxAllocation)
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (alignment & (alignment - 1)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  // At least 64 bytes: every SPIR-V type the interpreter loads is aligned.
  const size_t align = alignment < 64 ? 64 : alignment;
  void* p = ::operator new(size, std::align_val_t(align), std::nothrow);
  if (p == nullptr) return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
  std::memset(p, 0, size);
  std::lock_guard<std::mutex> lock(mu_);
  Allocation a;
  a.base = reinterpret_cast<uintptr_t>(p);
  a.size = size;
  a.alignment = align;
  a.type = type;
  a.context = context;
  a.id = next_id_++;
  allocations_[a.base] = a;
  *out = p;
  return ZE_RESULT_SUCCESS;
}

ze_result_t MemoryRegistry::Free(const Context* context, void* ptr) {
  size_t align = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == allocations_.end() || it->second.context != context)
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    align = it->second.alignment;
    allocations_.erase(it);
  }
  ::operator delete(ptr, std::align_val_t(align));
  return ZE_RESULT_SUCCESS;
}

std::optional<Allocation> MemoryRegistry::Find(const void* ptr) const {
  const uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = allocations_.upper_bound(p);
  if (it == allocations_.begin()) return std::nullopt;
  --it;
  if (p - it->second.base >= it->second.size) return std::nullopt;
  return it->second;
}

MemoryRegistry& TheMemory() {
  // Never destroyed: queue workers may still use it at process exit.
  static MemoryRegistry* registry = new MemoryRegistry;
  return *registry;
}

}  // namespace l0spv::zeref
