// generators/kernel/outputs.h — where results go: every work-item writes
// only its own slots of the result buffers.
//
// Contract (internal): SinkValue stores any pool value (integers and bools
// flattened to u32 slots of `out_int`, floats lane by lane into the float
// buffer of their width, exact tolerance). SinkLooseFloat stores a float
// computed by a looser operation with the tolerance it is allowed; such a
// value is never fed to anything else. Both are no-ops outside the kernel
// (helper functions return their results instead).
#pragma once

#include <cstdint>
#include <string>

#include "generators/kernel/context.h"

namespace l0spv::generators::kernel {

void SinkValue(GenContext& ctx, const Value& value);
void SinkLooseFloat(GenContext& ctx, uint32_t id, ValueType type, double ulp,
                    bool skip, const std::string& reason);
bool GenSink(GenContext& ctx);

}  // namespace l0spv::generators::kernel
