// spirv/kernel_batch.h — several independent cases as one module: the batch
// a consumer builds once and launches kernel by kernel (issue 20: a
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
//    modules (linked_modules), a case whose entry point is missing, modules
//    the linker refuses (different addressing or memory models, an Export
//    name two cases define). The caller then runs the cases one by one.
#pragma once

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
// never with the 15 with them). Extensions: its passes skip a module with
// an extension they do not know. Cases with different keys go to different
// batches (fuzzers/campaign/batch_runner.h).
std::string BatchKey(const TestCase& test_case);

// Whether every launch holds the same modules (module_words and
// linked_modules): what a target's batched run requires. A batch of one
// always does.
bool SharesOneModule(std::span<const TestCase> launches);

}  // namespace l0spv::spirv
