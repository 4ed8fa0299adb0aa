// spirv/entry_interface.h — OpEntryPoint interface lists for SPIR-V 1.4.
//
// Contract: from SPIR-V 1.4 on, an entry point's interface lists every
// module-scope OpVariable its call tree references, whatever the storage
// class (before 1.4: Input and Output only). CompleteEntryPointInterfaces
// appends each such variable (for the module's version) that is not listed
// yet, to each entry point, in definition order; an interface that is
// already complete stays unchanged. (Linking needs it in every version: a
// built-in another module reads joins the kernel's call tree.) References count through any id operand (a pointer operand,
// an OpFunctionCall argument, a constant's operand is not a reference).
// Entry points naming a function that does not exist are left alone.
#pragma once

#include "spirv/module.h"

namespace l0spv::spirv {

void CompleteEntryPointInterfaces(Module& module);

}  // namespace l0spv::spirv
