// The rules table. Rule ids are also spelled in rule_context.h (the kRule*
// constants the checks report with); tests assert the two agree and that
// every rule here has a passing and a failing test module.
#include <algorithm>
#include <array>

#include "oracles/validity/rules.h"

namespace l0spv::oracles {
namespace {

constexpr std::string_view kValidation = "Validation Rules";
constexpr std::string_view kTypes = "Supported Types";
constexpr std::string_view kCapabilities = "Required Capabilities";
constexpr std::string_view kSubgroups = "Extensions: SPV_INTEL_subgroups";
constexpr std::string_view kExtendedSubgroups =
    "Programming guide: Extended Subgroups";

constexpr std::array<RuleInfo, 31> kRules = {{
    // Module shape.
    {"L0-SPIRV-VERSION",
     "the module's SPIR-V version is a 1.x version no newer than the "
     "device's spirvVersionSupported",
     "Supported SPIR-V Versions"},
    {"L0-EXEC-MODEL", "every OpEntryPoint uses the Kernel execution model",
     kValidation},
    {"L0-ADDRESSING", "OpMemoryModel's addressing model is Physical64",
     kValidation},
    {"L0-MEMORY-MODEL",
     "the module has an OpMemoryModel and its memory model is OpenCL",
     kValidation},
    {"L0-EXTINST-SET",
     "OpExtInstImport names only OpenCL.std (NonSemantic.* sets are "
     "ignorable and allowed)",
     "Extended Instruction Sets"},
    // Types.
    {"L0-INT-SIGNEDNESS", "OpTypeInt has Signedness 0", kValidation},
    {"L0-INT-WIDTH", "OpTypeInt has Width 8, 16, 32 or 64", kTypes},
    {"L0-FLOAT-WIDTH", "OpTypeFloat has Width 16, 32 or 64", kTypes},
    {"L0-VECTOR-SIZE", "OpTypeVector has 2, 3, 4, 8 or 16 components", kTypes},
    // Kernels.
    {"L0-KERNEL-RETURN-TYPE", "an entry point's OpFunction returns OpTypeVoid",
     "Kernel Return Types"},
    {"L0-KERNEL-ARG-TYPE",
     "kernel arguments are int, float, struct, vector, pointer "
     "(CrossWorkgroup, "
     "Workgroup, UniformConstant; Function only for ByVal), sampler or image; "
     "struct members int, float, struct, vector, pointer (or array)",
     "Kernel Arguments"},
    {"L0-KERNEL-ARG-WIDTH",
     "integer kernel arguments are 8, 16, 32 or 64 bits; float arguments 16 "
     "or 32 bits (64 on fp64 devices)",
     "Kernel Arguments"},
    // Images.
    {"L0-IMAGE-SAMPLED-TYPE", "OpTypeImage's Sampled Type is OpTypeVoid",
     kValidation},
    {"L0-IMAGE-SAMPLED", "OpTypeImage's Sampled operand is 0", kValidation},
    {"L0-IMAGE-MS", "OpTypeImage's MS operand is 0", kValidation},
    {"L0-IMAGE-ARRAYED", "OpTypeImage is Arrayed only when Dim is 1D or 2D",
     kValidation},
    {"L0-IMAGE-FORMAT", "OpTypeImage's Image Format is Unknown", kValidation},
    {"L0-IMAGE-ACCESS-QUALIFIER",
     "OpTypeImage has the optional Access Qualifier", kValidation},
    {"L0-IMAGE-WRITE-OPERANDS", "OpImageWrite has no Image Operands",
     kValidation},
    {"L0-IMAGE-READ-CONSTOFFSET",
     "OpImageRead and OpImageSampleExplicitLod do not use ConstOffset",
     kValidation},
    // Atomics.
    {"L0-ATOMIC-WIDTH",
     "atomic instructions operate on 32-bit integers (64-bit on devices with "
     "int64 atomics; 32-bit floats for load, store, exchange and float "
     "add/min/max)",
     kValidation},
    {"L0-ATOMIC-STORAGE-CLASS",
     "an atomic's Pointer points to Function, Workgroup, CrossWorkgroup or "
     "Generic storage",
     kValidation},
    // Control.
    {"L0-RECURSION", "the static call graph of every entry point has no cycles",
     kValidation},
    {"L0-EXEC-SCOPE", "Scope for Execution is Workgroup or Subgroup",
     kValidation},
    {"L0-EXEC-SCOPE-ASYNC-COPY",
     "Scope for Execution of OpGroupAsyncCopy and OpGroupWaitEvents is "
     "Workgroup",
     kValidation},
    {"L0-EXEC-SCOPE-NON-UNIFORM",
     "Scope for Execution of OpGroupNonUniform* instructions is Subgroup",
     kExtendedSubgroups},
    {"L0-MEMORY-SCOPE",
     "Scope for Memory is CrossDevice, Device, Workgroup, Invocation or "
     "Subgroup",
     kValidation},
    // Capabilities and extensions.
    {"L0-CAPABILITY",
     "every declared capability is supported by the device (directly or "
     "through a declared, supported extension), and every opcode, operand "
     "and type used is enabled by such a declared capability",
     kCapabilities},
    {"L0-EXTENSION", "every OpExtension is one the device accepts",
     "Extensions"},
    {"L0-SUBGROUP-TYPES",
     "SPV_INTEL_subgroups shuffles and block reads/writes use the data, "
     "pointer, image and coordinate types the environment accepts",
     kSubgroups},
    {"L0-NON-UNIFORM-TYPES",
     "OpGroupNonUniform* values are integer or float scalars (Broadcast: "
     "also 2/3/4/8/16-component vectors), as the extended subgroups list",
     kExtendedSubgroups},
}};

}  // namespace

std::span<const RuleInfo> AllLintRules() { return kRules; }

const RuleInfo* FindLintRule(std::string_view id) {
  auto it = std::find_if(kRules.begin(), kRules.end(),
                         [id](const RuleInfo& r) { return r.id == id; });
  return it == kRules.end() ? nullptr : &*it;
}

}  // namespace l0spv::oracles
