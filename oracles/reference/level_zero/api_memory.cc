// Memory entry points of the reference driver (zeMemAlloc*, zeMemFree,
// allocation queries). The device is the host: every kind of allocation is
// host memory, recorded in the registry with its Level Zero type.
#include "oracles/reference/level_zero/ddi_support.h"
#include "oracles/reference/level_zero/memory_registry.h"
#include "oracles/reference/level_zero/objects.h"

namespace l0spv::zeref {
namespace {

constexpr ze_device_mem_alloc_flags_t kDeviceAllocFlags =
    ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_CACHED |
    ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_UNCACHED |
    ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT;
constexpr ze_host_mem_alloc_flags_t kHostAllocFlags =
    ZE_HOST_MEM_ALLOC_FLAG_BIAS_CACHED | ZE_HOST_MEM_ALLOC_FLAG_BIAS_UNCACHED |
    ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED |
    ZE_HOST_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT;

ze_result_t CheckDeviceDesc(const ze_device_mem_alloc_desc_t* desc) {
  if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->flags & ~kDeviceAllocFlags)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (desc->ordinal != 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return ZE_RESULT_SUCCESS;
}

ze_result_t CheckHostDesc(const ze_host_mem_alloc_desc_t* desc) {
  if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->flags & ~kHostAllocFlags)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL MemAllocShared(
    ze_context_handle_t context, const ze_device_mem_alloc_desc_t* device_desc,
    const ze_host_mem_alloc_desc_t* host_desc, size_t size, size_t alignment,
    ze_device_handle_t device, void** out) {
  Context* c = FromHandle<Context>(context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  // hDevice is optional for shared allocations.
  if (device != nullptr && !FromHandle<Device>(device))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = CheckDeviceDesc(device_desc); r != ZE_RESULT_SUCCESS)
    return r;
  if (ze_result_t r = CheckHostDesc(host_desc); r != ZE_RESULT_SUCCESS)
    return r;
  return TheMemory().Allocate(c, ZE_MEMORY_TYPE_SHARED, size, alignment, out);
}

ze_result_t ZE_APICALL MemAllocDevice(ze_context_handle_t context,
                                      const ze_device_mem_alloc_desc_t* desc,
                                      size_t size, size_t alignment,
                                      ze_device_handle_t device, void** out) {
  Context* c = FromHandle<Context>(context);
  if (!c || !FromHandle<Device>(device))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = CheckDeviceDesc(desc); r != ZE_RESULT_SUCCESS) return r;
  return TheMemory().Allocate(c, ZE_MEMORY_TYPE_DEVICE, size, alignment, out);
}

ze_result_t ZE_APICALL MemAllocHost(ze_context_handle_t context,
                                    const ze_host_mem_alloc_desc_t* desc,
                                    size_t size, size_t alignment, void** out) {
  Context* c = FromHandle<Context>(context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = CheckHostDesc(desc); r != ZE_RESULT_SUCCESS) return r;
  return TheMemory().Allocate(c, ZE_MEMORY_TYPE_HOST, size, alignment, out);
}

ze_result_t ZE_APICALL MemFree(ze_context_handle_t context, void* ptr) {
  Context* c = FromHandle<Context>(context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return TheMemory().Free(c, ptr);
}

ze_result_t ZE_APICALL MemGetAllocProperties(
    ze_context_handle_t context, const void* ptr,
    ze_memory_allocation_properties_t* props, ze_device_handle_t* device) {
  Context* c = FromHandle<Context>(context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr || !props) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto a = TheMemory().Find(ptr);
  if (!a || a->context != c) {
    props->type = ZE_MEMORY_TYPE_UNKNOWN;
    props->id = 0;
    props->pageSize = 0;
    if (device) *device = nullptr;
    return ZE_RESULT_SUCCESS;
  }
  props->type = a->type;
  props->id = a->id;
  props->pageSize = 4096;
  if (device) {
    *device = a->type == ZE_MEMORY_TYPE_HOST
                  ? nullptr
                  : ToHandle<ze_device_handle_t>(TheDevice());
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL MemGetAddressRange(ze_context_handle_t context,
                                          const void* ptr, void** base,
                                          size_t* size) {
  Context* c = FromHandle<Context>(context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!ptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto a = TheMemory().Find(ptr);
  if (!a || a->context != c) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (base) *base = reinterpret_cast<void*>(a->base);
  if (size) *size = a->size;
  return ZE_RESULT_SUCCESS;
}

}  // namespace

void FillImplemented(ze_mem_dditable_t* t) {
  t->pfnAllocShared = MemAllocShared;
  t->pfnAllocDevice = MemAllocDevice;
  t->pfnAllocHost = MemAllocHost;
  t->pfnFree = MemFree;
  t->pfnGetAllocProperties = MemGetAllocProperties;
  t->pfnGetAddressRange = MemGetAddressRange;
}

}  // namespace l0spv::zeref
