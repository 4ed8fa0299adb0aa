// Command queue, command list, fence, event pool and event entry points of
// the reference driver. Commands run on the queue's worker (engine.h).
#include <chrono>
#include <cstring>
#include <limits>

#include "oracles/reference/level_zero/append.h"
#include "oracles/reference/level_zero/ddi_support.h"
#include "oracles/reference/level_zero/engine.h"
#include "oracles/reference/level_zero/launch.h"
#include "oracles/reference/level_zero/objects.h"
#include "oracles/reference/level_zero/sync.h"

namespace l0spv::zeref {

Sync& TheSync() {
  static Sync* sync = new Sync;  // never destroyed (see sync.h)
  return *sync;
}

CommandQueue::~CommandQueue() = default;
CommandList::~CommandList() = default;

ze_result_t Record(CommandList* list, Command command) {
  if (list->immediate) {
    std::vector<Command> batch;
    batch.push_back(std::move(command));
    const uint64_t ticket = list->engine->Submit(std::move(batch), nullptr);
    if (list->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS)
      return list->engine->Synchronize(std::numeric_limits<uint64_t>::max(),
                                       ticket);
    return ZE_RESULT_SUCCESS;
  }
  std::lock_guard<std::mutex> lock(list->mu);
  if (list->closed) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  list->commands.push_back(std::move(command));
  return ZE_RESULT_SUCCESS;
}

ze_result_t Prepare(ze_command_list_handle_t handle, ze_event_handle_t signal,
                    uint32_t num_waits, ze_event_handle_t* waits,
                    CommandList** list, Command* command) {
  *list = FromHandle<CommandList>(handle);
  if (!*list) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (num_waits > 0 && waits == nullptr) return ZE_RESULT_ERROR_INVALID_SIZE;
  if (signal) {
    command->signal = FromHandle<Event>(signal);
    if (!command->signal) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  }
  for (uint32_t i = 0; i < num_waits; ++i) {
    Event* e = FromHandle<Event>(waits[i]);
    if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    command->waits.push_back(e);
  }
  return ZE_RESULT_SUCCESS;
}

namespace {

constexpr uint64_t kForever = std::numeric_limits<uint64_t>::max();
constexpr size_t kMaxFillPattern = 128;

uint64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

ze_result_t CheckQueueDesc(const ze_command_queue_desc_t* desc) {
  if (!desc) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->flags &
      ~ze_command_queue_flags_t(ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY))
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (desc->mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ||
      desc->priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  // One queue group with one queue (zeDeviceGetCommandQueueGroupProperties).
  if (desc->ordinal != 0 || desc->index != 0)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL QueueCreate(ze_context_handle_t context,
                                   ze_device_handle_t device,
                                   const ze_command_queue_desc_t* desc,
                                   ze_command_queue_handle_t* out) {
  if (!FromHandle<Context>(context) || !FromHandle<Device>(device))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = CheckQueueDesc(desc); r != ZE_RESULT_SUCCESS) return r;
  auto* q = new CommandQueue;
  q->mode = desc->mode;
  q->engine = std::make_unique<Engine>();
  *out = ToHandle<ze_command_queue_handle_t>(q);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL QueueDestroy(ze_command_queue_handle_t handle) {
  CommandQueue* q = FromHandle<CommandQueue>(handle);
  if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete q;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL QueueExecuteCommandLists(
    ze_command_queue_handle_t handle, uint32_t count,
    ze_command_list_handle_t* lists, ze_fence_handle_t fence_handle) {
  CommandQueue* q = FromHandle<CommandQueue>(handle);
  if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!lists) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  Fence* fence = nullptr;
  if (fence_handle) {
    fence = FromHandle<Fence>(fence_handle);
    if (!fence) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (fence->queue != q) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  std::vector<Command> batch;
  for (uint32_t i = 0; i < count; ++i) {
    CommandList* l = FromHandle<CommandList>(lists[i]);
    if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (l->immediate) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    std::lock_guard<std::mutex> lock(l->mu);
    if (!l->closed) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    batch.insert(batch.end(), l->commands.begin(), l->commands.end());
  }
  const uint64_t ticket = q->engine->Submit(std::move(batch), fence);
  if (q->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS)
    return q->engine->Synchronize(kForever, ticket);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL QueueSynchronize(ze_command_queue_handle_t handle,
                                        uint64_t timeout) {
  CommandQueue* q = FromHandle<CommandQueue>(handle);
  if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return q->engine->Synchronize(timeout);
}

ze_result_t ZE_APICALL ListCreate(ze_context_handle_t context,
                                  ze_device_handle_t device,
                                  const ze_command_list_desc_t* desc,
                                  ze_command_list_handle_t* out) {
  if (!FromHandle<Context>(context) || !FromHandle<Device>(device))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->flags > 0x7) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (desc->commandQueueGroupOrdinal != 0)
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  *out = ToHandle<ze_command_list_handle_t>(new CommandList);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ListCreateImmediate(ze_context_handle_t context,
                                           ze_device_handle_t device,
                                           const ze_command_queue_desc_t* desc,
                                           ze_command_list_handle_t* out) {
  if (!FromHandle<Context>(context) || !FromHandle<Device>(device))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ze_result_t r = CheckQueueDesc(desc); r != ZE_RESULT_SUCCESS) return r;
  auto* l = new CommandList;
  l->immediate = true;
  l->mode = desc->mode;
  l->engine = std::make_unique<Engine>();
  *out = ToHandle<ze_command_list_handle_t>(l);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ListDestroy(ze_command_list_handle_t handle) {
  CommandList* l = FromHandle<CommandList>(handle);
  if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete l;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ListClose(ze_command_list_handle_t handle) {
  CommandList* l = FromHandle<CommandList>(handle);
  if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (l->immediate) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(l->mu);
  l->closed = true;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ListReset(ze_command_list_handle_t handle) {
  CommandList* l = FromHandle<CommandList>(handle);
  if (!l) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (l->immediate) return l->engine->Synchronize(kForever);
  std::lock_guard<std::mutex> lock(l->mu);
  l->closed = false;
  l->commands.clear();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL AppendBarrier(ze_command_list_handle_t handle,
                                     ze_event_handle_t signal,
                                     uint32_t num_waits,
                                     ze_event_handle_t* waits) {
  CommandList* l;
  Command c;
  if (ze_result_t r = Prepare(handle, signal, num_waits, waits, &l, &c);
      r != ZE_RESULT_SUCCESS)
    return r;
  // Commands run in order on one worker, so a barrier only has to wait for
  // its events and signal its own.
  return Record(l, std::move(c));
}

ze_result_t ZE_APICALL AppendMemoryRangesBarrier(
    ze_command_list_handle_t handle, uint32_t num_ranges, const size_t* sizes,
    const void** ranges, ze_event_handle_t signal, uint32_t num_waits,
    ze_event_handle_t* waits) {
  if (num_ranges > 0 && (!sizes || !ranges))
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return AppendBarrier(handle, signal, num_waits, waits);
}

ze_result_t ZE_APICALL AppendMemoryCopy(ze_command_list_handle_t handle,
                                        void* dst, const void* src, size_t size,
                                        ze_event_handle_t signal,
                                        uint32_t num_waits,
                                        ze_event_handle_t* waits) {
  CommandList* l;
  Command c;
  if (ze_result_t r = Prepare(handle, signal, num_waits, waits, &l, &c);
      r != ZE_RESULT_SUCCESS)
    return r;
  if (!dst || !src) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  c.run = [dst, src, size] {
    std::memmove(dst, src, size);
    return ZE_RESULT_SUCCESS;
  };
  return Record(l, std::move(c));
}

ze_result_t ZE_APICALL AppendMemoryFill(ze_command_list_handle_t handle,
                                        void* ptr, const void* pattern,
                                        size_t pattern_size, size_t size,
                                        ze_event_handle_t signal,
                                        uint32_t num_waits,
                                        ze_event_handle_t* waits) {
  CommandList* l;
  Command c;
  if (ze_result_t r = Prepare(handle, signal, num_waits, waits, &l, &c);
      r != ZE_RESULT_SUCCESS)
    return r;
  if (!ptr || !pattern) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (pattern_size == 0 || pattern_size > kMaxFillPattern ||
      (pattern_size & (pattern_size - 1)))
    return ZE_RESULT_ERROR_INVALID_SIZE;
  // The pattern is copied now: the application may reuse it after the call.
  std::vector<uint8_t> bytes(
      static_cast<const uint8_t*>(pattern),
      static_cast<const uint8_t*>(pattern) + pattern_size);
  c.run = [ptr, bytes = std::move(bytes), size] {
    auto* out = static_cast<uint8_t*>(ptr);
    for (size_t i = 0; i < size; ++i) out[i] = bytes[i % bytes.size()];
    return ZE_RESULT_SUCCESS;
  };
  return Record(l, std::move(c));
}

ze_result_t ZE_APICALL AppendWriteGlobalTimestamp(
    ze_command_list_handle_t handle, uint64_t* dst, ze_event_handle_t signal,
    uint32_t num_waits, ze_event_handle_t* waits) {
  CommandList* l;
  Command c;
  if (ze_result_t r = Prepare(handle, signal, num_waits, waits, &l, &c);
      r != ZE_RESULT_SUCCESS)
    return r;
  if (!dst) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  c.run = [dst] {
    *dst = NowNs();
    return ZE_RESULT_SUCCESS;
  };
  return Record(l, std::move(c));
}

ze_result_t ZE_APICALL AppendSignalEvent(ze_command_list_handle_t handle,
                                         ze_event_handle_t event) {
  if (!event) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return AppendBarrier(handle, event, 0, nullptr);
}

ze_result_t ZE_APICALL AppendWaitOnEvents(ze_command_list_handle_t handle,
                                          uint32_t count,
                                          ze_event_handle_t* events) {
  if (count > 0 && !events) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return AppendBarrier(handle, nullptr, count, events);
}

ze_result_t ZE_APICALL AppendEventReset(ze_command_list_handle_t handle,
                                        ze_event_handle_t event) {
  CommandList* l;
  Command c;
  if (ze_result_t r = Prepare(handle, nullptr, 0, nullptr, &l, &c);
      r != ZE_RESULT_SUCCESS)
    return r;
  Event* e = FromHandle<Event>(event);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  c.run = [e] {
    std::lock_guard<std::mutex> lock(TheSync().mu);
    e->signaled = false;
    return ZE_RESULT_SUCCESS;
  };
  return Record(l, std::move(c));
}

ze_result_t ZE_APICALL AppendLaunchKernel(ze_command_list_handle_t handle,
                                          ze_kernel_handle_t kernel,
                                          const ze_group_count_t* groups,
                                          ze_event_handle_t signal,
                                          uint32_t num_waits,
                                          ze_event_handle_t* waits) {
  CommandList* l;
  Command c;
  if (ze_result_t r = Prepare(handle, signal, num_waits, waits, &l, &c);
      r != ZE_RESULT_SUCCESS)
    return r;
  Kernel* k = FromHandle<Kernel>(kernel);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!groups) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  // Level Zero captures the arguments and sizes when the launch is appended.
  LaunchParams p;
  p.built = k->built;
  p.info = k->info;
  p.group_count = {groups->groupCountX, groups->groupCountY,
                   groups->groupCountZ};
  {
    std::lock_guard<std::mutex> lock(k->mu);
    for (const BoundArg& a : k->args)
      if (!a.set) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    p.args = k->args;
    p.group_size = k->group_size;
    p.global_offset = k->global_offset;
  }
  c.run = [p = std::move(p)] { return ExecuteLaunch(p); };
  return Record(l, std::move(c));
}

ze_result_t ZE_APICALL FenceCreate(ze_command_queue_handle_t queue,
                                   const ze_fence_desc_t* desc,
                                   ze_fence_handle_t* out) {
  CommandQueue* q = FromHandle<CommandQueue>(queue);
  if (!q) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->flags & ~ze_fence_flags_t(ZE_FENCE_FLAG_SIGNALED))
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  auto* f = new Fence;
  f->queue = q;
  f->signaled = (desc->flags & ZE_FENCE_FLAG_SIGNALED) != 0;
  *out = ToHandle<ze_fence_handle_t>(f);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL FenceDestroy(ze_fence_handle_t handle) {
  Fence* f = FromHandle<Fence>(handle);
  if (!f) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete f;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL FenceHostSynchronize(ze_fence_handle_t handle,
                                            uint64_t timeout) {
  Fence* f = FromHandle<Fence>(handle);
  if (!f) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::unique_lock<std::mutex> lock(TheSync().mu);
  return WaitFor(lock, timeout, [f] { return f->signaled; })
             ? ZE_RESULT_SUCCESS
             : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL FenceQueryStatus(ze_fence_handle_t handle) {
  return FenceHostSynchronize(handle, 0);
}

ze_result_t ZE_APICALL FenceReset(ze_fence_handle_t handle) {
  Fence* f = FromHandle<Fence>(handle);
  if (!f) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::lock_guard<std::mutex> lock(TheSync().mu);
  f->signaled = false;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL EventPoolCreate(ze_context_handle_t context,
                                       const ze_event_pool_desc_t* desc,
                                       uint32_t num_devices,
                                       ze_device_handle_t* devices,
                                       ze_event_pool_handle_t* out) {
  if (!FromHandle<Context>(context)) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->flags > 0xF) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (desc->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  if (num_devices > 0 && !devices) return ZE_RESULT_ERROR_INVALID_SIZE;
  for (uint32_t i = 0; i < num_devices; ++i)
    if (!FromHandle<Device>(devices[i]))
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  auto* pool = new EventPool;
  pool->flags = desc->flags;
  pool->count = desc->count;
  *out = ToHandle<ze_event_pool_handle_t>(pool);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL EventPoolDestroy(ze_event_pool_handle_t handle) {
  EventPool* pool = FromHandle<EventPool>(handle);
  if (!pool) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete pool;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL EventCreate(ze_event_pool_handle_t handle,
                                   const ze_event_desc_t* desc,
                                   ze_event_handle_t* out) {
  EventPool* pool = FromHandle<EventPool>(handle);
  if (!pool) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->signal > 0x3 || desc->wait > 0x3)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (desc->index >= pool->count) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  auto* e = new Event;
  e->pool = pool;
  e->index = desc->index;
  *out = ToHandle<ze_event_handle_t>(e);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL EventDestroy(ze_event_handle_t handle) {
  Event* e = FromHandle<Event>(handle);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete e;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL EventHostSignal(ze_event_handle_t handle) {
  Event* e = FromHandle<Event>(handle);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  {
    std::lock_guard<std::mutex> lock(TheSync().mu);
    e->signaled = true;
  }
  TheSync().cv.notify_all();
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL EventHostSynchronize(ze_event_handle_t handle,
                                            uint64_t timeout) {
  Event* e = FromHandle<Event>(handle);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::unique_lock<std::mutex> lock(TheSync().mu);
  return WaitFor(lock, timeout, [e] { return e->signaled; })
             ? ZE_RESULT_SUCCESS
             : ZE_RESULT_NOT_READY;
}

ze_result_t ZE_APICALL EventQueryStatus(ze_event_handle_t handle) {
  return EventHostSynchronize(handle, 0);
}

ze_result_t ZE_APICALL EventHostReset(ze_event_handle_t handle) {
  Event* e = FromHandle<Event>(handle);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::lock_guard<std::mutex> lock(TheSync().mu);
  e->signaled = false;
  e->start_ns = e->end_ns = 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL EventQueryKernelTimestamp(
    ze_event_handle_t handle, ze_kernel_timestamp_result_t* out) {
  Event* e = FromHandle<Event>(handle);
  if (!e) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!out) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (!(e->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP))
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  std::lock_guard<std::mutex> lock(TheSync().mu);
  if (!e->signaled) return ZE_RESULT_NOT_READY;
  out->global.kernelStart = out->context.kernelStart = e->start_ns;
  out->global.kernelEnd = out->context.kernelEnd = e->end_ns;
  return ZE_RESULT_SUCCESS;
}

}  // namespace

void FillImplemented(ze_command_queue_dditable_t* t) {
  t->pfnCreate = QueueCreate;
  t->pfnDestroy = QueueDestroy;
  t->pfnExecuteCommandLists = QueueExecuteCommandLists;
  t->pfnSynchronize = QueueSynchronize;
}

void FillImplemented(ze_command_list_dditable_t* t) {
  t->pfnCreate = ListCreate;
  t->pfnCreateImmediate = ListCreateImmediate;
  t->pfnDestroy = ListDestroy;
  t->pfnClose = ListClose;
  t->pfnReset = ListReset;
  t->pfnAppendWriteGlobalTimestamp = AppendWriteGlobalTimestamp;
  t->pfnAppendBarrier = AppendBarrier;
  t->pfnAppendMemoryRangesBarrier = AppendMemoryRangesBarrier;
  t->pfnAppendMemoryCopy = AppendMemoryCopy;
  t->pfnAppendMemoryFill = AppendMemoryFill;
  t->pfnAppendSignalEvent = AppendSignalEvent;
  t->pfnAppendWaitOnEvents = AppendWaitOnEvents;
  t->pfnAppendEventReset = AppendEventReset;
  t->pfnAppendLaunchKernel = AppendLaunchKernel;
  FillImageCopies(t);
}

void FillImplemented(ze_fence_dditable_t* t) {
  t->pfnCreate = FenceCreate;
  t->pfnDestroy = FenceDestroy;
  t->pfnHostSynchronize = FenceHostSynchronize;
  t->pfnQueryStatus = FenceQueryStatus;
  t->pfnReset = FenceReset;
}

void FillImplemented(ze_event_pool_dditable_t* t) {
  t->pfnCreate = EventPoolCreate;
  t->pfnDestroy = EventPoolDestroy;
}

void FillImplemented(ze_event_dditable_t* t) {
  t->pfnCreate = EventCreate;
  t->pfnDestroy = EventDestroy;
  t->pfnHostSignal = EventHostSignal;
  t->pfnHostSynchronize = EventHostSynchronize;
  t->pfnQueryStatus = EventQueryStatus;
  t->pfnHostReset = EventHostReset;
  t->pfnQueryKernelTimestamp = EventQueryKernelTimestamp;
}

}  // namespace l0spv::zeref
