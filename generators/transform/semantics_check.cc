#include "generators/transform/semantics_check.h"

#include "absl/strings/str_cat.h"
#include "oracles/reference/interpreter.h"
#include "oracles/validity/device_profile.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"

namespace l0spv::generators::transform {
namespace {

oracles::reference::ReferenceOptions StrictOptions() {
  oracles::reference::ReferenceOptions o;
  o.check_races = true;
  o.check_uninitialized = true;
  o.step_budget = 20'000'000;
  return o;
}

}  // namespace

absl::Status CheckTransformed(const spirv::TestCase& original,
                              const spirv::TestCase& transformed) {
  auto profile = oracles::FindDeviceProfile(transformed.profile);
  if (!profile.ok()) return profile.status();
  auto module = spirv::ReadModuleWords(transformed.module_words);
  if (!module.ok())
    return absl::InternalError(
        absl::StrCat("the transformed module does not "
                     "read back: ",
                     module.status().message()));
  const oracles::LintReport lint = oracles::LintModule(*module, *profile);
  if (!lint.ok())
    return absl::InternalError(
        absl::StrCat("the transformed module is not valid: ", lint.ToText()));
  const oracles::Execution before =
      oracles::reference::RunReference(original, StrictOptions());
  if (before.status != oracles::ExecutionStatus::kOk)
    return absl::FailedPreconditionError(
        absl::StrCat("the original case does not run cleanly on ref (",
                     oracles::ExecutionStatusName(before.status), ": ",
                     before.message, ")"));
  const oracles::Execution after =
      oracles::reference::RunReference(transformed, StrictOptions());
  if (after.status != before.status)
    return absl::InternalError(absl::StrCat(
        "ref: the original ran ok, the transformed module ended ",
        oracles::ExecutionStatusName(after.status), ": ", after.message));
  if (after.printf_output != before.printf_output)
    return absl::InternalError("ref: printf output differs");
  for (size_t i = 0; i < before.buffers.size(); ++i) {
    if (i >= after.buffers.size() ||
        after.buffers[i].size() != before.buffers[i].size())
      return absl::InternalError(
          absl::StrCat("ref: buffer ", i, " has a different size"));
    for (size_t b = 0; b < before.buffers[i].size(); ++b)
      if (before.buffers[i][b] != after.buffers[i][b])
        return absl::InternalError(absl::StrCat(
            "ref: buffer ", i, " differs at byte ", b, " (original ",
            before.buffers[i][b], ", transformed ", after.buffers[i][b], ")"));
  }
  return absl::OkStatus();
}

}  // namespace l0spv::generators::transform
