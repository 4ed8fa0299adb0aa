#include <level_zero/ze_api.h>

#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"
#include "oracles/process/subprocess.h"
#include "oracles/targets/consumer_probe.h"
#include "spirv/text_bytes.h"

namespace l0spv::oracles {
namespace {

// Runs inside the child. Loader 1.8.12 segfaults in zeDriverGet after a
// failed zeInit (CONSUMERS.md), so a failed zeInit ends the probe.
std::string ProbeInChild() {
  nlohmann::json out;
  const ze_result_t init = zeInit(ZE_INIT_FLAG_GPU_ONLY);
  if (init != ZE_RESULT_SUCCESS) {
    out["error"] = absl::StrFormat(
        "no Level Zero driver/device: zeInit returned 0x%08x%s",
        static_cast<uint32_t>(init),
        init == ZE_RESULT_ERROR_UNINITIALIZED
            ? " (ZE_RESULT_ERROR_UNINITIALIZED: no GPU the installed drivers "
              "support)"
            : "");
    return spirv::DumpJson(out);
  }
  out["initialized"] = true;
  uint32_t driver_count = 0;
  if (zeDriverGet(&driver_count, nullptr) != ZE_RESULT_SUCCESS ||
      driver_count == 0) {
    out["error"] = "no Level Zero driver reported by zeDriverGet";
    return spirv::DumpJson(out);
  }
  std::vector<ze_driver_handle_t> drivers(driver_count);
  zeDriverGet(&driver_count, drivers.data());
  out["devices"] = nlohmann::json::array();
  for (ze_driver_handle_t driver : drivers) {
    uint32_t device_count = 0;
    if (zeDeviceGet(driver, &device_count, nullptr) != ZE_RESULT_SUCCESS)
      continue;
    std::vector<ze_device_handle_t> devices(device_count);
    zeDeviceGet(driver, &device_count, devices.data());
    for (ze_device_handle_t device : devices) {
      ze_device_properties_t props{};
      props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
      zeDeviceGetProperties(device, &props);
      ze_device_module_properties_t module{};
      module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
      zeDeviceGetModuleProperties(device, &module);
      out["devices"].push_back(
          {{"name", props.name},
           {"spirv_version", module.spirvVersionSupported},
           {"fp16", (module.flags & ZE_DEVICE_MODULE_FLAG_FP16) != 0},
           {"fp64", (module.flags & ZE_DEVICE_MODULE_FLAG_FP64) != 0},
           {"int64_atomics",
            (module.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS) != 0}});
    }
  }
  if (out["devices"].empty()) out["error"] = "Level Zero reports no device";
  return spirv::DumpJson(out);
}

}  // namespace

LevelZeroProbe ProbeLevelZero() {
  LevelZeroProbe probe;
  probe.loader_present = true;  // linked against libze_loader
  ChildLimits limits;
  limits.wall_time = std::chrono::seconds(20);
  auto child = RunInChild(ProbeInChild, limits);
  if (!child.ok()) {
    probe.error = std::string(child.status().message());
    return probe;
  }
  if (!child->Succeeded()) {
    probe.error = absl::StrFormat("the Level Zero probe process failed: %s",
                                  child->Describe());
    return probe;
  }
  const auto j = nlohmann::json::parse(child->stdout_text, nullptr, false);
  if (j.is_discarded()) {
    probe.error = "the Level Zero probe produced unreadable output";
    return probe;
  }
  probe.initialized = j.value("initialized", false);
  probe.error = j.value("error", "");
  if (j.contains("devices")) {
    for (const auto& d : j["devices"]) {
      probe.devices.push_back({d.value("name", ""),
                               d.value("spirv_version", 0u),
                               d.value("fp16", false), d.value("fp64", false),
                               d.value("int64_atomics", false)});
    }
  }
  return probe;
}

}  // namespace l0spv::oracles
