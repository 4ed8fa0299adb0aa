// spirv/kernel_batch.h — several independent cases as one module: the batch
// a consumer builds once and launches kernel by kernel (a
// consumer's fixed cost per module — process start, compiler set-up, its
// kernel library — is paid once per batch instead of once per case).
//
// Contract:
//  - BatchKernels(cases) renames each case's entry point to
//    BatchedEntryName(entry, i) (the OpEntryPoint and the function's OpName),
//    links the modules with the reference linker (spirv/link.h: ids
//    renumbered, types unified, one capability/extension/import list) and
//    merges module-scope variables decorated with the same BuiltIn and of
//    the same type into one, so the batch reads like a module a compiler
//    front end would write (one __spirv_BuiltIn* global per built-in).
//    Kernels with a ByVal parameter come last in the module (a consumer bug
//    that layout avoids, see kernel_batch.cc).
//  - It returns one launch per case, in order: the case with module_words
//    replaced by the batch and entry_point by the renamed one; arguments,
//    ND-range, tolerances, profile and transformation log are the case's.
//    Every launch holds the same module_words.
//  - Refused (InvalidArgument, naming the case): no cases, a case of several
//    modules (linked_modules), a case whose entry point is missing, cases
//    that do not fit together (BatchFit), modules the linker
//    refuses (different addressing or memory models, an Export name two
//    cases define). The caller then runs the cases one by one.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "spirv/test_case.h"

namespace l0spv::spirv {

std::string BatchedEntryName(const std::string& entry, size_t index);

absl::StatusOr<std::vector<TestCase>> BatchKernels(
    std::span<const TestCase> cases);

// What a case must share with the others of its batch: a module-level
// property a whole-module consumer changes its pipeline on for every kernel
// of the module. Decoration groups: spirv-opt's -O leaves a module holding
// OpDecorationGroup nearly untouched, so one such case in a batch hid a
// crash of every other case (measured: a crashing case batched with each
// of 60 generated ones still crashed with the 45 without decoration groups,
// never with the 15 with them). Extensions: four of its passes skip a
// module with an extension outside their allowlists (the extensions the
// generator emits are in none: they share one key). A loop with the Unroll
// hint: loop-unroll then changes the module, and a kernel's
// spirv_opt_constant_branch_crash did not happen in a module that also held
// such a loop. Cases with different keys go to different batches
// (fuzzers/campaign/batch_runner.h).
std::string BatchKey(const TestCase& test_case);

// What a case needs of the other cases of its batch, beyond BatchKey: a
// batch that breaks it is invalid, or makes a consumer fail on every case
// of it, so each of them would be re-run alone.
//  - SPIR-V versions (header words, e.g. 0x10300): a batch takes its
//    members' newest version (the linker's rule), so at least the case's
//    own, and at most the last version of every instruction it uses (the
//    grammar's lastVersion: OpAtomicCompareExchangeWeak ends at 1.3).
//  - The pointee type of its OpGenericCastToPtrExplicit to Function, written
//    structurally ("i32", "v8i64", ...; empty when it has none): llvm-spirv
//    14 -r allows one such type per module (known-consumer-bugs/
//    llvm_spirv_to_private_redefined); the generator keeps one per case,
//    so a batch keeps one too (measured: 56 of 160 llvm-spirv cases re-run
//    alone before this).
struct BatchFit {
  uint32_t needs = 0;
  uint32_t allows = ~0u;
  std::string private_cast_pointee;
  // Whether one batch can hold both.
  bool Meets(const BatchFit& other) const {
    return std::max(needs, other.needs) <= std::min(allows, other.allows) &&
           (private_cast_pointee.empty() ||
            other.private_cast_pointee.empty() ||
            private_cast_pointee == other.private_cast_pointee);
  }
  // The fit of a batch holding both (they Meet).
  BatchFit With(const BatchFit& other) const {
    return {std::max(needs, other.needs), std::min(allows, other.allows),
            private_cast_pointee.empty() ? other.private_cast_pointee
                                         : private_cast_pointee};
  }
};
BatchFit BatchFitOf(const TestCase& test_case);

// Whether every launch holds the same modules (module_words and
// linked_modules): what a target's batched run requires. A batch of one
// always does.
bool SharesOneModule(std::span<const TestCase> launches);

}  // namespace l0spv::spirv
