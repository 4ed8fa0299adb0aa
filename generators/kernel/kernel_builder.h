// generators/kernel/kernel_builder.h — the kernel function around the
// generated statements: its arguments and their initial contents, the
// ND-range, built-in variables, result slots, the entry point and the
// tolerance of every float result.
//
// Contract (internal): BuildKernel appends the kernel (helpers must already
// be in ctx.helpers) and fills `test_case` with everything except the
// encoded module. Result slots are indexed by the global linear id, so the
// work-items of the ND-range write disjoint slots.
#pragma once

#include "generators/kernel/context.h"
#include "spirv/test_case.h"

namespace l0spv::generators::kernel {

void BuildKernel(GenContext& ctx, spirv::TestCase& test_case);

}  // namespace l0spv::generators::kernel
