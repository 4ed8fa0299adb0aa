#include "oracles/validity/rule_context.h"

#include <algorithm>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "spirv/grammar.h"

namespace l0spv::oracles::validity_internal {

using spirv::Instruction;
using spv::Op;

std::optional<uint32_t> OperandWord(const Instruction& inst, size_t i) {
  if (i >= inst.NumOperands() || inst.operand(i).words.empty()) {
    return std::nullopt;
  }
  return inst.operand(i).words[0];
}

std::optional<size_t> FindOperandOfKind(const Instruction& inst,
                                        spirv::OperandKind kind) {
  for (size_t i = 0; i < inst.NumOperands(); ++i) {
    if (inst.operand(i).kind == kind) return i;
  }
  return std::nullopt;
}

std::string PrintableText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7F) {
      out.push_back(c);
    } else {
      absl::StrAppend(&out, "\\x", absl::Hex(byte, absl::kZeroPad2));
    }
  }
  return out;
}

std::string EnumName(spirv::OperandKind kind, uint32_t value) {
  return std::string(spirv::EnumerantName(kind, value));
}

std::string CapabilityName(uint32_t capability) {
  const spirv::EnumerantInfo* e =
      spirv::FindEnumerant(spirv::OperandKind::kCapability, capability);
  return e ? std::string(e->name) : absl::StrCat("capability ", capability);
}

RuleContext::RuleContext(const spirv::Module& module,
                         const DeviceProfile& profile)
    : module_(module), profile_(profile), def_use_(module), types_(module) {
  size_t index = 0;
  module.ForEachInstruction(
      [this, &index](const Instruction& inst) { index_[&inst] = index++; });
  for (const spirv::Function& fn : module.functions) {
    functions_.emplace(fn.id(), &fn);
  }
  for (const Instruction& inst : module.debug_names) {
    if (static_cast<Op>(inst.opcode()) == Op::OpName &&
        inst.NumOperands() >= 2) {
      if (auto id = OperandWord(inst, 0)) {
        names_.emplace(*id, inst.operand(1).AsString());
      }
    }
  }
  // Declared capabilities, closed under "implicitly declares" (the grammar
  // lists a capability's implied ones as its own `capabilities`).
  std::vector<uint32_t> work;
  for (const Instruction& inst : module.capabilities) {
    if (auto c = OperandWord(inst, 0)) work.push_back(*c);
  }
  while (!work.empty()) {
    const uint32_t c = work.back();
    work.pop_back();
    if (!declared_.insert(c).second) continue;
    if (const spirv::EnumerantInfo* e =
            spirv::FindEnumerant(spirv::OperandKind::kCapability, c)) {
      for (uint32_t implied : e->capabilities) work.push_back(implied);
    }
  }
  absl::flat_hash_set<std::string> extensions;
  for (const Instruction& inst : module.extensions) {
    if (!inst.operands().empty()) {
      extensions.insert(inst.operand(0).AsString());
    }
  }
  for (spv::Capability c : profile.capabilities) {
    allowed_.insert(static_cast<uint32_t>(c));
  }
  for (const ProfileExtension& ext : profile.extensions) {
    if (!extensions.contains(ext.name)) continue;
    for (spv::Capability c : ext.capabilities) {
      allowed_.insert(static_cast<uint32_t>(c));
    }
  }
}

void RuleContext::Report(std::string_view rule_id, const Instruction* inst,
                         std::string message) {
  LintFinding f;
  f.rule_id = std::string(rule_id);
  f.message = PrintableText(message);
  if (inst != nullptr) {
    f.opcode = inst->opcode();
    f.result_id = inst->result_id();
    auto it = index_.find(inst);
    if (it != index_.end()) f.instruction_index = it->second;
  }
  findings_.push_back(std::move(f));
}

std::vector<LintFinding> RuleContext::TakeFindings() {
  // Module-level findings first, then in binary order.
  auto key = [](const LintFinding& f) {
    return std::make_tuple(f.instruction_index != kModuleLevel,
                           f.instruction_index, std::string_view(f.rule_id),
                           std::string_view(f.message));
  };
  std::stable_sort(findings_.begin(), findings_.end(),
                   [&key](const LintFinding& a, const LintFinding& b) {
                     return key(a) < key(b);
                   });
  findings_.erase(std::unique(findings_.begin(), findings_.end()),
                  findings_.end());
  return std::move(findings_);
}

std::string RuleContext::Describe(const Instruction& inst) const {
  std::string out(AbslView(inst.name()));
  if (inst.result_id() != 0)
    absl::StrAppend(&out, " ", IdName(inst.result_id()));
  return out;
}

std::string RuleContext::IdName(uint32_t id) const {
  auto it = names_.find(id);
  if (it == names_.end() || it->second.empty()) return absl::StrCat("%", id);
  return absl::StrCat("%", id, " (", it->second, ")");
}

const spirv::TypeInfo* RuleContext::TypeOfValue(uint32_t value_id) const {
  const Instruction* def = def_use_.Def(value_id);
  if (def == nullptr || def->type_id() == 0) return nullptr;
  return types_.Get(def->type_id());
}

std::string RuleContext::TypeName(uint32_t type_id) const {
  const spirv::TypeInfo* t = types_.Get(type_id);
  if (t == nullptr) return absl::StrCat("undeclared type %", type_id);
  switch (t->op) {
    case Op::OpTypeVoid:
      return "void";
    case Op::OpTypeBool:
      return "bool";
    case Op::OpTypeInt:
      return absl::StrCat("i", t->width);
    case Op::OpTypeFloat:
      return absl::StrCat("f", t->width);
    case Op::OpTypeVector: {
      // Vector components are scalars in any module types_ kept, so this
      // recursion is one level deep.
      const spirv::TypeInfo* e = types_.Get(t->element);
      const bool scalar = e != nullptr && e->op != Op::OpTypeVector;
      return absl::StrCat("v", t->count, scalar ? TypeName(t->element) : "<?>");
    }
    case Op::OpTypePointer:
      return absl::StrCat("pointer to ",
                          EnumName(spirv::OperandKind::kStorageClass,
                                   static_cast<uint32_t>(t->storage_class)));
    default: {
      const spirv::OpcodeInfo* info =
          spirv::FindOpcode(static_cast<uint32_t>(t->op));
      return info ? std::string(info->name) : "type";
    }
  }
}

std::optional<uint64_t> RuleContext::ConstantValue(uint32_t id) const {
  return types_.IntConstant(id, /*allow_spec=*/false);
}

bool RuleContext::Allowed(uint32_t capability) const {
  return allowed_.contains(capability);
}

const spirv::Function* RuleContext::FunctionById(uint32_t id) const {
  auto it = functions_.find(id);
  return it == functions_.end() ? nullptr : it->second;
}

bool RuleContext::HasDecoration(uint32_t id, spv::Decoration decoration,
                                std::optional<uint32_t> value) const {
  for (const spirv::Use& use : def_use_.Uses(id)) {
    const Instruction& user = *use.user;
    if (static_cast<Op>(user.opcode()) != Op::OpDecorate ||
        use.operand_index != 0) {
      continue;
    }
    if (OperandWord(user, 1) != static_cast<uint32_t>(decoration)) continue;
    if (!value || OperandWord(user, 2) == *value) return true;
  }
  return false;
}

}  // namespace l0spv::oracles::validity_internal
