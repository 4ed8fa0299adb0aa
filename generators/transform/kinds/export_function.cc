// Exports a helper function of a single-module case: OpDecorate %f
// LinkageAttributes "l0spv_export_<id>" Export (+ OpCapability Linkage).
// Nothing imports it, so nothing changes what the kernel computes; consumers
// must now keep the function whole under its symbol, and permute_parameters
// may then reorder an exported function's parameters (spirv-fuzz
// mutants of that form found llvm_spirv_exported_helper_param_order).
// rename_export_to_kernel gives such an export the kernel's own name.
//
// Record: {"function": id}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"
#include "spirv/ir_edit.h"
#include "spirv/link.h"

namespace l0spv::generators::transform {
namespace {

absl::Status Exportable(TransformContext& ctx, uint32_t id) {
  const spirv::Module& m = ctx.module();
  if (!ctx.test_case().linked_modules.empty())
    return absl::FailedPreconditionError(
        "the case has several modules: a new export could clash");
  const spirv::Function* fn = m.FindFunction(id);
  if (fn == nullptr || fn->IsDeclaration())
    return absl::FailedPreconditionError(
        absl::StrCat("%", id, " is not a function with a body"));
  if (spirv::IsEntryPoint(m, id) || IsDecorated(m, id))
    return absl::FailedPreconditionError(absl::StrCat(
        "%", id, " is an entry point or already decorated (linkage)"));
  return absl::OkStatus();
}

class ExportFunctionKind : public Transformation {
 public:
  std::string_view kind() const override { return "export_function"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> ids;
    for (const spirv::Function& fn : ctx.module().functions)
      if (Exportable(ctx, fn.id()).ok()) ids.push_back(fn.id());
    if (ids.empty()) return std::nullopt;
    return Record{
        {"function", ids[rng.Below(static_cast<uint32_t>(ids.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    return Exportable(ctx, Field<uint32_t>(r, "function"));
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const uint32_t id = Field<uint32_t>(r, "function");
    ctx.builder().AddCapability(spv::Capability::Linkage);
    ctx.module().annotations.push_back(spirv::LinkageDecoration(
        id, absl::StrCat("l0spv_export_", id), spv::LinkageType::Export));
  }
};

}  // namespace

const Transformation* ExportFunction() {
  static const ExportFunctionKind* t = new ExportFunctionKind;
  return t;
}

}  // namespace l0spv::generators::transform
