// Renames an exported helper's linkage symbol (export_function's, or any
// Export of a single-module case) to the kernel's entry point name. Entry
// point names and linkage names are separate in SPIR-V, and nothing imports
// the symbol, so the kernel computes the same; llvm-spirv -r (and the
// SPIR-path consumers behind it) takes the helper for its own old
// entry-point wrapper and runs it as the kernel:
// llvm_spirv_exported_helper_param_order.
//
// Record: {"function": id}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/kinds.h"
#include "spirv/ir_edit.h"
#include "spirv/link.h"

namespace l0spv::generators::transform {
namespace {

// The index in annotations of %id's LinkageAttributes ... Export, or -1.
int32_t ExportDecoration(const spirv::Module& m, uint32_t id) {
  for (size_t i = 0; i < m.annotations.size(); ++i) {
    const spirv::Instruction& a = m.annotations[i];
    if (spirv::Is(a, spv::Op::OpDecorate) && a.NumOperands() == 4 &&
        a.word(0) == id &&
        a.word(1) ==
            static_cast<uint32_t>(spv::Decoration::LinkageAttributes) &&
        a.word(3) == static_cast<uint32_t>(spv::LinkageType::Export))
      return static_cast<int32_t>(i);
  }
  return -1;
}

absl::Status Renamable(TransformContext& ctx, uint32_t id) {
  const spirv::Module& m = ctx.module();
  if (!ctx.test_case().linked_modules.empty())
    return absl::FailedPreconditionError(
        "the case has several modules: another module may import the symbol");
  const spirv::Function* fn = m.FindFunction(id);
  if (fn == nullptr || fn->IsDeclaration() || spirv::IsEntryPoint(m, id))
    return absl::FailedPreconditionError(
        absl::StrCat("%", id, " is not a helper function with a body"));
  const int32_t at = ExportDecoration(m, id);
  if (at < 0)
    return absl::FailedPreconditionError(
        absl::StrCat("%", id, " is not exported"));
  if (m.annotations[at].operand(2).AsString() == ctx.test_case().entry_point)
    return absl::FailedPreconditionError(
        absl::StrCat("%", id, " is already exported as the kernel"));
  return absl::OkStatus();
}

class RenameExportToKernelKind : public Transformation {
 public:
  std::string_view kind() const override { return "rename_export_to_kernel"; }
  std::vector<std::string_view> enablers() const override {
    return {"export_function"};
  }
  std::vector<oracles::KnownBugId> known_bugs() const override {
    return {oracles::KnownBugId::kLlvmSpirvExportedHelperParamOrder};
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> ids;
    for (const spirv::Function& fn : ctx.module().functions)
      if (Renamable(ctx, fn.id()).ok()) ids.push_back(fn.id());
    if (ids.empty()) return std::nullopt;
    return Record{
        {"function", ids[rng.Below(static_cast<uint32_t>(ids.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    return Renamable(ctx, Field<uint32_t>(r, "function"));
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const uint32_t id = Field<uint32_t>(r, "function");
    spirv::Module& m = ctx.module();
    m.annotations[ExportDecoration(m, id)] = spirv::LinkageDecoration(
        id, ctx.test_case().entry_point, spv::LinkageType::Export);
  }
};

}  // namespace

const Transformation* RenameExportToKernel() {
  static const RenameExportToKernelKind* t = new RenameExportToKernelKind;
  return t;
}

}  // namespace l0spv::generators::transform
