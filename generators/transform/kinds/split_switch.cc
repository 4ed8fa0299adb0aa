// B: OpSwitch %sel %D  l1 %L1 ... ln %Ln
//   →  B: OpSwitch %sel %N  (the kept cases)
//      N: OpSwitch %sel %D  (the moved cases)
// A value of a moved case is no kept case (case literals are distinct), so
// it reaches N's switch and the same target. Targets reached from N get N
// as a phi predecessor (B stays one when a kept case still leads there).
// B's OpSelectionMerge stays with B's switch.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

size_t CaseCount(const spirv::Instruction& sw) {
  return (sw.NumOperands() - 2) / 2;
}

class SplitSwitchKind : public Transformation {
 public:
  std::string_view kind() const override { return "split_switch"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> labels;
    for (auto [f, b] : ReachableBlocks(ctx)) {
      const spirv::BasicBlock& bb = ctx.module().functions[f].blocks[b];
      if (OpOf(*bb.terminator()) == Op::OpSwitch &&
          CaseCount(*bb.terminator()) > 0)
        labels.push_back(bb.id());
    }
    if (labels.empty()) return std::nullopt;
    const uint32_t label =
        labels[rng.Below(static_cast<uint32_t>(labels.size()))];
    auto ref = ctx.FindBlock(label);
    const size_t n = CaseCount(
        *ctx.module().functions[ref->first].blocks[ref->second].terminator());
    std::vector<uint32_t> moved;
    for (uint32_t i = 0; i < n; ++i)
      if (rng.OneIn(2)) moved.push_back(i);
    if (moved.empty()) moved.push_back(rng.Below(static_cast<uint32_t>(n)));
    return Record{{"block", label}, {"cases", n}, {"moved", moved}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto ref = ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    if (!ref.ok()) return ref.status();
    const spirv::Instruction* sw =
        ctx.module().functions[ref->function].blocks[ref->block].terminator();
    if (OpOf(*sw) != Op::OpSwitch)
      return absl::FailedPreconditionError(
          "the block does not end in OpSwitch");
    if (CaseCount(*sw) != Field<size_t>(r, "cases"))
      return absl::FailedPreconditionError(
          absl::StrCat("the switch has ", CaseCount(*sw),
                       " cases, the record expects ", r.at("cases").dump()));
    const auto moved = Field<std::vector<uint32_t>>(r, "moved");
    if (moved.empty() || !std::is_sorted(moved.begin(), moved.end()) ||
        std::adjacent_find(moved.begin(), moved.end()) != moved.end() ||
        moved.back() >= CaseCount(*sw))
      return absl::InvalidArgumentError(
          "\"moved\" must be sorted distinct case indices");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const BlockRef ref = *ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    const auto moved = Field<std::vector<uint32_t>>(r, "moved");
    const uint32_t n_label = ctx.NewId();
    spirv::Function& fn = ctx.module().functions[ref.function];
    spirv::BasicBlock& bb = fn.blocks[ref.block];
    const uint32_t b_label = bb.id();
    spirv::Instruction& sw = bb.instructions.back();
    const std::vector<spirv::Operand> old = sw.operands();
    std::vector<spirv::Operand> kept_ops{old[0], spirv::IdOperand(n_label)};
    std::vector<spirv::Operand> moved_ops{old[0], old[1]};
    std::vector<uint32_t> from_b, from_n{old[1].words[0]};
    for (uint32_t i = 0; 2 + 2 * i + 1 < old.size(); ++i) {
      const bool m = std::binary_search(moved.begin(), moved.end(), i);
      auto& ops = m ? moved_ops : kept_ops;
      ops.push_back(old[2 + 2 * i]);
      ops.push_back(old[3 + 2 * i]);
      (m ? from_n : from_b).push_back(old[3 + 2 * i].words[0]);
    }
    sw.mutable_operands() = std::move(kept_ops);
    spirv::BasicBlock nb = NewBlock(n_label);
    nb.instructions.push_back(
        spirv::Instruction(U(Op::OpSwitch), 0, 0, std::move(moved_ops)));
    auto has = [](const std::vector<uint32_t>& v, uint32_t x) {
      return std::find(v.begin(), v.end(), x) != v.end();
    };
    for (spirv::BasicBlock& target : fn.blocks) {
      if (!has(from_n, target.id())) continue;
      const bool keep_b = has(from_b, target.id());
      for (spirv::Instruction& inst : target.instructions) {
        if (OpOf(inst) != Op::OpPhi) continue;
        for (size_t i = 1; i < inst.NumOperands(); i += 2) {
          if (inst.word(i) != b_label) continue;
          if (keep_b) {
            inst.AddOperand(spirv::IdOperand(inst.word(i - 1)));
            inst.AddOperand(spirv::IdOperand(n_label));
          } else {
            inst.mutable_operands()[i].words[0] = n_label;
          }
          break;
        }
      }
    }
    if (ctx.facts().IsDeadBlock(b_label)) ctx.facts().AddDeadBlock(n_label);
    fn.blocks.insert(fn.blocks.begin() + static_cast<ptrdiff_t>(ref.block) + 1,
                     std::move(nb));
  }
};

}  // namespace

const Transformation* SplitSwitch() {
  static const SplitSwitchKind* t = new SplitSwitchKind;
  return t;
}

}  // namespace l0spv::generators::transform
