// Hint-only control masks: OpSelectionMerge's Flatten/DontFlatten,
// OpLoopMerge's Unroll/DontUnroll and OpFunction's Inline/DontInline. They
// ask for a code shape, never change a result; consumers that mishandle
// them are what we look for. Bits with parameters or meaning (loop counts,
// dependency info, Pure/Const) are never added, and a loop mask is only
// touched when it holds nothing but Unroll/DontUnroll.
#include "absl/strings/str_cat.h"
#include "generators/kernel/generator.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// A merge instruction kind: its opcode, the operand holding the mask, the
// two hint bits (the choices are none, bit a, bit b).
struct MergeHint {
  const char* name;
  Op op;
  size_t operand;
  uint32_t a, b;
};

constexpr MergeHint kSelection{"toggle_selection_control", Op::OpSelectionMerge,
                               1, 1, 2};
constexpr MergeHint kLoop{"toggle_loop_control", Op::OpLoopMerge, 2, 1, 2};

class ToggleMergeControlKind : public Transformation {
 public:
  explicit ToggleMergeControlKind(const MergeHint& h) : h_(h) {}
  std::string_view kind() const override { return h_.name; }
  // llvm-spirv 14 writes OpLoopMerge in the wrong place for an unrolled
  // single-block loop (known-consumer-bugs/llvm_spirv_unroll_self_loop).
  std::vector<oracles::KnownBugId> known_bugs() const override {
    if (h_.op != Op::OpLoopMerge) return {};
    return {oracles::KnownBugId::kLlvmSpirvUnrollSelfLoop};
  }

  bool Fits(const spirv::BasicBlock& bb) const {
    const spirv::Instruction* m = MergeInstruction(bb);
    if (m == nullptr || OpOf(*m) != h_.op || m->NumOperands() != h_.operand + 1)
      return false;
    return (m->word(h_.operand) & ~(h_.a | h_.b)) == 0;
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<std::pair<uint32_t, uint32_t>> blocks;  // label, control
    for (auto [f, b] : ReachableBlocks(ctx)) {
      const spirv::BasicBlock& bb = ctx.module().functions[f].blocks[b];
      if (Fits(bb))
        blocks.emplace_back(bb.id(), MergeInstruction(bb)->word(h_.operand));
    }
    if (blocks.empty()) return std::nullopt;
    const auto [label, current] =
        blocks[rng.Below(static_cast<uint32_t>(blocks.size()))];
    // One of the two controls the merge instruction does not have already.
    std::vector<uint32_t> choices;
    for (uint32_t c : {0u, h_.a, h_.b})
      if (c != current) choices.push_back(c);
    return Record{
        {"block", label},
        {"control", choices[rng.Below(static_cast<uint32_t>(choices.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t control = Field<uint32_t>(r, "control");
    if (control != 0 && control != h_.a && control != h_.b)
      return absl::InvalidArgumentError(
          absl::StrCat("\"control\" must be 0, ", h_.a, " or ", h_.b));
    auto ref = ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    if (!ref.ok()) return ref.status();
    const spirv::BasicBlock& bb =
        ctx.module().functions[ref->function].blocks[ref->block];
    if (!Fits(bb))
      return absl::FailedPreconditionError(
          "the block has no merge instruction of this kind with only hint "
          "bits set");
    if (MergeInstruction(bb)->word(h_.operand) == control)
      return absl::FailedPreconditionError(
          absl::StrCat("the merge instruction already has control ", control,
                       ": the record would change nothing"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const BlockRef ref = *ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    auto& insts =
        ctx.module().functions[ref.function].blocks[ref.block].instructions;
    insts[insts.size() - 2].mutable_operands()[h_.operand].words[0] =
        Field<uint32_t>(r, "control");
  }

 private:
  const MergeHint& h_;
};

constexpr uint32_t kInline = 1, kDontInline = 2;

class ChangeFunctionControlKind : public Transformation {
 public:
  std::string_view kind() const override { return "change_function_control"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<const spirv::Function*> fns;
    for (const spirv::Function& fn : ctx.module().functions)
      if (!fn.IsDeclaration()) fns.push_back(&fn);
    if (fns.empty()) return std::nullopt;
    const spirv::Function* fn =
        fns[rng.Below(static_cast<uint32_t>(fns.size()))];
    // One of the two hints the function does not have already.
    const uint32_t current = fn->def.word(0) & (kInline | kDontInline);
    std::vector<uint32_t> choices;
    for (uint32_t c : {0u, kInline, kDontInline})
      if (c != current) choices.push_back(c);
    return Record{
        {"function", fn->id()},
        {"control", choices[rng.Below(static_cast<uint32_t>(choices.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t control = Field<uint32_t>(r, "control");
    if (control != 0 && control != kInline && control != kDontInline)
      return absl::InvalidArgumentError(
          "\"control\" must be 0 (None), 1 (Inline) or 2 (DontInline)");
    const uint32_t id = Field<uint32_t>(r, "function");
    const spirv::Function* fn = ctx.module().FindFunction(id);
    if (fn == nullptr || fn->IsDeclaration())
      return absl::FailedPreconditionError(
          absl::StrCat("%", id, " is not a function with a body"));
    if ((fn->def.word(0) & (kInline | kDontInline)) == control)
      return absl::FailedPreconditionError(
          absl::StrCat("%", id, " already has function control ", control,
                       ": the record would change nothing"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    spirv::Function* fn =
        ctx.module().FindFunction(Field<uint32_t>(r, "function"));
    uint32_t& mask = fn->def.mutable_operands()[0].words[0];
    mask = (mask & ~(kInline | kDontInline)) | Field<uint32_t>(r, "control");
  }
};

}  // namespace

std::vector<const Transformation*> ControlHintKinds() {
  static const ToggleMergeControlKind* selection =
      new ToggleMergeControlKind(kSelection);
  static const ToggleMergeControlKind* loop = new ToggleMergeControlKind(kLoop);
  static const ChangeFunctionControlKind* function =
      new ChangeFunctionControlKind;
  return {selection, loop, function};
}

}  // namespace l0spv::generators::transform
