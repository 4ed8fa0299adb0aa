// oracles/known_bugs/consumers.h — the consumers a known bug can belong to,
// the consumer families findings and registry entries belong to.
//
// Contract: a consumer is a bit (masks combine them); the values are stable
// (the generator's libFuzzer inputs and the pinned seed hashes depend on
// them). A family is one code base: its releases (Debian's, PyPI's; see
// oracles/targets/releases.h) share its bit, and known-bug matching never
// crosses families. Which families a target name runs is the target kind
// table's answer (oracles/targets/target_kinds.h, ConsumersOfTarget).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace l0spv::oracles {

enum ConsumerBit : uint32_t {
  kConsumerIgc = 1u << 0,        // Intel Graphics Compiler (ocloc, gpu)
  kConsumerLlvmSpirv = 1u << 1,  // SPIRV-LLVM-Translator (SPIR path)
  kConsumerPocl = 1u << 2,       // PoCL CPU device
  kConsumerOclgrind = 1u << 3,   // Oclgrind
  kConsumerSpirvOpt = 1u << 4,   // spirv-opt (SPIRV-Tools)
  kConsumerSpirvLink = 1u << 5,  // spirv-link (SPIRV-Tools' linker)
  kConsumerSpirvFuzz = 1u << 6,  // spirv-fuzz (ci/install-spirv-fuzz.sh)
  kConsumerIntelCpu = 1u << 7,   // Intel's OpenCL CPU runtime (PyPI)
  kAllConsumers = (1u << 8) - 1,
};

struct ConsumerInfo {
  ConsumerBit bit;
  std::string_view name;         // registry spelling: "igc", "pocl", ...
  std::string_view description;  // "Intel Graphics Compiler (ocloc)"
  // Whose version is the consumer's when it has a single release: a Debian
  // package; "" for a family whose releases come from PyPI (its version is
  // its release's: ConsumerVersionOfTarget in target_kinds.h).
  std::string_view debian_package;
};

const std::vector<ConsumerInfo>& Consumers();
std::optional<ConsumerBit> ConsumerByName(std::string_view name);
const ConsumerInfo& ConsumerInfoOf(ConsumerBit bit);

// The installed version of a consumer: its Debian package version
// ("3.1-3+deb12u1"), or "" when the package is not installed (or dpkg is
// absent). Probed once per process (a child process with a 5 s limit).
std::string ConsumerVersion(ConsumerBit bit);

}  // namespace l0spv::oracles
