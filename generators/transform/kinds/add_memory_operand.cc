// Adds a memory operand to an OpLoad/OpStore, keeping the existing ones:
//  - "volatile": the Volatile bit (no parameter; the access still happens
//    exactly once, as it already did);
//  - "aligned": Aligned with the natural (OpenCL layout) alignment of the
//    pointee, only when the pointer is an OpVariable without an Alignment
//    decoration, whose storage every consumer allocates at least naturally
//    aligned; its literal goes first among the parameters (Aligned is the
//    lowest parameter-carrying bit).
//
// Record: {"instruction": descriptor, "operand": "volatile"|"aligned"}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// The MemoryAccess mask bits this kind sets (SPIRV-Headers' enumerants).
constexpr uint32_t kVolatile =
    static_cast<uint32_t>(spv::MemoryAccessMask::Volatile);
constexpr uint32_t kAligned =
    static_cast<uint32_t>(spv::MemoryAccessMask::Aligned);

// Index of the memory-access mask operand, and of the pointer operand.
size_t MaskIndex(const spirv::Instruction& inst) {
  return OpOf(inst) == Op::OpLoad ? 1 : 2;
}

uint32_t MaskOf(const spirv::Instruction& inst) {
  const size_t i = MaskIndex(inst);
  return i < inst.NumOperands() ? inst.word(i) : 0;
}

bool HasAlignmentDecoration(const spirv::Module& m, uint32_t id) {
  for (const spirv::Instruction& a : m.annotations)
    if (OpOf(a) == Op::OpDecorate && a.word(0) == id &&
        (a.word(1) == static_cast<uint32_t>(spv::Decoration::Alignment) ||
         a.word(1) == static_cast<uint32_t>(spv::Decoration::AlignmentId)))
      return true;
  return false;
}

// The natural alignment the pointer operand of `inst` provably has, or 0.
uint64_t ProvableAlignment(TransformContext& ctx,
                           const spirv::Instruction& inst) {
  const uint32_t pointer = inst.word(0);
  const DefSite* d = ctx.Def(pointer);
  if (d == nullptr || d->opcode != U(Op::OpVariable) ||
      HasAlignmentDecoration(ctx.module(), pointer))
    return 0;
  return ctx.types().AlignOf(PointeeOf(ctx, pointer)).value_or(0);
}

// Why `operand` cannot be added to `inst`, or "" when it can.
std::string Refusal(TransformContext& ctx, const spirv::Instruction& inst,
                    const std::string& operand) {
  if (OpOf(inst) != Op::OpLoad && OpOf(inst) != Op::OpStore)
    return "not an OpLoad or OpStore";
  const uint32_t mask = MaskOf(inst);
  if (operand == "volatile") return mask & kVolatile ? "already volatile" : "";
  if (operand == "aligned") {
    if (mask & kAligned) return "already aligned";
    const uint64_t align = ProvableAlignment(ctx, inst);
    if (align == 0 || (align & (align - 1)) != 0)
      return "the pointer's alignment is not provable";
    return "";
  }
  return "unknown memory operand (volatile or aligned)";
}

class AddMemoryOperandKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_memory_operand"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    const std::string operand = rng.OneIn(2) ? "volatile" : "aligned";
    auto pos = PickPosition(
        FindPositions(ctx,
                      [&](const spirv::Instruction& inst, const InstPos&) {
                        return Refusal(ctx, inst, operand).empty();
                      }),
        rng);
    if (!pos) return std::nullopt;
    return Record{{"instruction", ToJson(ctx.Describe(*pos))},
                  {"operand", operand}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveField(ctx, r, "instruction");
    if (!pos.ok()) return pos.status();
    const std::string why =
        Refusal(ctx, ctx.At(*pos), Field<std::string>(r, "operand"));
    if (!why.empty()) return absl::FailedPreconditionError(why);
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    spirv::Instruction& inst = ctx.At(*ResolveField(ctx, r, "instruction"));
    const bool aligned = Field<std::string>(r, "operand") == "aligned";
    const uint64_t align = aligned ? ProvableAlignment(ctx, inst) : 0;
    const size_t i = MaskIndex(inst);
    auto& ops = inst.mutable_operands();
    if (i >= ops.size())
      ops.push_back(spirv::EnumOperand(spirv::OperandKind::kMemoryAccess, 0));
    ops[i].words[0] |= aligned ? kAligned : kVolatile;
    if (aligned)
      ops.insert(ops.begin() + static_cast<ptrdiff_t>(i) + 1,
                 spirv::LiteralOperand(static_cast<uint32_t>(align)));
  }
};

}  // namespace

const Transformation* AddMemoryOperand() {
  static const AddMemoryOperandKind* t = new AddMemoryOperandKind;
  return t;
}

}  // namespace l0spv::generators::transform
