// oracles/targets/cl_info.h — string queries of OpenCL platforms and
// devices, shared by the probe (opencl_probe.cc), the runner
// (opencl_target.cc) and the image checks (opencl_images.cc), which live in
// different libraries: header-only, it needs none of them.
//
// Contract: the value as a std::string without the C string's trailing nul
// (nor any padding nuls some ICDs add); "" when the query fails.
#pragma once

#include <CL/cl.h>

#include <string>

namespace l0spv::oracles {

// One string query: `get` is clGetPlatformInfo or clGetDeviceInfo.
template <typename Get, typename Object, typename Param>
std::string ClInfoString(Get get, Object object, Param what) {
  size_t size = 0;
  if (get(object, what, 0, nullptr, &size) != CL_SUCCESS) return "";
  std::string s(size, '\0');
  get(object, what, size, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

inline std::string ClPlatformString(cl_platform_id p, cl_platform_info what) {
  return ClInfoString(clGetPlatformInfo, p, what);
}

inline std::string ClDeviceString(cl_device_id d, cl_device_info what) {
  return ClInfoString(clGetDeviceInfo, d, what);
}

}  // namespace l0spv::oracles
