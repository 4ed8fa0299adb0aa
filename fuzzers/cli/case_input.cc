#include "fuzzers/cli/case_input.h"

#include <filesystem>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracles/validity/device_profile.h"
#include "spirv/binary.h"
#include "spirv/launch_spec.h"
#include "spirv/link.h"

ABSL_DECLARE_FLAG(std::string, sidecar);

namespace l0spv::fuzzers::cli {

absl::StatusOr<spirv::TestCase> ReadCaseInput(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    auto tc = spirv::ReadTestCase(path);
    if (!tc.ok()) return tc.status();
    // spirv/ cannot know the device profiles; the command can.
    if (auto p = oracles::FindDeviceProfile(tc->profile); !p.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, "/case.json: field 'profile': ", p.status().message()));
    }
    return tc;
  }
  const std::string sidecar = absl::GetFlag(FLAGS_sidecar);
  if (sidecar.empty())
    return absl::InvalidArgumentError(absl::StrCat(
        "'", path,
        "' is not a case directory; a module file needs --sidecar=JSON "
        "(corpora/README.md) for its launch"));
  return spirv::LoadSidecarCase(path, sidecar);
}

absl::Status CheckRunnable(const spirv::TestCase& tc,
                           const std::string& where) {
  auto module = spirv::ReadModuleWords(tc.module_words);
  if (!module.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": ", module.status().message()));
  }
  const uint32_t id = module->KernelEntryPointId(tc.entry_point);
  if (id == 0) {
    const std::vector<std::string> names = module->KernelNames();
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": the module has no kernel named '", tc.entry_point, "' (",
        names.empty() ? std::string("it has no Kernel entry point")
                      : absl::StrCat("kernels: ", absl::StrJoin(names, ", ")),
        ")"));
  }
  const spirv::Function* fn = module->FindFunction(id);
  if (fn != nullptr && fn->parameters.size() != tc.args.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": kernel '", tc.entry_point, "' takes ", fn->parameters.size(),
        " argument(s), the case gives ", tc.args.size()));
  }
  // Several modules must link (imports resolved, types agreeing).
  if (auto linked = spirv::LinkTestCase(tc); !linked.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": ", linked.status().message()));
  }
  return absl::OkStatus();
}

absl::Status CheckOutIsNotInput(const std::string& input,
                                const std::string& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path in = fs::weakly_canonical(input, ec);
  if (ec) return absl::OkStatus();  // a missing input fails on reading
  const fs::path o = fs::weakly_canonical(out, ec);
  if (ec) return absl::OkStatus();
  // The same directory, or a module file the output would replace.
  if (in == o || in == o / "module.spv" || in == o / "case.json") {
    return absl::InvalidArgumentError(
        absl::StrCat("--out=", out, " is the input '", input,
                     "': it would be overwritten; choose another --out"));
  }
  return absl::OkStatus();
}

}  // namespace l0spv::fuzzers::cli
