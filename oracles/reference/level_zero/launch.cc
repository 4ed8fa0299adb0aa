#include "oracles/reference/level_zero/launch.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"
#include "oracles/execution.h"
#include "oracles/reference/interpreter.h"
#include "oracles/reference/level_zero/memory_registry.h"
#include "spirv/test_case.h"
#include "spirv/text_bytes.h"

namespace l0spv::zeref {
namespace {

using oracles::Execution;
using oracles::ExecutionStatus;

constexpr size_t kMaxReports = 1024;

struct ReportLog {
  std::mutex mu;
  std::deque<nlohmann::json> reports;
  uint64_t dropped = 0;
};

ReportLog& TheReports() {
  static ReportLog* log = new ReportLog;  // never destroyed (worker threads)
  return *log;
}

void Record(const KernelInfo& kernel, const Execution& e) {
  const char* status = oracles::ExecutionStatusName(e.status);
  if (e.status != ExecutionStatus::kOk) {
    std::fprintf(stderr, "l0spv reference device: kernel %s: %s: %s\n",
                 kernel.name.c_str(), status, e.message.c_str());
  }
  if (!e.printf_output.empty()) {
    const char* where = std::getenv("L0SPV_REFERENCE_PRINTF");
    const std::string mode = where ? where : "stderr";
    if (mode != "off") {
      FILE* out = mode == "stdout" ? stdout : stderr;
      std::fwrite(e.printf_output.data(), 1, e.printf_output.size(), out);
      std::fflush(out);
    }
  }
  nlohmann::json r = {{"kernel", kernel.name},
                      {"status", status},
                      {"message", e.message},
                      {"printf", e.printf_output},
                      {"instructions", e.instructions_executed}};
  ReportLog& log = TheReports();
  std::lock_guard<std::mutex> lock(log.mu);
  if (log.reports.size() == kMaxReports) {
    log.reports.pop_front();
    ++log.dropped;
  }
  log.reports.push_back(std::move(r));
}

ze_result_t ResultOf(ExecutionStatus status) {
  switch (status) {
    case ExecutionStatus::kOk:
      return ZE_RESULT_SUCCESS;
    case ExecutionStatus::kUnsupported:
      return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    case ExecutionStatus::kBuildFailed:
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    case ExecutionStatus::kUbDetected:
    case ExecutionStatus::kTimedOut:
    case ExecutionStatus::kCrashed:
      return ZE_RESULT_ERROR_DEVICE_LOST;
  }
  return ZE_RESULT_ERROR_UNKNOWN;
}

ze_result_t Finish(const KernelInfo& kernel, const Execution& e) {
  Record(kernel, e);
  return ResultOf(e.status);
}

Execution Unsupported(std::string message) {
  Execution e;
  e.status = ExecutionStatus::kUnsupported;
  e.message = std::move(message);
  return e;
}

// Where each buffer argument's bytes come from.
struct BufferSource {
  size_t arg = 0;
  uint8_t* data = nullptr;
  size_t size = 0;
};

// Where each image argument's texels come from.
struct ImageSource {
  size_t arg = 0;
  Image* image = nullptr;
  bool writes = false;  // not read_only: texels are written back
};

uint64_t StepBudget() {
  uint64_t budget = oracles::reference::ReferenceOptions().step_budget;
  if (const char* env = std::getenv("L0SPV_REFERENCE_STEP_BUDGET")) {
    uint64_t v = 0;
    if (absl::SimpleAtoi(env, &v) && v > 0) budget = v;
  }
  return budget;
}

}  // namespace

ze_result_t ExecuteLaunch(const LaunchParams& p) {
  const KernelInfo& kernel = *p.info;
  for (int d = 0; d < 3; ++d)
    if (p.group_count[d] == 0) return ZE_RESULT_SUCCESS;  // empty dispatch

  spirv::TestCase tc;
  tc.module_words = p.built->words;
  tc.entry_point = kernel.name;
  spirv::NdRange& range = tc.nd_range;
  // Level Zero has no work dimension; like Intel's driver, the highest
  // dimension with more than one work-item (or an offset) decides.
  range.dims = 1;
  for (uint32_t d = 1; d < 3; ++d) {
    if (uint64_t{p.group_count[d]} * p.group_size[d] > 1 ||
        p.global_offset[d] != 0)
      range.dims = d + 1;
  }
  std::array<uint64_t, 3> local{};
  for (int d = 0; d < 3; ++d) {
    range.global[d] = uint64_t{p.group_count[d]} * p.group_size[d];
    local[d] = p.group_size[d];
    range.offset[d] = p.global_offset[d];
  }
  range.local = local;

  std::vector<BufferSource> sources;
  std::vector<ImageSource> images;
  for (size_t i = 0; i < kernel.args.size(); ++i) {
    const KernelArgInfo& info = kernel.args[i];
    const BoundArg& bound = p.args[i];
    spirv::KernelArg arg;
    switch (info.kind) {
      case KernelArgInfo::Kind::kBuffer: {
        arg.kind = spirv::KernelArg::Kind::kBuffer;
        arg.is_result = true;
        if (info.pointee_holds_pointer) {
          return Finish(kernel,
                        Unsupported(absl::StrCat(
                            "argument ", i,
                            " points to data containing pointers; the l0spv "
                            "reference device passes buffers by value and "
                            "cannot follow pointers stored inside them")));
        }
        if (bound.pointer == 0) break;  // null: an empty buffer
        const void* ptr = reinterpret_cast<const void*>(bound.pointer);
        const auto alloc = TheMemory().Find(ptr);
        if (!alloc) {
          return Finish(kernel,
                        Unsupported(absl::StrFormat(
                            "argument %d: 0x%x is not memory allocated by the "
                            "l0spv reference device (zeMemAlloc*); system "
                            "allocations are not supported",
                            i, bound.pointer)));
        }
        BufferSource s;
        s.arg = i;
        s.data = reinterpret_cast<uint8_t*>(bound.pointer);
        s.size = alloc->base + alloc->size - bound.pointer;
        for (const BufferSource& o : sources) {
          if (s.data < o.data + o.size && o.data < s.data + s.size) {
            return Finish(
                kernel,
                Unsupported(absl::StrCat(
                    "arguments ", o.arg, " and ", i,
                    " overlap in memory; the l0spv reference device passes "
                    "buffers by value, so aliasing arguments are not "
                    "supported")));
          }
        }
        arg.bytes.assign(s.data, s.data + s.size);
        sources.push_back(s);
        break;
      }
      case KernelArgInfo::Kind::kLocal:
        arg.kind = spirv::KernelArg::Kind::kLocal;
        arg.local_bytes = bound.local_bytes;
        break;
      case KernelArgInfo::Kind::kValue:
        arg.kind = spirv::KernelArg::Kind::kScalar;
        arg.bytes = bound.value;
        break;
      case KernelArgInfo::Kind::kImage: {
        // Texels travel by value like buffers: copied in now, written back
        // after the run.
        arg.kind = spirv::KernelArg::Kind::kImage;
        arg.image = bound.image->desc;
        arg.image.access = info.image_access;
        arg.is_result = info.image_access != spirv::ImageAccess::kReadOnly;
        for (const ImageSource& o : images) {
          if (o.image == bound.image && (o.writes || arg.is_result)) {
            return Finish(
                kernel,
                Unsupported(absl::StrCat(
                    "arguments ", o.arg, " and ", i,
                    " are the same image and one of them is written; the "
                    "l0spv reference device passes images by value")));
          }
        }
        arg.bytes = bound.image->texels;
        images.push_back({i, bound.image, arg.is_result});
        break;
      }
      case KernelArgInfo::Kind::kSampler:
        arg.kind = spirv::KernelArg::Kind::kSampler;
        arg.sampler = bound.sampler;
        break;
    }
    tc.args.push_back(std::move(arg));
  }

  oracles::reference::ReferenceOptions options;
  options.subgroup_size =
      kernel.required_subgroup_size ? kernel.required_subgroup_size : 8;
  options.flush_denormals = p.built->flush_denormals;
  options.step_budget = StepBudget();
  const Execution e = oracles::reference::RunReference(tc, options);
  for (const BufferSource& s : sources) {
    if (s.arg < e.buffers.size() && e.buffers[s.arg].size() == s.size)
      std::memcpy(s.data, e.buffers[s.arg].data(), s.size);
  }
  for (const ImageSource& s : images) {
    if (s.writes && s.arg < e.buffers.size() &&
        e.buffers[s.arg].size() == s.image->texels.size())
      s.image->texels = e.buffers[s.arg];
  }
  return Finish(kernel, e);
}

ze_result_t ZE_APICALL TakeLaunchReports(size_t* size, char* text) {
  if (size == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  ReportLog& log = TheReports();
  std::lock_guard<std::mutex> lock(log.mu);
  nlohmann::json j = {{"dropped", log.dropped},
                      {"reports", nlohmann::json::array()}};
  for (const nlohmann::json& r : log.reports) j["reports"].push_back(r);
  // Invalid UTF-8 in printf output must not throw.
  const std::string dump = spirv::DumpJson(j);
  const size_t needed = dump.size() + 1;
  if (text == nullptr) {
    *size = needed;
    return ZE_RESULT_SUCCESS;
  }
  if (*size < needed) {
    *size = needed;
    return ZE_RESULT_ERROR_INVALID_SIZE;
  }
  std::memcpy(text, dump.c_str(), needed);
  *size = needed;
  log.reports.clear();
  log.dropped = 0;
  return ZE_RESULT_SUCCESS;
}

}  // namespace l0spv::zeref
