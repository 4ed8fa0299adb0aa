// generators/transform/semantics_check.h — did a transformation keep the
// module valid and the test case's results unchanged?
//
// Contract: CheckTransformed lints the transformed module for the case's
// profile (spirv-val + Level Zero rules) and runs both cases on the
// reference interpreter with every undefined-behaviour check on; OK when the
// transformed module is clean and its run ends like the original's with
// byte-identical buffers and printf output. The error says what differs
// (lint finding, status, first differing buffer byte). A step budget keeps
// it bounded; an original that does not run cleanly is FailedPrecondition
// (nothing to compare against).
#pragma once

#include "absl/status/status.h"
#include "spirv/test_case.h"

namespace l0spv::generators::transform {

absl::Status CheckTransformed(const spirv::TestCase& original,
                              const spirv::TestCase& transformed);

}  // namespace l0spv::generators::transform
