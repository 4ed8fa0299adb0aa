#include "reducers/check_case.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "generators/spirv_fuzz/engine.h"
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
    if (r.kernel_fixup) {
      // spirv-fuzz's raw output may not even read (one-word 64-bit
      // constants): the fix-up takes the words as they are.
      std::vector<uint32_t> words(bytes->size() / 4);
      std::memcpy(words.data(), bytes->data(), words.size() * 4);
      generators::spirv_fuzz::Mutation m =
          generators::spirv_fuzz::FixUpOutput(*tc, std::move(words));
      if (m.outcome != generators::spirv_fuzz::Outcome::kMutated) {
        CheckOutcome not_fixed;
        not_fixed.rejected = absl::StrCat(
            "kernel fix-up: ", OutcomeName(m.outcome), ": ", m.detail);
        return not_fixed;
      }
      tc->module_words = std::move(m.test_case.module_words);
    } else {
      auto module = spirv::ReadModule(*bytes);
      if (!module.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat(r.module_file, ": ", module.status().message()));
      }
      tc->module_words = spirv::EncodeModule(*module);
    }
  }
  auto oracle = Interestingness::Make(o);
  if (!oracle.ok()) return oracle.status();
  return (*oracle)->Check(*tc);
}

}  // namespace l0spv::reducers
