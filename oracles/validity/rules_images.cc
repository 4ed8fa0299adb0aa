// Image rules ("Validation Rules"): the shape of OpTypeImage, and the image
// operands OpImageWrite, OpImageRead and OpImageSampleExplicitLod may carry.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "oracles/validity/rule_context.h"
#include "spirv/grammar.h"

namespace l0spv::oracles::validity_internal {
namespace {

using spirv::Instruction;
using spirv::OperandKind;
using spv::Op;

// OpTypeImage operands: Sampled Type, Dim, Depth, Arrayed, MS, Sampled,
// Image Format, [Access Qualifier].
enum ImageOperand : size_t {
  kSampledType = 0,
  kDim = 1,
  kArrayed = 3,
  kMs = 4,
  kSampled = 5,
  kFormat = 6,
  kAccess = 7,
};

void CheckImageType(RuleContext& ctx, const Instruction& inst) {
  const std::string what = ctx.Describe(inst);
  if (auto sampled_type = OperandWord(inst, kSampledType)) {
    const spirv::TypeInfo* t = ctx.types().Get(*sampled_type);
    if (t == nullptr || t->op != Op::OpTypeVoid) {
      ctx.Report(kRuleImageSampledType, &inst,
                 absl::StrCat(what, " has Sampled Type %", *sampled_type, " (",
                              ctx.TypeName(*sampled_type),
                              "); Level Zero requires OpTypeVoid"));
    }
  }
  if (auto sampled = OperandWord(inst, kSampled); sampled && *sampled != 0) {
    ctx.Report(kRuleImageSampled, &inst,
               absl::StrCat(what, " has Sampled ", *sampled,
                            "; Level Zero requires 0 (usage known only at run "
                            "time)"));
  }
  if (auto ms = OperandWord(inst, kMs); ms && *ms != 0) {
    ctx.Report(kRuleImageMs, &inst,
               absl::StrCat(what, " has MS ", *ms,
                            "; Level Zero requires 0 (single-sampled)"));
  }
  auto dim = OperandWord(inst, kDim);
  if (auto arrayed = OperandWord(inst, kArrayed);
      arrayed && *arrayed != 0 && dim &&
      *dim != static_cast<uint32_t>(spv::Dim::Dim1D) &&
      *dim != static_cast<uint32_t>(spv::Dim::Dim2D)) {
    ctx.Report(kRuleImageArrayed, &inst,
               absl::StrCat(what, " is Arrayed with Dim ",
                            EnumName(OperandKind::kDim, *dim),
                            "; Level Zero allows arrayed images only for Dim "
                            "1D and 2D"));
  }
  if (auto format = OperandWord(inst, kFormat);
      format && *format != static_cast<uint32_t>(spv::ImageFormat::Unknown)) {
    ctx.Report(kRuleImageFormat, &inst,
               absl::StrCat(what, " has Image Format ",
                            EnumName(OperandKind::kImageFormat, *format),
                            "; Level Zero requires Unknown (format known only "
                            "at run time)"));
  }
  if (!FindOperandOfKind(inst, OperandKind::kAccessQualifier)) {
    ctx.Report(kRuleImageAccessQualifier, &inst,
               absl::StrCat(what,
                            " has no Access Qualifier; Level Zero requires "
                            "one (ReadOnly, WriteOnly or ReadWrite)"));
  }
}

// The Image Operands mask of an image instruction, or 0 when it has none.
uint32_t ImageOperandsMask(const Instruction& inst) {
  auto index = FindOperandOfKind(inst, OperandKind::kImageOperands);
  if (!index) return 0;
  return OperandWord(inst, *index).value_or(0);
}

void CheckImageWrite(RuleContext& ctx, const Instruction& inst) {
  // The Image Operands mask is itself the optional operand, so a mask of 0
  // ("None") counts too: the environment says "must not include any", and
  // spirv-val's OpenCL environment rejects the None mask as well.
  auto index = FindOperandOfKind(inst, OperandKind::kImageOperands);
  if (!index) return;
  ctx.Report(kRuleImageWriteOperands, &inst,
             absl::StrFormat("%s has Image Operands 0x%x; Level Zero forbids "
                             "optional Image Operands on OpImageWrite",
                             ctx.Describe(inst),
                             OperandWord(inst, *index).value_or(0)));
}

void CheckImageReadConstOffset(RuleContext& ctx, const Instruction& inst) {
  const uint32_t mask = ImageOperandsMask(inst);
  if ((mask & static_cast<uint32_t>(spv::ImageOperandsMask::ConstOffset)) == 0)
    return;
  ctx.Report(kRuleImageReadConstOffset, &inst,
             absl::StrCat(ctx.Describe(inst),
                          " uses Image Operand ConstOffset; Level Zero "
                          "forbids it on OpImageRead and "
                          "OpImageSampleExplicitLod"));
}

}  // namespace

void CheckImageRules(RuleContext& ctx) {
  for (const Instruction& inst : ctx.module().types_values) {
    if (static_cast<Op>(inst.opcode()) == Op::OpTypeImage) {
      CheckImageType(ctx, inst);
    }
  }
  for (const spirv::Function& fn : ctx.module().functions) {
    for (const spirv::BasicBlock& bb : fn.blocks) {
      for (const Instruction& inst : bb.instructions) {
        switch (static_cast<Op>(inst.opcode())) {
          case Op::OpImageWrite:
            CheckImageWrite(ctx, inst);
            break;
          case Op::OpImageRead:
          case Op::OpImageSampleExplicitLod:
            CheckImageReadConstOffset(ctx, inst);
            break;
          default:
            break;
        }
      }
    }
  }
}

}  // namespace l0spv::oracles::validity_internal
