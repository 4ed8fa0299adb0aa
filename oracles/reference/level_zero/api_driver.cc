// Global, driver, device and context entry points of the reference driver.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "oracles/reference/level_zero/ddi_support.h"
#include "oracles/reference/level_zero/l0spv_reference_ext.h"
#include "oracles/reference/level_zero/launch.h"
#include "oracles/reference/level_zero/memory_registry.h"
#include "oracles/reference/level_zero/objects.h"
#include "oracles/validity/device_profile.h"

namespace l0spv::zeref {

Driver* TheDriver() {
  static Driver* driver = new Driver;
  return driver;
}

Device* TheDevice() {
  static Device* device = new Device;
  return device;
}

namespace {

constexpr char kDeviceName[] =
    "l0spv reference device (SPIR-V interpreter, not a GPU)";
// Interpreter limits reported to applications.
constexpr uint32_t kMaxGroupSize = 1024;
constexpr uint32_t kMaxSharedLocalMemory = 64 * 1024;
constexpr uint32_t kSubgroupSizes[] = {8, 16, 32};
constexpr uint32_t kDefaultSubgroupSize = 8;

void FillUuid(uint8_t* id, size_t size, const char* text) {
  std::memset(id, 0, size);
  std::memcpy(id, text, std::min(size, std::strlen(text)));
}

uint64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Two-call enumeration of a single object.
template <typename Handle>
ze_result_t EnumerateOne(uint32_t* count, Handle* out, Handle only) {
  if (count == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*count == 0 || out == nullptr) {
    *count = 1;
    return ZE_RESULT_SUCCESS;
  }
  out[0] = only;
  *count = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL Init(ze_init_flags_t flags) {
  if (flags & ~ze_init_flags_t(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY))
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  // A GPU-type device: asking for VPUs only finds nothing here.
  if (flags == ZE_INIT_FLAG_VPU_ONLY) return ZE_RESULT_ERROR_UNINITIALIZED;
  TheDriver();
  TheDevice();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DriverGet(uint32_t* count, ze_driver_handle_t* out) {
  return EnumerateOne(count, out, ToHandle<ze_driver_handle_t>(TheDriver()));
}

ze_result_t ZE_APICALL DriverGetApiVersion(ze_driver_handle_t driver,
                                           ze_api_version_t* version) {
  if (!FromHandle<Driver>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!version) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *version = kDriverApiVersion;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DriverGetProperties(ze_driver_handle_t driver,
                                           ze_driver_properties_t* props) {
  if (!FromHandle<Driver>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!props) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  FillUuid(props->uuid.id, ZE_MAX_DRIVER_UUID_SIZE, "l0spv-ref-driver");
  props->driverVersion = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DriverGetIpcProperties(
    ze_driver_handle_t driver, ze_driver_ipc_properties_t* props) {
  if (!FromHandle<Driver>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!props) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  props->flags = 0;  // no IPC
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
DriverGetExtensionProperties(ze_driver_handle_t driver, uint32_t* count,
                             ze_driver_extension_properties_t* props) {
  if (!FromHandle<Driver>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Ours, and the multi-module program descriptor (api_module.cc).
  const struct {
    const char* name;
    uint32_t version;
  } kExtensions[] = {
      {L0SPV_REFERENCE_EXT_NAME, L0SPV_REFERENCE_EXT_VERSION},
      {ZE_MODULE_PROGRAM_EXP_NAME, ZE_MODULE_PROGRAM_EXP_VERSION_CURRENT},
  };
  constexpr uint32_t kCount = sizeof kExtensions / sizeof kExtensions[0];
  if (*count == 0 || props == nullptr) {
    *count = kCount;
    return ZE_RESULT_SUCCESS;
  }
  const uint32_t n = std::min(*count, kCount);
  for (uint32_t i = 0; i < n; ++i) {
    std::memset(props[i].name, 0, sizeof props[i].name);
    std::strncpy(props[i].name, kExtensions[i].name, sizeof props[i].name - 1);
    props[i].version = kExtensions[i].version;
  }
  *count = n;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DriverGetExtensionFunctionAddress(
    ze_driver_handle_t driver, const char* name, void** address) {
  if (!FromHandle<Driver>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!name || !address) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (std::strcmp(name, L0SPV_REFERENCE_TAKE_LAUNCH_REPORTS) == 0) {
    *address = reinterpret_cast<void*>(&TakeLaunchReports);
    return ZE_RESULT_SUCCESS;
  }
  return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t ZE_APICALL DeviceGet(ze_driver_handle_t driver, uint32_t* count,
                                 ze_device_handle_t* out) {
  if (!FromHandle<Driver>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return EnumerateOne(count, out, ToHandle<ze_device_handle_t>(TheDevice()));
}

ze_result_t ZE_APICALL DeviceGetSubDevices(ze_device_handle_t device,
                                           uint32_t* count,
                                           ze_device_handle_t*) {
  if (!FromHandle<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *count = 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DeviceGetProperties(ze_device_handle_t device,
                                           ze_device_properties_t* p) {
  if (!FromHandle<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  p->type = ZE_DEVICE_TYPE_GPU;
  p->vendorId = 0;  // no PCI device
  p->deviceId = 0;
  p->flags = ZE_DEVICE_PROPERTY_FLAG_INTEGRATED;  // host memory
  p->subdeviceId = 0;
  p->coreClockRate = 1;
  p->maxMemAllocSize = MemoryRegistry::kMaxAllocation;
  p->maxHardwareContexts = 1;
  p->maxCommandQueuePriority = 0;
  p->numThreadsPerEU = 1;
  p->physicalEUSimdWidth = kDefaultSubgroupSize;
  p->numEUsPerSubslice = 1;
  p->numSubslicesPerSlice = 1;
  p->numSlices = 1;
  p->timerResolution = 1;  // ns: timestamps are steady_clock nanoseconds
  p->timestampValidBits = 64;
  p->kernelTimestampValidBits = 64;
  FillUuid(p->uuid.id, ZE_MAX_DEVICE_UUID_SIZE, "l0spv-ref-device");
  std::memset(p->name, 0, sizeof p->name);
  std::strncpy(p->name, kDeviceName, sizeof p->name - 1);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DeviceGetComputeProperties(
    ze_device_handle_t device, ze_device_compute_properties_t* p) {
  if (!FromHandle<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  p->maxTotalGroupSize = kMaxGroupSize;
  p->maxGroupSizeX = p->maxGroupSizeY = p->maxGroupSizeZ = kMaxGroupSize;
  p->maxGroupCountX = p->maxGroupCountY = p->maxGroupCountZ = 0xFFFFFFFFu;
  p->maxSharedLocalMemory = kMaxSharedLocalMemory;
  p->numSubGroupSizes = 0;
  for (uint32_t s : kSubgroupSizes) p->subGroupSizes[p->numSubGroupSizes++] = s;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DeviceGetModuleProperties(
    ze_device_handle_t device, ze_device_module_properties_t* p) {
  if (!FromHandle<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // The device accepts exactly the `full` profile (module_build.cc lints
  // against it), so its flags come from the same data.
  auto profile = oracles::FindDeviceProfile("full");
  if (!profile.ok()) return ZE_RESULT_ERROR_UNKNOWN;
  // ZE_MAKE_VERSION does not parenthesize its arguments.
  const uint32_t major = (profile->max_spirv_version >> 16) & 0xFF;
  const uint32_t minor = (profile->max_spirv_version >> 8) & 0xFF;
  p->spirvVersionSupported = ZE_MAKE_VERSION(major, minor);
  p->flags = 0;
  if (profile->fp16) p->flags |= ZE_DEVICE_MODULE_FLAG_FP16;
  if (profile->fp64) p->flags |= ZE_DEVICE_MODULE_FLAG_FP64;
  if (profile->int64_atomics) p->flags |= ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  const ze_device_fp_flags_t fp =
      ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN |
      ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST | ZE_DEVICE_FP_FLAG_FMA;
  p->fp16flags = profile->fp16 ? fp : 0;
  p->fp32flags = fp | ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
  p->fp64flags = profile->fp64 ? fp : 0;
  p->maxArgumentsSize = 4096;
  p->printfBufferSize = 1 << 20;
  FillUuid(p->nativeKernelSupported.id, ZE_MAX_NATIVE_KERNEL_UUID_SIZE,
           "l0spv-ref-none");
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
DeviceGetCommandQueueGroupProperties(ze_device_handle_t device, uint32_t* count,
                                     ze_command_queue_group_properties_t* p) {
  if (!FromHandle<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*count == 0 || p == nullptr) {
    *count = 1;
    return ZE_RESULT_SUCCESS;
  }
  p[0].flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
               ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
  p[0].maxMemoryFillPatternSize = 128;
  p[0].numQueues = 1;
  *count = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
DeviceGetMemoryProperties(ze_device_handle_t device, uint32_t* count,
                          ze_device_memory_properties_t* p) {
  if (!FromHandle<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*count == 0 || p == nullptr) {
    *count = 1;
    return ZE_RESULT_SUCCESS;
  }
  p[0].flags = 0;
  p[0].maxClockRate = 0;
  p[0].maxBusWidth = 0;
  p[0].totalSize = uint64_t{4} << 30;
  std::memset(p[0].name, 0, sizeof p[0].name);
  std::strncpy(p[0].name, "host memory", sizeof p[0].name - 1);
  *count = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DeviceGetMemoryAccessProperties(
    ze_device_handle_t device, ze_device_memory_access_properties_t* p) {
  if (!FromHandle<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const ze_memory_access_cap_flags_t rw = ZE_MEMORY_ACCESS_CAP_FLAG_RW;
  p->hostAllocCapabilities = rw;
  p->deviceAllocCapabilities = rw;
  p->sharedSingleDeviceAllocCapabilities = rw;
  p->sharedCrossDeviceAllocCapabilities = 0;
  p->sharedSystemAllocCapabilities = 0;  // kernels need zeMemAlloc* memory
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DeviceGetCacheProperties(ze_device_handle_t device,
                                                uint32_t* count,
                                                ze_device_cache_properties_t*) {
  if (!FromHandle<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *count = 0;  // the interpreter has no caches
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DeviceGetImageProperties(
    ze_device_handle_t device, ze_device_image_properties_t* p) {
  if (!FromHandle<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!ImagesEnabled()) {
    p->maxImageDims1D = p->maxImageDims2D = p->maxImageDims3D = 0;
    p->maxImageBufferSize = 0;
    p->maxImageArraySlices = p->maxSamplers = 0;
    p->maxReadImageArgs = p->maxWriteImageArgs = 0;
    return ZE_RESULT_SUCCESS;
  }
  p->maxImageDims1D = kMaxImageDims1D;
  p->maxImageDims2D = kMaxImageDims2D;
  p->maxImageDims3D = kMaxImageDims3D;
  p->maxImageBufferSize = kMaxImageBufferBytes;
  p->maxImageArraySlices = kMaxImageArraySlices;
  p->maxSamplers = kMaxSamplers;
  p->maxReadImageArgs = kMaxReadImageArgs;
  p->maxWriteImageArgs = kMaxWriteImageArgs;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DeviceGetP2PProperties(ze_device_handle_t device,
                                              ze_device_handle_t peer,
                                              ze_device_p2p_properties_t* p) {
  if (!FromHandle<Device>(device) || !FromHandle<Device>(peer))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  p->flags = ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DeviceCanAccessPeer(ze_device_handle_t device,
                                           ze_device_handle_t peer,
                                           ze_bool_t* value) {
  if (!FromHandle<Device>(device) || !FromHandle<Device>(peer))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!value) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *value = 1;  // the only device is its own peer
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL DeviceGetStatus(ze_device_handle_t device) {
  return FromHandle<Device>(device) ? ZE_RESULT_SUCCESS
                                    : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

ze_result_t ZE_APICALL DeviceGetGlobalTimestamps(ze_device_handle_t device,
                                                 uint64_t* host,
                                                 uint64_t* dev) {
  if (!FromHandle<Device>(device)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!host || !dev) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *host = *dev = NowNs();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ContextCreateEx(ze_driver_handle_t driver,
                                       const ze_context_desc_t* desc,
                                       uint32_t num_devices,
                                       ze_device_handle_t* devices,
                                       ze_context_handle_t* out) {
  if (!FromHandle<Driver>(driver)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (num_devices > 0 && devices == nullptr)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  for (uint32_t i = 0; i < num_devices; ++i)
    if (!FromHandle<Device>(devices[i]))
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc->flags & ~ze_context_flags_t(ZE_CONTEXT_FLAG_TBD))
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  *out = ToHandle<ze_context_handle_t>(new Context);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ContextCreate(ze_driver_handle_t driver,
                                     const ze_context_desc_t* desc,
                                     ze_context_handle_t* out) {
  return ContextCreateEx(driver, desc, 0, nullptr, out);
}

ze_result_t ZE_APICALL ContextDestroy(ze_context_handle_t context) {
  Context* c = FromHandle<Context>(context);
  if (!c) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete c;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ContextGetStatus(ze_context_handle_t context) {
  return FromHandle<Context>(context) ? ZE_RESULT_SUCCESS
                                      : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

}  // namespace

void FillImplemented(ze_global_dditable_t* t) { t->pfnInit = Init; }

void FillImplemented(ze_driver_dditable_t* t) {
  t->pfnGet = DriverGet;
  t->pfnGetApiVersion = DriverGetApiVersion;
  t->pfnGetProperties = DriverGetProperties;
  t->pfnGetIpcProperties = DriverGetIpcProperties;
  t->pfnGetExtensionProperties = DriverGetExtensionProperties;
  t->pfnGetExtensionFunctionAddress = DriverGetExtensionFunctionAddress;
}

void FillImplemented(ze_device_dditable_t* t) {
  t->pfnGet = DeviceGet;
  t->pfnGetSubDevices = DeviceGetSubDevices;
  t->pfnGetProperties = DeviceGetProperties;
  t->pfnGetComputeProperties = DeviceGetComputeProperties;
  t->pfnGetModuleProperties = DeviceGetModuleProperties;
  t->pfnGetCommandQueueGroupProperties = DeviceGetCommandQueueGroupProperties;
  t->pfnGetMemoryProperties = DeviceGetMemoryProperties;
  t->pfnGetMemoryAccessProperties = DeviceGetMemoryAccessProperties;
  t->pfnGetCacheProperties = DeviceGetCacheProperties;
  t->pfnGetImageProperties = DeviceGetImageProperties;
  t->pfnGetP2PProperties = DeviceGetP2PProperties;
  t->pfnCanAccessPeer = DeviceCanAccessPeer;
  t->pfnGetStatus = DeviceGetStatus;
  t->pfnGetGlobalTimestamps = DeviceGetGlobalTimestamps;
}

void FillImplemented(ze_context_dditable_t* t) {
  t->pfnCreate = ContextCreate;
  t->pfnCreateEx = ContextCreateEx;
  t->pfnDestroy = ContextDestroy;
  t->pfnGetStatus = ContextGetStatus;
}

}  // namespace l0spv::zeref
