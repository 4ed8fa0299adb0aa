// oracles/reference/decode.h — Module -> Program (internal to
// oracles/reference).
//
// Contract: Decode reads every instruction of the module once, guarding
// every operand access, and produces a Program whose offsets and indices
// the executor can trust. It fails with InvalidArgument for modules it
// cannot make sense of (missing entry point, malformed operands, ids used
// but never defined) and with Unimplemented for module-level features the
// interpreter does not support (Physical32 addressing, unsupported types).
// Instructions the executor does not implement inside function bodies are
// not errors: they decode to a trap that stops the run with kUnsupported
// when, and only when, a work-item reaches it.
#pragma once

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oracles/reference/program.h"
#include "spirv/module.h"

namespace l0spv::oracles::reference {

absl::StatusOr<Program> Decode(const spirv::Module& module,
                               absl::string_view entry_point);

}  // namespace l0spv::oracles::reference
