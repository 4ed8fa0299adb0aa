#include "oracles/targets/level_zero_target.h"

#include <level_zero/ze_api.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "oracles/execution_json.h"
#include "oracles/process/subprocess.h"
#include "oracles/reference/level_zero/l0spv_reference_ext.h"
#include "oracles/reference/level_zero/ze_image_format.h"
#include "oracles/targets/worker_reply.h"
#include "spirv/binary.h"
#include "spirv/hash.h"
#include "spirv/text_bytes.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles {
namespace {

using Clock = std::chrono::steady_clock;

// Precedes the result on the worker's stdout; what a driver prints (kernel
// printf on real devices) comes before it.
constexpr char kResultMarker[] = "\n@@l0spv-level-zero-result@@\n";

std::string ZeError(const char* call, ze_result_t r) {
  const char* name = "";
  switch (r) {
    case ZE_RESULT_NOT_READY:
      name = " (ZE_RESULT_NOT_READY)";
      break;
    case ZE_RESULT_ERROR_DEVICE_LOST:
      name = " (ZE_RESULT_ERROR_DEVICE_LOST)";
      break;
    case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
      name = " (ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)";
      break;
    case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY:
      name = " (ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)";
      break;
    case ZE_RESULT_ERROR_MODULE_BUILD_FAILURE:
      name = " (ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)";
      break;
    case ZE_RESULT_ERROR_MODULE_LINK_FAILURE:
      name = " (ZE_RESULT_ERROR_MODULE_LINK_FAILURE)";
      break;
    case ZE_RESULT_ERROR_UNINITIALIZED:
      name = " (ZE_RESULT_ERROR_UNINITIALIZED)";
      break;
    case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
      name = " (ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)";
      break;
    case ZE_RESULT_ERROR_INVALID_ARGUMENT:
      name = " (ZE_RESULT_ERROR_INVALID_ARGUMENT)";
      break;
    case ZE_RESULT_ERROR_INVALID_KERNEL_NAME:
      name = " (ZE_RESULT_ERROR_INVALID_KERNEL_NAME)";
      break;
    case ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE:
      name = " (ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)";
      break;
    case ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX:
      name = " (ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)";
      break;
    case ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION:
      name = " (ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)";
      break;
    case ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT:
      name = " (ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)";
      break;
    case ZE_RESULT_ERROR_UNSUPPORTED_SIZE:
      name = " (ZE_RESULT_ERROR_UNSUPPORTED_SIZE)";
      break;
    default:
      break;
  }
  return absl::StrFormat("%s returned 0x%08x%s", call, static_cast<uint32_t>(r),
                         name);
}

// What the module needs from the device, read in the parent.
struct ModuleNeeds {
  uint32_t version = 0;  // header word 0x00MMmm00
  bool fp16 = false, fp64 = false, int64_atomics = false;
  bool reads_work_dim = false;  // BuiltIn WorkDim (get_work_dim())
};

ModuleNeeds ReadNeeds(const std::vector<uint32_t>& words) {
  ModuleNeeds n;
  auto module = spirv::ReadModuleWords(words);
  if (!module.ok()) return n;  // the driver will say what is wrong
  n.version = module->header.version;
  for (const spirv::Instruction& a : module->annotations) {
    if (a.opcode() == static_cast<uint32_t>(spv::Op::OpDecorate) &&
        a.NumOperands() >= 3 &&
        a.word(1) == static_cast<uint32_t>(spv::Decoration::BuiltIn) &&
        a.word(2) == static_cast<uint32_t>(spv::BuiltIn::WorkDim))
      n.reads_work_dim = true;
  }
  for (const spirv::Instruction& c : module->capabilities) {
    if (c.NumOperands() < 1) continue;
    switch (static_cast<spv::Capability>(c.word(0))) {
      case spv::Capability::Float16:
        n.fp16 = true;
        break;
      case spv::Capability::Float64:
        n.fp64 = true;
        break;
      case spv::Capability::Int64Atomics:
        n.int64_atomics = true;
        break;
      default:
        break;
    }
  }
  return n;
}

// Destroys the Level Zero objects of one run in reverse order of creation.
struct ZeObjects {
  ze_context_handle_t context = nullptr;
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t build_log = nullptr;
  std::vector<ze_module_handle_t> linked_modules;  // a case's further ones
  ze_module_build_log_handle_t link_log = nullptr;
  ze_kernel_handle_t kernel = nullptr;
  ze_command_queue_handle_t queue = nullptr;
  ze_command_list_handle_t list = nullptr;
  std::vector<void*> buffers;
  std::vector<ze_image_handle_t> images;      // by argument index
  std::vector<ze_sampler_handle_t> samplers;  // by argument index
  std::vector<void*> staging;  // image texels in host memory, by index
  // After a timeout the device may still run the kernel: destroying the
  // queue could block until it ends, so the worker exits without cleanup.
  bool abandon = false;
  ~ZeObjects() {
    if (abandon) return;
    for (void* p : buffers)
      if (p) zeMemFree(context, p);
    for (void* p : staging)
      if (p) zeMemFree(context, p);
    for (ze_image_handle_t i : images)
      if (i) zeImageDestroy(i);
    for (ze_sampler_handle_t s : samplers)
      if (s) zeSamplerDestroy(s);
    if (list) zeCommandListDestroy(list);
    if (queue) zeCommandQueueDestroy(queue);
    if (kernel) zeKernelDestroy(kernel);
    if (build_log) zeModuleBuildLogDestroy(build_log);
    if (link_log) zeModuleBuildLogDestroy(link_log);
    if (module) zeModuleDestroy(module);
    for (ze_module_handle_t m : linked_modules)
      if (m) zeModuleDestroy(m);
    if (context) zeContextDestroy(context);
  }
};

std::string BuildLogText(ze_module_build_log_handle_t log) {
  size_t size = 0;
  if (!log ||
      zeModuleBuildLogGetString(log, &size, nullptr) != ZE_RESULT_SUCCESS)
    return "";
  std::string s(size, '\0');
  zeModuleBuildLogGetString(log, &size, s.data());
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

bool ContainsIgnoreCase(absl::string_view text, absl::string_view part) {
  return absl::StrContains(absl::AsciiStrToLower(text),
                           absl::AsciiStrToLower(part));
}

std::string FirstErrorLine(const std::string& log) {
  std::string first;
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    if (first.empty()) first = std::string(line);
    if (ContainsIgnoreCase(line, "error")) return std::string(line);
  }
  return first;
}

// The reference driver's launch reports, or nullptr when the driver is not
// the reference driver.
l0spv_pfnTakeLaunchReports_t ReportFunction(ze_driver_handle_t driver) {
  void* fn = nullptr;
  if (zeDriverGetExtensionFunctionAddress(driver,
                                          L0SPV_REFERENCE_TAKE_LAUNCH_REPORTS,
                                          &fn) != ZE_RESULT_SUCCESS)
    return nullptr;
  return reinterpret_cast<l0spv_pfnTakeLaunchReports_t>(fn);
}

nlohmann::json TakeReports(l0spv_pfnTakeLaunchReports_t fn) {
  for (int attempt = 0; attempt < 4; ++attempt) {
    size_t size = 0;
    if (fn(&size, nullptr) != ZE_RESULT_SUCCESS) break;
    std::string text(size, '\0');
    if (fn(&size, text.data()) != ZE_RESULT_SUCCESS) continue;
    text.resize(size ? size - 1 : 0);
    return nlohmann::json::parse(text, nullptr, false);
  }
  return nlohmann::json();
}

bool DriverHasExtension(ze_driver_handle_t driver, const char* name) {
  uint32_t count = 0;
  if (zeDriverGetExtensionProperties(driver, &count, nullptr) !=
          ZE_RESULT_SUCCESS ||
      count == 0 || count > 4096)
    return false;
  std::vector<ze_driver_extension_properties_t> props(count);
  if (zeDriverGetExtensionProperties(driver, &count, props.data()) !=
      ZE_RESULT_SUCCESS)
    return false;
  for (uint32_t i = 0; i < count && i < props.size(); ++i)
    if (std::strncmp(props[i].name, name, sizeof props[i].name) == 0)
      return true;
  return false;
}

// How a case of several modules is linked (LevelZeroTargetOptions::link):
// the program descriptor only when the driver offers it.
bool UseProgramDescriptor(const spirv::TestCase& tc, LevelZeroLink link,
                          ze_driver_handle_t driver) {
  if (tc.linked_modules.empty() || link == LevelZeroLink::kDynamicLink)
    return false;
  const bool offered = DriverHasExtension(driver, ZE_MODULE_PROGRAM_EXP_NAME);
  if (link == LevelZeroLink::kProgram) return offered;
  return offered && (spirv::Fnv1a64Words(tc.module_words) & 1) != 0;
}

struct Picked {
  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  std::string name;
  ze_device_module_properties_t module{};
};

struct WorkerInput {
  const spirv::TestCase* test_case;
  const LevelZeroTargetOptions* options;
  ModuleNeeds needs;
};

// Enumerates every device of every driver; null reply = picked.
nlohmann::json PickDevice(const std::string& wanted, Picked* out) {
  uint32_t driver_count = 0;
  ze_result_t r = zeDriverGet(&driver_count, nullptr);
  if (r != ZE_RESULT_SUCCESS || driver_count == 0) {
    return ExecutionReply(FailedExecution(
        ExecutionStatus::kUnsupported,
        absl::StrCat("no Level Zero driver/device: ",
                     r != ZE_RESULT_SUCCESS ? ZeError("zeDriverGet", r)
                                            : "zeDriverGet found no driver")));
  }
  std::vector<ze_driver_handle_t> drivers(driver_count);
  zeDriverGet(&driver_count, drivers.data());
  std::vector<std::string> names;
  for (ze_driver_handle_t driver : drivers) {
    uint32_t count = 0;
    if (zeDeviceGet(driver, &count, nullptr) != ZE_RESULT_SUCCESS) continue;
    std::vector<ze_device_handle_t> devices(count);
    zeDeviceGet(driver, &count, devices.data());
    for (ze_device_handle_t device : devices) {
      ze_device_properties_t props{};
      props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
      if (zeDeviceGetProperties(device, &props) != ZE_RESULT_SUCCESS) continue;
      names.push_back(props.name);
      if (!wanted.empty() && !ContainsIgnoreCase(props.name, wanted)) continue;
      out->driver = driver;
      out->device = device;
      out->name = props.name;
      out->module.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
      r = zeDeviceGetModuleProperties(device, &out->module);
      if (r != ZE_RESULT_SUCCESS) {
        return ExecutionReply(
            FailedExecution(ExecutionStatus::kUnsupported,
                            ZeError("zeDeviceGetModuleProperties", r)));
      }
      return nullptr;
    }
  }
  const std::string list = absl::StrJoin(names, "\", \"");
  if (wanted.empty()) {
    return ExecutionReply(
        FailedExecution(ExecutionStatus::kUnsupported,
                        "no Level Zero driver/device: the drivers "
                        "report no device"));
  }
  return ErrorReply("not_found", absl::StrCat("no Level Zero device matches \"",
                                              wanted, "\"; devices: \"", list,
                                              "\" (see `l0spv-fuzz targets`)"));
}

// The device profile check: what the module declares against what the
// device reports.
std::string MissingFeature(const ModuleNeeds& needs,
                           const ze_device_module_properties_t& m) {
  const uint32_t have = m.spirvVersionSupported;
  const uint32_t need_major = (needs.version >> 16) & 0xFF;
  const uint32_t need_minor = (needs.version >> 8) & 0xFF;
  if (needs.version != 0 && (need_major > ZE_MAJOR_VERSION(have) ||
                             (need_major == ZE_MAJOR_VERSION(have) &&
                              need_minor > ZE_MINOR_VERSION(have)))) {
    return absl::StrCat("the module is SPIR-V ", need_major, ".", need_minor,
                        ", the device accepts up to ", ZE_MAJOR_VERSION(have),
                        ".", ZE_MINOR_VERSION(have));
  }
  if (needs.fp16 && !(m.flags & ZE_DEVICE_MODULE_FLAG_FP16))
    return "the module declares Float16; the device has no fp16 support";
  if (needs.fp64 && !(m.flags & ZE_DEVICE_MODULE_FLAG_FP64))
    return "the module declares Float64; the device has no fp64 support";
  if (needs.int64_atomics && !(m.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS))
    return "the module declares Int64Atomics; the device has no 64-bit "
           "atomics";
  return "";
}

// Whether the device can hold the test case's images and samplers
// (zeDeviceGetImageProperties); empty when it can or none are used.
std::string MissingImageSupport(const spirv::TestCase& tc,
                                ze_device_handle_t device) {
  bool images = false, samplers = false;
  for (const spirv::KernelArg& a : tc.args) {
    images |= a.kind == spirv::KernelArg::Kind::kImage;
    samplers |= a.kind == spirv::KernelArg::Kind::kSampler;
  }
  if (!images && !samplers) return "";
  ze_device_image_properties_t p{};
  p.stype = ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES;
  if (ze_result_t r = zeDeviceGetImageProperties(device, &p);
      r != ZE_RESULT_SUCCESS)
    return absl::StrCat("the device does not report image support: ",
                        ZeError("zeDeviceGetImageProperties", r));
  if (samplers && p.maxSamplers == 0)
    return "the device has no samplers (maxSamplers is 0)";
  for (size_t i = 0; i < tc.args.size(); ++i) {
    const spirv::KernelArg& a = tc.args[i];
    if (a.kind != spirv::KernelArg::Kind::kImage) continue;
    const spirv::ImageDesc& d = a.image;
    // Formats without a Level Zero equivalent, before anything is built.
    if (auto z = zeref::ZeImageDescOf(d); !z.ok())
      return absl::StrCat("argument ", i, ": ", z.status().message());
    uint64_t limit = 0;
    const char* field = "";
    uint64_t size = d.width;
    switch (d.dim) {
      case spirv::ImageDim::k1D:
      case spirv::ImageDim::k1DArray:
        limit = p.maxImageDims1D;
        field = "maxImageDims1D";
        break;
      case spirv::ImageDim::k2D:
      case spirv::ImageDim::k2DArray:
        limit = p.maxImageDims2D;
        field = "maxImageDims2D";
        size = std::max(d.width, d.height);
        break;
      case spirv::ImageDim::k3D:
        limit = p.maxImageDims3D;
        field = "maxImageDims3D";
        size = std::max({d.width, d.height, d.depth});
        break;
      case spirv::ImageDim::k1DBuffer:
        limit = p.maxImageBufferSize;
        field = "maxImageBufferSize";
        size = spirv::ImageBytes(d);
        break;
    }
    if (limit == 0)
      return absl::StrCat("argument ", i, ": the device has no ",
                          spirv::ImageDimName(d.dim), " images (", field,
                          " is 0)");
    if (size > limit)
      return absl::StrCat("argument ", i, ": ", spirv::DescribeImage(d),
                          " exceeds the device's ", field, " of ", limit);
    if (spirv::IsArrayed(d.dim) && d.array_size > p.maxImageArraySlices)
      return absl::StrCat("argument ", i, ": ", d.array_size,
                          " layers exceed the device's maxImageArraySlices "
                          "of ",
                          p.maxImageArraySlices);
  }
  return "";
}

// *reported: the driver gave a launch report (printf travels in it).
Execution RunOnDevice(const WorkerInput& in, const Picked& picked,
                      bool* reported) {
  const spirv::TestCase& tc = *in.test_case;
  if (std::string missing = MissingFeature(in.needs, picked.module);
      !missing.empty()) {
    return FailedExecution(ExecutionStatus::kUnsupported,
                           absl::StrCat(picked.name, ": ", missing));
  }
  if (std::string missing = MissingImageSupport(tc, picked.device);
      !missing.empty()) {
    return FailedExecution(ExecutionStatus::kUnsupported,
                           absl::StrCat(picked.name, ": ", missing));
  }
  ZeObjects ze;
  ze_context_desc_t context_desc{};
  context_desc.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
  ze_result_t r = zeContextCreate(picked.driver, &context_desc, &ze.context);
  if (r != ZE_RESULT_SUCCESS)
    return FailedExecution(ExecutionStatus::kUnsupported,
                           ZeError("zeContextCreate", r));

  ze_module_desc_t module_desc{};
  module_desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  module_desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  module_desc.inputSize = tc.module_words.size() * 4;
  module_desc.pInputModule =
      reinterpret_cast<const uint8_t*>(tc.module_words.data());
  module_desc.pBuildFlags = in.options->build_flags.c_str();
  // A case of several modules, one way: every module in one
  // ze_module_program_exp_desc_t (ZE_experimental_module_program), or each
  // created alone and then zeModuleDynamicLink-ed.
  const bool program =
      UseProgramDescriptor(tc, in.options->link, picked.driver);
  const size_t module_count = 1 + tc.linked_modules.size();
  std::vector<size_t> sizes;
  std::vector<const uint8_t*> inputs;
  std::vector<const char*> flags;
  ze_module_program_exp_desc_t program_desc{};
  if (program) {
    for (size_t i = 0; i < module_count; ++i) {
      const auto& words = i == 0 ? tc.module_words : tc.linked_modules[i - 1];
      sizes.push_back(words.size() * 4);
      inputs.push_back(reinterpret_cast<const uint8_t*>(words.data()));
      flags.push_back(in.options->build_flags.c_str());
    }
    program_desc.stype = ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC;
    program_desc.count = static_cast<uint32_t>(module_count);
    program_desc.inputSizes = sizes.data();
    program_desc.pInputModules = inputs.data();
    program_desc.pBuildFlags = flags.data();
    module_desc.pNext = &program_desc;
  }
  const std::string create =
      program ? absl::StrCat("zeModuleCreate (a program of ", module_count,
                             " modules, ze_module_program_exp_desc_t)")
              : std::string("zeModuleCreate");
  r = zeModuleCreate(ze.context, picked.device, &module_desc, &ze.module,
                     &ze.build_log);
  const std::string log = BuildLogText(ze.build_log);
  if (r != ZE_RESULT_SUCCESS) {
    ze.module = nullptr;
    const std::string first = FirstErrorLine(log);
    return FailedExecution(r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE
                               ? ExecutionStatus::kUnsupported
                               : ExecutionStatus::kBuildFailed,
                           absl::StrCat(ZeError(create.c_str(), r),
                                        first.empty() ? "" : ": ", first),
                           log);
  }

  // Otherwise create the others, then zeModuleDynamicLink all of them (the
  // kernel is the first module's).
  if (!tc.linked_modules.empty() && !program) {
    for (size_t i = 0; i < tc.linked_modules.size(); ++i) {
      ze_module_desc_t desc = module_desc;
      desc.inputSize = tc.linked_modules[i].size() * 4;
      desc.pInputModule =
          reinterpret_cast<const uint8_t*>(tc.linked_modules[i].data());
      ze_module_handle_t m = nullptr;
      ze_module_build_log_handle_t mlog = nullptr;
      r = zeModuleCreate(ze.context, picked.device, &desc, &m, &mlog);
      const std::string text = BuildLogText(mlog);
      if (mlog) zeModuleBuildLogDestroy(mlog);
      if (r != ZE_RESULT_SUCCESS) {
        return FailedExecution(r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE
                                   ? ExecutionStatus::kUnsupported
                                   : ExecutionStatus::kBuildFailed,
                               absl::StrCat(spirv::LinkedModuleFile(i), ": ",
                                            ZeError("zeModuleCreate", r)),
                               text);
      }
      ze.linked_modules.push_back(m);
    }
    std::vector<ze_module_handle_t> all = {ze.module};
    all.insert(all.end(), ze.linked_modules.begin(), ze.linked_modules.end());
    r = zeModuleDynamicLink(static_cast<uint32_t>(all.size()), all.data(),
                            &ze.link_log);
    if (r != ZE_RESULT_SUCCESS) {
      const std::string link_text = BuildLogText(ze.link_log);
      const std::string first = FirstErrorLine(link_text);
      return FailedExecution(r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE
                                 ? ExecutionStatus::kUnsupported
                                 : ExecutionStatus::kBuildFailed,
                             absl::StrCat(ZeError("zeModuleDynamicLink", r),
                                          first.empty() ? "" : ": ", first),
                             link_text);
    }
  }

  ze_kernel_desc_t kernel_desc{};
  kernel_desc.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC;
  kernel_desc.pKernelName = tc.entry_point.c_str();
  r = zeKernelCreate(ze.module, &kernel_desc, &ze.kernel);
  if (r != ZE_RESULT_SUCCESS) {
    ze.kernel = nullptr;
    return FailedExecution(ExecutionStatus::kBuildFailed,
                           absl::StrCat("kernel \"", tc.entry_point,
                                        "\": ", ZeError("zeKernelCreate", r)),
                           log);
  }
  ze_kernel_properties_t kprops{};
  kprops.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  r = zeKernelGetProperties(ze.kernel, &kprops);
  if (r == ZE_RESULT_SUCCESS && kprops.numKernelArgs != tc.args.size()) {
    return FailedExecution(
        ExecutionStatus::kBuildFailed,
        absl::StrCat("kernel \"", tc.entry_point, "\" takes ",
                     kprops.numKernelArgs, " arguments, the test case has ",
                     tc.args.size()),
        log);
  }

  // Group size and count.
  const spirv::NdRange& range = tc.nd_range;
  uint32_t group[3] = {1, 1, 1};
  uint32_t global[3] = {1, 1, 1};
  for (uint32_t d = 0; d < 3; ++d) {
    if (range.global[d] > 0xFFFFFFFFull)
      return FailedExecution(ExecutionStatus::kUnsupported,
                             "global sizes above 2^32-1 do not fit Level Zero");
    global[d] = d < range.dims ? static_cast<uint32_t>(range.global[d]) : 1;
  }
  if (range.local) {
    for (uint32_t d = 0; d < 3; ++d)
      group[d] = d < range.dims ? static_cast<uint32_t>((*range.local)[d]) : 1;
  } else {
    r = zeKernelSuggestGroupSize(ze.kernel, global[0], global[1], global[2],
                                 &group[0], &group[1], &group[2]);
    if (r != ZE_RESULT_SUCCESS)
      return FailedExecution(ExecutionStatus::kUnsupported,
                             ZeError("zeKernelSuggestGroupSize", r), log);
  }
  ze_group_count_t count{};
  uint32_t* counts[3] = {&count.groupCountX, &count.groupCountY,
                         &count.groupCountZ};
  for (int d = 0; d < 3; ++d) {
    if (group[d] == 0 || global[d] % group[d] != 0) {
      return FailedExecution(
          ExecutionStatus::kUnsupported,
          absl::StrCat("global size ", global[d], " in dimension ", d,
                       " is not a multiple of the group size ", group[d],
                       " (Level Zero launches whole work-groups)"),
          log);
    }
    *counts[d] = global[d] / group[d];
  }
  // Level Zero has no work dimension: drivers derive it from the sizes (the
  // highest dimension with more than one work-item). A kernel that reads
  // get_work_dim() would see another value than the test case specifies.
  uint32_t derived_dims = 1;
  for (uint32_t d = 1; d < 3; ++d)
    if (global[d] > 1) derived_dims = d + 1;
  if (in.needs.reads_work_dim && derived_dims != range.dims) {
    return FailedExecution(
        ExecutionStatus::kUnsupported,
        absl::StrCat("the kernel reads get_work_dim(); the test "
                     "case has ",
                     range.dims, " dimensions but Level Zero derives ",
                     derived_dims, " from the sizes"),
        log);
  }
  r = zeKernelSetGroupSize(ze.kernel, group[0], group[1], group[2]);
  if (r != ZE_RESULT_SUCCESS)
    return FailedExecution(
        ExecutionStatus::kUnsupported,
        absl::StrCat(ZeError("zeKernelSetGroupSize", r), " for ", group[0], "x",
                     group[1], "x", group[2]),
        log);
  if (range.offset[0] || range.offset[1] || range.offset[2]) {
    r = zeKernelSetGlobalOffsetExp(ze.kernel,
                                   static_cast<uint32_t>(range.offset[0]),
                                   static_cast<uint32_t>(range.offset[1]),
                                   static_cast<uint32_t>(range.offset[2]));
    if (r != ZE_RESULT_SUCCESS)
      return FailedExecution(ExecutionStatus::kUnsupported,
                             ZeError("zeKernelSetGlobalOffsetExp", r), log);
  }

  ze_command_queue_desc_t queue_desc{};
  queue_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  queue_desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  r = zeCommandQueueCreate(ze.context, picked.device, &queue_desc, &ze.queue);
  if (r != ZE_RESULT_SUCCESS) {
    ze.queue = nullptr;
    return FailedExecution(ExecutionStatus::kUnsupported,
                           ZeError("zeCommandQueueCreate", r), log);
  }
  ze_command_list_desc_t list_desc{};
  list_desc.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
  r = zeCommandListCreate(ze.context, picked.device, &list_desc, &ze.list);
  if (r != ZE_RESULT_SUCCESS) {
    ze.list = nullptr;
    return FailedExecution(ExecutionStatus::kUnsupported,
                           ZeError("zeCommandListCreate", r), log);
  }
  // Arguments. Images are filled by copies recorded before the launch
  // and read back by copies recorded after it.
  ze.buffers.assign(tc.args.size(), nullptr);
  ze.images.assign(tc.args.size(), nullptr);
  ze.samplers.assign(tc.args.size(), nullptr);
  ze.staging.assign(tc.args.size(), nullptr);
  for (size_t i = 0; i < tc.args.size(); ++i) {
    const spirv::KernelArg& a = tc.args[i];
    const uint32_t index = static_cast<uint32_t>(i);
    switch (a.kind) {
      case spirv::KernelArg::Kind::kBuffer: {
        if (!a.bytes.empty()) {
          ze_device_mem_alloc_desc_t dd{};
          dd.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
          ze_host_mem_alloc_desc_t hd{};
          hd.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
          r = zeMemAllocShared(ze.context, &dd, &hd, a.bytes.size(), 64,
                               picked.device, &ze.buffers[i]);
          if (r != ZE_RESULT_SUCCESS) {
            ze.buffers[i] = nullptr;
            return FailedExecution(ExecutionStatus::kUnsupported,
                                   absl::StrCat("argument ", i, ": ",
                                                ZeError("zeMemAllocShared", r)),
                                   log);
          }
          std::memcpy(ze.buffers[i], a.bytes.data(), a.bytes.size());
        }
        r = zeKernelSetArgumentValue(ze.kernel, index, sizeof(void*),
                                     &ze.buffers[i]);
        break;
      }
      case spirv::KernelArg::Kind::kScalar:
        r = zeKernelSetArgumentValue(ze.kernel, index, a.bytes.size(),
                                     a.bytes.data());
        break;
      case spirv::KernelArg::Kind::kLocal:
        r = zeKernelSetArgumentValue(ze.kernel, index, a.local_bytes, nullptr);
        break;
      case spirv::KernelArg::Kind::kImage: {
        auto desc = zeref::ZeImageDescOf(a.image);
        if (!desc.ok()) {
          return FailedExecution(
              ExecutionStatus::kUnsupported,
              absl::StrCat("argument ", i, ": ", desc.status().message()), log);
        }
        r = zeImageCreate(ze.context, picked.device, &*desc, &ze.images[i]);
        if (r != ZE_RESULT_SUCCESS) {
          ze.images[i] = nullptr;
          return FailedExecution(
              ExecutionStatus::kUnsupported,
              absl::StrCat("argument ", i, ": ", spirv::DescribeImage(a.image),
                           ": ", ZeError("zeImageCreate", r)),
              log);
        }
        ze_host_mem_alloc_desc_t hd{};
        hd.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
        r = zeMemAllocHost(ze.context, &hd, std::max<size_t>(a.bytes.size(), 1),
                           64, &ze.staging[i]);
        if (r != ZE_RESULT_SUCCESS) {
          ze.staging[i] = nullptr;
          return FailedExecution(
              ExecutionStatus::kUnsupported,
              absl::StrCat("argument ", i, ": ", ZeError("zeMemAllocHost", r)),
              log);
        }
        std::memcpy(ze.staging[i], a.bytes.data(), a.bytes.size());
        r = zeCommandListAppendImageCopyFromMemory(
            ze.list, ze.images[i], ze.staging[i], nullptr, nullptr, 0, nullptr);
        if (r != ZE_RESULT_SUCCESS) {
          return FailedExecution(
              ExecutionStatus::kUnsupported,
              absl::StrCat(
                  "argument ", i, ": ",
                  ZeError("zeCommandListAppendImageCopyFromMemory", r)),
              log);
        }
        r = zeKernelSetArgumentValue(ze.kernel, index,
                                     sizeof(ze_image_handle_t), &ze.images[i]);
        break;
      }
      case spirv::KernelArg::Kind::kSampler: {
        const ze_sampler_desc_t desc = zeref::ZeSamplerDescOf(a.sampler);
        r = zeSamplerCreate(ze.context, picked.device, &desc, &ze.samplers[i]);
        if (r != ZE_RESULT_SUCCESS) {
          ze.samplers[i] = nullptr;
          return FailedExecution(
              ExecutionStatus::kUnsupported,
              absl::StrCat("argument ", i, ": ",
                           spirv::DescribeSampler(a.sampler), ": ",
                           ZeError("zeSamplerCreate", r)),
              log);
        }
        r = zeKernelSetArgumentValue(
            ze.kernel, index, sizeof(ze_sampler_handle_t), &ze.samplers[i]);
        break;
      }
    }
    if (r != ZE_RESULT_SUCCESS) {
      return FailedExecution(
          ExecutionStatus::kBuildFailed,
          absl::StrCat("argument ", i, ": ",
                       ZeError("zeKernelSetArgumentValue", r)),
          log);
    }
  }

  const bool has_images =
      std::any_of(ze.images.begin(), ze.images.end(),
                  [](ze_image_handle_t h) { return h != nullptr; });
  // Barriers order the image uploads, the launch and the read-backs.
  if (has_images) {
    r = zeCommandListAppendBarrier(ze.list, nullptr, 0, nullptr);
    if (r != ZE_RESULT_SUCCESS)
      return FailedExecution(ExecutionStatus::kUnsupported,
                             ZeError("zeCommandListAppendBarrier", r), log);
  }
  r = zeCommandListAppendLaunchKernel(ze.list, ze.kernel, &count, nullptr, 0,
                                      nullptr);
  if (r != ZE_RESULT_SUCCESS)
    return FailedExecution(ExecutionStatus::kUnsupported,
                           ZeError("zeCommandListAppendLaunchKernel", r), log);
  if (has_images) {
    r = zeCommandListAppendBarrier(ze.list, nullptr, 0, nullptr);
    for (size_t i = 0; i < ze.images.size() && r == ZE_RESULT_SUCCESS; ++i) {
      if (!ze.images[i]) continue;
      r = zeCommandListAppendImageCopyToMemory(
          ze.list, ze.staging[i], ze.images[i], nullptr, nullptr, 0, nullptr);
    }
    if (r != ZE_RESULT_SUCCESS)
      return FailedExecution(ExecutionStatus::kUnsupported,
                             ZeError("zeCommandListAppendImageCopyToMemory", r),
                             log);
  }
  r = zeCommandListClose(ze.list);
  if (r != ZE_RESULT_SUCCESS)
    return FailedExecution(ExecutionStatus::kCrashed,
                           ZeError("zeCommandListClose", r), log);

  const l0spv_pfnTakeLaunchReports_t reports = ReportFunction(picked.driver);
  if (reports) TakeReports(reports);  // forget reports of earlier launches
  const auto start = Clock::now();
  r = zeCommandQueueExecuteCommandLists(ze.queue, 1, &ze.list, nullptr);
  if (r != ZE_RESULT_SUCCESS)
    return FailedExecution(ExecutionStatus::kCrashed,
                           ZeError("zeCommandQueueExecuteCommandLists", r),
                           log);
  const uint64_t timeout_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          in.options->time_limit)
          .count();
  const ze_result_t sync = zeCommandQueueSynchronize(ze.queue, timeout_ns);
  Execution e;
  e.wall_time = Clock::now() - start;
  e.log = log;
  if (sync == ZE_RESULT_NOT_READY) {
    ze.abandon = true;
    return FailedExecution(ExecutionStatus::kTimedOut,
                           absl::StrCat("the kernel did not finish within ",
                                        in.options->time_limit.count(), " ms"),
                           log);
  }
  if (reports) {
    const nlohmann::json j = TakeReports(reports);
    if (j.is_object() && j.contains("reports") && !j["reports"].empty()) {
      *reported = true;
      const nlohmann::json& rep = j["reports"].back();
      const std::string status = rep.value("status", "");
      e.printf_output = rep.value("printf", "");
      e.instructions_executed = rep.value("instructions", uint64_t{0});
      if (status == "ub-detected") {
        e.status = ExecutionStatus::kUbDetected;
      } else if (status == "unsupported") {
        e.status = ExecutionStatus::kUnsupported;
      } else if (status == "timed-out") {
        e.status = ExecutionStatus::kTimedOut;
      } else if (status == "build-failed") {
        e.status = ExecutionStatus::kBuildFailed;
      }
      e.message = rep.value("message", "");
    }
  }
  if (e.status == ExecutionStatus::kOk && sync != ZE_RESULT_SUCCESS) {
    return FailedExecution(ExecutionStatus::kCrashed,
                           ZeError("zeCommandQueueSynchronize", sync), log);
  }
  e.buffers.resize(tc.args.size());
  for (size_t i = 0; i < tc.args.size(); ++i) {
    void* from = ze.images[i] ? ze.staging[i] : ze.buffers[i];
    if (!from) continue;
    const auto* p = static_cast<const uint8_t*>(from);
    e.buffers[i].assign(p, p + tc.args[i].bytes.size());
  }
  return e;
}

std::string Worker(const WorkerInput& in) {
  for (const std::string& kv : in.options->environment) {
    const size_t eq = kv.find('=');
    if (eq != std::string::npos)
      setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
    else
      unsetenv(kv.c_str());
  }
  // The reference driver's printf output travels in its launch reports.
  setenv("L0SPV_REFERENCE_PRINTF", "off", 1);
  nlohmann::json reply;
  const ze_result_t init = zeInit(ZE_INIT_FLAG_GPU_ONLY);
  if (init != ZE_RESULT_SUCCESS) {
    // Never call zeDriverGet now: loader 1.8.12 segfaults in it.
    reply = ExecutionReply(FailedExecution(
        ExecutionStatus::kUnsupported,
        absl::StrCat("no Level Zero driver/device: ", ZeError("zeInit", init),
                     init == ZE_RESULT_ERROR_UNINITIALIZED
                         ? "; no GPU the installed drivers support (set "
                           "ZE_ENABLE_ALT_DRIVERS to use the l0spv "
                           "reference driver)"
                         : "")));
  } else {
    Picked picked;
    reply = PickDevice(in.options->device, &picked);
    if (reply.is_null()) {
      bool reported = false;
      Execution e = RunOnDevice(in, picked, &reported);
      absl::StrAppend(&e.log, e.log.empty() ? "" : "\n", "[device] ",
                      picked.name);
      if (const char* v = std::getenv("ZE_ENABLE_VALIDATION_LAYER"))
        absl::StrAppend(&e.log, "; ZE_ENABLE_VALIDATION_LAYER=", v);
      reply = ExecutionReply(e);
      reply["stdout_is_printf"] = !reported;
    }
  }
  std::fflush(stdout);
  return absl::StrCat(kResultMarker, spirv::DumpJson(reply), "\n");
}

}  // namespace

absl::StatusOr<Execution> RunOnLevelZero(
    const spirv::TestCase& test_case, const LevelZeroTargetOptions& options) {
  WorkerInput input{&test_case, &options, ReadNeeds(test_case.module_words)};
  ChildLimits limits;
  // The worker's own limit leaves room for zeCommandQueueSynchronize to
  // report the timeout itself.
  limits.wall_time = options.time_limit + std::chrono::seconds(10);
  limits.memory_bytes = options.memory_limit_bytes;
  limits.max_output_bytes = size_t{256} << 20;  // buffers travel as base64
  auto child = RunInChild([&input] { return Worker(input); }, limits);
  if (!child.ok()) return child.status();

  return ExecutionFromWorkerReply(*child, "Level Zero worker", kResultMarker);
}

}  // namespace l0spv::oracles
