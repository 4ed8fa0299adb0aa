// oracles/known_bugs/reproduce.h — running a registry entry's reproducer.
//
// Contract: `ReproducerCase` builds the entry's test case (its SPIR-V
// assembly assembled for the header's `; Version: 1.N`, or its OpenCL C
// compiled with clang-14 + llvm-spirv-14, and its launch sidecar). The
// assembly of a linker bug holds several modules: each further one starts
// at a line beginning with kNextModuleMarker and becomes a linked module
// (module-1.spv, ...) of the case, in order.
// `RunKnownBug` runs it on `ref` and on a target (the entry's own unless
// given) and judges the target as a campaign does; the outcome says whether
// the recorded verdict kind appeared. A producer entry (OpenCL C, kind
// emits-invalid) reproduces when the module it produces fails spirv-val.
// The consumer not being installed is an outcome, not an error.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "oracles/known_bugs/registry.h"
#include "oracles/verdict/verdict.h"
#include "spirv/test_case.h"

namespace l0spv::oracles {

inline constexpr char kNextModuleMarker[] = "; NEXT MODULE";

absl::StatusOr<spirv::TestCase> ReproducerCase(const KnownBug& bug);

// The same case with its kernel renamed (OpEntryPoint and OpName): a
// consumer's message often names the kernel, and a signature holds part of
// the message, so a reproducer is compared with a finding under the
// finding's kernel name.
absl::StatusOr<spirv::TestCase> RenameKernel(spirv::TestCase test_case,
                                             const std::string& name);

struct KnownBugRun {
  enum class Outcome { kReproduces, kDoesNotReproduce, kNotInstalled };
  Outcome outcome = Outcome::kNotInstalled;
  std::string target;             // where it ran
  Verdict verdict;                // the target's verdict (when it ran)
  std::string installed_version;  // the consumer's version here ("" = none)
  std::string detail;             // why not installed, or what was seen
};

// `target` empty = the entry's own target; `kernel_name` non-empty renames
// the kernel first. `timeout` bounds each run.
absl::StatusOr<KnownBugRun> RunKnownBug(
    const KnownBug& bug, const std::string& target = "",
    std::chrono::seconds timeout = std::chrono::seconds(60),
    const std::string& kernel_name = "");

const char* OutcomeName(KnownBugRun::Outcome outcome);

}  // namespace l0spv::oracles
