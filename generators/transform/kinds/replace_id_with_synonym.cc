// Replaces one use of an id with a known synonym available at the use.
// Operands that must stay as they are: phi inputs (availability is decided
// at the predecessor), access-chain indices (struct indices must be
// constants), the called function, the extended-instruction set, variable
// initializers, lifetime pointers and printf's format.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

bool IsReplaceableOperand(const spirv::Instruction& inst, size_t i) {
  if (i >= inst.NumOperands() ||
      inst.operand(i).kind != spirv::OperandKind::kIdRef)
    return false;
  switch (OpOf(inst)) {
    case Op::OpPhi:
    case Op::OpVariable:
    case Op::OpLifetimeStart:
    case Op::OpLifetimeStop:
    case Op::OpLoopMerge:
    case Op::OpSelectionMerge:
    case Op::OpBranch:
    case Op::OpSwitch:
      return OpOf(inst) == Op::OpSwitch && i == 0;
    case Op::OpBranchConditional:
      return i == 0;
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
      return i == 0;
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
      return i <= 1;
    case Op::OpFunctionCall:
      return i >= 1;
    case Op::OpExtInst:
      return i >= 2 && inst.word(1) != 184;  // printf
    case Op::OpCompositeConstruct:
      // A synonym is a run-time value: a composite of constants would turn
      // into a run-time one, which llvm-spirv 14 -r cannot read (registry
      // composite_construct_runtime; data_util.h IsComputableOperand alike).
      return false;
    default:
      return true;
  }
}

class ReplaceIdWithSynonymKind : public Transformation {
 public:
  std::string_view kind() const override { return "replace_id_with_synonym"; }
  // It needs synonym facts; add_synonym_copy_object makes one for a value of
  // any type.
  std::vector<std::string_view> enablers() const override {
    return {"add_synonym_copy_object"};
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    const std::vector<uint32_t> with = ctx.facts().IdsWithSynonyms();
    if (with.empty()) return std::nullopt;
    struct Option {
      InstPos pos;
      size_t operand;
      uint32_t synonym;
    };
    std::vector<Option> options;
    FindPositions(ctx, [&](const spirv::Instruction& inst, const InstPos& pos) {
      for (size_t i = 0; i < inst.NumOperands(); ++i) {
        const uint32_t id = inst.operand(i).AsId();
        if (!IsReplaceableOperand(inst, i) ||
            !std::binary_search(with.begin(), with.end(), id))
          continue;
        for (uint32_t s : ctx.facts().SynonymsOf(id))
          if (ctx.IsAvailableAt(s, pos)) options.push_back({pos, i, s});
      }
      return false;
    });
    if (options.empty()) return std::nullopt;
    const Option& o = options[rng.Below(static_cast<uint32_t>(options.size()))];
    return Record{{"use", ToJson(ctx.Describe(o.pos))},
                  {"operand", o.operand},
                  {"synonym", o.synonym}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveField(ctx, r, "use");
    if (!pos.ok()) return pos.status();
    const spirv::Instruction& inst = ctx.At(*pos);
    const size_t operand = Field<size_t>(r, "operand");
    const uint32_t synonym = Field<uint32_t>(r, "synonym");
    if (!IsReplaceableOperand(inst, operand))
      return absl::FailedPreconditionError(
          absl::StrCat("operand ", operand, " of ", std::string(inst.name()),
                       " cannot be replaced"));
    const uint32_t id = inst.operand(operand).AsId();
    if (!ctx.facts().AreSynonyms(id, synonym))
      return absl::FailedPreconditionError(
          absl::StrCat("%", synonym, " is not known to equal %", id));
    if (ctx.TypeOf(id) != ctx.TypeOf(synonym))
      return absl::FailedPreconditionError("synonyms of different types");
    if (!ctx.IsAvailableAt(synonym, *pos))
      return absl::FailedPreconditionError(
          absl::StrCat("%", synonym, " is not available at the use"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    spirv::Instruction& inst = ctx.At(*ResolveField(ctx, r, "use"));
    inst.mutable_operands()[Field<size_t>(r, "operand")].words[0] =
        Field<uint32_t>(r, "synonym");
  }
};

}  // namespace

const Transformation* ReplaceIdWithSynonym() {
  static const ReplaceIdWithSynonymKind* t = new ReplaceIdWithSynonymKind;
  return t;
}

}  // namespace l0spv::generators::transform
