// Moves a side-effect-free instruction (spirv::IsSideEffectFree: no
// memory access, no barrier, no call) to another place in its own block:
// every instruction of the block runs whenever one does, so even a division
// stays defined exactly when it was. The new place must come after the
// definitions of its operands that live in the block and before its first
// use in the block (phi uses, which are decided at a predecessor, do not
// count); uses in other blocks stay dominated by the same block.
//
// Record: {"instruction": descriptor, "before": descriptor} — the
// instruction goes right before `before`'s instruction (in the same block).
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// The index range [lo, hi] of the block where the instruction at `index`
// may be inserted (indices of the block as it is now, before the
// instruction is taken out), or nullopt.
std::optional<std::pair<size_t, size_t>> Range(const spirv::BasicBlock& bb,
                                               size_t index) {
  const spirv::Instruction& inst = bb.instructions[index];
  if (!spirv::IsSideEffectFree(inst.opcode()) || inst.result_id() == 0)
    return std::nullopt;
  size_t lo = TransformContext::FirstInsertionIndex(bb);
  size_t hi = TransformContext::LastInsertionIndex(bb);
  if (index < lo || index >= hi) return std::nullopt;
  for (size_t i = lo; i < index; ++i) {
    bool defines_operand = false;
    inst.ForEachInId([&](uint32_t id) {
      if (id == bb.instructions[i].result_id()) defines_operand = true;
    });
    if (defines_operand) lo = i + 1;
  }
  for (size_t i = index + 1; i <= hi; ++i) {
    if (OpOf(bb.instructions[i]) == Op::OpPhi) continue;
    bool uses = false;
    bb.instructions[i].ForEachInId(
        [&](uint32_t id) { uses |= id == inst.result_id(); });
    if (uses) {
      hi = i;
      break;
    }
  }
  return std::make_pair(lo, hi);
}

class MoveInstructionKind : public Transformation {
 public:
  std::string_view kind() const override { return "move_instruction"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<InstPos> movable =
        FindPositions(ctx, [&](const spirv::Instruction&, const InstPos& pos) {
          auto range = Range(ctx.BlockAt(pos), pos.index);
          // Somewhere else to go: not just before or after itself.
          return range && range->second - range->first > 1;
        });
    auto pos = PickPosition(movable, rng);
    if (!pos) return std::nullopt;
    const auto [lo, hi] = *Range(ctx.BlockAt(*pos), pos->index);
    InstPos before = *pos;
    do {
      before.index =
          rng.Range(static_cast<uint32_t>(lo), static_cast<uint32_t>(hi));
    } while (before.index == pos->index || before.index == pos->index + 1);
    return Record{{"instruction", ToJson(ctx.Describe(*pos))},
                  {"before", ToJson(ctx.Describe(before))}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveField(ctx, r, "instruction");
    if (!pos.ok()) return pos.status();
    auto before = ResolveField(ctx, r, "before");
    if (!before.ok()) return before.status();
    if (before->function != pos->function || before->block != pos->block)
      return absl::FailedPreconditionError(
          "an instruction moves within its own block only");
    auto range = Range(ctx.BlockAt(*pos), pos->index);
    if (!range)
      return absl::FailedPreconditionError(
          absl::StrCat(std::string(ctx.At(*pos).name()), " cannot be moved"));
    if (before->index < range->first || before->index > range->second)
      return absl::FailedPreconditionError(
          "the new place is before an operand's definition or after a use");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos pos = *ResolveField(ctx, r, "instruction");
    const InstPos before = *ResolveField(ctx, r, "before");
    auto& insts = ctx.BlockAt(pos).instructions;
    spirv::Instruction inst = std::move(insts[pos.index]);
    insts.erase(insts.begin() + static_cast<ptrdiff_t>(pos.index));
    const size_t to =
        before.index > pos.index ? before.index - 1 : before.index;
    insts.insert(insts.begin() + static_cast<ptrdiff_t>(to), std::move(inst));
  }
};

}  // namespace

const Transformation* MoveInstruction() {
  static const MoveInstructionKind* t = new MoveInstructionKind;
  return t;
}

}  // namespace l0spv::generators::transform
