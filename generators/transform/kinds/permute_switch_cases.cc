// Reorders the (literal, target) pairs of an OpSwitch: case order carries no
// meaning (literals are distinct), but a consumer lowering switches into
// compare chains or jump tables sees a new input.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

class PermuteSwitchCasesKind : public Transformation {
 public:
  std::string_view kind() const override { return "permute_switch_cases"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<std::pair<uint32_t, size_t>> options;
    for (auto [f, b] : ReachableBlocks(ctx)) {
      const spirv::BasicBlock& bb = ctx.module().functions[f].blocks[b];
      const spirv::Instruction* t = bb.terminator();
      if (OpOf(*t) == Op::OpSwitch && t->NumOperands() >= 6)
        options.emplace_back(bb.id(), (t->NumOperands() - 2) / 2);
    }
    if (options.empty()) return std::nullopt;
    auto [label, n] = options[rng.Below(static_cast<uint32_t>(options.size()))];
    std::vector<uint32_t> perm(n);
    for (uint32_t i = 0; i < n; ++i) perm[i] = i;
    for (size_t i = n; i > 1; --i)
      std::swap(perm[i - 1], perm[rng.Below(static_cast<uint32_t>(i))]);
    return Record{{"block", label}, {"permutation", perm}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto ref = ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    if (!ref.ok()) return ref.status();
    const spirv::Instruction* sw =
        ctx.module().functions[ref->function].blocks[ref->block].terminator();
    if (OpOf(*sw) != Op::OpSwitch)
      return absl::FailedPreconditionError(
          "the block does not end in OpSwitch");
    auto perm = Field<std::vector<uint32_t>>(r, "permutation");
    std::vector<uint32_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t i = 0; i < sorted.size(); ++i)
      if (sorted[i] != i)
        return absl::InvalidArgumentError("\"permutation\" is no permutation");
    if (2 + 2 * perm.size() != sw->NumOperands())
      return absl::FailedPreconditionError(
          absl::StrCat("the switch has ", (sw->NumOperands() - 2) / 2,
                       " cases, the permutation ", perm.size()));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const BlockRef ref = *ReachableBlock(ctx, Field<uint32_t>(r, "block"));
    spirv::Instruction& sw = ctx.module()
                                 .functions[ref.function]
                                 .blocks[ref.block]
                                 .instructions.back();
    const auto perm = Field<std::vector<uint32_t>>(r, "permutation");
    const std::vector<spirv::Operand> old = sw.operands();
    for (size_t i = 0; i < perm.size(); ++i) {
      sw.mutable_operands()[2 + 2 * i] = old[2 + 2 * perm[i]];
      sw.mutable_operands()[3 + 2 * i] = old[3 + 2 * perm[i]];
    }
  }
};

}  // namespace

const Transformation* PermuteSwitchCases() {
  static const PermuteSwitchCasesKind* t = new PermuteSwitchCasesKind;
  return t;
}

}  // namespace l0spv::generators::transform
