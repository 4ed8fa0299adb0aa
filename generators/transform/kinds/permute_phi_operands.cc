// Reorders the (value, predecessor) pairs of an OpPhi: the order carries no
// meaning, but compilers that index phis by position get a new input.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

class PermutePhiOperandsKind : public Transformation {
 public:
  std::string_view kind() const override { return "permute_phi_operands"; }
  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    auto pos = PickPosition(
        FindPositions(ctx,
                      [](const spirv::Instruction& inst, const InstPos&) {
                        return OpOf(inst) == spv::Op::OpPhi &&
                               inst.NumOperands() >= 4;
                      }),
        rng);
    if (!pos) return std::nullopt;
    const size_t pairs = ctx.At(*pos).NumOperands() / 2;
    std::vector<uint32_t> perm(pairs);
    for (uint32_t i = 0; i < pairs; ++i) perm[i] = i;
    for (size_t i = pairs; i > 1; --i)
      std::swap(perm[i - 1], perm[rng.Below(static_cast<uint32_t>(i))]);
    return Record{{"phi", ctx.At(*pos).result_id()}, {"permutation", perm}};
  }
  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t phi = Field<uint32_t>(r, "phi");
    const DefSite* d = ctx.Def(phi);
    if (d == nullptr || d->opcode != U(spv::Op::OpPhi))
      return absl::FailedPreconditionError(
          absl::StrCat("%", phi, " is not an OpPhi"));
    const spirv::Instruction& inst =
        ctx.At({static_cast<size_t>(d->function), d->block_index, d->index});
    std::vector<uint32_t> perm = Field<std::vector<uint32_t>>(r, "permutation");
    std::vector<uint32_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t i = 0; i < sorted.size(); ++i)
      if (sorted[i] != i)
        return absl::InvalidArgumentError("\"permutation\" is no permutation");
    if (perm.size() * 2 != inst.NumOperands())
      return absl::FailedPreconditionError(
          absl::StrCat("%", phi, " has ", inst.NumOperands() / 2,
                       " incoming pairs, the permutation ", perm.size()));
    return absl::OkStatus();
  }
  void Apply(TransformContext& ctx, const Record& r) const override {
    const DefSite* d = ctx.Def(Field<uint32_t>(r, "phi"));
    spirv::Instruction& inst =
        ctx.At({static_cast<size_t>(d->function), d->block_index, d->index});
    const std::vector<uint32_t> perm =
        Field<std::vector<uint32_t>>(r, "permutation");
    std::vector<spirv::Operand> old = inst.operands();
    for (size_t i = 0; i < perm.size(); ++i) {
      inst.mutable_operands()[2 * i] = old[2 * perm[i]];
      inst.mutable_operands()[2 * i + 1] = old[2 * perm[i] + 1];
    }
  }
};

}  // namespace

const Transformation* PermutePhiOperands() {
  static const PermutePhiOperandsKind* t = new PermutePhiOperandsKind;
  return t;
}

}  // namespace l0spv::generators::transform
