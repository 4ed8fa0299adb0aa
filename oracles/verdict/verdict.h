// oracles/verdict/verdict.h — what one target's run of a test case means,
// judged against the reference, with a stable signature for deduplication.
//
// Contract:
//  - Judge() is a pure function of its inputs. The reference execution must
//    be kOk for a target verdict to be anything but kSkipped (a case the
//    reference cannot run says nothing about the target), except that a
//    reference kUbDetected on a generated case is itself a finding (kUb: a
//    generator bug) — use JudgeReference() for it.
//  - Kinds (DESIGN.md): crash (signal/abort of the consumer), timeout,
//    rejected-valid (a lint-clean module the consumer refused to build),
//    mismatch (buffers or printf differ beyond the recorded tolerances),
//    target-ub (the consumer itself reported a memory error or race, e.g.
//    Oclgrind, on a case the reference runs cleanly), ub (the reference
//    found undefined behaviour in a generated case). kSkipped = the target
//    could not run the case on this machine (unsupported): not a finding.
//  - signature: "<kind>:<target-kind>:<detail>" where detail is the first
//    meaningful line of the message with numbers, addresses, ids, paths and
//    quoted names normalized away, so two crashes at the same place in the
//    consumer share a signature while different assertion texts do not.
//    Signatures contain only [a-z0-9:._-] and are at most 120 characters.
#pragma once

#include <string>
#include <string_view>

#include "nlohmann/json.hpp"
#include "oracles/execution.h"
#include "spirv/test_case.h"

namespace l0spv::oracles {

enum class VerdictKind {
  kOk,
  kSkipped,
  kCrash,
  kTimeout,
  kRejectedValid,
  kAcceptedInvalid,
  kMismatch,
  kTargetUb,
  kUb,
};

const char* VerdictKindName(VerdictKind kind);  // "crash", "mismatch", ...

struct Verdict {
  VerdictKind kind = VerdictKind::kOk;
  std::string target;
  std::string explanation;
  std::string signature;  // empty for kOk / kSkipped

  bool IsFinding() const {
    return kind != VerdictKind::kOk && kind != VerdictKind::kSkipped;
  }
  nlohmann::json ToJson() const;
};

// The reference's own verdict on a generated case: kUb when it detected
// undefined behaviour (a generator bug), kSkipped when it could not run the
// case (unsupported, timeout, build failure), kOk otherwise.
Verdict JudgeReference(const Execution& reference);

// One target against the reference. `executes` = the target runs kernels
// (false for compile-only targets such as ocloc).
Verdict Judge(const spirv::TestCase& test_case, const Execution& reference,
              const std::string& target, bool executes,
              const Execution& actual);

// The normalization used in signatures (exposed for tests and for `check`).
std::string NormalizeMessage(std::string_view message);
// "opencl" -> "opencl", "opencl:Portable Computing Language" ->
// "opencl-portable", "opencl:Intel(R) OpenCL" -> "opencl-intel",
// "ocloc:tgllp" -> "ocloc-tgllp", "spirv-opt:-O" -> "spirv-opt",
// "spirv-opt@2025.5" -> "spirv-opt-2025.5".
std::string TargetKindForSignature(const std::string& target);
// A file name stem for a target's outputs (outputs/<stem>.json): ':' '/'
// and ' ' become '_'; a name longer than 80 characters (a spirv-opt pass
// list) is cut and suffixed with a hash of the whole name, so it stays a
// valid, distinct file name.
std::string TargetFileStem(const std::string& target);

}  // namespace l0spv::oracles
