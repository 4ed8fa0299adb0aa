#include "oracles/targets/target_registry.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/consumer_probe.h"
#include "oracles/targets/target_name.h"

namespace l0spv::oracles {
namespace {

const std::vector<std::string> kKinds = {
    "ref",       "gpu",        "opencl",     "ocloc",     "oclgrind",
    "spirv-opt", "llvm-spirv", "spirv-link", "spirv-fuzz"};

std::string ToolConsumer(const ToolProbe& tool) {
  if (!tool.path) return "";
  return tool.version.empty()
             ? *tool.path
             : absl::StrCat(*tool.path, " (", tool.version, ")");
}

std::string NotInstalled(const std::string& tool) {
  return absl::StrCat(tool, " is not installed (run ci/install-deps.sh)");
}

// A target that only needs one executable.
TargetInfo ToolTarget(const std::string& name, const ToolProbe& tool) {
  TargetInfo t{name, tool.path.has_value() && tool.broken.empty(),
               ToolConsumer(tool), ""};
  if (tool.path) t.program = *tool.path;
  if (!tool.path) t.reason = NotInstalled(tool.name);
  if (tool.path && !tool.broken.empty())
    t.reason = absl::StrCat(*tool.path, " does not work: ", tool.broken);
  return t;
}

TargetInfo RefInfo() {
  return {"ref", true,
          "l0spv reference interpreter (built in; runs in a worker process)",
          ""};
}

TargetInfo GpuInfo() {
  const LevelZeroProbe ze = ProbeLevelZero();
  TargetInfo gpu{"gpu", false, "", ""};
  if (ze.devices.empty()) {
    gpu.reason = ze.error.empty() ? "no Level Zero device" : ze.error;
  } else {
    std::vector<std::string> names;
    for (const auto& d : ze.devices) names.push_back(d.name);
    gpu.consumer = absl::StrCat("Level Zero: ", absl::StrJoin(names, ", "));
    gpu.available = true;
  }
  return gpu;
}

std::string PlatformConsumer(const OpenClPlatform& p) {
  std::vector<std::string> devices;
  for (const OpenClDevice& d : p.devices) {
    devices.push_back(absl::StrCat(d.name,
                                   d.il_version.empty()
                                       ? " [no IL: SPIR path"
                                       : absl::StrCat(" [IL ", d.il_version),
                                   d.images ? "; images]" : "; no images]"));
  }
  return absl::StrCat(
      p.version, ": ",
      devices.empty() ? "no devices" : absl::StrJoin(devices, ", "));
}

// `opencl` (any platform) or `opencl:WANTED` (first platform whose name
// contains WANTED, case-insensitive — the rule RunOnOpenCl applies).
TargetInfo OpenClInfo(const std::string& wanted, const OpenClProbe& cl) {
  const std::string name =
      wanted.empty() ? "opencl" : absl::StrCat("opencl:", wanted);
  TargetInfo t{name, false, "", ""};
  std::vector<std::string> names;
  for (const OpenClPlatform& p : cl.platforms) {
    names.push_back(p.name);
    if (!wanted.empty() && !absl::StrContains(absl::AsciiStrToLower(p.name),
                                              absl::AsciiStrToLower(wanted)))
      continue;
    if (p.devices.empty()) continue;
    t.available = true;
    t.consumer = absl::StrCat(p.name, " ", PlatformConsumer(p));
    return t;
  }
  if (cl.platforms.empty()) {
    t.reason = cl.error.empty() ? "no OpenCL platform (install an ICD such as "
                                  "pocl-opencl-icd)"
                                : cl.error;
  } else if (wanted.empty()) {
    t.reason = "no OpenCL platform reports a device";
  } else {
    t.unknown_name = true;
    t.reason =
        absl::StrCat("no OpenCL platform with a device matches \"", wanted,
                     "\"; platforms: \"", absl::StrJoin(names, "\", \""), "\"");
  }
  return t;
}

TargetInfo OclocInfo(const std::string& device, const ToolProbe& ocloc) {
  TargetInfo t = ToolTarget(absl::StrCat("ocloc:", device), ocloc);
  if (!t.available) return t;
  if (!OclocKnowsDevice(*ocloc.path, device)) {
    t.available = false;
    t.unknown_name = true;
    const std::vector<std::string> known = OclocDeviceNames(*ocloc.path);
    t.reason = absl::StrCat("ocloc does not know device \"", device,
                            "\"; devices: ", absl::StrJoin(known, ", "));
  }
  return t;
}

TargetInfo OclgrindInfo() {
  TargetInfo t = ToolTarget("oclgrind", ProbeTool("oclgrind"));
  if (!t.available) return t;
  if (auto icd = FindOclgrindIcd()) {
    absl::StrAppend(&t.consumer, " through its ICD ", *icd);
    t.program = *icd;  // what the adapter loads (TargetOptions::program)
  } else {
    t.available = false;
    t.reason =
        "Oclgrind's ICD library liboclgrind-rt-icd.so was not found "
        "(apt-get install oclgrind)";
  }
  return t;
}

// spirv-fuzz: not a Debian package; its own install script.
TargetInfo SpirvFuzzInfo(const std::string& name) {
  ToolProbe probe{"spirv-fuzz", FindSpirvFuzz(), "", ""};
  if (probe.path) {
    ChildLimits limits;
    limits.wall_time = std::chrono::seconds(3);
    auto r = RunCommand({*probe.path, "--version"}, limits);
    if (!r.ok() || r->ending != ChildResult::Ending::kExited) {
      probe.broken = r.ok() ? r->Describe() : std::string(r.status().message());
    } else {
      probe.version = std::string(absl::StripAsciiWhitespace(
          r->stdout_text.substr(0, r->stdout_text.find('\n'))));
    }
  }
  TargetInfo t = ToolTarget(name, probe);
  if (!probe.path) t.reason = kSpirvFuzzInstallHint;
  return t;
}

}  // namespace

bool IsTargetKind(const std::string& kind) {
  for (const std::string& k : kKinds)
    if (k == kind) return true;
  return false;
}

const std::vector<std::string>& DefaultOclocDevices() {
  static const auto* devices =
      new std::vector<std::string>{"tgllp", "dg2", "pvc"};
  return *devices;
}

std::vector<TargetInfo> ListTargets() {
  std::vector<TargetInfo> out;
  out.push_back(RefInfo());
  out.push_back(GpuInfo());

  const OpenClProbe cl = ProbeOpenCl();
  if (cl.platforms.empty()) out.push_back(OpenClInfo("", cl));
  for (const OpenClPlatform& p : cl.platforms) {
    TargetInfo t{absl::StrCat("opencl:", p.name), !p.devices.empty(),
                 PlatformConsumer(p), ""};
    if (!t.available) t.reason = "platform reports no device";
    out.push_back(t);
  }

  const ToolProbe ocloc = ProbeTool("ocloc");
  for (const std::string& device : DefaultOclocDevices())
    out.push_back(OclocInfo(device, ocloc));
  out.push_back(OclgrindInfo());
  out.push_back(ToolTarget("spirv-opt", ProbeTool("spirv-opt")));
  out.push_back(ToolTarget("llvm-spirv", ProbeTool("llvm-spirv")));
  out.push_back(ToolTarget("spirv-link", ProbeTool("spirv-link")));
  out.push_back(SpirvFuzzInfo("spirv-fuzz"));
  return out;
}

absl::StatusOr<TargetInfo> DescribeTarget(const std::string& name) {
  const TargetName parsed = ParseTargetName(name);
  const std::string& kind = parsed.kind;
  const std::string& param = parsed.param;
  const bool has_param = parsed.has_param;
  auto no_param = [&]() -> absl::Status {
    if (!has_param) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        "target '", kind, "' takes no ':' parameter (got '", name, "')"));
  };
  if (kind == "ref") {
    if (auto s = no_param(); !s.ok()) return s;
    return RefInfo();
  }
  if (kind == "gpu") {
    // gpu:DEVICE selects one device (name substring); the adapter checks it.
    if (has_param && param.empty()) {
      return absl::InvalidArgumentError(
          "target 'gpu:' needs a device name after the colon, or none");
    }
    TargetInfo gpu = GpuInfo();
    gpu.name = name;
    return gpu;
  }
  if (kind == "opencl") {
    if (has_param && param.empty()) {
      return absl::InvalidArgumentError(
          "target 'opencl:' needs a platform name after the colon, or none "
          "at all (opencl)");
    }
    return OpenClInfo(param, ProbeOpenCl());
  }
  if (kind == "ocloc") {
    if (param.empty()) {
      return absl::InvalidArgumentError(
          "target 'ocloc' needs a device, e.g. ocloc:tgllp (several: "
          "ocloc:tgllp,dg2,pvc)");
    }
    return OclocInfo(param, ProbeTool("ocloc"));
  }
  if (kind == "oclgrind") {
    if (auto s = no_param(); !s.ok()) return s;
    return OclgrindInfo();
  }
  if (kind == "spirv-opt") {
    TargetInfo t = ToolTarget(name, ProbeTool("spirv-opt"));
    return t;
  }
  if (kind == "spirv-fuzz")
    return SpirvFuzzInfo(name);  // the adapter
                                 // checks SEED
  if (kind == "llvm-spirv" || kind == "spirv-link") {
    if (auto s = no_param(); !s.ok()) return s;
    return ToolTarget(name, ProbeTool(kind));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown target '", name, "'; known kinds: ", absl::StrJoin(kKinds, ", "),
      " (see `l0spv-fuzz targets` for what this machine has)"));
}

absl::Status UnavailableStatus(const TargetInfo& info) {
  const std::string text = absl::StrCat(info.name, ": ", info.reason);
  return info.unknown_name ? absl::NotFoundError(text)
                           : absl::FailedPreconditionError(text);
}

absl::StatusOr<std::vector<std::string>> ParseTargetList(
    const std::string& list) {
  std::vector<std::string> out;
  std::string open_kind;  // "ocloc" / "spirv-opt" while bare words extend it
  for (absl::string_view item : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    const std::string entry(absl::StripAsciiWhitespace(item));
    if (entry.empty()) continue;
    const TargetName parsed = ParseTargetName(entry);
    const std::string& kind = parsed.kind;
    if (IsTargetKind(kind)) {
      open_kind = parsed.has_param ? kind : "";
      if (kind == "ocloc" && entry == "ocloc") {
        return absl::InvalidArgumentError(
            "target 'ocloc' needs a device, e.g. ocloc:tgllp (several: "
            "ocloc:tgllp,dg2,pvc)");
      }
      out.push_back(entry);
    } else if (open_kind == "ocloc" && !parsed.has_param) {
      out.push_back(absl::StrCat("ocloc:", entry));
    } else if (open_kind == "spirv-opt" && !parsed.has_param) {
      absl::StrAppend(&out.back(), ",", entry);
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
