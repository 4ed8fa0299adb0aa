#include "oracles/targets/target_registry.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oracles/targets/consumer_probe.h"

namespace l0spv::oracles {
namespace {

// Adapters for real consumers land with the targets/campaign work (issue 5).
// Until an adapter exists its target is reported unsupported even when the
// consumer is installed, so nothing ever pretends to run.
constexpr const char* kNoAdapter =
    "consumer found, but its target adapter is not implemented yet (issue 5)";

const std::vector<std::string> kKinds = {
    "ref", "gpu", "opencl", "ocloc", "oclgrind", "spirv-opt", "llvm-spirv"};

std::string ToolConsumer(const ToolProbe& tool) {
  if (!tool.path) return "";
  return tool.version.empty()
             ? *tool.path
             : absl::StrCat(*tool.path, " (", tool.version, ")");
}

TargetInfo ToolTarget(const std::string& name, const ToolProbe& tool) {
  TargetInfo t{name, false, ToolConsumer(tool), ""};
  t.reason = tool.path ? kNoAdapter
                       : absl::StrCat(tool.name,
                                      " is not installed (run "
                                      "ci/install-deps.sh)");
  return t;
}

}  // namespace

const std::vector<std::string>& DefaultOclocDevices() {
  static const auto* devices =
      new std::vector<std::string>{"tgllp", "dg2", "pvc"};
  return *devices;
}

std::vector<TargetInfo> ListTargets() {
  std::vector<TargetInfo> out;
  out.push_back({"ref", true,
                 "l0spv reference interpreter (built in; runs in a worker "
                 "process)",
                 ""});

  const LevelZeroProbe ze = ProbeLevelZero();
  TargetInfo gpu{"gpu", false, "", ""};
  if (ze.devices.empty()) {
    gpu.reason = ze.error.empty() ? "no Level Zero device" : ze.error;
  } else {
    std::vector<std::string> names;
    for (const auto& d : ze.devices) names.push_back(d.name);
    gpu.consumer = absl::StrCat("Level Zero: ", absl::StrJoin(names, ", "));
    gpu.reason = kNoAdapter;
  }
  out.push_back(gpu);

  const OpenClProbe cl = ProbeOpenCl();
  if (cl.platforms.empty()) {
    out.push_back({"opencl", false, "",
                   cl.error.empty() ? "no OpenCL platform" : cl.error});
  }
  for (const OpenClPlatform& p : cl.platforms) {
    std::vector<std::string> devices;
    for (const OpenClDevice& d : p.devices) {
      devices.push_back(
          absl::StrCat(d.name, d.il_version.empty()
                                   ? " [no IL: SPIR path]"
                                   : absl::StrCat(" [IL ", d.il_version, "]")));
    }
    TargetInfo t{absl::StrCat("opencl:", p.name), false,
                 absl::StrCat(p.version, ": ",
                              devices.empty() ? "no devices"
                                              : absl::StrJoin(devices, ", ")),
                 ""};
    t.available = !devices.empty();
    if (!t.available) t.reason = "platform reports no device";
    out.push_back(t);
  }

  const ToolProbe ocloc = ProbeTool("ocloc");
  for (const std::string& device : DefaultOclocDevices())
    out.push_back(ToolTarget(absl::StrCat("ocloc:", device), ocloc));
  out.push_back(ToolTarget("oclgrind", ProbeTool("oclgrind")));
  out.push_back(ToolTarget("spirv-opt", ProbeTool("spirv-opt")));
  out.push_back(ToolTarget("llvm-spirv", ProbeTool("llvm-spirv")));
  return out;
}

absl::StatusOr<std::vector<std::string>> ParseTargetList(
    const std::string& list) {
  std::vector<std::string> out;
  bool after_ocloc = false;
  for (absl::string_view item : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    const std::string entry(item);
    const std::string kind = entry.substr(0, entry.find(':'));
    bool known = false;
    for (const std::string& k : kKinds) known |= (k == kind);
    if (known) {
      after_ocloc = kind == "ocloc";
      if (kind == "ocloc" && entry == "ocloc") {
        return absl::InvalidArgumentError(
            "target 'ocloc' needs a device, e.g. ocloc:tgllp (several: "
            "ocloc:tgllp,dg2,pvc)");
      }
      out.push_back(entry);
    } else if (after_ocloc && entry.find(':') == std::string::npos) {
      out.push_back(absl::StrCat("ocloc:", entry));
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown target '", entry,
          "'; known kinds: ", absl::StrJoin(kKinds, ", "),
          " (see `l0spv-fuzz targets` for what this machine has)"));
    }
  }
  if (out.empty()) {
    return absl::InvalidArgumentError("empty --target list");
  }
  return out;
}

}  // namespace l0spv::oracles
