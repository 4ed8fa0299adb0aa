// spirv/kernel_fixup.h — puts back into OpenCL-environment form what a
// Shader-minded tool (spirv-fuzz, whose environment is hard-coded to
// universal 1.3) writes into a Kernel module, without changing what the
// kernel computes. Each fix is a known spirv-fuzz bug on Kernel modules
// (corpora/known-consumer-bugs/spirv_fuzz_*; the fix is its gate).
//
// Contract: FixUpKernelModule edits `module` in place and says what it did.
//  - Signed integer types (OpTypeInt W 1) become unsigned; a type that then
//    duplicates another non-aggregate, non-pointer type (OpTypeInt,
//    OpTypeVector, OpTypeFunction, ...) is merged into the first one, to a
//    fixed point. Kernel arithmetic is on bits, so this changes no result.
//  - Decorations (and member decorations) that need the Shader capability
//    (NoContraction, RelaxedPrecision, ...) are dropped when the module does
//    not declare Shader: each only restricts or relaxes what a Shader
//    compiler may do.
//  - An OpConstant / OpSpecConstant of a 64-bit type written with one word
//    (a malformed binary) gets a zero high word: spirv-fuzz means the
//    zero-extended value.
//  - Private variables: one that nothing uses is removed; one used inside
//    functions becomes a Function variable at the top of each using
//    function's first block (initializer kept; a copy under a fresh id in
//    every function after the first), and every value of a Private pointer
//    type in them is retyped to the Function pointer of the same pointee.
//    A variable one function stores and another may read (spirv-fuzz's
//    replaceParameterWithGlobal passes arguments that way) instead becomes
//    a Function variable of the (one) Kernel entry point, passed as a new
//    last pointer parameter to every function that uses it or calls one
//    that does (transitively). A Private pointer passed to a call or used
//    by a type, or a threaded variable in a module of several entry points,
//    are refused: the function
//    returns FailedPrecondition (the module is then unusable, and left
//    half-edited — callers drop it).
//  - Private pointer types nothing uses any more are removed.
//  - OpTypeMatrix (Kernel has no Matrix capability) is removed when nothing
//    uses it, else refused.
//  - OpAtomicLoad of a value that is not a 32/64-bit scalar (spirv-fuzz
//    turns any load into one) becomes a plain OpLoad: the OpenCL
//    environment has no such atomics, and ref judges the plain load (a race
//    it makes is UB, and such mutants are dropped).
//  - The header bound is recomputed (tight).
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "spirv/module.h"

namespace l0spv::spirv {

struct KernelFixups {
  uint32_t signed_int_types = 0;            // made unsigned
  uint32_t merged_types = 0;                // duplicate types merged away
  uint32_t shader_decorations = 0;          // dropped
  uint32_t widened_constants = 0;           // one-word 64-bit constants
  uint32_t private_variables = 0;           // moved into their function(s)
  uint32_t private_variable_copies = 0;     // for a second, third... function
  uint32_t private_variables_threaded = 0;  // kernel variable + parameters
  uint32_t unused_private_variables = 0;    // removed
  uint32_t matrix_types = 0;                // unused, removed
  uint32_t atomic_loads = 0;                // made plain loads
  uint32_t Total() const {
    return signed_int_types + merged_types + shader_decorations +
           widened_constants + private_variables + private_variable_copies +
           private_variables_threaded + unused_private_variables +
           matrix_types + atomic_loads;
  }
  nlohmann::json ToJson() const;
};

absl::StatusOr<KernelFixups> FixUpKernelModule(Module& module);

// On the binary, before it can be read: an OpConstant / OpSpecConstant of a
// 64-bit type with one literal word gets a zero high word (word counts
// fixed; the header's bound is unchanged). Returns how many; words that do
// not parse as instructions are left from there on.
uint32_t WidenOneWordConstants(std::vector<uint32_t>& words);

}  // namespace l0spv::spirv
