// Type-declaration rules: integer signedness and width, float width, vector
// component counts ("Supported Types" and "Validation Rules").
#include "absl/strings/str_cat.h"
#include "oracles/validity/rule_context.h"

namespace l0spv::oracles::validity_internal {
namespace {

using spirv::Instruction;
using spv::Op;

void CheckInt(RuleContext& ctx, const Instruction& inst) {
  if (auto width = OperandWord(inst, 0);
      width && *width != 8 && *width != 16 && *width != 32 && *width != 64) {
    ctx.Report(kRuleIntWidth, &inst,
               absl::StrCat(ctx.Describe(inst), " has Width ", *width,
                            "; Level Zero supports 8, 16, 32 and 64-bit "
                            "integers"));
  }
  if (auto signedness = OperandWord(inst, 1); signedness && *signedness != 0) {
    ctx.Report(kRuleIntSignedness, &inst,
               absl::StrCat(ctx.Describe(inst), " has Signedness ", *signedness,
                            "; Level Zero requires 0 (no signedness "
                            "semantics: signedness lives in the "
                            "instructions)"));
  }
}

void CheckFloat(RuleContext& ctx, const Instruction& inst) {
  if (auto width = OperandWord(inst, 0);
      width && *width != 16 && *width != 32 && *width != 64) {
    ctx.Report(kRuleFloatWidth, &inst,
               absl::StrCat(ctx.Describe(inst), " has Width ", *width,
                            "; Level Zero supports 16, 32 and 64-bit "
                            "floats"));
  }
}

void CheckVector(RuleContext& ctx, const Instruction& inst) {
  auto count = OperandWord(inst, 1);
  if (!count) return;
  switch (*count) {
    case 2:
    case 3:
    case 4:
    case 8:
    case 16:
      return;
    default:
      ctx.Report(
          kRuleVectorSize, &inst,
          absl::StrCat(ctx.Describe(inst), " has Component Count ", *count,
                       "; Level Zero supports 2, 3, 4, 8 and 16 "
                       "components"));
  }
}

}  // namespace

void CheckTypeRules(RuleContext& ctx) {
  for (const Instruction& inst : ctx.module().types_values) {
    switch (static_cast<Op>(inst.opcode())) {
      case Op::OpTypeInt:
        CheckInt(ctx, inst);
        break;
      case Op::OpTypeFloat:
        CheckFloat(ctx, inst);
        break;
      case Op::OpTypeVector:
        CheckVector(ctx, inst);
        break;
      default:
        break;
    }
  }
}

}  // namespace l0spv::oracles::validity_internal
