#include <CL/cl.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "oracles/process/subprocess.h"
#include "oracles/targets/cl_info.h"
#include "oracles/targets/consumer_probe.h"
#include "spirv/text_bytes.h"

namespace l0spv::oracles {
namespace {

// Runs inside the child: ICDs are third-party code that may crash or hang.
std::string ProbeInChild(const std::vector<std::string>& environment) {
  for (const std::string& kv : environment) {
    const size_t eq = kv.find('=');
    if (eq != std::string::npos)
      setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
  }
  nlohmann::json out;
  cl_uint count = 0;
  const cl_int err = clGetPlatformIDs(0, nullptr, &count);
  if (err != CL_SUCCESS || count == 0) {
    out["error"] = absl::StrFormat(
        "no OpenCL platform (clGetPlatformIDs returned %d; is an ICD such as "
        "pocl-opencl-icd installed?)",
        err);
    return spirv::DumpJson(out);
  }
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  out["platforms"] = nlohmann::json::array();
  for (cl_platform_id p : platforms) {
    nlohmann::json pj{{"name", ClPlatformString(p, CL_PLATFORM_NAME)},
                      {"version", ClPlatformString(p, CL_PLATFORM_VERSION)},
                      {"devices", nlohmann::json::array()}};
    cl_uint ndev = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &ndev) ==
            CL_SUCCESS &&
        ndev > 0) {
      std::vector<cl_device_id> devices(ndev);
      clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, ndev, devices.data(), nullptr);
      pj["driver_version"] = ClDeviceString(devices[0], CL_DRIVER_VERSION);
      for (cl_device_id d : devices) {
        cl_bool images = CL_FALSE;
        if (clGetDeviceInfo(d, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images,
                            nullptr) != CL_SUCCESS)
          images = CL_FALSE;
        pj["devices"].push_back(
            {{"name", ClDeviceString(d, CL_DEVICE_NAME)},
             {"version", ClDeviceString(d, CL_DEVICE_VERSION)},
             {"il_version", ClDeviceString(d, CL_DEVICE_IL_VERSION)},
             {"images", images == CL_TRUE}});
      }
    }
    out["platforms"].push_back(pj);
  }
  return spirv::DumpJson(out);
}

OpenClProbe ProbeOpenClNow(const std::vector<std::string>& environment) {
  OpenClProbe probe;
  ChildLimits limits;
  limits.wall_time = std::chrono::seconds(30);
  auto child = RunInChild([&] { return ProbeInChild(environment); }, limits);
  if (!child.ok()) {
    probe.error = std::string(child.status().message());
    return probe;
  }
  if (!child->Succeeded()) {
    probe.error = absl::StrFormat("the OpenCL probe process failed: %s",
                                  child->Describe());
    return probe;
  }
  const auto j = nlohmann::json::parse(child->stdout_text, nullptr, false);
  if (j.is_discarded()) {
    probe.error = "the OpenCL probe produced unreadable output";
    return probe;
  }
  probe.error = j.value("error", "");
  if (j.contains("platforms")) {
    for (const auto& pj : j["platforms"]) {
      OpenClPlatform platform{pj.value("name", ""),
                              pj.value("version", ""),
                              pj.value("driver_version", ""),
                              {}};
      for (const auto& dj : pj["devices"]) {
        platform.devices.push_back(
            {dj.value("name", ""), dj.value("version", ""),
             dj.value("il_version", ""), dj.value("images", false)});
      }
      probe.platforms.push_back(std::move(platform));
    }
  }
  return probe;
}

}  // namespace

OpenClProbe ProbeOpenCl(const std::vector<std::string>& environment) {
  static std::mutex mu;
  static auto* answers = new std::map<std::string, OpenClProbe>;
  const std::string key = absl::StrJoin(environment, "\n");
  if (!environment.empty()) {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = answers->find(key); it != answers->end()) return it->second;
  }
  OpenClProbe probe = ProbeOpenClNow(environment);
  if (!environment.empty() && probe.error.empty()) {
    std::lock_guard<std::mutex> lock(mu);
    answers->emplace(key, probe);
  }
  return probe;
}

}  // namespace l0spv::oracles
