// tests/reference/test_util.h — helpers for the reference interpreter
// tests: a SPIR-V assembly prelude with the usual types, a wrapper that
// turns a function body into a one-buffer kernel, and TestCase builders.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "oracles/execution.h"
#include "oracles/reference/interpreter.h"
#include "spirv/test_case.h"

namespace l0spv::oracles::reference::test {

// Capabilities, memory model, OpenCL.std import (%ext), entry point "k"
// (function %k) with %gid = GlobalInvocationId, and types:
//   %void %bool %uchar %ushort %uint %ulong %half %float %double,
//   %v2uint %v3uint %v4uint %v2ulong %v3ulong %v4float %v2float %v4bool
//   %v2bool %v4uchar %v8ushort %v16uchar %v3float %v2double %v4half
//   pointers %ptr_g_T, %ptr_l_T, %ptr_f_T (T = uchar, ushort, uint, ulong,
//   half, float, double), and constants %uint_0..%uint_8, %ulong_0,
//   %ulong_1, %ulong_4, %float_0, %float_1, %float_2, %true, %false,
//   %uint_2 (workgroup scope) %uint_3 (subgroup scope) %uint_264
//   (barrier semantics).
// `extra_entry_interface`: more builtin variable ids for the entry point.
std::string Prelude(const std::string& extra_capabilities = "",
                    const std::string& extra_entry_interface = "",
                    const std::string& extra_annotations = "");

// A kernel "k" taking `out` (a CrossWorkgroup pointer to `out_type`),
// running `body` in its entry block after %gidv (v3ulong) and %x (ulong
// global id 0) are defined; `decls` go in the types/constants section.
// The body must end with a terminator (or leave it to the wrapper, which
// adds OpReturn unless `body_terminates`).
std::string WrapBody(const std::string& decls, const std::string& body,
                     const std::string& out_type = "uint",
                     bool body_terminates = false,
                     const std::string& extra_capabilities = "");

// Assembles (SPIR-V 1.2; 1.3 when the text declares the Float16
// capability), failing the current test on error.
std::vector<uint32_t> AssembleOrDie(const std::string& text);

spirv::KernelArg Buffer(size_t bytes, bool result = true);
template <typename T>
spirv::KernelArg BufferOf(const std::vector<T>& values, bool result = true) {
  spirv::KernelArg a;
  a.kind = spirv::KernelArg::Kind::kBuffer;
  a.bytes.resize(values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  a.is_result = result;
  return a;
}
template <typename T>
spirv::KernelArg Scalar(T value) {
  spirv::KernelArg a;
  a.kind = spirv::KernelArg::Kind::kScalar;
  a.bytes.resize(sizeof(T));
  std::memcpy(a.bytes.data(), &value, sizeof(T));
  return a;
}
spirv::KernelArg Local(uint64_t bytes);

spirv::TestCase MakeCase(std::vector<uint32_t> words,
                         std::vector<uint64_t> global,
                         std::optional<std::vector<uint64_t>> local,
                         std::vector<spirv::KernelArg> args,
                         const std::string& entry = "k");

template <typename T>
std::vector<T> As(const std::vector<uint8_t>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!out.empty())
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

// Runs a WrapBody kernel on `items` work-items with an output buffer of
// `out_bytes`; returns the execution.
Execution RunBody(const std::string& decls, const std::string& body,
                  const std::string& out_type, size_t out_bytes,
                  uint64_t items = 1, const ReferenceOptions& options = {},
                  bool body_terminates = false,
                  const std::string& extra_capabilities = "");

}  // namespace l0spv::oracles::reference::test
