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
