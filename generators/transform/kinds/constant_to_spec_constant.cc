// Replaces a use of a scalar integer constant with a new OpSpecConstant of
// the same type and default value, decorated with a fresh SpecId that no
// other constant uses. Nobody specialises it, so every consumer uses the
// default; a compiler can no longer fold it before specialisation.
// Only operands where a computed value could go (data_util.h) change: a spec
// constant is not a constant everywhere a literal constant is required.
// Only in SPIR-V 1.1 and later (Kernel's SpecId is 1.1).
//
// Record: {"use": descriptor, "operand": i, "spec_id": n}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

constexpr uint32_t kSpecId = static_cast<uint32_t>(spv::Decoration::SpecId);

// Every SpecId in use.
std::vector<uint32_t> UsedSpecIds(const spirv::Module& m) {
  std::vector<uint32_t> out;
  for (const spirv::Instruction& a : m.annotations)
    if (OpOf(a) == Op::OpDecorate && a.NumOperands() >= 3 &&
        a.word(1) == kSpecId)
      out.push_back(a.word(2));
  return out;
}

// SPIR-V 1.0 allows SpecId for Shader only; Kernel has it from 1.1.
bool SpecIdAllowed(const spirv::Module& m) {
  return m.header.version >= 0x00010100;
}

class ConstantToSpecConstantKind : public Transformation {
 public:
  std::string_view kind() const override { return "constant_to_spec_constant"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    if (!SpecIdAllowed(ctx.module())) return std::nullopt;
    std::vector<ConstantUse> uses = FindIntConstantUses(ctx, false);
    if (uses.empty()) return std::nullopt;
    const ConstantUse& use =
        uses[rng.Below(static_cast<uint32_t>(uses.size()))];
    uint32_t spec_id = 0;
    for (uint32_t id : UsedSpecIds(ctx.module()))
      spec_id = std::max(spec_id, id + 1);
    return Record{{"use", ToJson(ctx.Describe(use.pos))},
                  {"operand", use.operand},
                  {"spec_id", spec_id + rng.Below(16)}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    if (!SpecIdAllowed(ctx.module()))
      return absl::FailedPreconditionError(
          "SpecId on a Kernel module's constant needs SPIR-V 1.1");
    auto pos = ResolveField(ctx, r, "use");
    if (!pos.ok()) return pos.status();
    uint32_t constant = 0;
    auto c =
        CheckIntConstantUse(ctx, *pos, Field<size_t>(r, "operand"), &constant);
    if (!c.ok()) return c.status();
    const uint32_t spec_id = Field<uint32_t>(r, "spec_id");
    const std::vector<uint32_t> used = UsedSpecIds(ctx.module());
    if (std::find(used.begin(), used.end(), spec_id) != used.end())
      return absl::FailedPreconditionError(
          absl::StrCat("SpecId ", spec_id, " is already in use"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos use = *ResolveField(ctx, r, "use");
    const size_t operand = Field<size_t>(r, "operand");
    const uint32_t constant = ctx.At(use).operand(operand).AsId();
    const uint32_t type = ctx.TypeOf(constant);
    const uint64_t value = *ctx.types().IntConstant(constant);
    const uint32_t width = ctx.types().ScalarWidth(type);
    // Low word first; narrower types hold the zero-extended value (Kernel
    // ints have signedness 0, so no sign extension of the word).
    spirv::Operand literal{spirv::OperandKind::kLiteralContextDependentNumber,
                           {static_cast<uint32_t>(value)}};
    if (width > 32) literal.words.push_back(static_cast<uint32_t>(value >> 32));
    const uint32_t spec = ctx.NewId();
    ctx.module().types_values.push_back(
        spirv::Instruction(U(Op::OpSpecConstant), type, spec, {literal}));
    ctx.ResetBuilder();  // the types/values section was edited by hand
    ctx.module().annotations.push_back(spirv::Instruction(
        U(Op::OpDecorate), 0, 0,
        {spirv::IdOperand(spec),
         spirv::EnumOperand(spirv::OperandKind::kDecoration, kSpecId),
         spirv::LiteralOperand(Field<uint32_t>(r, "spec_id"))}));
    ctx.At(use).mutable_operands()[operand].words[0] = spec;
    ctx.facts().AddSynonym(constant, spec);
  }
};

}  // namespace

const Transformation* ConstantToSpecConstant() {
  static const ConstantToSpecConstantKind* t = new ConstantToSpecConstantKind;
  return t;
}

}  // namespace l0spv::generators::transform
