// oracles/known_bugs/registry_data.h — the registry and its reproducers as
// they were at configure time (generated registry_data.cc).
#pragma once

#include <cstddef>
#include <string_view>

namespace l0spv::oracles::known_bugs_internal {

struct ReproducerText {
  std::string_view name;
  std::string_view spvasm;    // "" when the reproducer is OpenCL C
  std::string_view sidecar;   // the launch (corpora/README.md)
  std::string_view opencl_c;  // "" unless NAME.cl
};

extern const std::string_view kRegistryJson;
extern const ReproducerText kReproducers[];
extern const size_t kReproducerCount;

}  // namespace l0spv::oracles::known_bugs_internal
