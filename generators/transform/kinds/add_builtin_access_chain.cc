// Adds, in the kernel function, an OpAccessChain (or OpInBoundsAccessChain)
// to one component of a built-in Input vector variable the entry point
// already lists in its interface (GlobalInvocationId, ...). Its result is
// unused (fact: irrelevant id): a pointer computation with no effect.
//
// Front ends load a built-in vector whole and extract a component; spirv-fuzz
// mutants that chain into one found an IGC abort, so this kind
// makes the form on purpose. Its known bug: igc_builtin_access_chain.
//
// Record: {"before": descriptor, "variable": id, "component": 0..n-1,
//          "in_bounds": bool}.
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// The vector type of built-in `var` when the kernel's entry point lists it
// and it is an Input vector variable; else 0.
uint32_t BuiltInVectorOfKernel(TransformContext& ctx, uint32_t var) {
  const spirv::Module& m = ctx.module();
  if (ctx.entry_function() < 0 || !spirv::BuiltInDecorations(m).count(var))
    return 0;
  const uint32_t kernel = m.functions[ctx.entry_function()].id();
  bool listed = false;
  for (const spirv::Instruction& e : m.entry_points) {
    if (e.NumOperands() < 3 || e.word(1) != kernel) continue;
    for (size_t i = 3; i < e.NumOperands(); ++i)
      listed |= e.operand(i).AsId() == var;
  }
  if (!listed) return 0;
  const spirv::TypeInfo* ptr = ctx.types().Get(ctx.TypeOf(var));
  if (ptr == nullptr || ptr->op != Op::OpTypePointer ||
      ptr->storage_class != spv::StorageClass::Input)
    return 0;
  const spirv::TypeInfo* vec = ctx.types().Get(ptr->element);
  return vec != nullptr && vec->op == Op::OpTypeVector ? vec->id : 0;
}

std::vector<uint32_t> BuiltInChainCandidates(TransformContext& ctx) {
  std::vector<uint32_t> out;
  for (const auto& [id, builtin] : spirv::BuiltInDecorations(ctx.module()))
    if (BuiltInVectorOfKernel(ctx, id) != 0) out.push_back(id);
  return out;
}

class AddBuiltinAccessChainKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_builtin_access_chain"; }
  std::vector<oracles::KnownBugId> known_bugs() const override {
    return {oracles::KnownBugId::kIgcBuiltinAccessChain,
            oracles::KnownBugId::kLlvmSpirvBuiltinAccessChain};
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    const std::vector<uint32_t> vars = BuiltInChainCandidates(ctx);
    if (vars.empty()) return std::nullopt;
    std::vector<std::pair<size_t, size_t>> blocks;
    for (auto [f, b] : ReachableBlocks(ctx))
      if (static_cast<int32_t>(f) == ctx.entry_function())
        blocks.emplace_back(f, b);
    const std::optional<InstPos> pos = RandomInsertionPoint(ctx, rng, blocks);
    if (!pos) return std::nullopt;
    const uint32_t var = vars[rng.Below(static_cast<uint32_t>(vars.size()))];
    const spirv::TypeInfo* vec =
        ctx.types().Get(BuiltInVectorOfKernel(ctx, var));
    return Record{{"before", ToJson(ctx.Describe(*pos))},
                  {"variable", var},
                  {"component", rng.Below(vec->count)},
                  {"in_bounds", rng.OneIn(2)}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveInsertionField(ctx, r, "before");
    if (!pos.ok()) return pos.status();
    if (static_cast<int32_t>(pos->function) != ctx.entry_function())
      return absl::FailedPreconditionError(
          "the access chain goes in the kernel function (its entry point "
          "lists the built-in)");
    const uint32_t var = Field<uint32_t>(r, "variable");
    const uint32_t vec = BuiltInVectorOfKernel(ctx, var);
    if (vec == 0)
      return absl::FailedPreconditionError(absl::StrCat(
          "%", var,
          " is not a built-in Input vector variable the kernel's entry point "
          "lists"));
    const uint32_t component = Field<uint32_t>(r, "component");
    if (component >= ctx.types().Get(vec)->count)
      return absl::InvalidArgumentError(
          absl::StrCat("component ", component, " is past the vector"));
    Field<bool>(r, "in_bounds");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    InstPos pos = *ResolveField(ctx, r, "before");
    const uint32_t var = Field<uint32_t>(r, "variable");
    const spirv::TypeInfo* vec =
        ctx.types().Get(BuiltInVectorOfKernel(ctx, var));
    const uint32_t element = vec->element;
    spirv::ModuleBuilder& b = ctx.builder();
    const uint32_t pointer = b.PointerType(spv::StorageClass::Input, element);
    const uint32_t index =
        b.IntConstant(b.IntType(32), Field<uint32_t>(r, "component"));
    const uint32_t result =
        EmitBefore(ctx, pos,
                   Field<bool>(r, "in_bounds") ? Op::OpInBoundsAccessChain
                                               : Op::OpAccessChain,
                   pointer, {spirv::IdOperand(var), spirv::IdOperand(index)});
    ctx.facts().AddIrrelevantId(result);
  }
};

}  // namespace

const Transformation* AddBuiltinAccessChain() {
  static const AddBuiltinAccessChainKind* t = new AddBuiltinAccessChainKind;
  return t;
}

}  // namespace l0spv::generators::transform
