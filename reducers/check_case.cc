#include "reducers/check_case.h"

#include "absl/strings/str_cat.h"
#include "spirv/binary.h"

namespace l0spv::reducers {

absl::StatusOr<CheckOutcome> CheckCaseDir(const CheckRequest& r) {
  auto tc = spirv::ReadTestCase(r.case_dir);
  if (!tc.ok()) return tc.status();
  InterestingnessOptions o;
  o.targets = r.targets;
  o.signature = r.signature;
  o.limits.wall_time = r.timeout;
  o.make_target = r.make_target;
  o.strict_reference = r.strict;
  o.reference_steps = r.reference_steps;
  o.require_valid = r.strict;
  o.max_undefs = r.strict ? CountUndefs(tc->module_words) : -1;
  if (!r.module_file.empty()) {
    auto bytes =
        spirv::ReadFileBytes(r.module_file, spirv::kMaxModuleFileBytes);
    if (!bytes.ok()) return bytes.status();
    auto module = spirv::ReadModule(*bytes);
    if (!module.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(r.module_file, ": ", module.status().message()));
    }
    tc->module_words = spirv::EncodeModule(*module);
  }
  auto oracle = Interestingness::Make(o);
  if (!oracle.ok()) return oracle.status();
  return (*oracle)->Check(*tc);
}

}  // namespace l0spv::reducers
