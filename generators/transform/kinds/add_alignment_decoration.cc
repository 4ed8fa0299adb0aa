// Decorates an OpVariable, or a pointer parameter of the kernel, with
// Alignment = the natural (OpenCL layout) alignment of its pointee, where
// that provably holds: consumers allocate variables at least naturally
// aligned, and kernel buffer arguments are whole allocations (Level Zero
// and OpenCL align those to at least 64/128 bytes, more than any natural
// alignment up to a 16-lane 64-bit vector). Objects already decorated with
// Alignment are left alone, and so are built-in variables (the consumer's
// own, where Alignment means nothing); the alignment must be a power of two
// no larger than 128. Pointer parameters are drawn half the time.
//
// Record: {"target": id}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

constexpr uint32_t kAlignment =
    static_cast<uint32_t>(spv::Decoration::Alignment);

bool HasAlignment(const spirv::Module& m, uint32_t id) {
  for (const spirv::Instruction& a : m.annotations)
    if (OpOf(a) == Op::OpDecorate && a.word(0) == id &&
        (a.word(1) == kAlignment ||
         a.word(1) == static_cast<uint32_t>(spv::Decoration::AlignmentId)))
      return true;
  return false;
}

// A BuiltIn-decorated variable (the OpenCL environment's Input variables)
// is the consumer's own object: an Alignment on it means nothing at best.
bool IsBuiltIn(const spirv::Module& m, uint32_t id) {
  for (const spirv::Instruction& a : m.annotations)
    if (OpOf(a) == Op::OpDecorate && a.word(0) == id &&
        a.word(1) == static_cast<uint32_t>(spv::Decoration::BuiltIn))
      return true;
  return false;
}

// The alignment `id` provably has, or 0.
uint64_t ProvableAlignment(TransformContext& ctx, uint32_t id) {
  const DefSite* d = ctx.Def(id);
  if (d == nullptr) return 0;
  const bool variable = d->opcode == U(Op::OpVariable);
  const bool kernel_param = d->opcode == U(Op::OpFunctionParameter) &&
                            d->function == ctx.entry_function();
  if (!variable && !kernel_param) return 0;
  if (HasAlignment(ctx.module(), id) || IsBuiltIn(ctx.module(), id)) return 0;
  const uint32_t pointee = PointeeOf(ctx, id);
  if (pointee == 0) return 0;
  const uint64_t a = ctx.types().AlignOf(pointee).value_or(0);
  if (a == 0 || (a & (a - 1)) != 0 || a > 128) return 0;
  return a;
}

class AddAlignmentDecorationKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_alignment_decoration"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> variables, params;
    for (const spirv::Instruction& inst : ctx.module().types_values)
      if (OpOf(inst) == Op::OpVariable &&
          ProvableAlignment(ctx, inst.result_id()) != 0)
        variables.push_back(inst.result_id());
    for (const spirv::Function& fn : ctx.module().functions) {
      for (const spirv::Instruction& p : fn.parameters)
        if (ProvableAlignment(ctx, p.result_id()) != 0)
          params.push_back(p.result_id());
      if (fn.IsDeclaration()) continue;
      for (const spirv::Instruction& inst : fn.blocks.front().instructions)
        if (OpOf(inst) == Op::OpVariable &&
            ProvableAlignment(ctx, inst.result_id()) != 0)
          variables.push_back(inst.result_id());
    }
    // Pointer parameters are drawn half the time whatever the number of
    // variables: a kernel's many Function variables would crowd them out.
    const std::vector<uint32_t>& ids =
        params.empty() || (!variables.empty() && rng.OneIn(2)) ? variables
                                                               : params;
    if (ids.empty()) return std::nullopt;
    return Record{
        {"target", ids[rng.Below(static_cast<uint32_t>(ids.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t target = Field<uint32_t>(r, "target");
    if (IsBuiltIn(ctx.module(), target))
      return absl::FailedPreconditionError(absl::StrCat(
          "%", target,
          " is a built-in variable: the consumer owns it, an Alignment on it "
          "is meaningless"));
    if (ProvableAlignment(ctx, target) == 0)
      return absl::FailedPreconditionError(absl::StrCat(
          "%", target,
          " is not an undecorated variable or kernel pointer parameter of "
          "known natural alignment"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const uint32_t target = Field<uint32_t>(r, "target");
    const uint64_t align = ProvableAlignment(ctx, target);
    ctx.module().annotations.push_back(spirv::Instruction(
        U(Op::OpDecorate), 0, 0,
        {spirv::IdOperand(target),
         spirv::EnumOperand(spirv::OperandKind::kDecoration, kAlignment),
         spirv::LiteralOperand(static_cast<uint32_t>(align))}));
  }
};

}  // namespace

const Transformation* AddAlignmentDecoration() {
  static const AddAlignmentDecorationKind* t = new AddAlignmentDecorationKind;
  return t;
}

}  // namespace l0spv::generators::transform
