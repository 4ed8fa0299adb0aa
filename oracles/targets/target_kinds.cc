#include "oracles/targets/target_kinds.h"

#include <limits>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracles/known_bugs/registry.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/consumer_probe.h"
#include "oracles/targets/level_zero_adapter.h"
#include "oracles/targets/llvm_spirv_adapter.h"
#include "oracles/targets/oclgrind_adapter.h"
#include "oracles/targets/ocloc_adapter.h"
#include "oracles/targets/opencl_adapter.h"
#include "oracles/targets/ref_adapter.h"
#include "oracles/targets/spirv_fuzz_adapter.h"
#include "oracles/targets/spirv_link_adapter.h"
#include "oracles/targets/spirv_opt_adapter.h"
#include "oracles/validity/device_profile.h"

namespace l0spv::oracles {
namespace {

using Param = TargetKindSpec::Param;

std::string NotInstalled(const std::string& tool) {
  return absl::StrCat(tool, " is not installed (run ci/install-deps.sh)");
}

std::string ToolConsumer(const ToolProbe& tool) {
  if (!tool.path) return "";
  return tool.version.empty()
             ? *tool.path
             : absl::StrCat(*tool.path, " (", tool.version, ")");
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

// A tool with several releases side by side (releases.h): the one the
// name's '@' picks, the newest without one.
TargetInfo ReleaseTarget(const TargetName& name, const std::string& tool) {
  TargetInfo t{name.full, false, "", ""};
  t.in_default = !name.has_release;
  auto release = PickRelease(tool, name.release);
  if (!release.ok()) {
    t.reason = std::string(release.status().message());
    t.unknown_name = absl::IsNotFound(release.status());
    return t;
  }
  t.available = true;
  t.program = release->program;
  t.release = release->tag;
  t.environment = release->environment;
  t.consumer = release->Describe(tool);
  return t;
}

std::vector<TargetInfo> ReleaseRows(const std::string& kind,
                                    const std::string& tool) {
  std::vector<TargetInfo> out;
  const TargetName bare = ParseTargetName(kind);
  out.push_back(ReleaseTarget(bare, tool));
  const std::vector<ConsumerRelease> all = InstalledReleases(tool);
  if (all.size() < 2) return out;
  for (const ConsumerRelease& r : all)
    out.push_back(
        ReleaseTarget(ParseTargetName(absl::StrCat(kind, "@", r.tag)), tool));
  return out;
}

// ---- ref ------------------------------------------------------------------

TargetInfo RefInfo() {
  return {"ref", true,
          "l0spv reference interpreter (built in; runs in a worker process)",
          ""};
}

// ---- gpu ------------------------------------------------------------------

TargetInfo GpuInfo(const std::string& name) {
  const LevelZeroProbe ze = ProbeLevelZero();
  TargetInfo gpu{name, false, "", ""};
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

// ---- opencl ---------------------------------------------------------------

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
      p.version, p.driver_version.empty() ? "" : ", driver ", p.driver_version,
      ": ", devices.empty() ? "no devices" : absl::StrJoin(devices, ", "));
}

bool NameMatches(const std::string& platform, const std::string& wanted) {
  return wanted.empty() || absl::StrContains(absl::AsciiStrToLower(platform),
                                             absl::AsciiStrToLower(wanted));
}

// `opencl` (any platform of the machine's ICDs) or `opencl:WANTED` (the
// first platform whose name contains WANTED, case-insensitive — the rule
// RunOnOpenCl applies) in one probe.
TargetInfo OpenClInfo(const std::string& name, const std::string& wanted,
                      const OpenClProbe& cl) {
  TargetInfo t{name, false, "", ""};
  std::vector<std::string> names;
  for (const OpenClPlatform& p : cl.platforms) {
    names.push_back(p.name);
    if (!NameMatches(p.name, wanted) || p.devices.empty()) continue;
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

// An OpenCL runtime from PyPI (Intel's CPU runtime): probed alone, through
// a vendors directory holding only its .icd.
TargetInfo OpenClReleaseInfo(const std::string& name, const std::string& wanted,
                             const ConsumerRelease& release) {
  TargetInfo t = OpenClInfo(name, wanted, ProbeOpenCl(release.environment));
  t.release = release.tag;
  t.environment = release.environment;
  t.program = release.program;
  if (t.available) {
    absl::StrAppend(&t.consumer, " (PyPI ", release.package, " ",
                    release.version, ": ", release.program, ")");
  }
  return t;
}

absl::StatusOr<TargetInfo> DescribeOpenCl(const TargetName& name) {
  if (name.has_release) {
    auto release = PickRelease("intel-cpu", name.release);
    if (!release.ok()) {
      TargetInfo t{name.full, false, "",
                   std::string(release.status().message())};
      t.unknown_name = absl::IsNotFound(release.status());
      t.in_default = false;
      return t;
    }
    TargetInfo t = OpenClReleaseInfo(name.full, name.param, *release);
    t.in_default = false;
    return t;
  }
  TargetInfo system = OpenClInfo(name.full, name.param, ProbeOpenCl());
  if (system.available || name.param.empty()) return system;
  // Not among the machine's ICDs: the newest runtime from PyPI that has it.
  const std::vector<ConsumerRelease> all = InstalledReleases("intel-cpu");
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    TargetInfo t = OpenClReleaseInfo(name.full, name.param, *it);
    if (t.available) return t;
  }
  if (all.empty() &&
      absl::StrContains(absl::AsciiStrToLower(name.param), "intel")) {
    absl::StrAppend(&system.reason,
                    "; Intel's OpenCL CPU runtime is not installed (",
                    kInstallConsumersHint, ")");
  }
  return system;
}

std::vector<TargetInfo> ListOpenCl() {
  std::vector<TargetInfo> out;
  const OpenClProbe cl = ProbeOpenCl();
  if (cl.platforms.empty()) out.push_back(OpenClInfo("opencl", "", cl));
  for (const OpenClPlatform& p : cl.platforms) {
    TargetInfo t{absl::StrCat("opencl:", p.name), !p.devices.empty(),
                 PlatformConsumer(p), ""};
    if (!t.available) t.reason = "platform reports no device";
    out.push_back(t);
  }
  const std::vector<ConsumerRelease> intel = InstalledReleases("intel-cpu");
  if (intel.empty()) {
    TargetInfo t{"opencl:Intel(R) OpenCL", false, "",
                 absl::StrCat("Intel's OpenCL CPU runtime is not installed (",
                              kInstallConsumersHint, ")")};
    out.push_back(t);
  }
  for (size_t i = 0; i < intel.size(); ++i) {
    const ConsumerRelease& r = intel[i];
    const bool newest = i + 1 == intel.size();
    // The newest under its platform name alone, every release with '@'.
    for (bool tagged : {false, true}) {
      if (!tagged && !newest) continue;
      const std::string name =
          absl::StrCat("opencl:Intel(R) OpenCL", tagged ? "@" + r.tag : "");
      TargetInfo t = OpenClReleaseInfo(name, "Intel", r);
      t.in_default = !tagged;
      if (tagged && intel.size() < 2) continue;
      out.push_back(t);
    }
  }
  return out;
}

uint32_t OpenClConsumers(const TargetName& name) {
  const std::string p = absl::AsciiStrToLower(name.param);
  if (name.has_release) return kConsumerIntelCpu;
  if (absl::StrContains(p, "intel") && absl::StrContains(p, "graphics"))
    return kConsumerIgc;
  if (absl::StrContains(p, "intel")) return kConsumerIntelCpu;
  return kConsumerPocl | kConsumerLlvmSpirv;
}

// ---- ocloc ----------------------------------------------------------------

const std::vector<std::string>& OclocDevices() { return DefaultOclocDevices(); }

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

// ---- oclgrind -------------------------------------------------------------

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

// ---- spirv-fuzz -----------------------------------------------------------

// Not a Debian package; its own install script.
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
  t.in_default = false;
  return t;
}

template <uint32_t kBits>
uint32_t Fixed(const TargetName&) {
  return kBits;
}

// The table. Order = the order `l0spv-fuzz targets` lists them in.
const std::vector<TargetKindSpec>& Table() {
  static const auto* table = new std::vector<TargetKindSpec>{
      {.kind = "ref",
       .in_default_campaign = false,
       .consumers = Fixed<0>,
       .describe = [](const TargetName&) -> absl::StatusOr<TargetInfo> {
         return RefInfo();
       },
       .list = [] { return std::vector<TargetInfo>{RefInfo()}; },
       .make = [](const TargetName&, const TargetOptions& o)
           -> absl::StatusOr<std::unique_ptr<Target>> {
         return MakeRefTarget(o);
       }},
      {.kind = "gpu",
       .param = Param::kOptional,
       .example = "gpu:DEVICE (a Level Zero device name)",
       .newest_spirv = 0x00010400,  // IGC
       .param_names_profile = true,
       .consumers = Fixed<kConsumerIgc>,
       .describe = [](const TargetName& n) -> absl::StatusOr<TargetInfo> {
         return GpuInfo(n.full);
       },
       .list = [] { return std::vector<TargetInfo>{GpuInfo("gpu")}; },
       .make =
           [](const TargetName& n, const TargetOptions& o) {
             return MakeLevelZeroTarget(n.param, o);
           }},
      {.kind = "opencl",
       .param = Param::kOptional,
       .example = "opencl:PLATFORM (a platform name, e.g. opencl:Portable)",
       .releases = "intel-cpu",
       .release_family = kConsumerIntelCpu,
       .newest_spirv = 0x00010400,  // llvm-spirv 14's SPIR path; Intel: 1.4
       .default_batch = 16,
       .consumers = OpenClConsumers,
       .describe = DescribeOpenCl,
       .list = ListOpenCl,
       .make = MakeOpenClTarget},
      {.kind = "ocloc",
       .param = Param::kRequired,
       .example = "ocloc:tgllp (several: ocloc:tgllp,dg2,pvc)",
       .newest_spirv = 0x00010400,
       .param_names_profile = true,
       .default_batch = 16,
       .consumers = Fixed<kConsumerIgc>,
       .describe = [](const TargetName& n) -> absl::StatusOr<TargetInfo> {
         return OclocInfo(n.param, ProbeTool("ocloc"));
       },
       .list =
           [] {
             std::vector<TargetInfo> out;
             const ToolProbe ocloc = ProbeTool("ocloc");
             for (const std::string& d : OclocDevices())
               out.push_back(OclocInfo(d, ocloc));
             return out;
           },
       .make =
           [](const TargetName& n, const TargetOptions& o) {
             return MakeOclocTarget(n.param, o);
           }},
      {.kind = "oclgrind",
       .newest_spirv = 0x00010400,
       .default_batch = 16,
       .consumers = Fixed<kConsumerOclgrind | kConsumerLlvmSpirv>,
       .describe = [](const TargetName&) -> absl::StatusOr<TargetInfo> {
         return OclgrindInfo();
       },
       .list = [] { return std::vector<TargetInfo>{OclgrindInfo()}; },
       .make = [](const TargetName&,
                  const TargetOptions& o) { return MakeOclgrindTarget(o); }},
      {.kind = "spirv-opt",
       .param = Param::kOptional,
       .example = "spirv-opt:PASSES (e.g. spirv-opt:-O or spirv-opt:ccp)",
       .releases = "spirv-opt",
       .release_family = kConsumerSpirvOpt,
       .newest_spirv = 0x00010600,  // SPIRV-Tools 2023.1 and 2025.5
       .default_batch = 16,
       .consumers = Fixed<kConsumerSpirvOpt>,
       .describe = [](const TargetName& n) -> absl::StatusOr<TargetInfo> {
         return ReleaseTarget(n, "spirv-opt");
       },
       .list = [] { return ReleaseRows("spirv-opt", "spirv-opt"); },
       .make = MakeSpirvOptTarget},
      {.kind = "llvm-spirv",
       .releases = "llvm-spirv",
       .release_family = kConsumerLlvmSpirv,
       .newest_spirv = 0x00010400,
       .default_batch = 16,
       .consumers = Fixed<kConsumerLlvmSpirv>,
       .describe = [](const TargetName& n) -> absl::StatusOr<TargetInfo> {
         return ReleaseTarget(n, "llvm-spirv");
       },
       .list = [] { return ReleaseRows("llvm-spirv", "llvm-spirv"); },
       .make = MakeLlvmSpirvTarget},
      {.kind = "spirv-link",
       .releases = "spirv-link",
       .release_family = kConsumerSpirvLink,
       .newest_spirv = 0x00010600,
       .consumers = Fixed<kConsumerSpirvLink>,
       .describe = [](const TargetName& n) -> absl::StatusOr<TargetInfo> {
         return ReleaseTarget(n, "spirv-link");
       },
       .list = [] { return ReleaseRows("spirv-link", "spirv-link"); },
       .make = MakeSpirvLinkTarget},
      {.kind = "spirv-fuzz",
       .param = Param::kOptional,
       .example = "spirv-fuzz:SEED[+fixup]",
       // spirv-fuzz 2023.1 validates its input as universal 1.3
       // (hard-coded).
       .newest_spirv = 0x00010300,
       .in_default_campaign = false,
       .consumers = Fixed<kConsumerSpirvFuzz>,
       .describe = [](const TargetName& n) -> absl::StatusOr<TargetInfo> {
         return SpirvFuzzInfo(n.full);
       },
       .list =
           [] { return std::vector<TargetInfo>{SpirvFuzzInfo("spirv-fuzz")}; },
       .make =
           [](const TargetName& n, const TargetOptions& o) {
             return MakeSpirvFuzzTarget(n.param, o);
           }},
  };
  return *table;
}

}  // namespace

const std::vector<TargetKindSpec>& TargetKinds() { return Table(); }

const TargetKindSpec* FindTargetKind(std::string_view kind) {
  for (const TargetKindSpec& k : Table())
    if (k.kind == kind) return &k;
  return nullptr;
}

absl::StatusOr<const TargetKindSpec*> CheckTargetName(const TargetName& name) {
  const TargetKindSpec* spec = FindTargetKind(name.kind);
  if (spec == nullptr) {
    std::vector<std::string> kinds;
    for (const TargetKindSpec& k : Table()) kinds.emplace_back(k.kind);
    return absl::InvalidArgumentError(
        absl::StrCat("unknown target '", name.full,
                     "'; known kinds: ", absl::StrJoin(kinds, ", "),
                     " (see `l0spv-fuzz targets` for what this machine has)"));
  }
  if (spec->param == Param::kNone && name.has_param) {
    return absl::InvalidArgumentError(
        absl::StrCat("target '", name.kind, "' takes no ':' parameter (got '",
                     name.full, "')"));
  }
  if (spec->param == Param::kRequired && name.param.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("target '", name.kind,
                                                   "' needs a parameter, e.g. ",
                                                   std::string(spec->example)));
  }
  if (spec->param == Param::kOptional && name.has_param && name.param.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "target '", name.kind,
        ":' needs something after the "
        "colon, e.g. ",
        std::string(spec->example), ", or no colon at all (", name.kind, ")"));
  }
  if (name.has_release && spec->releases.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("target '", name.full, "': ", name.kind,
                     " has one release only; drop the '@", name.release, "'"));
  }
  if (name.has_release && !IsReleaseTag(name.release)) {
    return absl::InvalidArgumentError(
        absl::StrCat("target '", name.full,
                     "': '@' must be followed by a release such as ", name.kind,
                     "@2025.5 (letters, digits, '.', '-', '_'; "
                     "`l0spv-fuzz targets` lists the installed ones)"));
  }
  return spec;
}

uint32_t ConsumersOfTarget(const std::string& target) {
  const TargetName name = ParseTargetName(target);
  const TargetKindSpec* spec = FindTargetKind(name.kind);
  return spec == nullptr ? static_cast<uint32_t>(kAllConsumers)
                         : spec->consumers(name);
}

uint32_t NewestSpirvVersionOfTarget(const std::string& target) {
  const TargetKindSpec* spec = FindTargetKind(TargetKind(target));
  return spec == nullptr ? ~0u : spec->newest_spirv;
}

std::string DeviceProfileOfTarget(const std::string& target) {
  const TargetName name = ParseTargetName(target);
  const TargetKindSpec* spec = FindTargetKind(name.kind);
  if (spec == nullptr || !spec->param_names_profile || name.param.empty())
    return "";
  return FindDeviceProfile(name.param).ok() ? name.param : "";
}

std::string NarrowestProfileOf(const std::vector<std::string>& targets,
                               const std::string& fallback) {
  std::string chosen = fallback;
  int chosen_breadth = std::numeric_limits<int>::max();
  for (const std::string& t : targets) {
    const std::string name = DeviceProfileOfTarget(t);
    if (name.empty()) continue;
    auto profile = FindDeviceProfile(name);
    if (profile.ok() && profile->Breadth() < chosen_breadth) {
      chosen = name;
      chosen_breadth = profile->Breadth();
    }
  }
  return chosen;
}

uint32_t DefaultBatchSize(const std::string& target) {
  const TargetKindSpec* spec = FindTargetKind(TargetKind(target));
  return spec == nullptr ? 1 : spec->default_batch;
}

std::optional<ConsumerRelease> ReleaseOfTarget(const std::string& target) {
  const TargetName name = ParseTargetName(target);
  const TargetKindSpec* spec = FindTargetKind(name.kind);
  if (spec == nullptr || spec->releases.empty()) return std::nullopt;
  if (spec->releases == "intel-cpu" &&
      (spec->consumers(name) & kConsumerIntelCpu) == 0)
    return std::nullopt;  // the machine's own ICDs: PoCL and the like
  auto release = PickRelease(std::string(spec->releases), name.release);
  if (!release.ok()) return std::nullopt;
  return *release;
}

std::string ConsumerVersionOfTarget(const std::string& target,
                                    ConsumerBit bit) {
  const TargetName name = ParseTargetName(target);
  const TargetKindSpec* spec = FindTargetKind(name.kind);
  // Only the family the releases belong to has the release's version
  // (Oclgrind's translator is Debian's llvm-spirv-14 whatever the newest
  // `llvm-spirv` target is).
  if (spec != nullptr && spec->release_family == bit) {
    if (auto r = ReleaseOfTarget(target)) return r->version;
  }
  return ConsumerVersion(bit);
}

std::vector<KnownBugId> KnownBugsOpenOnTarget(const std::string& target) {
  std::vector<KnownBugId> open;
  const auto& registry = EmbeddedKnownBugs();
  if (!registry.ok()) return open;
  const uint32_t families = ConsumersOfTarget(target);
  std::map<ConsumerBit, std::string> versions;
  for (const ConsumerInfo& c : Consumers())
    if ((families & c.bit) != 0)
      versions[c.bit] = ConsumerVersionOfTarget(target, c.bit);
  for (size_t i = 0; i < registry->bugs.size(); ++i) {
    const KnownBug& bug = registry->bugs[i];
    for (const auto& [bit, version] : versions) {
      if (KnownBugOpenOn(bug, bit, version)) {
        open.push_back(static_cast<KnownBugId>(i));
        break;
      }
    }
  }
  return open;
}

std::string TargetAtVersion(const std::string& target,
                            const std::string& version) {
  const TargetName name = ParseTargetName(target);
  const TargetKindSpec* spec = FindTargetKind(name.kind);
  if (spec == nullptr || spec->releases.empty() || name.has_release ||
      version.empty())
    return target;
  if ((spec->consumers(name) & spec->release_family) == 0) return target;
  for (const ConsumerRelease& r :
       InstalledReleases(std::string(spec->releases))) {
    if (r.version == version || r.tag == version)
      return absl::StrCat(target, "@", r.tag);
  }
  return target;
}

std::map<std::string, std::string> ConsumerVersionsOfTarget(
    const std::string& target) {
  std::map<std::string, std::string> out;
  const uint32_t mask = ConsumersOfTarget(target);
  if (mask == kAllConsumers) return out;
  for (const ConsumerInfo& c : Consumers()) {
    if ((mask & c.bit) != 0)
      out[std::string(c.name)] = ConsumerVersionOfTarget(target, c.bit);
  }
  return out;
}

}  // namespace l0spv::oracles
