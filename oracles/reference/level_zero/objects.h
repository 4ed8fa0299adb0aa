// oracles/reference/level_zero/objects.h — the objects behind the reference
// driver's Level Zero handles.
//
// Contract: a handle is a pointer to one of these structs. Each carries a tag
// that FromHandle checks, so a null handle or a handle of the wrong kind is
// reported as ZE_RESULT_ERROR_INVALID_NULL_HANDLE instead of being
// dereferenced as something else; the tag is cleared on destruction. Object
// state that host threads and queue workers share is guarded as each field
// says: TheSync().mu (sync.h) for signaled flags, the object's own `mu` for
// what the application mutates (kernel arguments, command list contents).
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "oracles/reference/level_zero/command.h"
#include "oracles/reference/level_zero/module_build.h"
#include "spirv/image_format.h"

namespace l0spv::zeref {

template <uint32_t Tag>
struct Tagged {
  static constexpr uint32_t kTag = Tag;
  uint32_t tag = Tag;
  Tagged() = default;
  Tagged(const Tagged&) = delete;
  Tagged& operator=(const Tagged&) = delete;
  ~Tagged() { tag = 0; }
};

template <typename T, typename Handle>
T* FromHandle(Handle handle) {
  T* object = reinterpret_cast<T*>(handle);
  return object != nullptr && object->tag == T::kTag ? object : nullptr;
}

template <typename Handle, typename T>
Handle ToHandle(T* object) {
  return reinterpret_cast<Handle>(object);
}

struct Driver : Tagged<0x6c30dd01> {};
struct Device : Tagged<0x6c30dd02> {};
struct Context : Tagged<0x6c30dd03> {};

// The one driver and its one device (never destroyed).
Driver* TheDriver();
Device* TheDevice();

struct EventPool : Tagged<0x6c30dd04> {
  ze_event_pool_flags_t flags = 0;
  uint32_t count = 0;
};

struct Event : Tagged<0x6c30dd05> {
  EventPool* pool = nullptr;
  uint32_t index = 0;
  // Guarded by TheSync().mu.
  bool signaled = false;
  uint64_t start_ns = 0, end_ns = 0;  // of the command that signaled it
};

class Engine;

struct CommandQueue : Tagged<0x6c30dd06> {
  ze_command_queue_mode_t mode = ZE_COMMAND_QUEUE_MODE_DEFAULT;
  std::unique_ptr<Engine> engine;
  ~CommandQueue();
};

struct Fence : Tagged<0x6c30dd07> {
  CommandQueue* queue = nullptr;
  bool signaled = false;  // guarded by TheSync().mu
};

struct CommandList : Tagged<0x6c30dd08> {
  bool immediate = false;
  ze_command_queue_mode_t mode = ZE_COMMAND_QUEUE_MODE_DEFAULT;  // immediate
  std::unique_ptr<Engine> engine;                                // immediate
  std::mutex mu;
  bool closed = false;            // guarded by mu (regular lists)
  std::vector<Command> commands;  // guarded by mu (regular lists)
  ~CommandList();
};

struct ModuleBuildLog : Tagged<0x6c30dd09> {
  std::string text;
};

struct Module : Tagged<0x6c30dd0a> {
  std::shared_ptr<const BuiltModule> built;
  // After zeModuleDynamicLink: the program linked from this module and the
  // others of the call, which kernels created from this module run.
  std::shared_ptr<const BuiltModule> linked;
};

// Device image limits (zeDeviceGetImageProperties); the same per-dimension
// limits spirv::ValidateImageDesc enforces, so every image the driver
// creates is one a test case can hold.
inline constexpr uint32_t kMaxImageDims1D = 16384, kMaxImageDims2D = 16384,
                          kMaxImageDims3D = 2048, kMaxImageArraySlices = 2048;
inline constexpr uint64_t kMaxImageBufferBytes = uint64_t{1} << 26;
inline constexpr uint64_t kMaxImageBytes = uint64_t{1} << 30;
inline constexpr uint32_t kMaxSamplers = 16, kMaxReadImageArgs = 128,
                          kMaxWriteImageArgs = 64;

// False when L0SPV_REFERENCE_NO_IMAGES is set (non-empty, not "0"): the
// device then reports no image support and refuses zeImageCreate and
// zeSamplerCreate, as a device without images does (read once).
bool ImagesEnabled();

// An image: its descriptor and texels (spirv/image_format.h layout), host
// memory like every allocation of this device. Commands read and write the
// texels on the queue workers; like device memory, concurrent use from
// several queues without synchronization is the application's race.
struct Image : Tagged<0x6c30dd0c> {
  spirv::ImageDesc desc;
  std::vector<uint8_t> texels;  // ImageBytes(desc), zero filled at creation
};

struct Sampler : Tagged<0x6c30dd0d> {
  spirv::SamplerDesc desc;
};

// One argument as set by zeKernelSetArgumentValue.
struct BoundArg {
  bool set = false;
  uint64_t pointer = 0;        // kBuffer: the allocation pointer (0 = null)
  uint64_t local_bytes = 0;    // kLocal
  std::vector<uint8_t> value;  // kValue
  Image* image = nullptr;      // kImage: texels are read at execution
  spirv::SamplerDesc sampler;  // kSampler: the state, fixed when set
};

struct Kernel : Tagged<0x6c30dd0b> {
  std::shared_ptr<const BuiltModule> built;
  const KernelInfo* info = nullptr;  // inside *built
  std::mutex mu;
  // Guarded by mu.
  std::vector<BoundArg> args;
  std::array<uint32_t, 3> group_size{1, 1, 1};
  std::array<uint32_t, 3> global_offset{0, 0, 0};
  ze_kernel_indirect_access_flags_t indirect_access = 0;
};

}  // namespace l0spv::zeref
