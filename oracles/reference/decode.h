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
//
// DecodedModule decodes a module once for all its entry points (a batch of
// kernels in one module, spirv/kernel_batch.h): ProgramFor(entry) returns
// what Decode(module, entry) returns, paying only for the entry point's
// parameters and a copy of the program. Decoding is most of the
// interpreter's cost on generated kernels, so a batch of K kernels decoded
// K times would cost O(K^2).
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oracles/reference/program.h"
#include "spirv/module.h"

namespace l0spv::oracles::reference {

namespace decoder {
class DecodeState;
}

absl::StatusOr<Program> Decode(const spirv::Module& module,
                               absl::string_view entry_point);

class DecodedModule {
 public:
  // `module` must outlive the result.
  static absl::StatusOr<DecodedModule> Make(const spirv::Module& module);
  absl::StatusOr<Program> ProgramFor(absl::string_view entry_point);

  DecodedModule(DecodedModule&&) noexcept;
  DecodedModule& operator=(DecodedModule&&) noexcept;
  ~DecodedModule();

 private:
  explicit DecodedModule(std::unique_ptr<decoder::DecodeState> state);
  std::unique_ptr<decoder::DecodeState> state_;
};

}  // namespace l0spv::oracles::reference
