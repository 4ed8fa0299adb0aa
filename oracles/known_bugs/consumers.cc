#include "oracles/known_bugs/consumers.h"

#include <map>
#include <mutex>

#include "absl/strings/ascii.h"
#include "oracles/process/subprocess.h"

namespace l0spv::oracles {

const std::vector<ConsumerInfo>& Consumers() {
  static const auto* consumers = new std::vector<ConsumerInfo>{
      {kConsumerIgc, "igc", "Intel Graphics Compiler (ocloc, Level Zero GPU)",
       "intel-opencl-icd"},
      {kConsumerLlvmSpirv, "llvm-spirv", "SPIRV-LLVM-Translator 14",
       "llvm-spirv-14"},
      {kConsumerPocl, "pocl", "PoCL CPU device", "pocl-opencl-icd"},
      {kConsumerOclgrind, "oclgrind", "Oclgrind", "oclgrind"},
      {kConsumerSpirvOpt, "spirv-opt", "spirv-opt (SPIRV-Tools)",
       "spirv-tools"},
      {kConsumerSpirvLink, "spirv-link", "spirv-link (SPIRV-Tools)",
       "spirv-tools"},
      // Built from Debian's own spirv-tools source at the installed version
      // (ci/install-spirv-fuzz.sh), so that package's version is its own.
      {kConsumerSpirvFuzz, "spirv-fuzz", "spirv-fuzz (SPIRV-Tools)",
       "spirv-tools"},
      // Not IGC: the CPU runtime compiles SPIR-V with its own LLVM-based
      // back end; its bugs and gates are its own.
      {kConsumerIntelCpu, "intel-cpu", "Intel OpenCL CPU runtime", ""},
  };
  return *consumers;
}

std::optional<ConsumerBit> ConsumerByName(std::string_view name) {
  for (const ConsumerInfo& c : Consumers())
    if (c.name == name) return c.bit;
  return std::nullopt;
}

const ConsumerInfo& ConsumerInfoOf(ConsumerBit bit) {
  for (const ConsumerInfo& c : Consumers())
    if (c.bit == bit) return c;
  return Consumers().front();
}

std::string ConsumerVersion(ConsumerBit bit) {
  static std::mutex mu;
  static auto* cache = new std::map<ConsumerBit, std::string>;
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = cache->find(bit); it != cache->end()) return it->second;
  if (ConsumerInfoOf(bit).debian_package.empty()) return "";
  ChildLimits limits;
  limits.wall_time = std::chrono::seconds(5);
  auto r = RunCommand({"dpkg-query", "-W", "-f=${Version}",
                       std::string(ConsumerInfoOf(bit).debian_package)},
                      limits);
  std::string version;
  if (r.ok() && r->Succeeded())
    version = std::string(absl::StripAsciiWhitespace(r->stdout_text));
  (*cache)[bit] = version;
  return version;
}

}  // namespace l0spv::oracles
