// Module, build log and kernel entry points of the reference driver.
#include <algorithm>
#include <cstring>
#include <functional>
#include <string>

#include "oracles/reference/level_zero/ddi_support.h"
#include "oracles/reference/level_zero/module_build.h"
#include "oracles/reference/level_zero/objects.h"

namespace l0spv::zeref {
namespace {

constexpr uint32_t kMaxGroupSize = 1024;  // ze_device_compute_properties_t

// Two-call string query: `out` null -> size only; otherwise copies at most
// *size bytes, always NUL-terminated.
ze_result_t CopyString(const std::string& text, size_t* size, char* out) {
  if (!size) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (out == nullptr || *size == 0) {
    *size = text.size() + 1;
    return ZE_RESULT_SUCCESS;
  }
  const size_t n = std::min(*size - 1, text.size());
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
  *size = n + 1;
  return ZE_RESULT_SUCCESS;
}

// The multi-module program descriptor (ZE_experimental_module_program) in
// a ze_module_desc_t's pNext chain, or null.
const ze_module_program_exp_desc_t* FindProgramDesc(const void* next) {
  for (int depth = 0; next != nullptr && depth < 16; ++depth) {
    const auto* base = static_cast<const ze_base_desc_t*>(next);
    if (base->stype == ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC)
      return static_cast<const ze_module_program_exp_desc_t*>(next);
    next = base->pNext;
  }
  return nullptr;
}

// A program of several SPIR-V modules: each built alone (its own build
// flags and specialization constants), then linked as zeModuleDynamicLink
// links them. A module that does not build fails the call naming it
// ("module N", its position).
BuildResult BuildProgram(const ze_module_program_exp_desc_t& program) {
  std::vector<BuildResult> parts;
  for (uint32_t i = 0; i < program.count; ++i) {
    const size_t size = program.inputSizes[i];
    const uint8_t* input = program.pInputModules[i];
    BuildResult part;
    if (input == nullptr || size == 0 || size % 4 != 0) {
      part.result = ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
      part.log = "error: the SPIR-V input is " + std::to_string(size) +
                 " bytes, not a whole number of 32-bit words\n";
    } else {
      std::vector<uint32_t> words(size / 4);
      std::memcpy(words.data(), input, size);
      std::vector<SpecConstantValue> values;
      const ze_module_constants_t* constants =
          program.pConstants ? program.pConstants[i] : nullptr;
      if (constants && constants->numConstants > 0 && constants->pConstantIds &&
          constants->pConstantValues) {
        for (uint32_t c = 0; c < constants->numConstants; ++c)
          values.push_back(
              {constants->pConstantIds[c], constants->pConstantValues[c]});
      }
      const char* flags = program.pBuildFlags && program.pBuildFlags[i]
                              ? program.pBuildFlags[i]
                              : "";
      part = BuildModule(words, flags, values);
    }
    if (part.result != ZE_RESULT_SUCCESS) {
      part.log = "module " + std::to_string(i) + ": " + part.log;
      return part;
    }
    parts.push_back(std::move(part));
  }
  std::vector<const BuiltModule*> built;
  for (const BuildResult& p : parts) built.push_back(p.module.get());
  BuildResult linked = LinkBuiltModules(built);
  if (linked.result != ZE_RESULT_SUCCESS)
    linked.result = ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
  return linked;
}

ze_result_t ZE_APICALL ModuleCreate(ze_context_handle_t context,
                                    ze_device_handle_t device,
                                    const ze_module_desc_t* desc,
                                    ze_module_handle_t* out,
                                    ze_module_build_log_handle_t* out_log) {
  if (!FromHandle<Context>(context) || !FromHandle<Device>(device))
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out ||
      (!desc->pInputModule && FindProgramDesc(desc->pNext) == nullptr))
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV &&
      desc->format != ZE_MODULE_FORMAT_NATIVE)
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  if (desc->inputSize == 0 && FindProgramDesc(desc->pNext) == nullptr)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  const ze_module_constants_t* constants = desc->pConstants;
  if (constants && constants->numConstants > 0 &&
      (!constants->pConstantIds || !constants->pConstantValues))
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;

  BuildResult built;
  const auto* program = FindProgramDesc(desc->pNext);
  if (program != nullptr) {
    if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV)
      return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    if (program->count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
    if (!program->inputSizes || !program->pInputModules)
      return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    built = BuildProgram(*program);
  } else if (desc->format == ZE_MODULE_FORMAT_NATIVE) {
    built.result = ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
    built.log =
        "error: the l0spv reference device has no native binary format; "
        "create modules from SPIR-V (ZE_MODULE_FORMAT_IL_SPIRV)\n";
  } else if (desc->inputSize % 4 != 0) {
    built.result = ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    built.log = "error: the SPIR-V input is " +
                std::to_string(desc->inputSize) +
                " bytes, not a whole number of 32-bit words\n";
  } else {
    std::vector<uint32_t> words(desc->inputSize / 4);
    std::memcpy(words.data(), desc->pInputModule, desc->inputSize);
    std::vector<SpecConstantValue> values;
    if (constants) {
      for (uint32_t i = 0; i < constants->numConstants; ++i)
        values.push_back(
            {constants->pConstantIds[i], constants->pConstantValues[i]});
    }
    built =
        BuildModule(words, desc->pBuildFlags ? desc->pBuildFlags : "", values);
  }
  if (out_log) {
    auto* log = new ModuleBuildLog;
    log->text = built.log;
    *out_log = ToHandle<ze_module_build_log_handle_t>(log);
  }
  if (built.result != ZE_RESULT_SUCCESS) {
    *out = nullptr;
    return built.result;
  }
  auto* module = new Module;
  module->built = std::move(built.module);
  *out = ToHandle<ze_module_handle_t>(module);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ModuleDestroy(ze_module_handle_t handle) {
  Module* m = FromHandle<Module>(handle);
  if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete m;  // kernels and recorded launches keep the built module alive
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ModuleGetKernelNames(ze_module_handle_t handle,
                                            uint32_t* count,
                                            const char** names) {
  Module* m = FromHandle<Module>(handle);
  if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!count) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const auto& kernels = m->built->kernels;
  if (*count == 0 || names == nullptr) {
    *count = static_cast<uint32_t>(kernels.size());
    return ZE_RESULT_SUCCESS;
  }
  const uint32_t n = std::min<uint32_t>(*count, kernels.size());
  for (uint32_t i = 0; i < n; ++i) names[i] = kernels[i].name.c_str();
  *count = n;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL ModuleGetProperties(ze_module_handle_t handle,
                                           ze_module_properties_t* props) {
  Module* m = FromHandle<Module>(handle);
  if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!props) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  props->flags = m->built->has_imports ? ZE_MODULE_PROPERTY_FLAG_IMPORTS : 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL BuildLogDestroy(ze_module_build_log_handle_t handle) {
  ModuleBuildLog* log = FromHandle<ModuleBuildLog>(handle);
  if (!log) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete log;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL BuildLogGetString(ze_module_build_log_handle_t handle,
                                         size_t* size, char* text) {
  ModuleBuildLog* log = FromHandle<ModuleBuildLog>(handle);
  if (!log) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return CopyString(log->text, size, text);
}

// zeModuleDynamicLink: the modules' (specialized) SPIR-V linked by the
// reference linker (spirv/link.h), then built as one module; on success
// every module of the call runs its kernels in that program. A link or
// build failure is ZE_RESULT_ERROR_MODULE_LINK_FAILURE with the log naming
// the module (by its position in the call) and the symbol.
ze_result_t ZE_APICALL
ModuleDynamicLink(uint32_t count, ze_module_handle_t* handles,
                  ze_module_build_log_handle_t* out_log) {
  if (count == 0) return ZE_RESULT_ERROR_INVALID_SIZE;
  if (!handles) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::vector<Module*> modules;
  for (uint32_t i = 0; i < count; ++i) {
    Module* m = FromHandle<Module>(handles[i]);
    if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    modules.push_back(m);
  }
  const auto finish = [&](ze_result_t result, std::string text) {
    if (out_log) {
      auto* log = new ModuleBuildLog;
      log->text = std::move(text);
      *out_log = ToHandle<ze_module_build_log_handle_t>(log);
    }
    return result;
  };
  std::vector<const BuiltModule*> built_modules;
  for (Module* m : modules) built_modules.push_back(m->built.get());
  BuildResult built = LinkBuiltModules(built_modules);
  if (built.result != ZE_RESULT_SUCCESS)
    return finish(ZE_RESULT_ERROR_MODULE_LINK_FAILURE, built.log);
  std::shared_ptr<const BuiltModule> program = std::move(built.module);
  for (Module* m : modules) m->linked = program;
  return finish(ZE_RESULT_SUCCESS, built.log);
}

ze_result_t ZE_APICALL KernelCreate(ze_module_handle_t handle,
                                    const ze_kernel_desc_t* desc,
                                    ze_kernel_handle_t* out) {
  Module* m = FromHandle<Module>(handle);
  if (!m) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!desc || !out || !desc->pKernelName)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (desc->flags & ~ze_kernel_flags_t(ZE_KERNEL_FLAG_FORCE_RESIDENCY |
                                       ZE_KERNEL_FLAG_EXPLICIT_RESIDENCY))
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  // The module's own kernels; once linked, they run in the linked program.
  if (!m->built->FindKernel(desc->pKernelName))
    return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  const std::shared_ptr<const BuiltModule>& program =
      m->linked ? m->linked : m->built;
  const KernelInfo* info = program->FindKernel(desc->pKernelName);
  if (!info) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  auto* k = new Kernel;
  k->built = program;
  k->info = info;
  k->args.resize(info->args.size());
  if (info->required_group_size[0] != 0)
    k->group_size = info->required_group_size;
  *out = ToHandle<ze_kernel_handle_t>(k);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL KernelDestroy(ze_kernel_handle_t handle) {
  Kernel* k = FromHandle<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete k;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL KernelSetGroupSize(ze_kernel_handle_t handle, uint32_t x,
                                          uint32_t y, uint32_t z) {
  Kernel* k = FromHandle<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (x == 0 || y == 0 || z == 0 || x > kMaxGroupSize || y > kMaxGroupSize ||
      z > kMaxGroupSize || uint64_t{x} * y * z > kMaxGroupSize)
    return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  const auto& req = k->info->required_group_size;
  if (req[0] != 0 && (req[0] != x || req[1] != y || req[2] != z))
    return ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION;
  std::lock_guard<std::mutex> lock(k->mu);
  k->group_size = {x, y, z};
  return ZE_RESULT_SUCCESS;
}

// The reference interpreter's own choice (interpreter.h): the required size
// when the kernel declares one, else the largest divisor of the global size
// that is <= 64 in X and 1 in Y and Z.
ze_result_t ZE_APICALL KernelSuggestGroupSize(ze_kernel_handle_t handle,
                                              uint32_t gx, uint32_t gy,
                                              uint32_t gz, uint32_t* x,
                                              uint32_t* y, uint32_t* z) {
  Kernel* k = FromHandle<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!x || !y || !z) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (gx == 0 || gy == 0 || gz == 0) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  const auto& req = k->info->required_group_size;
  if (req[0] != 0) {
    *x = req[0];
    *y = req[1];
    *z = req[2];
    return ZE_RESULT_SUCCESS;
  }
  uint32_t best = 1;
  for (uint32_t d = std::min<uint32_t>(64, gx); d >= 1; --d) {
    if (gx % d == 0) {
      best = d;
      break;
    }
  }
  *x = best;
  *y = 1;
  *z = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL KernelSetArgumentValue(ze_kernel_handle_t handle,
                                              uint32_t index, size_t size,
                                              const void* value) {
  Kernel* k = FromHandle<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (index >= k->info->args.size())
    return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
  const KernelArgInfo& info = k->info->args[index];
  BoundArg arg;
  arg.set = true;
  switch (info.kind) {
    case KernelArgInfo::Kind::kBuffer:
      if (size != sizeof(void*))
        return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      if (value) std::memcpy(&arg.pointer, value, sizeof(void*));
      break;
    case KernelArgInfo::Kind::kLocal:
      // Local memory: the size is the allocation, the value must be null.
      if (value != nullptr) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      if (size == 0) return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      arg.local_bytes = size;
      break;
    case KernelArgInfo::Kind::kValue:
      if (size != info.value_bytes)
        return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      if (!value) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
      arg.value.assign(static_cast<const uint8_t*>(value),
                       static_cast<const uint8_t*>(value) + size);
      break;
    case KernelArgInfo::Kind::kImage: {
      // The value is the ze_image_handle_t; the image must have the
      // dimensionality the kernel declares.
      if (size != sizeof(ze_image_handle_t))
        return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      if (!value) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
      ze_image_handle_t h = nullptr;
      std::memcpy(&h, value, sizeof h);
      arg.image = FromHandle<Image>(h);
      if (!arg.image) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
      if (arg.image->desc.dim != info.image_dim)
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
      break;
    }
    case KernelArgInfo::Kind::kSampler: {
      if (size != sizeof(ze_sampler_handle_t))
        return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE;
      if (!value) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
      ze_sampler_handle_t h = nullptr;
      std::memcpy(&h, value, sizeof h);
      const Sampler* sampler = FromHandle<Sampler>(h);
      if (!sampler) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
      arg.sampler = sampler->desc;
      break;
    }
  }
  std::lock_guard<std::mutex> lock(k->mu);
  k->args[index] = std::move(arg);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL KernelSetIndirectAccess(
    ze_kernel_handle_t handle, ze_kernel_indirect_access_flags_t flags) {
  Kernel* k = FromHandle<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (flags &
      ~ze_kernel_indirect_access_flags_t(ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST |
                                         ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE |
                                         ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED))
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  std::lock_guard<std::mutex> lock(k->mu);
  k->indirect_access = flags;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL KernelGetIndirectAccess(
    ze_kernel_handle_t handle, ze_kernel_indirect_access_flags_t* flags) {
  Kernel* k = FromHandle<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!flags) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::lock_guard<std::mutex> lock(k->mu);
  *flags = k->indirect_access;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL KernelGetProperties(ze_kernel_handle_t handle,
                                           ze_kernel_properties_t* p) {
  Kernel* k = FromHandle<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!p) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const KernelInfo& info = *k->info;
  p->numKernelArgs = static_cast<uint32_t>(info.args.size());
  p->requiredGroupSizeX = info.required_group_size[0];
  p->requiredGroupSizeY = info.required_group_size[1];
  p->requiredGroupSizeZ = info.required_group_size[2];
  p->requiredNumSubGroups = 0;
  p->requiredSubgroupSize = info.required_subgroup_size;
  p->maxSubgroupSize =
      info.required_subgroup_size ? info.required_subgroup_size : 8;
  p->maxNumSubgroups = kMaxGroupSize / p->maxSubgroupSize;
  p->localMemSize = info.local_memory_bytes;
  p->privateMemSize = 0;
  p->spillMemSize = 0;
  // Stable ids: the kernel name and the module's words.
  std::memset(&p->uuid, 0, sizeof p->uuid);
  const size_t kid = std::hash<std::string>()(info.name);
  const size_t mid = std::hash<std::string>()(
      std::string(reinterpret_cast<const char*>(k->built->words.data()),
                  k->built->words.size() * 4));
  std::memcpy(p->uuid.kid, &kid, sizeof kid);
  std::memcpy(p->uuid.mid, &mid, sizeof mid);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL KernelGetName(ze_kernel_handle_t handle, size_t* size,
                                     char* name) {
  Kernel* k = FromHandle<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return CopyString(k->info->name, size, name);
}

ze_result_t ZE_APICALL KernelSetGlobalOffsetExp(ze_kernel_handle_t handle,
                                                uint32_t x, uint32_t y,
                                                uint32_t z) {
  Kernel* k = FromHandle<Kernel>(handle);
  if (!k) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  std::lock_guard<std::mutex> lock(k->mu);
  k->global_offset = {x, y, z};
  return ZE_RESULT_SUCCESS;
}

}  // namespace

void FillImplemented(ze_module_dditable_t* t) {
  t->pfnCreate = ModuleCreate;
  t->pfnDestroy = ModuleDestroy;
  t->pfnGetKernelNames = ModuleGetKernelNames;
  t->pfnGetProperties = ModuleGetProperties;
  t->pfnDynamicLink = ModuleDynamicLink;
}

void FillImplemented(ze_module_build_log_dditable_t* t) {
  t->pfnDestroy = BuildLogDestroy;
  t->pfnGetString = BuildLogGetString;
}

void FillImplemented(ze_kernel_dditable_t* t) {
  t->pfnCreate = KernelCreate;
  t->pfnDestroy = KernelDestroy;
  t->pfnSetGroupSize = KernelSetGroupSize;
  t->pfnSuggestGroupSize = KernelSuggestGroupSize;
  t->pfnSetArgumentValue = KernelSetArgumentValue;
  t->pfnSetIndirectAccess = KernelSetIndirectAccess;
  t->pfnGetIndirectAccess = KernelGetIndirectAccess;
  t->pfnGetProperties = KernelGetProperties;
  t->pfnGetName = KernelGetName;
}

void FillImplemented(ze_kernel_exp_dditable_t* t) {
  t->pfnSetGlobalOffsetExp = KernelSetGlobalOffsetExp;
}

}  // namespace l0spv::zeref
