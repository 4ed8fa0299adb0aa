// Permutes the parameters of a helper function (not an entry point, called
// only directly): a new OpTypeFunction, the OpFunctionParameters reordered
// (their ids, so the body is unchanged) and every call's arguments
// reordered alike. An exported function (its only decoration LinkageAttributes
// ... Export) qualifies in a single-module case, where nothing imports it and
// every caller is in the module (the form of
// llvm_spirv_exported_helper_param_order, with rename_export_to_kernel).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// Whether %id's only decoration is one LinkageAttributes ... Export, in a
// case of one module (an Import elsewhere would keep the old order).
bool OnlyExported(TransformContext& ctx, uint32_t id) {
  if (!ctx.test_case().linked_modules.empty()) return false;
  int exports = 0, others = 0;
  for (const spirv::Instruction& a : ctx.module().annotations) {
    bool about = false;
    a.ForEachInId([&](uint32_t used) { about = about || used == id; });
    if (!about) continue;
    const bool is_export =
        OpOf(a) == Op::OpDecorate && a.NumOperands() == 4 &&
        a.word(1) ==
            static_cast<uint32_t>(spv::Decoration::LinkageAttributes) &&
        a.word(3) == static_cast<uint32_t>(spv::LinkageType::Export);
    (is_export ? exports : others) += 1;
  }
  return exports == 1 && others == 0;
}

absl::Status Permutable(TransformContext& ctx, uint32_t id) {
  const spirv::Module& m = ctx.module();
  const spirv::Function* fn = m.FindFunction(id);
  if (fn == nullptr || fn->IsDeclaration() || fn->parameters.size() < 2)
    return absl::FailedPreconditionError(absl::StrCat(
        "%", id, " is not a function with a body and two parameters"));
  const bool exported = IsDecorated(m, id) && OnlyExported(ctx, id);
  if (spirv::IsEntryPoint(m, id) || (IsDecorated(m, id) && !exported) ||
      !UsedOnlyAsCallee(m, id, /*ignore_annotations=*/exported))
    return absl::FailedPreconditionError(absl::StrCat(
        "%", id,
        " is an entry point, decorated (other than one Export of a "
        "single-module case) or used other than by OpFunctionCall"));
  return absl::OkStatus();
}

class PermuteParametersKind : public Transformation {
 public:
  std::string_view kind() const override { return "permute_parameters"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<const spirv::Function*> fns;
    for (const spirv::Function& fn : ctx.module().functions)
      if (Permutable(ctx, fn.id()).ok()) fns.push_back(&fn);
    if (fns.empty()) return std::nullopt;
    const spirv::Function* fn =
        fns[rng.Below(static_cast<uint32_t>(fns.size()))];
    const size_t n = fn->parameters.size();
    std::vector<uint32_t> perm(n);
    for (uint32_t i = 0; i < n; ++i) perm[i] = i;
    for (size_t i = n; i > 1; --i)
      std::swap(perm[i - 1], perm[rng.Below(static_cast<uint32_t>(i))]);
    return Record{{"function", fn->id()}, {"permutation", perm}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t id = Field<uint32_t>(r, "function");
    if (absl::Status s = Permutable(ctx, id); !s.ok()) return s;
    auto perm = Field<std::vector<uint32_t>>(r, "permutation");
    std::vector<uint32_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t i = 0; i < sorted.size(); ++i)
      if (sorted[i] != i)
        return absl::InvalidArgumentError("\"permutation\" is no permutation");
    if (perm.size() != ctx.module().FindFunction(id)->parameters.size())
      return absl::FailedPreconditionError(
          "the permutation does not match the parameter count");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const uint32_t id = Field<uint32_t>(r, "function");
    const auto perm = Field<std::vector<uint32_t>>(r, "permutation");
    spirv::Function* fn = ctx.module().FindFunction(id);
    const std::vector<spirv::Instruction> old = fn->parameters;
    std::vector<uint32_t> types;
    for (size_t i = 0; i < perm.size(); ++i) {
      fn->parameters[i] = old[perm[i]];
      types.push_back(old[perm[i]].type_id());
    }
    const uint32_t return_type = fn->def.type_id();
    const uint32_t fn_type = ctx.builder().FunctionType(return_type, types);
    fn = ctx.module().FindFunction(id);
    fn->def.mutable_operands()[1].words[0] = fn_type;
    for (spirv::Function& f : ctx.module().functions)
      for (spirv::BasicBlock& bb : f.blocks)
        for (spirv::Instruction& inst : bb.instructions) {
          if (OpOf(inst) != Op::OpFunctionCall || inst.word(0) != id) continue;
          const std::vector<spirv::Operand> args = inst.operands();
          for (size_t i = 0; i < perm.size(); ++i)
            inst.mutable_operands()[1 + i] = args[1 + perm[i]];
        }
  }
};

}  // namespace

const Transformation* PermuteParameters() {
  static const PermuteParametersKind* t = new PermuteParametersKind;
  return t;
}

}  // namespace l0spv::generators::transform
