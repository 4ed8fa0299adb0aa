// The l0spv reference driver through the real Level Zero loader: driver and
// device queries, memory, modules and kernels (Given/When/Then, as the Level
// Zero conformance tests are written).
#include <cstring>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/reference/level_zero/l0spv_reference_ext.h"
#include "oracles/validity/device_profile.h"
#include "tests/level_zero/ze_test_util.h"

namespace l0spv::zeref_test {
namespace {

using ::testing::HasSubstr;

class ZeDriverTest : public ZeTest {};

TEST_F(ZeDriverTest, GivenLoaderWhenListingDevicesThenOneReferenceGpu) {
  uint32_t count = 0;
  ASSERT_EQ(zeDeviceGet(driver_, &count, nullptr), ZE_RESULT_SUCCESS);
  EXPECT_EQ(count, 1u);
  auto props =
      Desc<ze_device_properties_t>(ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES);
  ASSERT_EQ(zeDeviceGetProperties(device_, &props), ZE_RESULT_SUCCESS);
  EXPECT_EQ(props.type, ZE_DEVICE_TYPE_GPU);
  EXPECT_THAT(std::string(props.name), HasSubstr("l0spv reference device"));
  ze_api_version_t version{};
  ASSERT_EQ(zeDriverGetApiVersion(driver_, &version), ZE_RESULT_SUCCESS);
  EXPECT_EQ(ZE_MAJOR_VERSION(version), 1u);
}

TEST_F(ZeDriverTest, GivenDeviceWhenQueryingModulePropertiesThenFullProfile) {
  auto profile = oracles::FindDeviceProfile("full");
  ASSERT_TRUE(profile.ok()) << profile.status();
  auto m = Desc<ze_device_module_properties_t>(
      ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES);
  ASSERT_EQ(zeDeviceGetModuleProperties(device_, &m), ZE_RESULT_SUCCESS);
  EXPECT_EQ(ZE_MAJOR_VERSION(m.spirvVersionSupported), 1u);
  EXPECT_EQ(ZE_MINOR_VERSION(m.spirvVersionSupported),
            (profile->max_spirv_version >> 8) & 0xFF);
  EXPECT_EQ((m.flags & ZE_DEVICE_MODULE_FLAG_FP16) != 0, profile->fp16);
  EXPECT_EQ((m.flags & ZE_DEVICE_MODULE_FLAG_FP64) != 0, profile->fp64);
  EXPECT_EQ((m.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS) != 0,
            profile->int64_atomics);
  auto c = Desc<ze_device_compute_properties_t>(
      ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES);
  ASSERT_EQ(zeDeviceGetComputeProperties(device_, &c), ZE_RESULT_SUCCESS);
  ASSERT_GE(c.numSubGroupSizes, 1u);
  EXPECT_EQ(c.subGroupSizes[0], 8u);  // the interpreter's default
  EXPECT_GE(c.maxTotalGroupSize, 64u);
}

TEST_F(ZeDriverTest, GivenDriverWhenAskingForTheReportExtensionThenFound) {
  uint32_t count = 0;
  ASSERT_EQ(zeDriverGetExtensionProperties(driver_, &count, nullptr),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(count, 2u);
  ze_driver_extension_properties_t ext[2]{};
  ASSERT_EQ(zeDriverGetExtensionProperties(driver_, &count, ext),
            ZE_RESULT_SUCCESS);
  EXPECT_STREQ(ext[0].name, L0SPV_REFERENCE_EXT_NAME);
  // The multi-module program descriptor (zeModuleCreate's pNext).
  EXPECT_STREQ(ext[1].name, ZE_MODULE_PROGRAM_EXP_NAME);
  void* fn = nullptr;
  EXPECT_EQ(zeDriverGetExtensionFunctionAddress(
                driver_, L0SPV_REFERENCE_TAKE_LAUNCH_REPORTS, &fn),
            ZE_RESULT_SUCCESS);
  EXPECT_NE(fn, nullptr);
  EXPECT_EQ(zeDriverGetExtensionFunctionAddress(driver_, "zeNoSuchThing", &fn),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(ZeDriverTest, GivenOutOfScopeEntryPointsThenUnsupportedFeature) {
  void* p = Shared(64);
  ze_copy_region_t region{0, 0, 0, 4, 1, 1};
  ze_command_list_handle_t list = NewList();
  EXPECT_EQ(zeCommandListAppendMemoryCopyRegion(
                list, p, &region, 4, 0, p, &region, 4, 0, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
  ze_ipc_mem_handle_t ipc{};
  EXPECT_EQ(zeMemGetIpcHandle(context_, p, &ipc),
            ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

TEST_F(ZeDriverTest, GivenAllocationsWhenQueryingThenTypesAndRanges) {
  auto dd =
      Desc<ze_device_mem_alloc_desc_t>(ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
  auto hd =
      Desc<ze_host_mem_alloc_desc_t>(ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
  void* host = nullptr;
  void* dev = nullptr;
  void* shared = nullptr;
  ASSERT_EQ(zeMemAllocHost(context_, &hd, 100, 0, &host), ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeMemAllocDevice(context_, &dd, 200, 256, device_, &dev),
            ZE_RESULT_SUCCESS);
  ASSERT_EQ(zeMemAllocShared(context_, &dd, &hd, 300, 0, device_, &shared),
            ZE_RESULT_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(dev) % 256, 0u);
  const struct {
    void* p;
    ze_memory_type_t type;
    size_t size;
  } cases[] = {{host, ZE_MEMORY_TYPE_HOST, 100},
               {dev, ZE_MEMORY_TYPE_DEVICE, 200},
               {shared, ZE_MEMORY_TYPE_SHARED, 300}};
  for (const auto& c : cases) {
    auto props = Desc<ze_memory_allocation_properties_t>(
        ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES);
    ze_device_handle_t owner = nullptr;
    ASSERT_EQ(zeMemGetAllocProperties(context_, static_cast<char*>(c.p) + 7,
                                      &props, &owner),
              ZE_RESULT_SUCCESS);
    EXPECT_EQ(props.type, c.type);
    EXPECT_NE(props.id, 0u);
    EXPECT_EQ(owner, c.type == ZE_MEMORY_TYPE_HOST ? nullptr : device_);
    void* base = nullptr;
    size_t size = 0;
    ASSERT_EQ(zeMemGetAddressRange(context_, static_cast<char*>(c.p) + 50,
                                   &base, &size),
              ZE_RESULT_SUCCESS);
    EXPECT_EQ(base, c.p);
    EXPECT_EQ(size, c.size);
  }
  // Not the base of an allocation.
  EXPECT_EQ(zeMemFree(context_, static_cast<char*>(host) + 4),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
  for (void* p : {host, dev, shared})
    EXPECT_EQ(zeMemFree(context_, p), ZE_RESULT_SUCCESS);
  auto props = Desc<ze_memory_allocation_properties_t>(
      ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES);
  int on_stack = 0;
  ASSERT_EQ(zeMemGetAllocProperties(context_, &on_stack, &props, nullptr),
            ZE_RESULT_SUCCESS);
  EXPECT_EQ(props.type, ZE_MEMORY_TYPE_UNKNOWN);
}

TEST_F(ZeDriverTest, GivenBadAllocationArgumentsThenInvalidResults) {
  auto hd =
      Desc<ze_host_mem_alloc_desc_t>(ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
  void* p = nullptr;
  EXPECT_EQ(zeMemAllocHost(context_, &hd, 0, 0, &p),
            ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  EXPECT_EQ(zeMemAllocHost(context_, &hd, 64, 3, &p),
            ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
  EXPECT_EQ(zeMemAllocHost(context_, nullptr, 64, 0, &p),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeMemAllocHost(nullptr, &hd, 64, 0, &p),
            ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
}

TEST_F(ZeDriverTest, GivenValidSpirvWhenCreatingModuleThenKernelsListed) {
  ze_module_handle_t module = nullptr;
  std::string log;
  ASSERT_EQ(CreateModule(Assemble(kScaleAdd), &module, &log), ZE_RESULT_SUCCESS)
      << log;
  uint32_t count = 0;
  ASSERT_EQ(zeModuleGetKernelNames(module, &count, nullptr), ZE_RESULT_SUCCESS);
  ASSERT_EQ(count, 1u);
  const char* name = nullptr;
  ASSERT_EQ(zeModuleGetKernelNames(module, &count, &name), ZE_RESULT_SUCCESS);
  EXPECT_STREQ(name, "k");
  auto props =
      Desc<ze_module_properties_t>(ZE_STRUCTURE_TYPE_MODULE_PROPERTIES);
  ASSERT_EQ(zeModuleGetProperties(module, &props), ZE_RESULT_SUCCESS);
  EXPECT_EQ(props.flags, 0u);
  EXPECT_EQ(zeModuleDestroy(module), ZE_RESULT_SUCCESS);
}

TEST_F(ZeDriverTest, GivenGarbageWhenCreatingModuleThenBuildLogSaysWhy) {
  const std::vector<uint32_t> garbage = {0xdeadbeef, 1, 2, 3, 4, 5};
  ze_module_handle_t module = nullptr;
  std::string log;
  EXPECT_EQ(CreateModule(garbage, &module, &log),
            ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  EXPECT_EQ(module, nullptr);
  EXPECT_THAT(log, HasSubstr("not a SPIR-V module"));
}

TEST_F(ZeDriverTest, GivenInvalidSpirvWhenCreatingModuleThenValidatorInLog) {
  // A store of a 32-bit value through a pointer to 64-bit: spirv-val fails.
  std::string text = kScaleAdd;
  const std::string from = "OpStore %po %r Aligned 4";
  text.replace(text.find(from), from.size(), "OpStore %po %x Aligned 4");
  ze_module_handle_t module = nullptr;
  std::string log;
  EXPECT_EQ(CreateModule(Assemble(text), &module, &log),
            ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  EXPECT_THAT(log, HasSubstr("not valid for a Level Zero device"));
  EXPECT_THAT(log, HasSubstr("spirv-val"));
}

TEST_F(ZeDriverTest, GivenOddSizedInputThenBuildFailureNamesTheSize) {
  std::vector<uint32_t> words = Assemble(kScaleAdd);
  auto desc = Desc<ze_module_desc_t>(ZE_STRUCTURE_TYPE_MODULE_DESC);
  desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  desc.inputSize = words.size() * 4 - 1;
  desc.pInputModule = reinterpret_cast<const uint8_t*>(words.data());
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  EXPECT_EQ(zeModuleCreate(context_, device_, &desc, &module, &log),
            ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  ASSERT_NE(log, nullptr);
  size_t size = 0;
  ASSERT_EQ(zeModuleBuildLogGetString(log, &size, nullptr), ZE_RESULT_SUCCESS);
  std::string text(size, '\0');
  ASSERT_EQ(zeModuleBuildLogGetString(log, &size, text.data()),
            ZE_RESULT_SUCCESS);
  EXPECT_THAT(text, HasSubstr("not a whole number of 32-bit words"));
  EXPECT_EQ(zeModuleBuildLogDestroy(log), ZE_RESULT_SUCCESS);
  desc.inputSize = 0;
  EXPECT_EQ(zeModuleCreate(context_, device_, &desc, &module, nullptr),
            ZE_RESULT_ERROR_INVALID_SIZE);
  desc.format = ZE_MODULE_FORMAT_NATIVE;
  desc.inputSize = words.size() * 4;
  EXPECT_EQ(zeModuleCreate(context_, device_, &desc, &module, nullptr),
            ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
}

TEST_F(ZeDriverTest, GivenUnknownBuildFlagThenWarningInLog) {
  ze_module_handle_t module = nullptr;
  std::string log;
  ASSERT_EQ(CreateModule(Assemble(kScaleAdd), &module, &log,
                         "-ze-opt-disable -no-such-flag"),
            ZE_RESULT_SUCCESS);
  EXPECT_THAT(log, HasSubstr("unknown build flag -no-such-flag"));
  EXPECT_THAT(log, HasSubstr("-ze-opt-disable has no effect"));
  EXPECT_EQ(zeModuleDestroy(module), ZE_RESULT_SUCCESS);
}

TEST_F(ZeDriverTest, GivenUndeclaredSpecConstantThenBuildFailure) {
  const uint32_t id = 99;
  const uint32_t value = 1;
  const void* values[] = {&value};
  ze_module_constants_t constants{1, &id, values};
  ze_module_handle_t module = nullptr;
  std::string log;
  EXPECT_EQ(CreateModule(Assemble(kSpecScale), &module, &log, "", &constants),
            ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  EXPECT_THAT(log, HasSubstr("specialization constant id 99 is not declared"));
}

class ZeKernelTest : public ZeTest {
 protected:
  void SetUp() override {
    ZeTest::SetUp();
    ASSERT_EQ(CreateModule(Assemble(kScaleAdd), &module_), ZE_RESULT_SUCCESS);
    auto desc = Desc<ze_kernel_desc_t>(ZE_STRUCTURE_TYPE_KERNEL_DESC);
    desc.pKernelName = "k";
    ASSERT_EQ(zeKernelCreate(module_, &desc, &kernel_), ZE_RESULT_SUCCESS);
  }
  void TearDown() override {
    if (kernel_) {
      EXPECT_EQ(zeKernelDestroy(kernel_), ZE_RESULT_SUCCESS);
    }
    if (module_) {
      EXPECT_EQ(zeModuleDestroy(module_), ZE_RESULT_SUCCESS);
    }
    ZeTest::TearDown();
  }
  ze_module_handle_t module_ = nullptr;
  ze_kernel_handle_t kernel_ = nullptr;
};

TEST_F(ZeKernelTest, GivenKernelWhenQueryingThenNameAndProperties) {
  size_t size = 0;
  ASSERT_EQ(zeKernelGetName(kernel_, &size, nullptr), ZE_RESULT_SUCCESS);
  EXPECT_EQ(size, 2u);
  char name[2] = {};
  ASSERT_EQ(zeKernelGetName(kernel_, &size, name), ZE_RESULT_SUCCESS);
  EXPECT_STREQ(name, "k");
  auto props =
      Desc<ze_kernel_properties_t>(ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES);
  ASSERT_EQ(zeKernelGetProperties(kernel_, &props), ZE_RESULT_SUCCESS);
  EXPECT_EQ(props.numKernelArgs, 3u);
  EXPECT_EQ(props.requiredGroupSizeX, 0u);
  EXPECT_EQ(props.maxSubgroupSize, 8u);
}

TEST_F(ZeKernelTest, GivenUnknownNameWhenCreatingKernelThenInvalidName) {
  auto desc = Desc<ze_kernel_desc_t>(ZE_STRUCTURE_TYPE_KERNEL_DESC);
  desc.pKernelName = "nope";
  ze_kernel_handle_t k = nullptr;
  EXPECT_EQ(zeKernelCreate(module_, &desc, &k),
            ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
}

TEST_F(ZeKernelTest, GivenBadArgumentsThenInvalidArgumentResults) {
  const uint32_t v = 1;
  EXPECT_EQ(zeKernelSetArgumentValue(kernel_, 3, sizeof v, &v),
            ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
  EXPECT_EQ(zeKernelSetArgumentValue(kernel_, 2, 8, &v),
            ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  EXPECT_EQ(zeKernelSetArgumentValue(kernel_, 0, 4, &v),
            ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  EXPECT_EQ(zeKernelSetArgumentValue(kernel_, 2, sizeof v, nullptr),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeKernelSetArgumentValue(kernel_, 2, sizeof v, &v),
            ZE_RESULT_SUCCESS);
}

TEST_F(ZeKernelTest, GivenGroupSizesThenLimitsEnforcedAndSuggestionMatchesRef) {
  EXPECT_EQ(zeKernelSetGroupSize(kernel_, 0, 1, 1),
            ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  EXPECT_EQ(zeKernelSetGroupSize(kernel_, 1024, 2, 1),
            ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  EXPECT_EQ(zeKernelSetGroupSize(kernel_, 32, 2, 1), ZE_RESULT_SUCCESS);
  uint32_t x = 0, y = 0, z = 0;
  ASSERT_EQ(zeKernelSuggestGroupSize(kernel_, 96, 5, 1, &x, &y, &z),
            ZE_RESULT_SUCCESS);
  // The interpreter's own pick: largest divisor <= 64 in X, 1 elsewhere.
  EXPECT_EQ(x, 48u);
  EXPECT_EQ(y, 1u);
  EXPECT_EQ(z, 1u);
  EXPECT_EQ(zeKernelSuggestGroupSize(kernel_, 0, 1, 1, &x, &y, &z),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(ZeKernelTest, GivenIndirectAccessFlagsThenStored) {
  EXPECT_EQ(
      zeKernelSetIndirectAccess(kernel_, ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE),
      ZE_RESULT_SUCCESS);
  ze_kernel_indirect_access_flags_t flags = 0;
  ASSERT_EQ(zeKernelGetIndirectAccess(kernel_, &flags), ZE_RESULT_SUCCESS);
  EXPECT_EQ(flags, ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE);
  EXPECT_EQ(zeKernelSetIndirectAccess(kernel_, 0x100),
            ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

}  // namespace
}  // namespace l0spv::zeref_test
