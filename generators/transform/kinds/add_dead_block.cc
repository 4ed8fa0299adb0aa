// B: ... OpBranch %S  →  B: ... OpBranchConditional %opaque_true %S %D
//                        D: OpBranch %S          (never executed)
// The condition is opaque: a known kernel argument or input-buffer word
// compared with its value (equivalence modulo inputs), so a compiler must
// keep the dead block. D is recorded as a dead-block fact for later
// transformations to fill.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"
#include "generators/transform/opaque.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// A block ending in a plain OpBranch to another block, with no merge
// instruction (loop and selection headers keep their shape).
bool HostsDeadBlock(const spirv::BasicBlock& bb) {
  const spirv::Instruction* term = bb.terminator();
  if (term == nullptr || OpOf(*term) != Op::OpBranch) return false;
  if (term->word(0) == bb.id()) return false;
  return TransformContext::LastInsertionIndex(bb) == bb.instructions.size() - 1;
}

class AddDeadBlockKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_dead_block"; }
  // Its dead block is a second way into the successor; when that is a loop
  // header, llvm-spirv's round trip writes the preheader it adds after the
  // loop (an invalid module).
  std::vector<oracles::KnownBugId> known_bugs() const override {
    return {oracles::KnownBugId::kLlvmSpirvLoopPreheaderOrder};
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<std::pair<size_t, size_t>> blocks;
    for (auto [f, b] : ReachableBlocks(ctx))
      if (HostsDeadBlock(ctx.module().functions[f].blocks[b]))
        blocks.emplace_back(f, b);
    if (blocks.empty()) return std::nullopt;
    auto [f, b] = blocks[rng.Below(static_cast<uint32_t>(blocks.size()))];
    return Record{{"block", ctx.module().functions[f].blocks[b].id()},
                  {"condition", ProposeOpaqueSource(ctx, rng, f)}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t label = Field<uint32_t>(r, "block");
    auto where = ctx.FindBlock(label);
    if (!where)
      return absl::FailedPreconditionError(
          absl::StrCat("%", label, " is not a block"));
    const spirv::BasicBlock& bb =
        ctx.module().functions[where->first].blocks[where->second];
    if (!HostsDeadBlock(bb))
      return absl::FailedPreconditionError(
          absl::StrCat("block %", label, " does not end in a plain OpBranch"));
    if (!ctx.dominators(where->first).IsReachable(label))
      return absl::FailedPreconditionError("the block is unreachable");
    return CheckOpaqueSource(ctx, ObjectField(r, "condition"), where->first);
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const uint32_t label = Field<uint32_t>(r, "block");
    auto [f, b] = *ctx.FindBlock(label);
    spirv::Function& fn = ctx.module().functions[f];
    InstPos pos{f, b, fn.blocks[b].instructions.size() - 1};
    const uint32_t cond =
        EmitOpaqueBool(ctx, ObjectField(r, "condition"), pos, true);
    const uint32_t dead = ctx.NewId();
    spirv::BasicBlock& bb = fn.blocks[b];
    const uint32_t succ = bb.instructions.back().word(0);
    bb.instructions.back() =
        spirv::Instruction(U(Op::OpBranchConditional), 0, 0,
                           {spirv::IdOperand(cond), spirv::IdOperand(succ),
                            spirv::IdOperand(dead)});
    spirv::BasicBlock d;
    d.label = spirv::Instruction(U(Op::OpLabel), 0, dead, {});
    d.instructions.push_back(
        spirv::Instruction(U(Op::OpBranch), 0, 0, {spirv::IdOperand(succ)}));
    // The successor's phis take from D what they take from B.
    for (spirv::BasicBlock& s : fn.blocks) {
      if (s.id() != succ) continue;
      for (spirv::Instruction& inst : s.instructions) {
        if (OpOf(inst) != Op::OpPhi) continue;
        for (size_t i = 1; i < inst.NumOperands(); i += 2) {
          if (inst.word(i) != label) continue;
          inst.AddOperand(spirv::IdOperand(inst.word(i - 1)));
          inst.AddOperand(spirv::IdOperand(dead));
          break;
        }
      }
    }
    fn.blocks.insert(fn.blocks.begin() + static_cast<ptrdiff_t>(b) + 1,
                     std::move(d));
    ctx.facts().AddDeadBlock(dead);
  }
};

}  // namespace

const Transformation* AddDeadBlock() {
  static const AddDeadBlockKind* t = new AddDeadBlockKind;
  return t;
}

}  // namespace l0spv::generators::transform
