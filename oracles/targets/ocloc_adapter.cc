#include "oracles/targets/ocloc_adapter.h"

#include <algorithm>
#include <optional>

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
        absl::StartsWith(line, "Linker execution has succeeded") ||
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
  // One module: `ocloc compile -spirv_input`. Several: `ocloc link` (IGC's
  // linker, SPIR-V in, LLVM bitcode out; it takes no device), then `ocloc
  // compile -llvm_input` of what it linked for the device.
  // A batch compiles once: the module's verdict is every launch's (a
  // launch passing images to a device without them is unsupported alone).
  std::vector<Execution> RunInScratch(Launches launches, const std::string& dir,
                                      const RunClock& clock,
                                      const TargetRunLimits& limits) override {
    std::vector<Execution> results = ForEveryLaunch(
        Compile(launches.front(), dir, clock, limits), launches.size());
    for (size_t i = 0; i < launches.size(); ++i) {
      if (std::string why = ImagesUnsupportedReason(launches[i]); !why.empty())
        results[i] = FailedExecution(ExecutionStatus::kUnsupported, why);
    }
    return results;
  }

 private:
  Execution Compile(const spirv::TestCase& test_case, const std::string& dir,
                    const RunClock& clock, const TargetRunLimits& limits) {
    Execution e;
    std::vector<std::string> compile = {program(), "compile", "-spirv_input",
                                        "-file", "module.spv"};
    if (!test_case.linked_modules.empty()) {
      std::vector<std::string> link = {program(), "link"};
      for (size_t i = 0; i < NumModules(test_case); ++i)
        link.insert(link.end(), {"-file", ModuleFile(i)});
      link.insert(link.end(), {"-out", "linked.bc"});
      AddBuildOptions(&link);
      if (auto failed = RunStage(link, "ocloc link", dir, clock, limits, &e))
        return *failed;
      compile = {program(), "compile", "-llvm_input", "-file", "linked.bc"};
    }
    compile.insert(compile.end(), {"-device", device_});
    AddBuildOptions(&compile);
    if (auto failed = RunStage(compile, "ocloc", dir, clock, limits, &e))
      return *failed;
    return e;
  }

  void AddBuildOptions(std::vector<std::string>* argv) const {
    if (options().build_options.empty()) return;
    argv->push_back("-options");
    argv->push_back(options().build_options);
  }

  // Runs one ocloc command; nullopt when it succeeded (its output appended
  // to `done`'s log, its time to `done`'s wall time), else the failure,
  // named after `who`.
  std::optional<Execution> RunStage(const std::vector<std::string>& argv,
                                    const std::string& who,
                                    const std::string& dir,
                                    const RunClock& clock,
                                    const TargetRunLimits& limits,
                                    Execution* done) const {
    auto child = RunCommand(argv, clock.Limits(limits), dir);
    if (!child.ok()) {
      return HarnessFailure(
          absl::StrCat("cannot run ", who, ": ", child.status().message()));
    }
    // ocloc prints its diagnostics on stdout, the runtime's on stderr.
    const std::string output =
        absl::StrCat(child->stdout_text, child->stderr_text);
    const std::string log = absl::StrCat(
        done->log, done->log.empty() ? "" : "\n", LastLines(output, 200));
    if (child->ending != ChildResult::Ending::kExited) {
      Execution e = AbnormalEnding(*child, who);
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
          absl::StrCat(who, " internal error (", child->Describe(),
                       "): ", NormalizedFirstError(internal, dir)),
          log);
    }
    if (child->exit_code != 0) {
      const std::string first =
          NormalizedFirstError(WithoutChatter(output), dir);
      const char* what = who == "ocloc link" ? "the modules" : "the module";
      return FailedExecution(
          ExecutionStatus::kBuildFailed,
          first.empty()
              ? absl::StrCat(who, " rejected ", what, " without a message (",
                             child->Describe(), ")")
              : absl::StrCat(who, " rejected ", what, ": ", first),
          log);
    }
    done->log = log;
    done->wall_time += child->wall_time;
    return std::nullopt;
  }

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
