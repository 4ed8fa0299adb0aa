// bench/large_kernel.h — a valid Kernel module of a chosen size, built with
// spirv::ModuleBuilder, for benchmarking the module model.
#pragma once

#include <cstddef>

#include "spirv/module.h"

namespace l0spv::bench {

// `kernel void large(global uint* a, global uint* b, global uint* out)`:
// loads a[gid] and b[gid], then runs a chain of segments, each a block of
// integer arithmetic followed by a conditional increment (a diamond joined
// by an OpPhi), and stores the result to out[gid]. The module has at least
// `min_instructions` instructions and passes spirv-val (OpenCL 2.2).
spirv::Module BuildLargeKernel(size_t min_instructions);

}  // namespace l0spv::bench
