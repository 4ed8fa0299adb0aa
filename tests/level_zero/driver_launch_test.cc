// Launching kernels on the l0spv reference driver through the real loader:
// regular and immediate command lists, events, fences, copies and fills,
// interpreter verdicts, and every corpus kernel against RunReference.
#include <cstring>
#include <filesystem>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "oracles/reference/interpreter.h"
#include "oracles/reference/level_zero/l0spv_reference_ext.h"
#include "spirv/launch_spec.h"
#include "tests/level_zero/ze_test_util.h"

namespace l0spv::zeref_test {
namespace {

using ::testing::HasSubstr;

class ZeLaunchTest : public ZeTest {
 protected:
  // A kernel "k" of `text`, owned by the fixture.
  ze_kernel_handle_t Kernel(const char* text,
                            const ze_module_constants_t* constants = nullptr) {
    ze_module_handle_t module = nullptr;
    std::string log;
    EXPECT_EQ(CreateModule(Assemble(text), &module, &log, "", constants),
              ZE_RESULT_SUCCESS)
        << log;
    if (!module) return nullptr;
    modules_.push_back(module);
    auto desc = Desc<ze_kernel_desc_t>(ZE_STRUCTURE_TYPE_KERNEL_DESC);
    desc.pKernelName = "k";
    ze_kernel_handle_t kernel = nullptr;
    EXPECT_EQ(zeKernelCreate(module, &desc, &kernel), ZE_RESULT_SUCCESS);
    kernels_.push_back(kernel);
    return kernel;
  }
  // in = 0..n-1, out = 0; kernel scale-add with s = 7, groups of 4.
  ze_kernel_handle_t ScaleAdd(uint32_t n, uint32_t** in, uint32_t** out) {
    ze_kernel_handle_t k = Kernel(kScaleAdd);
    *in = static_cast<uint32_t*>(Shared(n * 4));
    *out = static_cast<uint32_t*>(Shared(n * 4));
    std::iota(*in, *in + n, 0u);
    const uint32_t s = 7;
    EXPECT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(void*), in),
              ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeKernelSetArgumentValue(k, 1, sizeof(void*), out),
              ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeKernelSetArgumentValue(k, 2, sizeof s, &s), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeKernelSetGroupSize(k, 4, 1, 1), ZE_RESULT_SUCCESS);
    return k;
  }
  ze_event_handle_t NewEvent(uint32_t index) {
    if (!pool_) {
      auto desc = Desc<ze_event_pool_desc_t>(ZE_STRUCTURE_TYPE_EVENT_POOL_DESC);
      desc.flags =
          ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
      desc.count = 8;
      EXPECT_EQ(zeEventPoolCreate(context_, &desc, 0, nullptr, &pool_),
                ZE_RESULT_SUCCESS);
    }
    auto desc = Desc<ze_event_desc_t>(ZE_STRUCTURE_TYPE_EVENT_DESC);
    desc.index = index;
    ze_event_handle_t event = nullptr;
    EXPECT_EQ(zeEventCreate(pool_, &desc, &event), ZE_RESULT_SUCCESS);
    events_.push_back(event);
    return event;
  }
  nlohmann::json Reports() {
    void* fn = nullptr;
    EXPECT_EQ(zeDriverGetExtensionFunctionAddress(
                  driver_, L0SPV_REFERENCE_TAKE_LAUNCH_REPORTS, &fn),
              ZE_RESULT_SUCCESS);
    auto take = reinterpret_cast<l0spv_pfnTakeLaunchReports_t>(fn);
    size_t size = 0;
    EXPECT_EQ(take(&size, nullptr), ZE_RESULT_SUCCESS);
    std::string text(size, '\0');
    EXPECT_EQ(take(&size, text.data()), ZE_RESULT_SUCCESS);
    text.resize(size - 1);
    return nlohmann::json::parse(text);
  }
  void TearDown() override {
    for (auto e : events_) EXPECT_EQ(zeEventDestroy(e), ZE_RESULT_SUCCESS);
    if (pool_) {
      EXPECT_EQ(zeEventPoolDestroy(pool_), ZE_RESULT_SUCCESS);
    }
    for (auto k : kernels_) EXPECT_EQ(zeKernelDestroy(k), ZE_RESULT_SUCCESS);
    for (auto m : modules_) EXPECT_EQ(zeModuleDestroy(m), ZE_RESULT_SUCCESS);
    ZeTest::TearDown();
  }
  std::vector<ze_module_handle_t> modules_;
  std::vector<ze_kernel_handle_t> kernels_;
  std::vector<ze_event_handle_t> events_;
  ze_event_pool_handle_t pool_ = nullptr;
};

TEST_F(ZeLaunchTest, GivenRegularListWhenLaunchingThenResultsInAllocations) {
  uint32_t *in, *out;
  ze_kernel_handle_t k = ScaleAdd(16, &in, &out);
  ze_command_list_handle_t list = NewList();
  ze_group_count_t groups{4, 1, 1};
  ASSERT_EQ(
      zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
      ZE_RESULT_SUCCESS);
  // Arguments are captured at append time: changing them now has no effect.
  const uint32_t other = 1000;
  ASSERT_EQ(zeKernelSetArgumentValue(k, 2, sizeof other, &other),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  ASSERT_EQ(Execute(list), ZE_RESULT_SUCCESS);
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(out[i], i * 3 + 7) << i;
  // Appending to a closed list is refused; Reset reopens it.
  EXPECT_EQ(
      zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
      ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeCommandListReset(list), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
  const nlohmann::json reports = Reports();
  ASSERT_FALSE(reports["reports"].empty());
  EXPECT_EQ(reports["reports"].back()["status"], "ok");
}

TEST_F(ZeLaunchTest, GivenUnsetArgumentWhenAppendingThenInvalidArgument) {
  ze_kernel_handle_t k = Kernel(kScaleAdd);
  ze_command_list_handle_t list = NewList();
  ze_group_count_t groups{1, 1, 1};
  EXPECT_EQ(
      zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
      ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeCommandListAppendLaunchKernel(list, nullptr, &groups, nullptr, 0,
                                            nullptr),
            ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ZeLaunchTest, GivenSynchronousImmediateListThenDoneOnReturn) {
  uint32_t *in, *out;
  ze_kernel_handle_t k = ScaleAdd(8, &in, &out);
  auto desc =
      Desc<ze_command_queue_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
  desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
  ze_command_list_handle_t list = nullptr;
  ASSERT_EQ(zeCommandListCreateImmediate(context_, device_, &desc, &list),
            ZE_RESULT_SUCCESS);
  ze_group_count_t groups{2, 1, 1};
  ASSERT_EQ(
      zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
      ZE_RESULT_SUCCESS);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i * 3 + 7);
  EXPECT_EQ(zeCommandListClose(list), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ZeLaunchTest, GivenAsyncImmediateListWhenWaitingOnHostEventThenBlocks) {
  uint32_t *in, *out;
  ze_kernel_handle_t k = ScaleAdd(8, &in, &out);
  auto desc =
      Desc<ze_command_queue_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
  desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  ze_command_list_handle_t list = nullptr;
  ASSERT_EQ(zeCommandListCreateImmediate(context_, device_, &desc, &list),
            ZE_RESULT_SUCCESS);
  ze_event_handle_t go = NewEvent(0);
  ze_event_handle_t done = NewEvent(1);
  ze_group_count_t groups{2, 1, 1};
  ASSERT_EQ(zeCommandListAppendLaunchKernel(list, k, &groups, done, 1, &go),
            ZE_RESULT_SUCCESS);
  // The launch waits for `go`: nothing has run yet.
  EXPECT_EQ(zeEventHostSynchronize(done, 20'000'000), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeEventQueryStatus(done), ZE_RESULT_NOT_READY);
  EXPECT_EQ(out[1], 0u);
  ASSERT_EQ(zeEventHostSignal(go), ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeEventHostSynchronize(done, UINT64_MAX), ZE_RESULT_SUCCESS);
  EXPECT_EQ(out[1], 10u);
  ze_kernel_timestamp_result_t ts{};
  ASSERT_EQ(zeEventQueryKernelTimestamp(done, &ts), ZE_RESULT_SUCCESS);
  EXPECT_LE(ts.global.kernelStart, ts.global.kernelEnd);
  EXPECT_EQ(zeEventHostReset(done), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeEventQueryStatus(done), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ZeLaunchTest, GivenQueueBlockedOnEventWhenSynchronizingThenTimeout) {
  auto qd = Desc<ze_command_queue_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
  ze_command_queue_handle_t queue = nullptr;
  ASSERT_EQ(zeCommandQueueCreate(context_, device_, &qd, &queue),
            ZE_RESULT_SUCCESS);
  auto fd = Desc<ze_fence_desc_t>(ZE_STRUCTURE_TYPE_FENCE_DESC);
  ze_fence_handle_t fence = nullptr;
  ASSERT_EQ(zeFenceCreate(queue, &fd, &fence), ZE_RESULT_SUCCESS);
  ze_event_handle_t gate = NewEvent(2);
  ze_command_list_handle_t list = NewList();
  ASSERT_EQ(zeCommandListAppendWaitOnEvents(list, 1, &gate), ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandQueueExecuteCommandLists(queue, 1, &list, fence),
            ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeCommandQueueSynchronize(queue, 0), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeCommandQueueSynchronize(queue, 10'000'000), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeFenceQueryStatus(fence), ZE_RESULT_NOT_READY);
  EXPECT_EQ(zeFenceHostSynchronize(fence, 1'000'000), ZE_RESULT_NOT_READY);
  ASSERT_EQ(zeEventHostSignal(gate), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeFenceHostSynchronize(fence, UINT64_MAX), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeCommandQueueSynchronize(queue, UINT64_MAX), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeFenceReset(fence), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeFenceQueryStatus(fence), ZE_RESULT_NOT_READY);
  // An open list cannot be executed.
  ze_command_list_handle_t open = NewList();
  EXPECT_EQ(zeCommandQueueExecuteCommandLists(queue, 1, &open, nullptr),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeCommandQueueExecuteCommandLists(queue, 0, &open, nullptr),
            ZE_RESULT_ERROR_INVALID_SIZE);
  EXPECT_EQ(zeCommandListDestroy(open), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeFenceDestroy(fence), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeCommandQueueDestroy(queue), ZE_RESULT_SUCCESS);
}

TEST_F(ZeLaunchTest, GivenCopyAndFillCommandsThenMemoryUpdatedInOrder) {
  auto* a = static_cast<uint8_t*>(Shared(64));
  auto* b = static_cast<uint8_t*>(Shared(64));
  ze_command_list_handle_t list = NewList();
  const uint16_t pattern = 0xA55A;
  ASSERT_EQ(zeCommandListAppendMemoryFill(list, a, &pattern, sizeof pattern, 64,
                                          nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListAppendBarrier(list, nullptr, 0, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(
      zeCommandListAppendMemoryCopy(list, b + 8, a, 32, nullptr, 0, nullptr),
      ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeCommandListAppendMemoryFill(list, a, &pattern, 3, 64, nullptr, 0,
                                          nullptr),
            ZE_RESULT_ERROR_INVALID_SIZE);
  EXPECT_EQ(
      zeCommandListAppendMemoryCopy(list, nullptr, a, 4, nullptr, 0, nullptr),
      ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  ASSERT_EQ(Execute(list), ZE_RESULT_SUCCESS);
  for (int i = 0; i < 64; i += 2) {
    EXPECT_EQ(a[i], 0x5A);
    EXPECT_EQ(a[i + 1], 0xA5);
  }
  EXPECT_EQ(b[7], 0);
  EXPECT_EQ(b[8], 0x5A);
  EXPECT_EQ(b[39], 0xA5);
  EXPECT_EQ(b[40], 0);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ZeLaunchTest, GivenSpecConstantWhenLaunchingThenValueUsed) {
  const uint32_t id = 7;
  const uint32_t value = 11;
  const void* values[] = {&value};
  ze_module_constants_t constants{1, &id, values};
  ze_kernel_handle_t k = Kernel(kSpecScale, &constants);
  ASSERT_NE(k, nullptr);
  auto* out = static_cast<uint32_t*>(Shared(4 * 4));
  ASSERT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(void*), &out),
            ZE_RESULT_SUCCESS);
  ze_command_list_handle_t list = NewList();
  ze_group_count_t groups{4, 1, 1};
  ASSERT_EQ(
      zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
      ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  ASSERT_EQ(Execute(list), ZE_RESULT_SUCCESS);
  EXPECT_EQ(out[3], 33u);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ZeLaunchTest, GivenLocalArgumentThenSizeFromSetArgumentValue) {
  ze_kernel_handle_t k = Kernel(kLocalCopy);
  auto* out = static_cast<uint32_t*>(Shared(4 * 4));
  ASSERT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(void*), &out),
            ZE_RESULT_SUCCESS);
  const uint32_t junk = 0;
  EXPECT_EQ(zeKernelSetArgumentValue(k, 1, 16, &junk),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);  // local: value must be null
  ASSERT_EQ(zeKernelSetArgumentValue(k, 1, 16, nullptr), ZE_RESULT_SUCCESS);
  ze_command_list_handle_t list = NewList();
  ze_group_count_t groups{4, 1, 1};
  ASSERT_EQ(
      zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
      ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  ASSERT_EQ(Execute(list), ZE_RESULT_SUCCESS);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(out[i], i);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ZeLaunchTest, GivenOutOfBoundsStoreThenDeviceLostAndUbReport) {
  Reports();  // forget earlier launches
  ze_kernel_handle_t k = Kernel(kOutOfBounds);
  auto* out = static_cast<uint32_t*>(Shared(16));
  ASSERT_EQ(zeKernelSetArgumentValue(k, 0, sizeof(void*), &out),
            ZE_RESULT_SUCCESS);
  ze_command_list_handle_t list = NewList();
  ze_group_count_t groups{1, 1, 1};
  ASSERT_EQ(
      zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
      ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  EXPECT_EQ(Execute(list), ZE_RESULT_ERROR_DEVICE_LOST);
  const nlohmann::json reports = Reports();
  ASSERT_EQ(reports["reports"].size(), 1u);
  EXPECT_EQ(reports["reports"][0]["status"], "ub-detected");
  EXPECT_THAT(reports["reports"][0]["message"].get<std::string>(),
              HasSubstr("out-of-bounds store"));
  // The device stays usable.
  EXPECT_EQ(zeDeviceGetStatus(device_), ZE_RESULT_SUCCESS);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(ZeLaunchTest, GivenAliasedOrForeignPointersThenUnsupportedFeature) {
  uint32_t *in, *out;
  ze_kernel_handle_t k = ScaleAdd(8, &in, &out);
  ASSERT_EQ(zeKernelSetArgumentValue(k, 1, sizeof(void*), &in),
            ZE_RESULT_SUCCESS);
  ze_command_list_handle_t list = NewList();
  ze_group_count_t groups{2, 1, 1};
  ASSERT_EQ(
      zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
      ZE_RESULT_SUCCESS);
  std::vector<uint32_t> not_device_memory(8);
  uint32_t* foreign = not_device_memory.data();
  ASSERT_EQ(zeKernelSetArgumentValue(k, 1, sizeof(void*), &foreign),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(
      zeCommandListAppendLaunchKernel(list, k, &groups, nullptr, 0, nullptr),
      ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeCommandListClose(list), ZE_RESULT_SUCCESS);
  Reports();
  EXPECT_EQ(Execute(list), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  const nlohmann::json reports = Reports();
  ASSERT_EQ(reports["reports"].size(), 2u);
  EXPECT_THAT(reports["reports"][0]["message"].get<std::string>(),
              HasSubstr("overlap"));
  EXPECT_THAT(reports["reports"][1]["message"].get<std::string>(),
              HasSubstr("not memory allocated by"));
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

// Level Zero lets threads use different command lists, queues and kernels
// concurrently; every thread must get its own results.
TEST_F(ZeLaunchTest, GivenThreadsWithOwnQueuesWhenLaunchingThenAllCorrect) {
  constexpr int kThreads = 4;
  constexpr uint32_t kItems = 64;
  std::vector<ze_kernel_handle_t> kernels;
  std::vector<uint32_t*> outs;
  for (int t = 0; t < kThreads; ++t) {
    uint32_t *in, *out;
    kernels.push_back(ScaleAdd(kItems, &in, &out));
    const uint32_t s = 100 * t;
    ASSERT_EQ(zeKernelSetArgumentValue(kernels.back(), 2, sizeof s, &s),
              ZE_RESULT_SUCCESS);
    outs.push_back(out);
  }
  std::vector<ze_result_t> results(kThreads, ZE_RESULT_ERROR_UNKNOWN);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      ze_command_list_handle_t list = NewList();
      ze_group_count_t groups{kItems / 4, 1, 1};
      ze_result_t r = ZE_RESULT_SUCCESS;
      for (int rep = 0; rep < 5 && r == ZE_RESULT_SUCCESS; ++rep)
        r = zeCommandListAppendLaunchKernel(list, kernels[t], &groups, nullptr,
                                            0, nullptr);
      if (r == ZE_RESULT_SUCCESS) r = zeCommandListClose(list);
      if (r == ZE_RESULT_SUCCESS) r = Execute(list);
      zeCommandListDestroy(list);
      results[t] = r;
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(results[t], ZE_RESULT_SUCCESS) << t;
    for (uint32_t i = 0; i < kItems; ++i)
      ASSERT_EQ(outs[t][i], i * 3 + 100 * t) << t << " " << i;
  }
}

// Every corpus kernel through the driver gives exactly what RunReference
// gives.
TEST_F(ZeLaunchTest, GivenCorpusKernelsThenDriverEqualsReference) {
  const std::string manifest =
      std::string(L0SPV_BINARY_DIR) + "/corpora/corpus_manifest.txt";
  if (!std::filesystem::exists(manifest))
    GTEST_SKIP() << "corpus not built (" << manifest << ")";
  auto entries = spirv::ReadCorpusManifest(manifest);
  ASSERT_TRUE(entries.ok()) << entries.status();
  ASSERT_FALSE(entries->empty());
  int compared = 0, non_uniform = 0;
  for (const spirv::CorpusEntry& entry : *entries) {
    SCOPED_TRACE(entry.name);
    auto tc = spirv::LoadSidecarCase(entry.spv_path, entry.json_path);
    ASSERT_TRUE(tc.ok()) << tc.status();
    const oracles::Execution ref = oracles::reference::RunReference(
        *tc, oracles::reference::ReferenceOptions());
    const oracles::Execution got = RunThroughApi(context_, device_, *tc);
    if (ref.status != oracles::ExecutionStatus::kOk) {
      ADD_FAILURE() << "ref: " << ref.message;
      continue;
    }
    if (IsNonUniform(tc->nd_range)) {
      EXPECT_EQ(got.status, oracles::ExecutionStatus::kUnsupported);
      ++non_uniform;
      continue;
    }
    ASSERT_EQ(got.status, oracles::ExecutionStatus::kOk) << got.message << "\n"
                                                         << got.log;
    ASSERT_EQ(got.buffers.size(), ref.buffers.size());
    for (size_t i = 0; i < ref.buffers.size(); ++i)
      EXPECT_EQ(got.buffers[i], ref.buffers[i]) << "argument " << i;
    ++compared;
  }
  EXPECT_EQ(compared + non_uniform, static_cast<int>(entries->size()));
  // Today: 4 corpus kernels launch partial work-groups.
  EXPECT_LE(non_uniform, 4);
}

}  // namespace
}  // namespace l0spv::zeref_test
