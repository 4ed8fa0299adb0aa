#include "fuzzers/cli/case_input.h"

#include <filesystem>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "spirv/launch_spec.h"

ABSL_DECLARE_FLAG(std::string, sidecar);

namespace l0spv::cli {

absl::StatusOr<spirv::TestCase> ReadCaseInput(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return spirv::ReadTestCase(path);
  const std::string sidecar = absl::GetFlag(FLAGS_sidecar);
  if (sidecar.empty())
    return absl::InvalidArgumentError(absl::StrCat(
        "'", path,
        "' is not a case directory; a module file needs --sidecar=JSON "
        "(corpora/README.md) for its launch"));
  return spirv::LoadSidecarCase(path, sidecar);
}

}  // namespace l0spv::cli
