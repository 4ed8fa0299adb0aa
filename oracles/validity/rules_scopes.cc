// Scope rules ("Validation Rules"): the values allowed for Scope for
// Execution and Scope for Memory. Which operand is which comes from the
// grammar (operand names "Execution" and "Memory"), so every instruction with
// a scope is covered, including ones added to the grammar later.
#include <vector>

#include "absl/strings/str_cat.h"
#include "oracles/validity/rule_context.h"
#include "spirv/grammar.h"

namespace l0spv::oracles::validity_internal {
namespace {

using spirv::Instruction;
using spirv::OperandKind;
using spv::Op;

enum class ScopeRole { kExecution, kMemory, kOther };

// Roles of the instruction's IdScope operands, in order. Scope ids that are
// parameters of an enumerant (MemoryAccess MakePointerAvailable and the
// like) come after the instruction's own and are memory scopes.
std::vector<ScopeRole> ScopeRoles(const Instruction& inst) {
  std::vector<ScopeRole> roles;
  const spirv::OpcodeInfo* info = inst.info();
  if (info == nullptr) return roles;
  for (const spirv::OperandSpec& spec : info->operands) {
    if (spec.kind != OperandKind::kIdScope) continue;
    const std::string_view name = spec.name;
    roles.push_back(name == "Execution" ? ScopeRole::kExecution
                    : name == "Memory"  ? ScopeRole::kMemory
                                        : ScopeRole::kOther);
  }
  return roles;
}

std::string ScopeName(uint64_t value) {
  const spirv::EnumerantInfo* e =
      value > 0xFFFFFFFFu ? nullptr
                          : spirv::FindEnumerant(OperandKind::kScope,
                                                 static_cast<uint32_t>(value));
  return e ? std::string(e->name) : absl::StrCat("value ", value);
}

void CheckExecutionScope(RuleContext& ctx, const Instruction& inst, uint32_t id,
                         uint64_t value) {
  const Op op = static_cast<Op>(inst.opcode());
  const auto workgroup = static_cast<uint64_t>(spv::Scope::Workgroup);
  const auto subgroup = static_cast<uint64_t>(spv::Scope::Subgroup);
  const std::string what =
      absl::StrCat(ctx.Describe(inst), " has Scope for Execution ",
                   ScopeName(value), " (", ctx.IdName(id), ")");
  if (op == Op::OpGroupAsyncCopy || op == Op::OpGroupWaitEvents) {
    if (value != workgroup) {
      ctx.Report(kRuleExecScopeAsyncCopy, &inst,
                 absl::StrCat(what, "; Level Zero requires Workgroup for ",
                              AbslView(inst.name())));
    }
    return;
  }
  // OpGroupNonUniform*: the programming guide's extended subgroups allow
  // only Subgroup.
  if (inst.name().starts_with("OpGroupNonUniform")) {
    if (value != subgroup) {
      ctx.Report(kRuleExecScopeNonUniform, &inst,
                 absl::StrCat(what,
                              "; Level Zero (extended subgroups) requires "
                              "Subgroup for ",
                              AbslView(inst.name())));
    }
    return;
  }
  if (value != workgroup && value != subgroup) {
    ctx.Report(
        kRuleExecScope, &inst,
        absl::StrCat(what, "; Level Zero requires Workgroup or Subgroup"));
  }
}

void CheckMemoryScope(RuleContext& ctx, const Instruction& inst, uint32_t id,
                      uint64_t value) {
  switch (value) {
    case static_cast<uint64_t>(spv::Scope::CrossDevice):
    case static_cast<uint64_t>(spv::Scope::Device):
    case static_cast<uint64_t>(spv::Scope::Workgroup):
    case static_cast<uint64_t>(spv::Scope::Subgroup):
    case static_cast<uint64_t>(spv::Scope::Invocation):
      return;
    default:
      ctx.Report(kRuleMemoryScope, &inst,
                 absl::StrCat(ctx.Describe(inst), " has Scope for Memory ",
                              ScopeName(value), " (", ctx.IdName(id),
                              "); Level Zero requires CrossDevice, Device, "
                              "Workgroup, Subgroup or Invocation"));
  }
}

void CheckInstruction(RuleContext& ctx, const Instruction& inst) {
  std::vector<ScopeRole> roles;
  size_t next = 0;
  for (const spirv::Operand& operand : inst.operands()) {
    if (operand.kind != OperandKind::kIdScope || operand.words.empty()) {
      continue;
    }
    if (next == 0) roles = ScopeRoles(inst);
    const ScopeRole role =
        next < roles.size() ? roles[next] : ScopeRole::kMemory;
    ++next;
    const uint32_t id = operand.words[0];
    // Specialization constants and computed scopes are unknown here.
    std::optional<uint64_t> value = ctx.ConstantValue(id);
    if (!value) continue;
    if (role == ScopeRole::kExecution) {
      CheckExecutionScope(ctx, inst, id, *value);
    } else if (role == ScopeRole::kMemory) {
      CheckMemoryScope(ctx, inst, id, *value);
    }
  }
}

}  // namespace

void CheckScopeRules(RuleContext& ctx) {
  // Scopes appear only in function bodies, bar OpTypeCooperativeMatrixNV,
  // which no Level Zero profile accepts anyway.
  for (const spirv::Function& fn : ctx.module().functions) {
    for (const spirv::BasicBlock& bb : fn.blocks) {
      for (const Instruction& inst : bb.instructions) {
        CheckInstruction(ctx, inst);
      }
    }
  }
}

}  // namespace l0spv::oracles::validity_internal
