// oracles/reference/level_zero/module_build.h — zeModuleCreate's work:
// specialization, checks and kernel reflection of a SPIR-V module, with no
// Level Zero types beyond the result code.
//
// Contract: BuildModule never crashes on hostile input. It reads the words,
// applies the specialization constants (OpDecorate SpecId; the value's size
// is the constant's type size), checks the result with spirv-val and every
// Level Zero environment rule of the `full` device profile (oracles/validity
// lint), and decodes every Kernel entry point with the reference
// interpreter's decoder, so a module the interpreter cannot run fails here,
// not at launch. Success: `module` is set and `log` carries warnings (ignored
// build flags, instructions that stop a launch as unsupported when reached).
// Failure: `module` is null, `result` is the Level Zero error and `log` says
// what is wrong, where, and what to do.
#pragma once

#include <level_zero/ze_api.h>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/image_format.h"

namespace l0spv::zeref {

struct KernelArgInfo {
  enum class Kind { kBuffer, kLocal, kValue, kImage, kSampler };
  Kind kind = Kind::kBuffer;
  // kImage: the parameter's OpTypeImage, which the bound image must match
  // (dimensionality; its access qualifier is what the kernel declares).
  spirv::ImageDim image_dim = spirv::ImageDim::k2D;
  spirv::ImageAccess image_access = spirv::ImageAccess::kReadOnly;
  uint32_t value_bytes = 0;  // kValue: size of the argument value
  // kBuffer: the pointee type contains a pointer, i.e. the kernel reads
  // pointers stored in the buffer; the reference device cannot honour them.
  bool pointee_holds_pointer = false;
};

struct KernelInfo {
  std::string name;
  std::vector<KernelArgInfo> args;
  std::array<uint32_t, 3> required_group_size{0, 0, 0};  // 0 = none
  uint32_t required_subgroup_size = 0;                   // 0 = none
  uint32_t local_memory_bytes = 0;  // module-scope Workgroup variables
};

struct BuiltModule {
  std::vector<uint32_t> words;  // after specialization
  std::vector<KernelInfo> kernels;
  bool flush_denormals = false;  // -cl-denorms-are-zero
  bool has_imports = false;      // LinkageAttributes ... Import
  const KernelInfo* FindKernel(std::string_view name) const;
};

struct SpecConstantValue {
  uint32_t id = 0;
  const void* value = nullptr;  // as many bytes as the constant's type
};

struct BuildResult {
  ze_result_t result = ZE_RESULT_SUCCESS;
  std::shared_ptr<const BuiltModule> module;
  std::string log;
};

BuildResult BuildModule(std::span<const uint32_t> words,
                        std::string_view build_flags,
                        std::span<const SpecConstantValue> constants);

// zeModuleDynamicLink's work: the built modules' words linked by the
// reference linker (spirv/link.h; "module N" is the module's position in
// the call), then BuildModule of the result (denormals flushed if the first
// module's build flags asked for it). Failure: ZE_RESULT_ERROR_MODULE_LINK_
// FAILURE with the linker's or the build's message in `log`.
BuildResult LinkBuiltModules(std::span<const BuiltModule* const> modules);

}  // namespace l0spv::zeref
