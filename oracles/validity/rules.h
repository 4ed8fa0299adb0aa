// oracles/validity/rules.h — the table of Level Zero lint rules.
//
// Contract: every rule id a finding can carry appears here exactly once, with
// a one-line description and the part of the Level Zero SPIR-V environment
// specification it enforces. The table is static data, in a stable order
// (grouped as the specification orders its rules); ids never change meaning.
#pragma once

#include <span>
#include <string_view>

namespace l0spv::oracles {

struct RuleInfo {
  std::string_view id;              // "L0-EXEC-MODEL"
  std::string_view summary;         // one line: what the rule requires
  std::string_view spec_reference;  // section of the environment spec
};

std::span<const RuleInfo> AllLintRules();
// The rule with this id, or nullptr.
const RuleInfo* FindLintRule(std::string_view id);

}  // namespace l0spv::oracles
