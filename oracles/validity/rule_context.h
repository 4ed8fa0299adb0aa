// oracles/validity/rule_context.h — what every Level Zero rule sees
// (internal to l0spv_validity).
//
// Contract: a RuleContext wraps one module and one profile with the analyses
// the rules share (def-use, type table, instruction positions, the declared
// capability closure) and collects findings. The module must outlive it and
// must not change while it exists. Every helper tolerates hostile modules:
// missing ids, wrong types and short operand lists yield std::nullopt /
// nullptr, never a crash.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "oracles/validity/device_profile.h"
#include "oracles/validity/lint.h"
#include "spirv/def_use.h"
#include "spirv/module.h"
#include "spirv/type_table.h"

namespace l0spv::oracles::validity_internal {

// Rule ids; the descriptions live in rules_table.cc.
inline constexpr std::string_view kRuleSpirvVersion = "L0-SPIRV-VERSION";
inline constexpr std::string_view kRuleExecModel = "L0-EXEC-MODEL";
inline constexpr std::string_view kRuleAddressing = "L0-ADDRESSING";
inline constexpr std::string_view kRuleMemoryModel = "L0-MEMORY-MODEL";
inline constexpr std::string_view kRuleExtInstSet = "L0-EXTINST-SET";
inline constexpr std::string_view kRuleIntSignedness = "L0-INT-SIGNEDNESS";
inline constexpr std::string_view kRuleIntWidth = "L0-INT-WIDTH";
inline constexpr std::string_view kRuleFloatWidth = "L0-FLOAT-WIDTH";
inline constexpr std::string_view kRuleVectorSize = "L0-VECTOR-SIZE";
inline constexpr std::string_view kRuleKernelReturnType =
    "L0-KERNEL-RETURN-TYPE";
inline constexpr std::string_view kRuleKernelArgType = "L0-KERNEL-ARG-TYPE";
inline constexpr std::string_view kRuleKernelArgWidth = "L0-KERNEL-ARG-WIDTH";
inline constexpr std::string_view kRuleImageSampledType =
    "L0-IMAGE-SAMPLED-TYPE";
inline constexpr std::string_view kRuleImageSampled = "L0-IMAGE-SAMPLED";
inline constexpr std::string_view kRuleImageMs = "L0-IMAGE-MS";
inline constexpr std::string_view kRuleImageArrayed = "L0-IMAGE-ARRAYED";
inline constexpr std::string_view kRuleImageFormat = "L0-IMAGE-FORMAT";
inline constexpr std::string_view kRuleImageAccessQualifier =
    "L0-IMAGE-ACCESS-QUALIFIER";
inline constexpr std::string_view kRuleImageWriteOperands =
    "L0-IMAGE-WRITE-OPERANDS";
inline constexpr std::string_view kRuleImageReadConstOffset =
    "L0-IMAGE-READ-CONSTOFFSET";
inline constexpr std::string_view kRuleAtomicWidth = "L0-ATOMIC-WIDTH";
inline constexpr std::string_view kRuleAtomicStorageClass =
    "L0-ATOMIC-STORAGE-CLASS";
inline constexpr std::string_view kRuleRecursion = "L0-RECURSION";
inline constexpr std::string_view kRuleExecScope = "L0-EXEC-SCOPE";
inline constexpr std::string_view kRuleExecScopeAsyncCopy =
    "L0-EXEC-SCOPE-ASYNC-COPY";
inline constexpr std::string_view kRuleExecScopeNonUniform =
    "L0-EXEC-SCOPE-NON-UNIFORM";
inline constexpr std::string_view kRuleMemoryScope = "L0-MEMORY-SCOPE";
inline constexpr std::string_view kRuleCapability = "L0-CAPABILITY";
inline constexpr std::string_view kRuleExtension = "L0-EXTENSION";
inline constexpr std::string_view kRuleSubgroupTypes = "L0-SUBGROUP-TYPES";
inline constexpr std::string_view kRuleNonUniformTypes = "L0-NON-UNIFORM-TYPES";

// First word of operand `i`, or nullopt when the instruction is too short.
std::optional<uint32_t> OperandWord(const spirv::Instruction& inst, size_t i);
// Index of the first operand of `kind`, or nullopt.
std::optional<size_t> FindOperandOfKind(const spirv::Instruction& inst,
                                        spirv::OperandKind kind);
// Module strings (OpName, OpExtension, ...) need not be UTF-8 or printable;
// findings must be both (one line of text, valid JSON): printable ASCII is
// kept, every other byte becomes \xNN.
std::string PrintableText(std::string_view text);
// Debian's abseil has its own absl::string_view, distinct from
// std::string_view, so absl string functions need an explicit bridge.
inline absl::string_view AbslView(std::string_view text) {
  return absl::string_view(text.data(), text.size());
}
// Name of an enumerant ("Physical64"), as a std::string for absl::StrCat.
std::string EnumName(spirv::OperandKind kind, uint32_t value);
// "Float64", or the number when the grammar has no name for it.
std::string CapabilityName(uint32_t capability);

class RuleContext {
 public:
  RuleContext(const spirv::Module& module, const DeviceProfile& profile);
  RuleContext(const RuleContext&) = delete;
  RuleContext& operator=(const RuleContext&) = delete;

  const spirv::Module& module() const { return module_; }
  const DeviceProfile& profile() const { return profile_; }
  const spirv::DefUse& def_use() const { return def_use_; }
  const spirv::TypeTable& types() const { return types_; }

  // Records a finding anchored at `inst` (nullptr: module-level).
  void Report(std::string_view rule_id, const spirv::Instruction* inst,
              std::string message);
  // The findings so far, sorted and deduplicated.
  std::vector<LintFinding> TakeFindings();

  // "OpTypeInt %5", "OpEntryPoint \"main\"" style names for messages.
  std::string Describe(const spirv::Instruction& inst) const;
  // "%5" or "%5 (name)" when the module names it with OpName.
  std::string IdName(uint32_t id) const;
  // The decoded type of a value (through its definition's result type).
  const spirv::TypeInfo* TypeOfValue(uint32_t value_id) const;
  // A short human-readable type name: "i32", "f16", "v4i32", "pointer to
  // Workgroup", "OpTypeEvent", ...
  std::string TypeName(uint32_t type_id) const;
  // Value of a non-specialization integer constant, or nullopt (spec
  // constants and non-constants are unknown at lint time).
  std::optional<uint64_t> ConstantValue(uint32_t id) const;

  // Capabilities the module declares, closed under "implicitly declares".
  bool Declares(spv::Capability capability) const {
    return declared_.contains(static_cast<uint32_t>(capability));
  }
  // Whether the device accepts `capability` for this module: in the profile,
  // or enabled by an extension the module declares and the profile accepts.
  bool Allowed(uint32_t capability) const;
  // Whether OpDecorate gives `id` this decoration (first literal `value`, or
  // any when nullopt).
  bool HasDecoration(uint32_t id, spv::Decoration decoration,
                     std::optional<uint32_t> value = std::nullopt) const;
  // The function with this result id, or nullptr (constant time: hostile
  // modules may have many entry points and many functions).
  const spirv::Function* FunctionById(uint32_t id) const;

 private:
  const spirv::Module& module_;
  const DeviceProfile& profile_;
  spirv::DefUse def_use_;
  spirv::TypeTable types_;
  absl::flat_hash_map<const spirv::Instruction*, size_t> index_;
  absl::flat_hash_map<uint32_t, std::string> names_;
  absl::flat_hash_map<uint32_t, const spirv::Function*> functions_;
  absl::flat_hash_set<uint32_t> declared_;
  absl::flat_hash_set<uint32_t> allowed_;
  std::vector<LintFinding> findings_;
};

// The rule groups, one per rules_*.cc file.
void CheckModelRules(RuleContext& ctx);       // version, model, memory model
void CheckTypeRules(RuleContext& ctx);        // int/float/vector types
void CheckKernelRules(RuleContext& ctx);      // entry point signatures
void CheckImageRules(RuleContext& ctx);       // image types and accesses
void CheckAtomicRules(RuleContext& ctx);      // atomic widths and storage
void CheckScopeRules(RuleContext& ctx);       // execution and memory scopes
void CheckCallGraphRules(RuleContext& ctx);   // recursion
void CheckCapabilityRules(RuleContext& ctx);  // capabilities, extensions
void CheckSubgroupRules(RuleContext& ctx);    // SPV_INTEL_subgroups types

}  // namespace l0spv::oracles::validity_internal
