// oracles/targets/spirv_versions.h — the newest SPIR-V each target's
// consumer reads.
//
// Contract: NewestSpirvVersionOfTarget gives the header version word of the
// newest SPIR-V the consumer behind a target name reads, measured here
// (generators/kernel/README.md, "SPIR-V versions"): ocloc 22.43 and
// llvm-spirv 14 refuse a 1.5 header ("Range of supported/known SPIR-V
// versions is 1.0 (65536) - 1.4 (66560)"); PoCL and Oclgrind read SPIR-V
// through llvm-spirv, and `gpu` is IGC, so 1.4 for all of those; spirv-opt
// and spirv-link (SPIRV-Tools 2023.1) read 1.6. `ref` and names of no known
// kind: ~0u (no limit). MakeTarget answers `unsupported` for a newer module,
// and the campaign's version swarm stops at the oldest of its targets' values.
// Header-only and free of dependencies, like target_name.h.
#pragma once

#include <cstdint>
#include <string>

#include "oracles/targets/target_name.h"

namespace l0spv::oracles {

inline uint32_t NewestSpirvVersionOfTarget(const std::string& name) {
  const std::string kind = TargetKind(name);
  if (kind == "spirv-opt" || kind == "spirv-link") return 0x00010600;
  // spirv-fuzz 2023.1 validates its input as universal 1.3 (hard-coded).
  if (kind == "spirv-fuzz") return 0x00010300;
  if (kind == "ocloc" || kind == "gpu" || kind == "opencl" ||
      kind == "oclgrind" || kind == "llvm-spirv")
    return 0x00010400;
  return ~0u;
}

}  // namespace l0spv::oracles
