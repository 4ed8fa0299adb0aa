#include "oracles/targets/opencl_target.h"

// clCreateCommandQueue: Oclgrind 21.10 is an OpenCL 1.2 platform.
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "oracles/execution_json.h"
#include "oracles/process/fork_server.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/cl_info.h"
#include "oracles/targets/opencl_images.h"
#include "oracles/targets/scratch_dir.h"
#include "oracles/targets/spir_translate.h"
#include "oracles/targets/worker_reply.h"
#include "spirv/binary.h"
#include "spirv/grammar.h"
#include "spirv/text_bytes.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles {
namespace {

using Clock = std::chrono::steady_clock;

// Precedes the result on the worker's stdout; anything a driver thread may
// still write to fd 1 after it is restored cannot be mistaken for a result.
constexpr char kResultMarker[] = "\n@@l0spv-opencl-result@@\n";

const char* ClErrorName(cl_int err) {
  switch (err) {
    case CL_SUCCESS:
      return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND:
      return "CL_DEVICE_NOT_FOUND";
    case CL_COMPILER_NOT_AVAILABLE:
      return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
      return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES:
      return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY:
      return "CL_OUT_OF_HOST_MEMORY";
    case CL_BUILD_PROGRAM_FAILURE:
      return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE:
      return "CL_INVALID_VALUE";
    case CL_INVALID_PLATFORM:
      return "CL_INVALID_PLATFORM";
    case CL_INVALID_DEVICE:
      return "CL_INVALID_DEVICE";
    case CL_INVALID_BINARY:
      return "CL_INVALID_BINARY";
    case CL_INVALID_BUILD_OPTIONS:
      return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_PROGRAM_EXECUTABLE:
      return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_NAME:
      return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL_DEFINITION:
      return "CL_INVALID_KERNEL_DEFINITION";
    case CL_INVALID_ARG_INDEX:
      return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE:
      return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE:
      return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS:
      return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION:
      return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE:
      return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE:
      return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_OFFSET:
      return "CL_INVALID_GLOBAL_OFFSET";
    case CL_INVALID_BUFFER_SIZE:
      return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_GLOBAL_WORK_SIZE:
      return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_OPERATION:
      return "CL_INVALID_OPERATION";
    case CL_LINK_PROGRAM_FAILURE:
      return "CL_LINK_PROGRAM_FAILURE";
    case CL_IMAGE_FORMAT_NOT_SUPPORTED:
      return "CL_IMAGE_FORMAT_NOT_SUPPORTED";
    case CL_INVALID_IMAGE_FORMAT_DESCRIPTOR:
      return "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR";
    case CL_INVALID_IMAGE_SIZE:
      return "CL_INVALID_IMAGE_SIZE";
    case CL_INVALID_IMAGE_DESCRIPTOR:
      return "CL_INVALID_IMAGE_DESCRIPTOR";
    case CL_INVALID_SAMPLER:
      return "CL_INVALID_SAMPLER";
    case CL_INVALID_MEM_OBJECT:
      return "CL_INVALID_MEM_OBJECT";
    default:
      return "CL error";
  }
}

bool ContainsIgnoreCase(const std::string& text, const std::string& part) {
  return absl::StrContains(absl::AsciiStrToLower(text),
                           absl::AsciiStrToLower(part));
}

std::string ClError(const char* call, cl_int err) {
  return absl::StrCat(call, " returned ", ClErrorName(err), " (", err, ")");
}

std::string DeviceIlVersion(cl_device_id d) {
  return std::string(
      absl::StripAsciiWhitespace(ClDeviceString(d, CL_DEVICE_IL_VERSION)));
}

std::string BuildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                            &size) != CL_SUCCESS)
    return "";
  std::string s(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, s.data(),
                        nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

// The first line mentioning an error (joined with the next non-empty line
// when it ends in ':', as in "Error(s) while linking:"), else the first
// non-empty line.
std::string FirstErrorLine(const std::string& log) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    if (!absl::StripAsciiWhitespace(line).empty())
      lines.emplace_back(absl::StripAsciiWhitespace(line));
  }
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!ContainsIgnoreCase(lines[i], "error")) continue;
    if (absl::EndsWith(lines[i], ":") && i + 1 < lines.size())
      return absl::StrCat(lines[i], " ", lines[i + 1]);
    return lines[i];
  }
  return lines.empty() ? "" : lines[0];
}

// Redirects fd 1 to a file for the lifetime of the object.
class StdoutCapture {
 public:
  explicit StdoutCapture(const std::string& path) : path_(path) {
    fflush(stdout);
    saved_ = dup(STDOUT_FILENO);
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (saved_ >= 0 && fd >= 0) dup2(fd, STDOUT_FILENO);
    if (fd >= 0) close(fd);
  }
  ~StdoutCapture() { Restore(); }
  // Bytes written so far.
  size_t Offset() {
    fflush(stdout);
    std::error_code ec;
    const auto size = std::filesystem::file_size(path_, ec);
    return ec ? 0 : static_cast<size_t>(size);
  }
  // Restores fd 1 and returns everything captured.
  std::string Restore() {
    if (saved_ < 0) return "";
    fflush(stdout);
    dup2(saved_, STDOUT_FILENO);
    close(saved_);
    saved_ = -1;
    std::ifstream in(path_, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in),
                       std::istreambuf_iterator<char>());
  }

 private:
  std::string path_;
  int saved_ = -1;
};

struct WorkerInput {
  // The launches to run on what the worker builds: at least one; every
  // launch shares the first one's modules.
  std::span<const spirv::TestCase> launches;
  const OpenClTargetOptions* options;
  // One per module of the case (the kernel's first, then its linked
  // modules); empty: translation not attempted.
  const std::vector<SpirTranslation>* spir;
  std::string scratch;
};

// Releases the OpenCL objects of one build in reverse order of creation.
struct ClObjects {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;
  std::vector<cl_program> parts;  // a several-module case: one per module
  ~ClObjects() {
    if (program) clReleaseProgram(program);
    for (cl_program p : parts)
      if (p) clReleaseProgram(p);
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
  }
};

// The objects of one launch of the built program.
struct ClLaunch {
  cl_kernel kernel = nullptr;
  std::vector<cl_mem> buffers;  // per argument: its buffer or image
  std::vector<cl_mem> backing;  // per argument: a 1D buffer image's buffer
  std::vector<cl_sampler> samplers;
  ~ClLaunch() {
    for (cl_sampler s : samplers)
      if (s) clReleaseSampler(s);
    for (cl_mem m : buffers)
      if (m) clReleaseMemObject(m);
    for (cl_mem m : backing)
      if (m) clReleaseMemObject(m);
    if (kernel) clReleaseKernel(kernel);
  }
};

// Picks the platform and device; nullopt reply = found.
nlohmann::json PickDevice(const std::string& wanted, cl_device_id* device,
                          std::string* platform_name) {
  cl_uint count = 0;
  const cl_int err = clGetPlatformIDs(0, nullptr, &count);
  if (err != CL_SUCCESS || count == 0) {
    return ExecutionReply(FailedExecution(
        ExecutionStatus::kUnsupported,
        absl::StrCat("no OpenCL platform (", ClError("clGetPlatformIDs", err),
                     "; install an ICD such as pocl-opencl-icd)")));
  }
  std::vector<cl_platform_id> platforms(count);
  clGetPlatformIDs(count, platforms.data(), nullptr);
  std::vector<std::string> names;
  for (cl_platform_id p : platforms) {
    const std::string name = ClPlatformString(p, CL_PLATFORM_NAME);
    names.push_back(name);
    if (!wanted.empty() && !ContainsIgnoreCase(name, wanted)) continue;
    cl_uint ndev = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, device, &ndev) == CL_SUCCESS &&
        ndev > 0) {
      *platform_name = name;
      return nullptr;
    }
  }
  const std::string list = absl::StrJoin(names, "\", \"");
  if (wanted.empty()) {
    return ExecutionReply(FailedExecution(
        ExecutionStatus::kUnsupported,
        absl::StrCat("no OpenCL platform has a device (platforms: \"", list,
                     "\")")));
  }
  return ErrorReply(
      "not_found",
      absl::StrCat("no OpenCL platform with a device matches \"", wanted,
                   "\"; platforms: \"", list, "\" (see `l0spv-fuzz targets`)"));
}

// The SPIR translation of module `i` of the case, or why there is none.
std::optional<Execution> SpirOf(const WorkerInput& in, size_t i) {
  if (in.spir == nullptr || in.spir->size() <= i) {
    return FailedExecution(
        ExecutionStatus::kUnsupported,
        "the device needs the SPIR path, but no translation was made");
  }
  const SpirTranslation& spir = (*in.spir)[i];
  if (spir.status != ExecutionStatus::kOk)
    return FailedExecution(spir.status, spir.message, spir.log);
  return std::nullopt;
}

// clCreateProgramWithBinary of module i's SPIR bitcode (SpirOf(in, i)
// checked first).
cl_program ProgramFromSpir(const WorkerInput& in, size_t i, cl_context context,
                           cl_device_id device, cl_int* err) {
  const unsigned char* bin = (*in.spir)[i].bitcode.data();
  const size_t size = (*in.spir)[i].bitcode.size();
  cl_int bin_status = CL_SUCCESS;
  return clCreateProgramWithBinary(context, 1, &device, &size, &bin,
                                   &bin_status, err);
}

constexpr char kSpirPathNote[] =
    "SPIR 1.2 bitcode (llvm-spirv -r) through clCreateProgramWithBinary";

// A one-module case: clCreateProgramWithIL, or the SPIR path, then
// clBuildProgram. Fills cl.program and `log`; the failure otherwise.
std::optional<Execution> BuildOneModule(const WorkerInput& in, bool use_il,
                                        cl_device_id device, ClObjects& cl,
                                        std::string* log) {
  const spirv::TestCase& tc = in.launches.front();
  cl_int err = CL_SUCCESS;
  std::string build_options;
  std::string path_note;
  if (use_il) {
    cl.program = clCreateProgramWithIL(cl.context, tc.module_words.data(),
                                       tc.module_words.size() * 4, &err);
    path_note = "SPIR-V through clCreateProgramWithIL";
  } else {
    if (auto failed = SpirOf(in, 0)) return failed;
    cl.program = ProgramFromSpir(in, 0, cl.context, device, &err);
    build_options = "-x spir -spir-std=1.2";
    path_note = kSpirPathNote;
  }
  if (!cl.program) {
    return FailedExecution(
        ExecutionStatus::kBuildFailed,
        absl::StrCat(path_note, ": ",
                     ClError(use_il ? "clCreateProgramWithIL"
                                    : "clCreateProgramWithBinary",
                             err)));
  }
  if (!in.options->build_options.empty())
    absl::StrAppend(&build_options, " ", in.options->build_options);
  err = clBuildProgram(cl.program, 1, &device, build_options.c_str(), nullptr,
                       nullptr);
  *log = BuildLog(cl.program, device);
  if (err != CL_SUCCESS) {
    const std::string first = FirstErrorLine(*log);
    return FailedExecution(ExecutionStatus::kBuildFailed,
                           absl::StrCat(ClError("clBuildProgram", err),
                                        first.empty() ? "" : ": ", first),
                           *log);
  }
  return std::nullopt;
}

// A several-module case through the platform's own linker: each module
// becomes a compiled object (IL: clCreateProgramWithIL + clCompileProgram;
// SPIR: the bitcode through clCreateProgramWithBinary, which OpenCL treats
// as an object binary), then clLinkProgram makes the executable.
std::optional<Execution> LinkModules(const WorkerInput& in, bool use_il,
                                     cl_device_id device, ClObjects& cl,
                                     std::string* log) {
  const spirv::TestCase& tc = in.launches.front();
  const size_t n = 1 + tc.linked_modules.size();
  for (size_t i = 0; i < n; ++i) {
    const std::string file =
        i == 0 ? "module.spv" : spirv::LinkedModuleFile(i - 1);
    cl_int err = CL_SUCCESS;
    cl_program part = nullptr;
    if (use_il) {
      const std::vector<uint32_t>& words =
          i == 0 ? tc.module_words : tc.linked_modules[i - 1];
      part = clCreateProgramWithIL(cl.context, words.data(), words.size() * 4,
                                   &err);
    } else {
      if (auto failed = SpirOf(in, i)) return failed;
      part = ProgramFromSpir(in, i, cl.context, device, &err);
    }
    if (!part) {
      return FailedExecution(
          ExecutionStatus::kBuildFailed,
          absl::StrCat(file, ": ",
                       ClError(use_il ? "clCreateProgramWithIL"
                                      : "clCreateProgramWithBinary",
                               err)));
    }
    cl.parts.push_back(part);
    if (!use_il) continue;
    err = clCompileProgram(part, 1, &device, in.options->build_options.c_str(),
                           0, nullptr, nullptr, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      *log = BuildLog(part, device);
      const std::string first = FirstErrorLine(*log);
      return FailedExecution(
          ExecutionStatus::kBuildFailed,
          absl::StrCat(file, ": ", ClError("clCompileProgram", err),
                       first.empty() ? "" : ": ", first),
          *log);
    }
  }
  cl_int err = CL_SUCCESS;
  cl.program = clLinkProgram(
      cl.context, 1, &device, in.options->build_options.c_str(),
      static_cast<cl_uint>(n), cl.parts.data(), nullptr, nullptr, &err);
  if (cl.program) *log = BuildLog(cl.program, device);
  if (err == CL_INVALID_OPERATION && !use_il) {
    // The platform does not take SPIR binaries as linker inputs: a
    // limitation, not a bug (PoCL 3.1 makes compiled objects only from
    // OpenCL C source).
    return FailedExecution(
        ExecutionStatus::kUnsupported,
        absl::StrCat("the platform does not link SPIR binaries: ",
                     ClError("clLinkProgram", err),
                     " (its inputs must be compiled objects, and it makes "
                     "them only from source)"),
        *log);
  }
  if (!cl.program || err != CL_SUCCESS) {
    const std::string first = FirstErrorLine(*log);
    return FailedExecution(ExecutionStatus::kBuildFailed,
                           absl::StrCat(ClError("clLinkProgram", err), " (", n,
                                        " modules", use_il ? "" : ", SPIR path",
                                        ")", first.empty() ? "" : ": ", first),
                           *log);
  }
  return std::nullopt;
}

Execution LaunchOne(const spirv::TestCase& tc, cl_device_id device,
                    const std::string& platform, const ClObjects& built,
                    const std::string& log, StdoutCapture& capture,
                    size_t* printf_start);

// For each launch, why it cannot run as written on a device with doubles,
// or "": its kernel passes a 32-bit float to printf (a float conversion's
// argument). SPIR 1.2 §2.10.3 and OpenCL C's printf: a float argument is a
// double on a device that supports doubles, so such a call is outside the
// device's contract (the generator writes it for profiles without fp64;
// PoCL 3.1 prints 0). The module-level facts are gathered once per batch.
std::vector<std::string> PrintfFloatOnDoubleDevice(
    const spirv::Module& m, std::span<const spirv::TestCase> launches) {
  std::vector<std::string> why(launches.size());
  uint32_t opencl_std = 0;
  for (const spirv::Instruction& i : m.ext_inst_imports)
    if (i.NumOperands() >= 1 && i.operand(0).AsString() == "OpenCL.std")
      opencl_std = i.result_id();
  const spirv::ExtInstInfo* printf_info = spirv::FindOpenClStdByName("printf");
  if (opencl_std == 0 || printf_info == nullptr) return why;
  std::set<uint32_t> float32_types;
  std::map<uint32_t, uint32_t> type_of;
  for (const spirv::Instruction& t : m.types_values) {
    if (spirv::Is(t, spv::Op::OpTypeFloat) && t.NumOperands() >= 1 &&
        t.operand(0).AsLiteral() == 32)
      float32_types.insert(t.result_id());
    if (t.result_id() != 0) type_of[t.result_id()] = t.type_id();
  }
  for (const spirv::Function& f : m.functions)
    for (const spirv::BasicBlock& b : f.blocks)
      for (const spirv::Instruction& i : b.instructions)
        if (i.result_id() != 0) type_of[i.result_id()] = i.type_id();
  const auto passes_float = [&](const spirv::Instruction& i) {
    // OpExtInst: set, instruction, format, arguments...
    if (!spirv::Is(i, spv::Op::OpExtInst) || i.NumOperands() < 3 ||
        i.operand(0).AsId() != opencl_std ||
        i.operand(1).AsLiteral() != printf_info->number)
      return false;
    for (size_t a = 3; a < i.NumOperands(); ++a)
      if (float32_types.count(type_of[i.operand(a).AsId()])) return true;
    return false;
  };
  for (size_t l = 0; l < launches.size(); ++l)
    for (const spirv::Function* f : spirv::FunctionsReachedFrom(
             m, m.KernelEntryPointId(launches[l].entry_point)))
      for (const spirv::BasicBlock& b : f->blocks)
        for (const spirv::Instruction& i : b.instructions)
          if (why[l].empty() && passes_float(i))
            why[l] =
                "the kernel passes a 32-bit float to printf, which this "
                "device (it supports doubles) takes as a double (SPIR 1.2 "
                "2.10.3); the case was generated for a profile without fp64";
  return why;
}

bool DeviceHasDoubles(cl_device_id device) {
  cl_device_fp_config config = 0;
  return clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof config,
                         &config, nullptr) == CL_SUCCESS &&
         config != 0;
}

// Everything after the device is chosen: the build, then each launch. A
// failure of the build is every launch's result.
std::vector<Execution> RunOnDevice(const WorkerInput& in, cl_device_id device,
                                   const std::string& platform,
                                   StdoutCapture& capture) {
  const spirv::TestCase& tc = in.launches.front();
  const auto every_launch = [&](const Execution& e) {
    return ForEveryLaunch(e, in.launches.size());
  };
  ClObjects cl;
  cl_int err = CL_SUCCESS;
  cl.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  if (!cl.context)
    return every_launch(FailedExecution(ExecutionStatus::kUnsupported,
                                        ClError("clCreateContext", err)));
  cl.queue = clCreateCommandQueue(cl.context, device, 0, &err);
  if (!cl.queue)
    return every_launch(FailedExecution(ExecutionStatus::kUnsupported,
                                        ClError("clCreateCommandQueue", err)));

  // Launches outside the device's contract are answered before the build;
  // when none is left, the build (PoCL's 0.6 s) is not paid at all.
  std::vector<std::string> refused(in.launches.size());
  if (DeviceHasDoubles(device)) {
    if (auto m = spirv::ReadModuleWords(tc.module_words); m.ok())
      refused = PrintfFloatOnDoubleDevice(*m, in.launches);
  }
  if (std::all_of(refused.begin(), refused.end(),
                  [](const std::string& why) { return !why.empty(); })) {
    std::vector<Execution> results;
    for (const std::string& why : refused) {
      results.push_back(FailedExecution(ExecutionStatus::kUnsupported, why));
      results.back().launch_own = true;
    }
    return results;
  }
  const bool use_il =
      !in.options->force_spir_path && !DeviceIlVersion(device).empty();
  std::string log;
  if (auto failed = tc.linked_modules.empty()
                        ? BuildOneModule(in, use_il, device, cl, &log)
                        : LinkModules(in, use_il, device, cl, &log)) {
    return every_launch(*failed);
  }
  // Kernel printf of each launch: [start, end) of what the capture holds.
  std::vector<Execution> results;
  std::vector<std::pair<size_t, size_t>> printf_ranges;
  for (size_t i = 0; i < in.launches.size(); ++i) {
    size_t start = capture.Offset();
    if (!refused[i].empty()) {
      results.push_back(
          FailedExecution(ExecutionStatus::kUnsupported, refused[i], log));
      results.back().launch_own = true;
    } else {
      results.push_back(LaunchOne(in.launches[i], device, platform, cl, log,
                                  capture, &start));
    }
    printf_ranges.emplace_back(start, capture.Offset());
  }
  const std::string out = capture.Restore();
  size_t before = out.size();
  for (size_t i = 0; i < results.size(); ++i) {
    auto [start, end] = printf_ranges[i];
    start = std::min(start, out.size());
    end = std::min(std::max(end, start), out.size());
    if (results[i].status == ExecutionStatus::kOk && start < end) {
      results[i].printf_output = out.substr(start, end - start);
    }
    if (i == 0) before = start;
  }
  if (before > 0 && !results.empty()) {
    absl::StrAppend(&results[0].log, "\n[stdout before launch]\n",
                    out.substr(0, before));
  }
  return results;
}

// One launch of the built program: its kernel, arguments, ND-range and
// results. `*printf_start` is the capture's offset at the enqueue.
Execution LaunchOne(const spirv::TestCase& tc, cl_device_id device,
                    const std::string& platform, const ClObjects& built,
                    const std::string& log, StdoutCapture& capture,
                    size_t* printf_start) {
  ClLaunch cl;
  cl_int err = CL_SUCCESS;
  *printf_start = capture.Offset();
  cl.kernel = clCreateKernel(built.program, tc.entry_point.c_str(), &err);
  if (!cl.kernel) {
    return FailedExecution(ExecutionStatus::kBuildFailed,
                           absl::StrCat("kernel \"", tc.entry_point,
                                        "\": ", ClError("clCreateKernel", err)),
                           log);
  }
  cl_uint num_args = 0;
  clGetKernelInfo(cl.kernel, CL_KERNEL_NUM_ARGS, sizeof num_args, &num_args,
                  nullptr);
  if (num_args != tc.args.size()) {
    return FailedExecution(
        ExecutionStatus::kBuildFailed,
        absl::StrCat("kernel \"", tc.entry_point, "\" takes ", num_args,
                     " arguments, the test case has ", tc.args.size()),
        log);
  }
  cl.buffers.assign(tc.args.size(), nullptr);
  cl.backing.assign(tc.args.size(), nullptr);
  cl.samplers.assign(tc.args.size(), nullptr);
  const std::string label = DeviceLabel(platform, device);
  for (size_t i = 0; i < tc.args.size(); ++i) {
    const spirv::KernelArg& a = tc.args[i];
    const cl_uint index = static_cast<cl_uint>(i);
    switch (a.kind) {
      case spirv::KernelArg::Kind::kBuffer:
        if (!a.bytes.empty()) {
          cl.buffers[i] = clCreateBuffer(
              built.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
              a.bytes.size(), const_cast<uint8_t*>(a.bytes.data()), &err);
          if (!cl.buffers[i]) {
            return FailedExecution(ExecutionStatus::kUnsupported,
                                   absl::StrCat("argument ", i, ": ",
                                                ClError("clCreateBuffer", err)),
                                   log);
          }
        }
        err = clSetKernelArg(cl.kernel, index, sizeof(cl_mem), &cl.buffers[i]);
        break;
      case spirv::KernelArg::Kind::kScalar:
        err = clSetKernelArg(cl.kernel, index, a.bytes.size(), a.bytes.data());
        break;
      case spirv::KernelArg::Kind::kLocal:
        err = clSetKernelArg(cl.kernel, index, a.local_bytes, nullptr);
        break;
      case spirv::KernelArg::Kind::kImage: {
        const std::string why =
            ImageUnsupportedReason(built.context, device, label, a.image);
        if (!why.empty()) {
          return FailedExecution(ExecutionStatus::kUnsupported,
                                 absl::StrCat("argument ", i, ": ", why), log);
        }
        if (!a.bytes.empty() && a.bytes.size() != spirv::ImageBytes(a.image)) {
          // The driver would read ImageBytes from the host pointer.
          return FailedExecution(
              ExecutionStatus::kUnsupported,
              absl::StrCat("argument ", i, ": ", a.bytes.size(),
                           " bytes of texels, the image needs ",
                           spirv::ImageBytes(a.image)),
              log);
        }
        const char* call = "";
        cl.buffers[i] = CreateClImage(built.context, a.image, a.bytes,
                                      &cl.backing[i], &err, &call);
        if (!cl.buffers[i]) {
          return FailedExecution(
              ExecutionStatus::kUnsupported,
              absl::StrCat("argument ", i, " (", spirv::DescribeImage(a.image),
                           "): ", ClError(call, err)),
              log);
        }
        err = clSetKernelArg(cl.kernel, index, sizeof(cl_mem), &cl.buffers[i]);
        break;
      }
      case spirv::KernelArg::Kind::kSampler: {
        const std::string why = SamplerUnsupportedReason(device, label);
        if (!why.empty()) {
          return FailedExecution(ExecutionStatus::kUnsupported,
                                 absl::StrCat("argument ", i, ": ", why), log);
        }
        cl.samplers[i] = CreateClSampler(built.context, a.sampler, &err);
        if (!cl.samplers[i]) {
          return FailedExecution(
              ExecutionStatus::kUnsupported,
              absl::StrCat("argument ", i, " (",
                           spirv::DescribeSampler(a.sampler),
                           "): ", ClError("clCreateSampler", err)),
              log);
        }
        err = clSetKernelArg(cl.kernel, index, sizeof(cl_sampler),
                             &cl.samplers[i]);
        break;
      }
    }
    if (err != CL_SUCCESS) {
      return FailedExecution(
          ExecutionStatus::kBuildFailed,
          absl::StrCat("argument ", i, ": ", ClError("clSetKernelArg", err)),
          log);
    }
  }

  const spirv::NdRange& r = tc.nd_range;
  size_t global[3], local[3], offset[3];
  for (int d = 0; d < 3; ++d) {
    global[d] = r.global[d];
    offset[d] = r.offset[d];
    local[d] = r.local ? (*r.local)[d] : 1;
  }
  *printf_start = capture.Offset();
  const auto start = Clock::now();
  err = clEnqueueNDRangeKernel(built.queue, cl.kernel, r.dims, offset, global,
                               r.local ? local : nullptr, 0, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    std::string hint;
    if (err == CL_INVALID_WORK_GROUP_SIZE && r.local) {
      hint = " (non-uniform work-groups or a local size the device refuses)";
    }
    return FailedExecution(
        ExecutionStatus::kUnsupported,
        absl::StrCat(ClError("clEnqueueNDRangeKernel", err), hint), log);
  }
  err = clFinish(built.queue);
  Execution e;
  e.wall_time = Clock::now() - start;
  e.log = log;
  if (err != CL_SUCCESS) {
    return FailedExecution(ExecutionStatus::kCrashed, ClError("clFinish", err),
                           log);
  }
  e.buffers.resize(tc.args.size());
  for (size_t i = 0; i < tc.args.size(); ++i) {
    if (!cl.buffers[i]) continue;
    const bool image = tc.args[i].kind == spirv::KernelArg::Kind::kImage;
    if (image) {
      err = ReadClImage(built.queue, cl.buffers[i], tc.args[i].image,
                        &e.buffers[i]);
    } else {
      e.buffers[i].resize(tc.args[i].bytes.size());
      err = clEnqueueReadBuffer(built.queue, cl.buffers[i], CL_TRUE, 0,
                                e.buffers[i].size(), e.buffers[i].data(), 0,
                                nullptr, nullptr);
    }
    if (err != CL_SUCCESS) {
      return FailedExecution(ExecutionStatus::kCrashed,
                             absl::StrCat("argument ", i, ": ",
                                          ClError(image ? "clEnqueueReadImage"
                                                        : "clEnqueueReadBuffer",
                                                  err)),
                             log);
    }
  }
  return e;
}

// The worker's body: returns the marker and the reply JSON.
std::string Worker(const WorkerInput& in) {
  for (const std::string& kv : in.options->environment) {
    const size_t eq = kv.find('=');
    if (eq != std::string::npos)
      setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
  }
  setenv("POCL_KERNEL_CACHE", "0", 1);
  setenv("POCL_CACHE_DIR", (in.scratch + "/pocl-cache").c_str(), 1);
  // Drivers write debris to the working directory (PoCL's kernel compiler
  // dumps broken.dot when it gives up on a CFG): keep it in the scratch
  // directory, which is removed after the run.
  if (chdir(in.scratch.c_str()) != 0) {
    // Not fatal: the run itself does not depend on the directory.
  }
  nlohmann::json reply;
  {
    StdoutCapture capture(in.scratch + "/stdout.txt");
    cl_device_id device = nullptr;
    std::string platform;
    reply = PickDevice(in.options->platform, &device, &platform);
    if (reply.is_null()) {
      reply = ExecutionsReply(RunOnDevice(in, device, platform, capture));
    }
  }
  return absl::StrCat(kResultMarker, spirv::DumpJson(reply));
}

// A batch handed to a warm worker (OpenClWarmWorker), as one CBOR
// document: the options, the SPIR translations, the batch's modules once,
// and each launch's case.json with its argument files. The grandchild the
// fork server forks for the batch reads it back (ReadTestCaseFrom).
nlohmann::json::binary_t Binary(std::span<const uint8_t> bytes) {
  return nlohmann::json::binary_t(
      std::vector<uint8_t>(bytes.begin(), bytes.end()));
}

std::string WorkerRequest(const WorkerInput& in) {
  nlohmann::json spir = nlohmann::json::array();
  for (const SpirTranslation& t : *in.spir) {
    spir.push_back({{"status", static_cast<int>(t.status)},
                    {"message", t.message},
                    {"log", t.log},
                    {"bitcode", Binary(t.bitcode)}});
  }
  const spirv::TestCase& first = in.launches.front();
  nlohmann::json modules = nlohmann::json::array();
  modules.push_back(Binary(
      spirv::WordsToBytes(first.module_words, spirv::Endianness::kLittle)));
  for (const std::vector<uint32_t>& m : first.linked_modules)
    modules.push_back(
        Binary(spirv::WordsToBytes(m, spirv::Endianness::kLittle)));
  nlohmann::json launches = nlohmann::json::array();
  for (const spirv::TestCase& l : in.launches) {
    nlohmann::json meta = spirv::TestCaseToJson(l);
    nlohmann::json files = nlohmann::json::object();
    for (size_t a = 0; a < l.args.size(); ++a) {
      const nlohmann::json& aj = meta["args"][a];
      if (aj.contains("file"))
        files[aj["file"].get<std::string>()] = Binary(l.args[a].bytes);
    }
    launches.push_back(
        {{"case", std::move(meta)}, {"files", std::move(files)}});
  }
  const OpenClTargetOptions& o = *in.options;
  const nlohmann::json request{
      {"scratch", in.scratch},           {"modules", std::move(modules)},
      {"launches", std::move(launches)}, {"spir", std::move(spir)},
      {"platform", o.platform},          {"force_spir_path", o.force_spir_path},
      {"environment", o.environment},    {"build_options", o.build_options}};
  const std::vector<uint8_t> cbor = nlohmann::json::to_cbor(request);
  return std::string(cbor.begin(), cbor.end());
}

// The fork server's handler: reads a WorkerRequest back and runs the
// worker on it. A fault in the request is the worker's reply, never a
// crash (the handler runs in a grandchild anyway).
std::string ServeWorkerRequest(const std::string& payload) {
  // A request the handler cannot read is the harness's fault, for every
  // launch: the reply protocol's "error" (ExecutionsFromWorkerReply), not
  // one execution standing for all of them.
  const auto fail = [](const std::string& why) {
    const nlohmann::json error{
        {"error", {{"message", absl::StrCat("harness: warm worker: ", why)}}}};
    return absl::StrCat(kResultMarker, spirv::DumpJson(error));
  };
  const auto j = nlohmann::json::from_cbor(payload, /*strict=*/true,
                                           /*allow_exceptions=*/false);
  if (!j.is_object()) return fail("unreadable warm-worker request");
  try {
    OpenClTargetOptions options;
    options.platform = j.at("platform").get<std::string>();
    options.force_spir_path = j.at("force_spir_path").get<bool>();
    options.environment = j.at("environment").get<std::vector<std::string>>();
    options.build_options = j.at("build_options").get<std::string>();
    const std::string scratch = j.at("scratch").get<std::string>();
    std::vector<SpirTranslation> spir;
    for (const nlohmann::json& t : j.at("spir")) {
      SpirTranslation one;
      one.status = static_cast<ExecutionStatus>(t.at("status").get<int>());
      one.message = t.at("message").get<std::string>();
      one.log = t.at("log").get<std::string>();
      one.bitcode = t.at("bitcode").get_binary();
      spir.push_back(std::move(one));
    }
    const nlohmann::json& modules = j.at("modules");
    // Launches after the first read a header-only module and take the
    // first's: parsing the batch module once per launch would be K times
    // the work for the same words.
    const std::vector<uint8_t> placeholder = spirv::WordsToBytes(
        std::vector<uint32_t>{0x07230203u, 0x00010000u, 0, 1, 0},
        spirv::Endianness::kLittle);
    std::vector<spirv::TestCase> launches;
    for (const nlohmann::json& l : j.at("launches")) {
      const nlohmann::json& files = l.at("files");
      const bool first = launches.empty();
      auto tc = spirv::ReadTestCaseFrom(
          l.at("case"), absl::StrCat(scratch, "/launch-", launches.size()),
          [&](const std::string& name,
              uint64_t max_bytes) -> absl::StatusOr<std::vector<uint8_t>> {
            size_t module = modules.size();
            if (name == "module.spv") module = 0;
            for (size_t m = 1; m < modules.size(); ++m)
              if (name == spirv::LinkedModuleFile(m - 1)) module = m;
            if (module < modules.size())
              return first ? modules[module].get_binary() : placeholder;
            auto it = files.find(name);
            if (it == files.end() || !it->is_binary() ||
                it->get_binary().size() > max_bytes)
              return absl::NotFoundError(absl::StrCat("no file ", name));
            return it->get_binary();
          });
      if (!tc.ok()) return fail(std::string(tc.status().message()));
      if (!first) {
        tc->module_words = launches.front().module_words;
        tc->linked_modules = launches.front().linked_modules;
      }
      launches.push_back(*std::move(tc));
    }
    if (launches.empty()) return fail("a warm-worker request without launches");
    return Worker(WorkerInput{launches, &options, &spir, scratch});
  } catch (const nlohmann::json::exception& e) {
    return fail(absl::StrCat("malformed warm-worker request: ", e.what()));
  }
}

}  // namespace

OpenClWarmWorker::OpenClWarmWorker(std::vector<std::string> environment,
                                   std::string scratch_parent)
    : environment_(std::move(environment)),
      scratch_parent_(std::move(scratch_parent)) {}

OpenClWarmWorker::~OpenClWarmWorker() = default;

ForkServer* OpenClWarmWorker::Server(uint64_t memory_bytes) {
  if (server_ != nullptr && server_->served() >= kBatchesPerServer)
    server_.reset();  // a fresh process now and then bounds any leak
  if (server_ != nullptr || failed_starts_ >= kMaxFailedStarts)
    return server_.get();
  auto dir = ScratchDir::Make(scratch_parent_, "l0spv-opencl-warm-");
  if (!dir.ok()) {
    ++failed_starts_;
    return nullptr;
  }
  const std::string path = dir->path();
  const std::vector<std::string> env = environment_;
  auto server = ForkServer::Start(
      [env, path]() -> absl::Status {
        // What the ICD loader and the drivers read at platform set-up; the
        // batch's own values are set again in its grandchild (Worker).
        for (const std::string& kv : env) {
          const size_t eq = kv.find('=');
          if (eq != std::string::npos)
            setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
        }
        setenv("POCL_KERNEL_CACHE", "0", 1);
        setenv("POCL_CACHE_DIR", (path + "/pocl-cache").c_str(), 1);
        if (chdir(path.c_str()) != 0) {
          // Not fatal: each batch changes to its own directory.
        }
        cl_uint count = 0;
        const cl_int err = clGetPlatformIDs(0, nullptr, &count);
        // -1001 = CL_PLATFORM_NOT_FOUND_KHR: no platform is a batch's answer.
        if (err != CL_SUCCESS && err != -1001)
          return absl::UnavailableError(ClError("clGetPlatformIDs", err));
        return absl::OkStatus();
      },
      ServeWorkerRequest, memory_bytes);
  if (!server.ok()) {
    ++failed_starts_;
    last_error_ = std::string(server.status().message());
    return nullptr;
  }
  server_ = *std::move(server);
  dir_ = std::make_unique<ScratchDir>(*std::move(dir));
  ++starts_;
  return server_.get();
}

OpenClWarmWorker* WarmWorkerIn(std::unique_ptr<OpenClWarmWorker>& slot,
                               bool enabled,
                               const std::vector<std::string>& environment,
                               const std::string& scratch_parent) {
  if (!enabled) return nullptr;
  if (!slot)
    slot = std::make_unique<OpenClWarmWorker>(environment, scratch_parent);
  return slot.get();
}

void OpenClWarmWorker::Retire() {
  server_.reset();
  dir_.reset();
}

absl::StatusOr<Execution> RunOnOpenCl(const spirv::TestCase& test_case,
                                      const OpenClTargetOptions& options) {
  auto results = RunBatchOnOpenCl(
      std::span<const spirv::TestCase>(&test_case, 1), options);
  if (!results.ok()) return results.status();
  return std::move(results->front());
}

absl::StatusOr<std::vector<Execution>> RunBatchOnOpenCl(
    std::span<const spirv::TestCase> launches,
    const OpenClTargetOptions& options, OpenClWarmWorker* warm) {
  if (launches.empty()) return std::vector<Execution>{};
  const spirv::TestCase& test_case = launches.front();
  auto scratch = ScratchDir::Make(options.scratch_dir, "l0spv-opencl-");
  if (!scratch.ok()) return scratch.status();

  // The SPIR translation runs here, before forking, so the worker never has
  // to fork from a process that a driver may have made multi-threaded. It is
  // only used when the device turns out to lack IL support.
  SpirTranslateOptions spir_options;
  spir_options.scratch_dir = scratch->path();
  spir_options.limits.wall_time = options.time_limit;
  spir_options.limits.memory_bytes = options.memory_limit_bytes;
  std::vector<SpirTranslation> spir;
  for (size_t i = 0; i <= test_case.linked_modules.size(); ++i) {
    auto one = TranslateToSpir(
        i == 0 ? test_case.module_words : test_case.linked_modules[i - 1],
        spir_options);
    if (!one.ok()) return one.status();
    if (i > 0 && one->status != ExecutionStatus::kOk)
      one->message =
          absl::StrCat(spirv::LinkedModuleFile(i - 1), ": ", one->message);
    spir.push_back(*std::move(one));
  }

  WorkerInput input{launches, &options, &spir, scratch->path()};
  ChildLimits limits;
  limits.wall_time = options.time_limit;
  limits.memory_bytes = options.memory_limit_bytes;
  limits.max_output_bytes = size_t{256} << 20;  // buffers travel as base64
  std::optional<absl::StatusOr<ChildResult>> child;
  if (warm != nullptr) {
    // Forked from the warm server (the ICD loaded already); a server that
    // cannot serve is retired and this batch runs cold.
    if (ForkServer* server = warm->Server(options.memory_limit_bytes)) {
      child = server->Run(WorkerRequest(input), limits);
      if (!child->ok()) {
        warm->Retire();
        child.reset();
      }
    }
  }
  if (!child) child = RunInChild([&input] { return Worker(input); }, limits);
  if (!child->ok()) return child->status();

  return ExecutionsFromWorkerReply(**child, "OpenCL worker", kResultMarker,
                                   launches.size());
}

}  // namespace l0spv::oracles
