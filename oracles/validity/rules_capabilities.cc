// Capability and extension rules ("Required Capabilities", "Extensions").
//
// spirv-val already checks that what a module uses is enabled by what it
// declares; these rules add the device: a declared capability must be one
// the profile supports (directly, or through an extension the module
// declares and the profile accepts), and each use must be enabled by a
// capability that is both declared and supported, so a finding points at the
// instruction that needs the missing feature.
#include <array>
#include <span>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracles/validity/rule_context.h"
#include "spirv/grammar.h"

namespace l0spv::oracles::validity_internal {
namespace {

using spirv::Instruction;
using spirv::OperandKind;
using spv::Capability;
using spv::Op;

// One use that needs any one of `capabilities`. Everything points into
// static tables, so checking an instruction allocates nothing unless it
// yields a finding.
struct Requirement {
  std::string_view kind;  // "opcode", "StorageClass", ... ; "" for prose
  std::string_view name;  // "OpGroupIAdd", "Generic", "64-bit floats"
  std::span<const uint32_t> capabilities;
};
using Requirements = absl::InlinedVector<Requirement, 4>;

std::string JoinCapabilities(std::span<const uint32_t> caps) {
  std::vector<std::string> names;
  for (uint32_t c : caps) names.push_back(CapabilityName(c));
  return absl::StrJoin(names, " or ");
}

// The extension of the profile that would enable `capability`, or nullptr.
const ProfileExtension* EnablingExtension(const DeviceProfile& profile,
                                          uint32_t capability) {
  for (const ProfileExtension& ext : profile.extensions) {
    for (Capability c : ext.capabilities) {
      if (static_cast<uint32_t>(c) == capability) return &ext;
    }
  }
  return nullptr;
}

void CheckDeclaredCapabilities(RuleContext& ctx) {
  for (const Instruction& inst : ctx.module().capabilities) {
    auto c = OperandWord(inst, 0);
    if (!c || ctx.Allowed(*c)) continue;
    const ProfileExtension* ext = EnablingExtension(ctx.profile(), *c);
    std::string message =
        absl::StrCat("OpCapability ", CapabilityName(*c), ": ");
    if (ext != nullptr) {
      absl::StrAppend(&message, "profile '", ctx.profile().name,
                      "' enables it only through extension ", ext->name,
                      ", which the module does not declare (add OpExtension "
                      "\"",
                      ext->name, "\")");
    } else {
      absl::StrAppend(&message, "profile '", ctx.profile().name,
                      "' does not support this capability");
    }
    ctx.Report(kRuleCapability, &inst, std::move(message));
  }
}

void CheckExtensions(RuleContext& ctx) {
  for (const Instruction& inst : ctx.module().extensions) {
    const std::string name =
        inst.operands().empty() ? "" : inst.operand(0).AsString();
    if (ctx.profile().FindExtension(name) != nullptr) continue;
    ctx.Report(
        kRuleExtension, &inst,
        absl::StrCat("OpExtension \"", name, "\": profile '",
                     ctx.profile().name, "' does not accept this extension"));
  }
}

void AddEnumerantRequirements(const spirv::Operand& operand,
                              Requirements& out) {
  if (operand.words.empty()) return;
  const spirv::OperandKindInfo& kind = spirv::GetOperandKind(operand.kind);
  auto add = [&](uint32_t value) {
    const spirv::EnumerantInfo* e = spirv::FindEnumerant(operand.kind, value);
    if (e == nullptr || e->capabilities.empty()) return;
    out.push_back({kind.name, e->name, e->capabilities});
  };
  const uint32_t value = operand.words[0];
  if (kind.category == spirv::OperandCategory::kValueEnum) {
    add(value);
  } else if (kind.category == spirv::OperandCategory::kBitEnum) {
    for (uint32_t bit = 0; bit < 32; ++bit) {
      if (value & (1u << bit)) add(1u << bit);
    }
  }
}

template <Capability... Caps>
constexpr std::array<uint32_t, sizeof...(Caps)> kCaps = {
    static_cast<uint32_t>(Caps)...};

// Requirements the specification states in prose rather than in the
// grammar: scalar widths, long vectors, images.
void AddTypeRequirements(const Instruction& inst, Requirements& out) {
  auto req = [&out](std::string_view what, std::span<const uint32_t> caps) {
    out.push_back({"", what, caps});
  };
  const uint32_t w0 = OperandWord(inst, 0).value_or(0);
  switch (static_cast<Op>(inst.opcode())) {
    case Op::OpTypeInt:
      if (w0 == 8) req("8-bit integers", kCaps<Capability::Int8>);
      if (w0 == 16) req("16-bit integers", kCaps<Capability::Int16>);
      if (w0 == 64) req("64-bit integers", kCaps<Capability::Int64>);
      break;
    case Op::OpTypeFloat:
      if (w0 == 16) {
        req("16-bit floats",
            kCaps<Capability::Float16, Capability::Float16Buffer>);
      }
      if (w0 == 64) req("64-bit floats", kCaps<Capability::Float64>);
      break;
    case Op::OpTypeVector: {
      const uint32_t count = OperandWord(inst, 1).value_or(0);
      if (count == 8) req("8-component vectors", kCaps<Capability::Vector16>);
      if (count == 16) {
        req("16-component vectors", kCaps<Capability::Vector16>);
      }
      break;
    }
    case Op::OpTypeImage:
      req("image types", kCaps<Capability::ImageBasic>);
      if (auto access = FindOperandOfKind(inst, OperandKind::kAccessQualifier);
          access &&
          OperandWord(inst, *access) ==
              static_cast<uint32_t>(spv::AccessQualifier::ReadWrite)) {
        req("read-write images", kCaps<Capability::ImageReadWrite>);
      }
      break;
    case Op::OpTypeSampledImage:
      req("sampled image types", kCaps<Capability::ImageBasic>);
      break;
    default:
      // 64-bit atomics need Int64Atomics too, but which atomics the device
      // supports is L0-ATOMIC-WIDTH's to report; spirv-val checks the
      // declaration.
      break;
  }
}

void CheckUse(RuleContext& ctx, const Instruction& inst) {
  Requirements reqs;
  if (const spirv::OpcodeInfo* info = inst.info();
      info != nullptr && !info->capabilities.empty()) {
    reqs.push_back({"opcode", info->name, info->capabilities});
  }
  for (const spirv::Operand& operand : inst.operands()) {
    // An OpCapability operand's "capabilities" are the ones it implies.
    if (operand.kind == OperandKind::kCapability) continue;
    AddEnumerantRequirements(operand, reqs);
  }
  AddTypeRequirements(inst, reqs);
  for (const Requirement& r : reqs) {
    bool enabled = false;
    for (uint32_t c : r.capabilities) {
      enabled = enabled ||
                (ctx.Declares(static_cast<Capability>(c)) && ctx.Allowed(c));
    }
    if (enabled) continue;
    std::vector<uint32_t> declared_unsupported;
    for (uint32_t c : r.capabilities) {
      if (ctx.Declares(static_cast<Capability>(c)) && !ctx.Allowed(c)) {
        declared_unsupported.push_back(c);
      }
    }
    const std::string what =
        r.kind.empty() ? std::string(r.name)
                       : absl::StrCat(AbslView(r.kind), " ", AbslView(r.name));
    std::string message =
        absl::StrCat(ctx.Describe(inst), " uses ", what, ", which needs ",
                     JoinCapabilities(r.capabilities), "; ");
    if (!declared_unsupported.empty()) {
      absl::StrAppend(&message, "profile '", ctx.profile().name,
                      "' does not support ",
                      JoinCapabilities(declared_unsupported));
    } else {
      absl::StrAppend(&message, "the module declares none of them");
    }
    ctx.Report(kRuleCapability, &inst, std::move(message));
  }
}

void CheckUses(RuleContext& ctx) {
  ctx.module().ForEachInstruction([&ctx](const Instruction& inst) {
    const Op op = static_cast<Op>(inst.opcode());
    // The declarations themselves are checked above; the operands of
    // OpSpecConstantOp belong to the opcode it embeds, not to it.
    if (op == Op::OpCapability || op == Op::OpSpecConstantOp) return;
    CheckUse(ctx, inst);
  });
}

}  // namespace

void CheckCapabilityRules(RuleContext& ctx) {
  CheckDeclaredCapabilities(ctx);
  CheckExtensions(ctx);
  CheckUses(ctx);
}

}  // namespace l0spv::oracles::validity_internal
