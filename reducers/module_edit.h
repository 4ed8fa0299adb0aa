// reducers/module_edit.h — small edits on a spirv::Module used by the
// kernel-level reduction passes.
//
// Contract: every function keeps the module self-consistent as far as ids
// go (a removed definition also loses its OpName/OpDecorate lines); whether
// the result is valid SPIR-V is for the interestingness test (which lints
// every candidate) to decide.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "spirv/ir_edit.h"
#include "spirv/module.h"
#include "spirv/test_case.h"

namespace l0spv::reducers {

// Instructions inside function bodies (labels and block instructions), the
// figure a reduced kernel is judged by.
size_t FunctionBodyInstructionCount(const spirv::Module& module);
size_t FunctionBodyInstructionCount(const std::vector<uint32_t>& words);
// Over every module of the case (the kernel's and its linked modules).
size_t FunctionBodyInstructionCount(const spirv::TestCase& test_case);
size_t WordCount(const spirv::TestCase& test_case);

// Calls f(instruction) for every instruction in every function body, in
// binary order.
template <typename F>
void ForEachBodyInstruction(const spirv::Module& m, F&& f) {
  for (const spirv::Function& fn : m.functions)
    for (const spirv::BasicBlock& b : fn.blocks)
      for (const spirv::Instruction& inst : b.instructions) f(inst);
}

// Uses of each id in function bodies, types/values and entry points (debug
// names and decorations do not keep a value alive).
absl::flat_hash_map<uint32_t, uint32_t> CountUses(const spirv::Module& module);

// Rewriting uses in function bodies is spirv::ReplaceUsesInBodies
// (spirv/ir_edit.h).

// Drops OpName/OpMemberName/decorations that target a removed id.
void ForgetIds(spirv::Module& module, const absl::flat_hash_set<uint32_t>& ids);

// Removes body instructions whose result is unused and whose only effect is
// that result (arithmetic, loads, access chains, pure OpenCL.std calls,
// unused function variables and phis), to a fixed point; then the types,
// constants and module-scope variables nothing uses any more.
void RemoveDeadCode(spirv::Module& module);

// Whether removing this body instruction, when its result is unused,
// removes nothing else: spirv::IsSafeToDeleteWhenUnused for core opcodes
// (arithmetic, loads, access chains, function variables, phis — not calls,
// atomics), and for OpExtInst the OpenCL.std calls with a value other than
// printf (not vstore, prefetch).
bool IsRemovableWhenUnused(const spirv::Instruction& inst,
                           const spirv::Module& module);

// Removes unused types, constants and module-scope variables, to a fixed
// point.
void RemoveUnusedGlobals(spirv::Module& module);

// Removes blocks unreachable from each function's entry, the phi entries and
// merge instructions that named them.
void RemoveUnreachableBlocks(spirv::Module& module);

// The module with every OpUndef of a scalar, vector, array or struct type
// replaced by a constant whose bits are all different from the zeros the
// reference reads an OpUndef as (integers all ones, floats 0xA5.. bits,
// bools true), or nullopt when the module has no such OpUndef (or is
// unreadable). Running both tells whether a result depends on an undefined
// value.
std::optional<std::vector<uint32_t>> WithUndefsDefined(spirv::Module module);
std::optional<std::vector<uint32_t>> WithUndefsDefined(
    const std::vector<uint32_t>& words);

// The candidate case with `module` as its module.
spirv::TestCase WithModule(const spirv::TestCase& base,
                           const spirv::Module& module);

bool SameCase(const spirv::TestCase& a, const spirv::TestCase& b);

}  // namespace l0spv::reducers
