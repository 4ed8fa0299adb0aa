// tests/level_zero/ze_test_util.h — shared pieces of the reference driver's
// Level Zero test suites: a fixture that reaches the l0spv reference device
// through the system loader, small SPIR-V kernels, and a helper that runs a
// TestCase through the Level Zero API in this process.
#pragma once

#include <level_zero/ze_api.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "oracles/execution.h"
#include "spirv/image_format.h"
#include "spirv/test_case.h"

namespace l0spv::zeref_test {

// out[g] = in[g] * 3 + s; entry point "k".
extern const char kScaleAdd[];
// out[g] = g * SC where SC is OpSpecConstant (SpecId 7, default 5).
extern const char kSpecScale[];
// Writes out[g + 1000000]: out of bounds for any small buffer.
extern const char kOutOfBounds[];
// A kernel with a __local (Workgroup) pointer argument: out[g] = g after a
// round trip through local memory.
extern const char kLocalCopy[];

// k(read_only image2d_t src, write_only image2d_t dst, sampler_t s,
//   global uint4* out) on 4x4 work-items: dst[x,y] = src[x,y] + 1 per
// channel; out[y*4+x] = src sampled (nearest, unnormalized, clamp to edge)
// at (x - 0.5, y + 0.5), i.e. texel (max(x-1, 0), y). A complete module.
std::string ImageKernel();
// Its test case: 4x4 images of `order` UnsignedInt8 (src seeded, dst zero),
// the sampler, a 256-byte result buffer; groups of 2x2.
spirv::TestCase ImageKernelCase(uint32_t order = spirv::channel_order::kRGBA);

std::vector<uint32_t> Assemble(const std::string& text);

// A zero-initialised Level Zero descriptor/properties struct with its stype.
template <typename T>
T Desc(ze_structure_type_t stype) {
  T value{};
  value.stype = stype;
  return value;
}

// Every test needs zeInit to have found the reference driver: the CTest
// property ENVIRONMENT sets ZE_ENABLE_ALT_DRIVERS; when the binary is run by
// hand without it, main() sets it from the build (ze_test_main.cc).
class ZeTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A module from SPIR-V words; the build log lands in *log when given.
  ze_result_t CreateModule(const std::vector<uint32_t>& words,
                           ze_module_handle_t* module,
                           std::string* log = nullptr, const char* flags = "",
                           const ze_module_constants_t* constants = nullptr);
  // zeMemAllocShared of `size` bytes (freed in TearDown).
  void* Shared(size_t size);
  // Executes a closed command list on a fresh queue and synchronizes.
  ze_result_t Execute(ze_command_list_handle_t list);
  ze_command_list_handle_t NewList();

  ze_driver_handle_t driver_ = nullptr;
  ze_device_handle_t device_ = nullptr;
  ze_context_handle_t context_ = nullptr;
  std::vector<void*> allocations_;
};

// Runs `tc` on the device through the Level Zero API: shared buffers,
// images uploaded and read back by copies, samplers, one launch, results
// read back. Status kOk with buffers; kUnsupported for a
// global size that is not a multiple of the local size (Level Zero cannot
// launch partial work-groups); kCrashed naming the failing call otherwise.
// Whether the ND-range has a local size that does not divide the global size.
bool IsNonUniform(const spirv::NdRange& range);

oracles::Execution RunThroughApi(ze_context_handle_t context,
                                 ze_device_handle_t device,
                                 const spirv::TestCase& tc);

}  // namespace l0spv::zeref_test
