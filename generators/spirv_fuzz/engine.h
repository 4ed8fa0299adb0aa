// generators/spirv_fuzz/engine.h — the --mutate=spirv-fuzz engine: a case
// mutated by SPIRV-Tools' spirv-fuzz instead of our transformations, made a
// valid Kernel module again by spirv/kernel_fixup.h.
//
// Contract:
//  - MutateWithSpirvFuzz runs spirv-fuzz (oracles/targets/
//    spirv_fuzz_adapter.h) on the case's module with `seed` in a fresh
//    directory under `scratch_dir` (removed afterwards), then the Kernel
//    fix-up, then spirv-val in the module's environment and the Level Zero
//    lint (profile `full`). Every way this can end is an Outcome, never an
//    error status; only harness trouble (a directory, a fork) is one.
//  - kMutated: `test_case` is the case with the fixed module (its launch,
//    arguments and expectations unchanged) — ready for `ref` (which checks
//    UB and equivalence: the campaign's job, not this one's).
//  - The raw output and the transformation sequence (protobuf and JSON) are
//    kept for every run that produced them: a finding keeps them, and
//    spirv-fuzz's shrinker replays them.
//  - Cases of several modules, and modules newer than SPIR-V 1.3, are
//    kNotApplicable: the campaign mutates the whole case and splits
//    afterwards, and keeps its versions at 1.3 with this engine.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "spirv/kernel_fixup.h"
#include "spirv/test_case.h"

namespace l0spv::generators::spirv_fuzz {

// What spirv-fuzz 2023.1 reads (its environment is universal 1.3); a newer
// case is kNotApplicable.
inline constexpr uint32_t kNewestSpirvVersion = 0x00010300;

struct EngineOptions {
  std::string program;  // the spirv-fuzz executable
  // oracles::ConsumerBit mask of the consumers whose known bugs the
  // campaign avoids: AvoidKnownBugs takes those out of the output.
  uint32_t avoid_known_bugs = 0;
  std::string scratch_dir;  // empty = the system temp directory
  std::chrono::milliseconds wall_time{60000};
};

enum class Outcome {
  kMutated,
  kToolCrashed,  // signal: a spirv-fuzz bug
  kToolTimedOut,
  kToolFailed,     // non-zero exit, or no output
  kFixupRefused,   // a form the Kernel fix-up does not handle
  kInvalid,        // still invalid (spirv-val or lint) after the fix-up
  kNotApplicable,  // a case of several modules
};
const char* OutcomeName(Outcome outcome);  // "mutated", "tool-crashed", ...

struct Mutation {
  Outcome outcome = Outcome::kNotApplicable;
  std::string detail;  // how spirv-fuzz ended / the first error
  spirv::TestCase test_case;
  spirv::KernelFixups fixups;
  uint32_t known_bugs_avoided = 0;  // AvoidKnownBugs' changes
  std::vector<uint32_t> raw_words;  // spirv-fuzz's output, before the fix-up
  std::string transformations;      // protobuf (spirv-fuzz --replay/--shrink)
  std::string transformations_json;
  size_t transformation_count = 0;
};

absl::StatusOr<Mutation> MutateWithSpirvFuzz(const spirv::TestCase& test_case,
                                             uint64_t seed,
                                             const EngineOptions& options);

// The Kernel fix-up, AvoidKnownBugs and validation, on spirv-fuzz's raw
// output for `test_case` (also the shrinker's candidates): kMutated,
// kFixupRefused or kInvalid.
Mutation FixUpOutput(const spirv::TestCase& test_case,
                     std::vector<uint32_t> raw_words,
                     uint32_t avoid_known_bugs = 0);

// Known consumer bugs spirv-fuzz's output would hit, taken out without
// changing a result when their consumers are in `avoid_known_bugs` (the
// spirv-fuzz path's gate of each registry entry):
//  - llvm_spirv_scalar_constant_null: a scalar OpConstantNull becomes the
//    zero OpConstant (OpConstantFalse) of its type, same id;
//  - function_variable_initializer: a Function variable's initializer
//    becomes an OpStore after the function's variables;
//  - vector_shuffle_mixed: an OpVectorShuffle of vectors of two lengths
//    becomes OpCompositeExtract / OpCompositeInsert on an OpUndef (an
//    undefined component stays undefined);
//  - llvm_spirv_builtin_access_chain: an unused access chain into a
//    built-in variable is removed.
// Returns how many instructions changed.
uint32_t AvoidKnownBugs(spirv::Module& module, uint32_t avoid_known_bugs);

}  // namespace l0spv::generators::spirv_fuzz
