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

namespace l0spv::transform {
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
    std::vector<uint32_t> labels;
    for (auto [f, b] : ReachableBlocks(ctx)) {
      const spirv::BasicBlock& bb = ctx.module().functions[f].blocks[b];
      if (Fits(bb)) labels.push_back(bb.id());
    }
    if (labels.empty()) return std::nullopt;
    const uint32_t label =
        labels[rng.Below(static_cast<uint32_t>(labels.size()))];
    const uint32_t choices[] = {0, h_.a, h_.b};
    return Record{{"block", label}, {"control", choices[rng.Below(3)]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t control = Field<uint32_t>(r, "control");
    if (control != 0 && control != h_.a && control != h_.b)
      return absl::InvalidArgumentError(
          absl::StrCat("\"control\" must be 0, ", h_.a, " or ", h_.b));
    auto ref = ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    if (!ref.ok()) return ref.status();
    if (!Fits(ctx.module().functions[ref->function].blocks[ref->block]))
      return absl::FailedPreconditionError(
          "the block has no merge instruction of this kind with only hint "
          "bits set");
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
    std::vector<uint32_t> ids;
    for (const spirv::Function& fn : ctx.module().functions)
      if (!fn.IsDeclaration()) ids.push_back(fn.id());
    if (ids.empty()) return std::nullopt;
    const uint32_t choices[] = {0, kInline, kDontInline};
    return Record{
        {"function", ids[rng.Below(static_cast<uint32_t>(ids.size()))]},
        {"control", choices[rng.Below(3)]}};
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

}  // namespace l0spv::transform
