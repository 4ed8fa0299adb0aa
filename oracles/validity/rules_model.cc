// Module-shape rules: SPIR-V version, execution model, addressing and memory
// model, extended instruction sets.
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "oracles/validity/rule_context.h"
#include "spirv/grammar.h"

namespace l0spv::oracles::validity_internal {
namespace {

using spirv::Instruction;
using spirv::OperandKind;

// Supported SPIR-V Versions: at most ze_device_kernel_properties_t::
// spirvVersionSupported. A header that is not a 1.x version word (major 1,
// low and high bytes zero) is no version any device supports.
void CheckSpirvVersion(RuleContext& ctx) {
  const uint32_t v = ctx.module().header.version;
  const bool well_formed = (v & 0xFF0000FF) == 0 && ((v >> 16) & 0xFF) == 1;
  if (!well_formed) {
    ctx.Report(kRuleSpirvVersion, nullptr,
               absl::StrFormat("module header version word 0x%08x is not a "
                               "SPIR-V 1.x version; profile '%s' accepts "
                               "SPIR-V 1.0 to %s",
                               v, ctx.profile().name,
                               ctx.profile().MaxSpirvVersionString()));
  } else if (v > ctx.profile().max_spirv_version) {
    ctx.Report(kRuleSpirvVersion, nullptr,
               absl::StrCat("module is SPIR-V ", SpirvVersionString(v),
                            ", newer than SPIR-V ",
                            ctx.profile().MaxSpirvVersionString(),
                            ", the newest version profile '",
                            ctx.profile().name, "' supports"));
  }
}

// "The Execution Model declared in OpEntryPoint must be Kernel."
void CheckExecutionModels(RuleContext& ctx) {
  for (const Instruction& inst : ctx.module().entry_points) {
    auto model = OperandWord(inst, 0);
    if (!model || *model == static_cast<uint32_t>(spv::ExecutionModel::Kernel))
      continue;
    const std::string name =
        inst.NumOperands() > 2 ? inst.operand(2).AsString() : "";
    ctx.Report(kRuleExecModel, &inst,
               absl::StrCat("OpEntryPoint \"", name, "\" (function ",
                            ctx.IdName(OperandWord(inst, 1).value_or(0)),
                            ") uses execution model ",
                            EnumName(OperandKind::kExecutionModel, *model),
                            "; Level Zero requires Kernel"));
  }
}

// "The Addressing Model declared in OpMemoryModel must Physical64" and
// "The Memory Model declared in OpMemoryModel must be OpenCL."
void CheckMemoryModel(RuleContext& ctx) {
  if (ctx.module().memory_model.empty()) {
    ctx.Report(kRuleMemoryModel, nullptr,
               "module has no OpMemoryModel; Level Zero requires "
               "OpMemoryModel Physical64 OpenCL");
    return;
  }
  for (const Instruction& inst : ctx.module().memory_model) {
    auto addressing = OperandWord(inst, 0);
    if (addressing && *addressing != static_cast<uint32_t>(
                                         spv::AddressingModel::Physical64)) {
      ctx.Report(
          kRuleAddressing, &inst,
          absl::StrCat("OpMemoryModel declares addressing model ",
                       EnumName(OperandKind::kAddressingModel, *addressing),
                       "; Level Zero requires Physical64 (64-bit "
                       "device pointers)"));
    }
    auto memory = OperandWord(inst, 1);
    if (memory && *memory != static_cast<uint32_t>(spv::MemoryModel::OpenCL)) {
      ctx.Report(kRuleMemoryModel, &inst,
                 absl::StrCat("OpMemoryModel declares memory model ",
                              EnumName(OperandKind::kMemoryModel, *memory),
                              "; Level Zero requires OpenCL"));
    }
  }
}

// Extended Instruction Sets: OpenCL.std is the supported set. NonSemantic.*
// sets carry no semantics by definition (consumers may drop them), so they
// are allowed.
void CheckExtInstImports(RuleContext& ctx) {
  for (const Instruction& inst : ctx.module().ext_inst_imports) {
    const std::string name =
        inst.operands().empty() ? "" : inst.operand(0).AsString();
    if (name == "OpenCL.std" || absl::StartsWith(name, "NonSemantic.")) {
      continue;
    }
    ctx.Report(kRuleExtInstSet, &inst,
               absl::StrCat(ctx.Describe(inst), " imports \"", name,
                            "\"; Level Zero supports only the OpenCL.std "
                            "extended instruction set (and ignorable "
                            "NonSemantic.* sets)"));
  }
}

}  // namespace

void CheckModelRules(RuleContext& ctx) {
  CheckSpirvVersion(ctx);
  CheckExecutionModels(ctx);
  CheckMemoryModel(ctx);
  CheckExtInstImports(ctx);
}

}  // namespace l0spv::oracles::validity_internal
