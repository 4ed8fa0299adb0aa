// oracles/reference/level_zero/launch.h — one kernel launch on the reference
// interpreter: Level Zero arguments -> TestCase -> RunReference -> results
// copied back into the allocations, and a launch report.
//
// Contract: the interpreter takes buffers by value, so each buffer argument
// is copied in from its allocation (from the argument pointer to the end of
// the allocation) and copied back afterwards, also after undefined behaviour
// (as a device leaves partial writes behind). What this cannot express is
// reported as unsupported instead of run wrongly: a pointer that is not an
// allocation of this driver, two buffer arguments that overlap (aliasing),
// and kernels whose buffer pointee types contain pointers (pointers stored
// inside buffers). A null pointer argument becomes an empty buffer (every
// access is reported out of bounds).
// Every launch appends a report (l0spv_reference_ext.h); a status other than
// ok is printed to stderr, and printf output goes to stderr unless
// L0SPV_REFERENCE_PRINTF=stdout|off says otherwise. Result codes: ok ->
// ZE_RESULT_SUCCESS; unsupported -> ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
// argument mismatch -> ZE_RESULT_ERROR_INVALID_ARGUMENT; undefined behaviour
// or step budget exhausted -> ZE_RESULT_ERROR_DEVICE_LOST (what a GPU page
// fault gives; the device stays usable).
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "oracles/reference/level_zero/module_build.h"
#include "oracles/reference/level_zero/objects.h"

namespace l0spv::zeref {

struct LaunchParams {
  std::shared_ptr<const BuiltModule> built;
  const KernelInfo* info = nullptr;
  std::vector<BoundArg> args;
  std::array<uint32_t, 3> group_size{1, 1, 1};
  std::array<uint32_t, 3> group_count{1, 1, 1};
  std::array<uint32_t, 3> global_offset{0, 0, 0};
};

ze_result_t ExecuteLaunch(const LaunchParams& params);

// The extension entry point (see l0spv_reference_ext.h).
ze_result_t ZE_APICALL TakeLaunchReports(size_t* size, char* text);

}  // namespace l0spv::zeref
