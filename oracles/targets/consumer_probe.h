// oracles/targets/consumer_probe.h — what real SPIR-V consumers this machine
// has: Level Zero drivers/devices, OpenCL platforms/devices, and the tools
// (ocloc, oclgrind, llvm-spirv, spirv-opt).
//
// Contract: every probe that loads a driver runs in a child process with a
// time limit (a broken ICD or the Level Zero loader's known segfault after a
// failed zeInit cannot take the caller down), and never calls into the loader
// after a failed zeInit. Probes return facts; deciding what is a usable
// target is target_registry's job.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace l0spv::oracles {

struct LevelZeroDevice {
  std::string name;
  uint32_t spirv_version = 0;  // header version word, e.g. 0x00010200
  bool fp16 = false, fp64 = false, int64_atomics = false;
};

struct LevelZeroProbe {
  bool loader_present = false;
  bool initialized = false;
  std::string error;  // why there is no usable driver/device
  std::vector<LevelZeroDevice> devices;
};

struct OpenClDevice {
  std::string name;
  std::string version;
  std::string il_version;  // empty: no IL (SPIR-V) support
  bool images = false;     // CL_DEVICE_IMAGE_SUPPORT
};

struct OpenClPlatform {
  std::string name;
  std::string version;
  std::string driver_version;  // CL_DRIVER_VERSION of its first device
  std::vector<OpenClDevice> devices;
};

struct OpenClProbe {
  std::string error;  // set when the ICD loader itself failed
  std::vector<OpenClPlatform> platforms;
};

// spirv-fuzz: Debian ships none; ci/install-spirv-fuzz.sh builds one.
// FindSpirvFuzz looks at $L0SPV_SPIRV_FUZZ (a path: used when executable,
// else nothing is found), then ${L0SPV_SPIRV_FUZZ_DIR:-${XDG_CACHE_HOME:-
// ~/.cache}/l0spv-fuzz/spirv-fuzz}/bin/spirv-fuzz, then PATH.
inline constexpr char kSpirvFuzzInstallHint[] =
    "spirv-fuzz is not installed: Debian does not ship it; build it with "
    "ci/install-spirv-fuzz.sh (about 15 minutes on 2 cores, once), or point "
    "L0SPV_SPIRV_FUZZ at a spirv-fuzz executable";

std::optional<std::string> FindSpirvFuzz();

struct ToolProbe {
  std::string name;
  std::optional<std::string> path;  // nullopt: not installed
  std::string version;
  // Non-empty: installed but unusable (its --version hung or crashed);
  // the target is then unavailable with this reason.
  std::string broken;
};

LevelZeroProbe ProbeLevelZero();
// `environment` ("NAME=VALUE") is set in the probe's child before the ICD
// loader runs: OCL_ICD_VENDORS=DIR lists only the ICDs in DIR (a runtime from
// PyPI, releases.h). A probe with an environment is answered once per
// process; the machine's own ICDs are probed on every call.
OpenClProbe ProbeOpenCl(const std::vector<std::string>& environment = {});
// "ocloc", "oclgrind", "llvm-spirv" (tries llvm-spirv-14/-15/plain),
// "spirv-opt", "spirv-val", "spirv-reduce".
ToolProbe ProbeTool(const std::string& name);

// The device names `ocloc compile --help` lists (current and deprecated
// notations, e.g. "tgllp", "acm-g10", "dg2"); empty when ocloc cannot say.
std::vector<std::string> OclocDeviceNames(const std::string& ocloc_path);
// Whether ocloc accepts DEVICE: a listed name, or anything `ocloc ids`
// matches (hexadecimal device ids, versions, families).
bool OclocKnowsDevice(const std::string& ocloc_path, const std::string& device);

// Oclgrind's OpenCL ICD library (liboclgrind-rt-icd.so): beside the
// `oclgrind` executable's lib directory or in the usual library dirs.
std::optional<std::string> FindOclgrindIcd();

}  // namespace l0spv::oracles
