#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/consumer_probe.h"

namespace l0spv::oracles {
namespace {

// First non-empty line of a command's output, for a version string.
std::string FirstLine(const std::vector<std::string>& argv) {
  ChildLimits limits;
  limits.wall_time = std::chrono::seconds(10);
  auto r = RunCommand(argv, limits);
  if (!r.ok()) return "";
  for (absl::string_view line :
       absl::StrSplit(r->stdout_text + r->stderr_text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty()) return std::string(line);
  }
  return "";
}

}  // namespace

ToolProbe ProbeTool(const std::string& name) {
  ToolProbe probe{name, std::nullopt, ""};
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
    probe.version = FirstLine({*probe.path, "--version"});
  }
  return probe;
}

}  // namespace l0spv::oracles
