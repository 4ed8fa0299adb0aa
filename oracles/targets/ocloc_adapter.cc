#include "oracles/targets/ocloc_adapter.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "oracles/targets/tool_adapter.h"
#include "oracles/validity/device_profile.h"

namespace l0spv::oracles {
namespace {

// Texts by which IGC/LLVM report that they broke rather than that the
// module is wrong (ocloc may catch the fault and still exit normally).
constexpr const char* kInternalErrorTexts[] = {
    "internal compiler error", "llvm error",           "assertion",
    "segmentation fault",      "unreachable executed", "stack dump"};

std::string InternalErrorLine(const std::string& output) {
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    const std::string lower = absl::AsciiStrToLower(line);
    for (const char* text : kInternalErrorTexts) {
      if (absl::StrContains(lower, text))
        return std::string(absl::StripAsciiWhitespace(line));
    }
  }
  return "";
}

// ocloc echoes its command line and a banner; neither is an error.
std::string WithoutChatter(const std::string& output) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(output, '\n')) {
    if (absl::StartsWith(line, "Command was:") ||
        absl::StartsWith(line, "Compilation from IR - skipping") ||
        absl::StartsWith(line, "Build failed with error code"))
      continue;
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

class OclocTarget : public ToolAdapter {
 public:
  OclocTarget(const std::string& device, ToolProgram tool,
              const TargetOptions& options)
      : ToolAdapter(absl::StrCat("ocloc:", device), /*executes=*/false,
                    std::move(tool), options),
        device_(device) {}

 protected:
  Execution RunInScratch(const spirv::TestCase& test_case,
                         const std::string& dir, const RunClock& clock,
                         const TargetRunLimits& limits) override {
    if (std::string why = ImagesUnsupportedReason(test_case); !why.empty())
      return FailedExecution(ExecutionStatus::kUnsupported, why);
    std::vector<std::string> argv = {program(), "compile",    "-spirv_input",
                                     "-file",   "module.spv", "-device",
                                     device_};
    if (!options().build_options.empty()) {
      argv.push_back("-options");
      argv.push_back(options().build_options);
    }
    auto child = RunCommand(argv, clock.Limits(limits), dir);
    if (!child.ok()) {
      return HarnessFailure(
          absl::StrCat("cannot run ocloc: ", child.status().message()));
    }
    // ocloc prints its diagnostics on stdout, the runtime's on stderr.
    const std::string output =
        absl::StrCat(child->stdout_text, child->stderr_text);
    const std::string log = LastLines(output, 200);
    if (child->ending != ChildResult::Ending::kExited) {
      Execution e = AbnormalEnding(*child, "ocloc");
      if (e.status == ExecutionStatus::kCrashed && e.log.empty()) {
        const std::string last =
            LastLines(WithoutChatter(child->stdout_text), 1);
        if (!last.empty()) absl::StrAppend(&e.message, ": ", last);
      }
      e.log = log;
      return e;
    }
    if (child->exit_code == 127 &&
        absl::StrContains(output, "cannot execute")) {
      return FailedExecution(ExecutionStatus::kUnsupported,
                             absl::StrCat("harness: ", LastLines(output, 1)),
                             log);
    }
    if (const std::string internal = InternalErrorLine(output);
        !internal.empty()) {
      return FailedExecution(
          ExecutionStatus::kCrashed,
          absl::StrCat("ocloc internal error (", child->Describe(),
                       "): ", NormalizedFirstError(internal, dir)),
          log);
    }
    if (child->exit_code != 0) {
      const std::string first =
          NormalizedFirstError(WithoutChatter(output), dir);
      return FailedExecution(
          ExecutionStatus::kBuildFailed,
          first.empty()
              ? absl::StrCat("ocloc rejected the module without a message (",
                             child->Describe(), ")")
              : absl::StrCat("ocloc rejected the module: ", first),
          log);
    }
    Execution e;
    e.log = log;
    e.wall_time = child->wall_time;
    return e;
  }

 private:
  // Non-empty when the case passes images or samplers and the device's
  // profile (oracles/validity/profiles.json) says it has no images: IGC
  // would compile the module anyway, but no such device could run it.
  // Devices without a profile are not judged.
  std::string ImagesUnsupportedReason(const spirv::TestCase& test_case) const {
    const bool uses_images = std::any_of(
        test_case.args.begin(), test_case.args.end(), [](const auto& a) {
          return a.kind == spirv::KernelArg::Kind::kImage ||
                 a.kind == spirv::KernelArg::Kind::kSampler;
        });
    if (!uses_images) return "";
    auto profile = FindDeviceProfile(device_);
    if (!profile.ok() || profile->images) return "";
    return absl::StrCat("device profile ", device_,
                        " has no image support (images: false in "
                        "oracles/validity/profiles.json)");
  }

  std::string device_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> MakeOclocTarget(
    const std::string& device, const TargetOptions& options) {
  const std::string name = absl::StrCat("ocloc:", device);
  if (device.empty() || device.find_first_of(" ,:") != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("target '", name,
                     "': one device name expected, e.g. ocloc:tgllp (several "
                     "devices are several targets: ocloc:tgllp,dg2)"));
  }
  // DescribeTarget checks that ocloc knows the device; a stand-in
  // (TargetOptions::program) is used without that check.
  auto tool = ResolveTool(name, options);
  if (!tool.ok()) return tool.status();
  return std::make_unique<OclocTarget>(device, *std::move(tool), options);
}

}  // namespace l0spv::oracles
