// reducers/check_case.h — the `check` command's work, shared by
// `l0spv-fuzz check` and test tools that inject fault targets.
//
// Contract: reads CASE_DIR (and, when given, takes the module from
// `module_file` instead of CASE_DIR/module.spv — spirv-reduce's candidate),
// runs it through Interestingness. `strict` = the reduction oracle: every
// reference UB check on, candidates must lint clean and hold no more OpUndef
// than CASE_DIR's own module. Without `strict` it is the campaign's oracle
// as it ran. Errors: InvalidArgument naming the file at fault (bad case
// directory, unreadable module), or the target's own error when it cannot
// be built.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "reducers/interestingness.h"

namespace l0spv::reducers {

struct CheckRequest {
  std::string case_dir;
  std::string module_file;  // empty = CASE_DIR/module.spv
  std::vector<std::string> targets;
  std::string signature;
  bool strict = false;
  // The module_file is spirv-fuzz's raw output (its shrinker's candidate):
  // the engine's Kernel fix-up first (generators/spirv_fuzz); a candidate
  // it cannot fix is not interesting.
  bool kernel_fixup = false;
  uint64_t reference_steps = 0;  // 0 = the interpreter's default
  std::chrono::milliseconds timeout{60000};
  MakeTargetFn make_target;
};

absl::StatusOr<CheckOutcome> CheckCaseDir(const CheckRequest& request);

}  // namespace l0spv::reducers
