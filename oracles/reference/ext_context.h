// oracles/reference/ext_context.h — what an OpenCL.std handler sees of the
// executor (internal to oracles/reference).
//
// Contract: handlers read their operands from `regs` at the slots the
// decoder recorded in the ExtCall and write the result at call.result. Any
// memory they touch goes through Access(), which checks it like a load or
// store; on a fault or other error they call Fail() and return false.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"
#include "oracles/execution.h"
#include "oracles/reference/program.h"

namespace l0spv::oracles::reference {

struct ExtContext {
  uint8_t* regs = nullptr;
  bool flush_denormals = false;
  std::string* printf_output = nullptr;

  virtual ~ExtContext() = default;
  // Host bytes of [pointer, pointer + bytes), checked; nullptr after
  // reporting a fault.
  virtual uint8_t* Access(uint64_t pointer, uint64_t bytes, uint32_t align,
                          bool write) = 0;
  // Reports an error (kUbDetected / kUnsupported) with a check name and
  // detail; always returns false.
  virtual bool Fail(ExecutionStatus status, absl::string_view check,
                    absl::string_view detail) = 0;
  // Bytes of the NUL-terminated string at `pointer` (printf formats);
  // false after reporting a fault.
  virtual bool ReadCString(uint64_t pointer, std::string* out) = 0;

  template <typename T>
  T Get(uint32_t slot, int lane = 0) const {
    T v;
    std::memcpy(&v, regs + slot + lane * sizeof(T), sizeof(T));
    return v;
  }
  template <typename T>
  void Set(uint32_t slot, int lane, T v) {
    std::memcpy(regs + slot + lane * sizeof(T), &v, sizeof(T));
  }
};

}  // namespace l0spv::oracles::reference
