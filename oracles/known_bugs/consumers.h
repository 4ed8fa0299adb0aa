// oracles/known_bugs/consumers.h — the consumers a known bug can belong to,
// and which consumers a target name exercises.
//
// Contract: a consumer is a bit (masks combine them); the values are stable
// (the generator's libFuzzer inputs and the pinned seed hashes depend on
// them). `ConsumersOfTarget` knows the target names of
// oracles/targets/target_registry.h: "ocloc:DEV" and "gpu[:DEV]" run IGC,
// "opencl[:P]" runs PoCL through llvm-spirv's SPIR path (IGC when P names
// Intel), "oclgrind" Oclgrind through llvm-spirv, "llvm-spirv" the
// translator, "spirv-opt[:PASSES]" SPIRV-Tools' optimizer, "spirv-link"
// its linker; "ref" none;
// anything else every consumer.
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
  kAllConsumers = (1u << 7) - 1,
};

struct ConsumerInfo {
  ConsumerBit bit;
  std::string_view name;            // registry spelling: "igc", "pocl", ...
  std::string_view description;     // "Intel Graphics Compiler (ocloc)"
  std::string_view debian_package;  // whose version is the consumer's
};

const std::vector<ConsumerInfo>& Consumers();
std::optional<ConsumerBit> ConsumerByName(std::string_view name);
const ConsumerInfo& ConsumerInfoOf(ConsumerBit bit);
uint32_t ConsumersOfTarget(const std::string& target);

// The installed version of a consumer: its Debian package version
// ("3.1-3+deb12u1"), or "" when the package is not installed (or dpkg is
// absent). Probed once per process (a child process with a 5 s limit).
std::string ConsumerVersion(ConsumerBit bit);

}  // namespace l0spv::oracles
