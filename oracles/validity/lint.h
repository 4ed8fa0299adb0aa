// oracles/validity/lint.h — spirv-val plus the Level Zero environment rules.
//
// Contract: linting never crashes and never hangs, whatever the module: every
// rule runs on any module the binary reader accepted (even one spirv-val
// rejects: no memory model, dangling ids, odd operand counts), guards every
// access, and walks graphs iteratively. A finding names a stable rule id
// (see AllLintRules()), the offending instruction (opcode, result id, position
// in binary order) and what the Level Zero SPIR-V environment requires.
// Findings are deterministic: sorted by instruction position, then rule id,
// with duplicates removed. Thread-safe: calls share no mutable state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "oracles/validity/device_profile.h"
#include "oracles/validity/rules.h"
#include "spirv/module.h"
#include "spirv/test_case.h"

namespace l0spv::oracles {

// instruction_index of a finding about the module as a whole (its header, a
// missing OpMemoryModel).
inline constexpr size_t kModuleLevel = std::numeric_limits<size_t>::max();

struct LintFinding {
  std::string rule_id;  // e.g. "L0-ATOMIC-WIDTH"
  std::string message;
  uint32_t opcode = 0;                      // 0 for module-level findings
  uint32_t result_id = 0;                   // 0 when the instruction has none
  size_t instruction_index = kModuleLevel;  // position in binary order

  friend bool operator==(const LintFinding&, const LintFinding&) = default;
};

struct LintReport {
  std::string spirv_val_error;  // empty = spirv-val passed
  std::vector<LintFinding> findings;
  std::string profile;  // name of the profile linted against

  // A case of several modules whose LinkOnceODR copies differ (LintCase):
  // the linker's message.
  std::string link_error;

  bool ok() const {
    return spirv_val_error.empty() && findings.empty() && link_error.empty();
  }
  // One line per finding, spirv-val's verdict first, a summary line last.
  std::string ToText() const;
  // {"ok", "profile", "spirv_val": {"passed", "error"}, "findings": [{
  //   "rule_id", "message", "opcode", "opcode_name", "result_id",
  //   "instruction_index" (null when module-level)}]}
  nlohmann::json ToJson() const;
};

// Reads the binary (errors: InvalidArgument from spirv::ReadModule), then
// lints it with LintModule.
absl::StatusOr<LintReport> LintBinary(std::span<const uint8_t> bytes,
                                      const DeviceProfile& profile);

// spirv-val (on EncodeModule(module), in the environment for the module's
// version) and every Level Zero rule.
LintReport LintModule(const spirv::Module& module,
                      const DeviceProfile& profile);

// Every module of a case, then — for a case of several modules whose
// modules all lint clean — the program they link into (spirv::
// LinkTestCase), for what only shows across modules (a recursion through
// an import, an entry point's interface). Messages name the module file
// ("module-1.spv: ...") or "linked program: ". A case that does not link
// gets no program findings: ref says why it does not; one whose
// LinkOnceODR copies differ gets `link_error` (SPV_KHR_linkonce_odr wants
// them equivalent; a reduction must not make them differ). Unreadable words are
// a spirv-val error naming the file.
LintReport LintCase(const spirv::TestCase& test_case,
                    const DeviceProfile& profile);

// The Level Zero rules alone.
std::vector<LintFinding> CheckLevelZeroRules(const spirv::Module& module,
                                             const DeviceProfile& profile);

}  // namespace l0spv::oracles
