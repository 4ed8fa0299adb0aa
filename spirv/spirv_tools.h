// spirv/spirv_tools.h — the SPIRV-Tools services the project uses:
// assembly, disassembly and spirv-val, with diagnostics returned as Status.
//
// Contract: all functions are thread-safe (each call owns its SPIRV-Tools
// context) and never abort on bad input; failures are InvalidArgument
// statuses carrying SPIRV-Tools' own diagnostic text.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "spirv-tools/libspirv.h"

namespace l0spv::spirv {

// The validation environment for a module of this header version: the OpenCL
// 2.2 environment (which accepts SPIR-V 1.0–1.2) up to 1.2, and the
// universal environment of the version above that, since SPIRV-Tools has no
// OpenCL environment for SPIR-V 1.3+.
spv_target_env TargetEnvForVersion(uint32_t version_word);
const char* TargetEnvName(spv_target_env env);
// The universal environment of the module's version (1.0..1.6; 1.2 for a
// header word naming no known version): what the reference interpreter
// validates with, since capability support is the device profile's call.
spv_target_env UniversalEnvForVersion(uint32_t version_word);

absl::StatusOr<std::string> Disassemble(std::span<const uint32_t> words,
                                        bool friendly_names = true);
absl::StatusOr<std::vector<uint32_t>> Assemble(
    std::string_view text, spv_target_env env = SPV_ENV_UNIVERSAL_1_2);
// spirv-val. `env` defaults to TargetEnvForVersion of the module's header.
// A module that passed recently (the same words, the same environment) is
// answered from memory: the last 32 passes are kept, so a caller may check a
// module it is about to hand a consumer without paying twice. Failures are
// not kept; their message names ids by their OpName (friendly names).
absl::Status Validate(std::span<const uint32_t> words);
absl::Status Validate(std::span<const uint32_t> words, spv_target_env env);

}  // namespace l0spv::spirv
