#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/consumer_probe.h"

namespace l0spv::oracles {
namespace {

// RunCommand(argv) for a probe, answered once per process: one campaign
// asks for a tool several times (its target list, MakeTarget, the known-bug
// registry's consumers), and `ocloc compile --help` costs ~40 ms a call
// (three devices, three calls). Keyed by the command and argv[0]'s size and
// modification time, so a rewritten stand-in (a test's fake tool) is
// probed again.
absl::StatusOr<ChildResult> RunProbe(const std::vector<std::string>& argv,
                                     const ChildLimits& limits) {
  struct stat st {};
  std::string key;
  if (!argv.empty() && stat(argv[0].c_str(), &st) == 0) {
    key = absl::StrCat(st.st_size, ":", st.st_mtim.tv_sec, ".",
                       st.st_mtim.tv_nsec, ":", absl::StrJoin(argv, "\n"));
  }
  static std::mutex mu;
  static auto* answers = new std::map<std::string, absl::StatusOr<ChildResult>>;
  if (!key.empty()) {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = answers->find(key); it != answers->end()) return it->second;
  }
  absl::StatusOr<ChildResult> r = RunCommand(argv, limits);
  if (!key.empty()) {
    std::lock_guard<std::mutex> lock(mu);
    answers->emplace(key, r);
  }
  return r;
}

// First non-empty line of a command's output, for a version string. A tool
// whose --version does not answer within 3 s (or crashes) is broken: every
// start of l0spv-fuzz would otherwise wait for it.
std::string FirstLine(const std::vector<std::string>& argv,
                      std::string* broken) {
  ChildLimits limits;
  limits.wall_time = std::chrono::seconds(3);
  auto r = RunProbe(argv, limits);
  if (!r.ok()) {
    *broken = std::string(r.status().message());
    return "";
  }
  if (r->ending != ChildResult::Ending::kExited) {
    *broken = absl::StrCat("`", absl::StrJoin(argv, " "), "` ", r->Describe());
    return "";
  }
  for (absl::string_view line :
       absl::StrSplit(r->stdout_text + r->stderr_text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty()) return std::string(line);
  }
  return "";
}

bool IsExecutableFile(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) &&
         ::access(path.c_str(), X_OK) == 0;
}

std::string CacheInstall() {
  if (const char* dir = std::getenv("L0SPV_SPIRV_FUZZ_DIR"); dir && *dir)
    return absl::StrCat(dir, "/bin/spirv-fuzz");
  std::string cache;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    cache = xdg;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    cache = absl::StrCat(home, "/.cache");
  } else {
    return "";
  }
  return absl::StrCat(cache, "/l0spv-fuzz/spirv-fuzz/bin/spirv-fuzz");
}

}  // namespace

std::optional<std::string> FindSpirvFuzz() {
  if (const char* path = std::getenv("L0SPV_SPIRV_FUZZ"); path && *path)
    return IsExecutableFile(path) ? std::optional<std::string>(path)
                                  : std::nullopt;
  if (const std::string cached = CacheInstall();
      !cached.empty() && IsExecutableFile(cached))
    return cached;
  return FindProgram("spirv-fuzz");
}

ToolProbe ProbeTool(const std::string& name) {
  ToolProbe probe{name, std::nullopt, "", ""};
  std::vector<std::string> candidates{name};
  if (name == "llvm-spirv")
    candidates = {"llvm-spirv-14", "llvm-spirv-15", "llvm-spirv"};
  for (const std::string& c : candidates) {
    probe.path = FindProgram(c);
    if (probe.path) break;
  }
  if (!probe.path) return probe;
  if (name == "ocloc") {
    // ocloc has no --version; `ocloc ids` answers without a GPU.
    probe.version = "Intel Graphics Compiler offline compiler";
  } else {
    probe.version = FirstLine({*probe.path, "--version"}, &probe.broken);
  }
  return probe;
}

std::vector<std::string> OclocDeviceNames(const std::string& ocloc_path) {
  ChildLimits limits;
  limits.wall_time = std::chrono::seconds(10);
  auto r = RunProbe({ocloc_path, "compile", "--help"}, limits);
  if (!r.ok()) return {};
  // "<device_type> can be: bdw, skl, ..., xe-hpg, version  or hexadecimal
  // value with 0x prefix", once for the current and once for the deprecated
  // notation.
  constexpr absl::string_view kMarker = "<device_type> can be:";
  std::vector<std::string> names;
  for (absl::string_view line :
       absl::StrSplit(r->stdout_text + r->stderr_text, '\n')) {
    const size_t at = line.find(kMarker);
    if (at == absl::string_view::npos) continue;
    for (absl::string_view item :
         absl::StrSplit(line.substr(at + kMarker.size()), ',')) {
      item = absl::StripAsciiWhitespace(item);
      const std::string word(item.substr(0, item.find(' ')));
      if (!word.empty() && word != "version") names.push_back(word);
    }
  }
  return names;
}

bool OclocKnowsDevice(const std::string& ocloc_path,
                      const std::string& device) {
  if (device.empty()) return false;
  for (const std::string& name : OclocDeviceNames(ocloc_path))
    if (name == device) return true;
  ChildLimits limits;
  limits.wall_time = std::chrono::seconds(10);
  auto r = RunProbe({ocloc_path, "ids", device}, limits);
  return r.ok() && r->Succeeded() &&
         absl::StrContains(r->stdout_text, "Matched ids");
}

std::optional<std::string> FindOclgrindIcd() {
  constexpr char kLib[] = "liboclgrind-rt-icd.so";
  std::vector<std::string> candidates;
  if (auto exe = FindProgram("oclgrind")) {
    std::error_code ec;
    const auto real = std::filesystem::canonical(*exe, ec);
    if (!ec) {
      const auto prefix = real.parent_path().parent_path();
      candidates.push_back((prefix / "lib/oclgrind" / kLib).string());
      candidates.push_back((prefix / "lib" / kLib).string());
    }
  }
  for (const char* dir :
       {"/usr/lib/oclgrind", "/usr/lib/x86_64-linux-gnu/oclgrind",
        "/usr/local/lib/oclgrind", "/usr/lib/x86_64-linux-gnu"}) {
    candidates.push_back(absl::StrCat(dir, "/", kLib));
  }
  for (const std::string& c : candidates) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(c, ec)) return c;
  }
  return std::nullopt;
}

}  // namespace l0spv::oracles
