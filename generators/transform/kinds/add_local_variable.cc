// Adds a fresh Function-storage OpVariable, initialised with a constant, to
// a function's entry block. Nothing reads it yet; the fact "irrelevant
// pointee" lets add_dead_store write anything to it and
// add_irrelevant_load read it (never uninitialised: it has an initializer).
// The initializer trips llvm-spirv 14's round trip (corpora/
// known-consumer-bugs/function_variable_initializer.spvasm): known_bugs.
//
// Record: {"function": id, "initializer": constant id}.
#include "absl/strings/str_cat.h"
#include "generators/kernel/generator.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// A non-spec scalar/vector int or float constant.
bool IsInitializer(TransformContext& ctx, const spirv::Instruction& inst) {
  switch (OpOf(inst)) {
    case Op::OpConstant:
    case Op::OpConstantComposite:
    case Op::OpConstantNull:
      return IsPlainDataType(ctx, inst.type_id());
    default:
      return false;
  }
}

class AddLocalVariableKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_local_variable"; }
  std::vector<oracles::KnownBugId> known_bugs() const override {
    return {oracles::KnownBugId::kFunctionVariableInitializer};
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> functions;
    for (const spirv::Function& fn : ctx.module().functions)
      if (!fn.IsDeclaration()) functions.push_back(fn.id());
    std::vector<uint32_t> constants;
    for (const spirv::Instruction& inst : ctx.module().types_values)
      if (IsInitializer(ctx, inst)) constants.push_back(inst.result_id());
    if (functions.empty() || constants.empty()) return std::nullopt;
    return Record{
        {"function",
         functions[rng.Below(static_cast<uint32_t>(functions.size()))]},
        {"initializer",
         constants[rng.Below(static_cast<uint32_t>(constants.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t function = Field<uint32_t>(r, "function");
    const spirv::Function* fn = ctx.module().FindFunction(function);
    if (fn == nullptr || fn->IsDeclaration())
      return absl::FailedPreconditionError(
          absl::StrCat("%", function, " is not a function with a body"));
    const uint32_t init = Field<uint32_t>(r, "initializer");
    const DefSite* d = ctx.Def(init);
    bool ok = d != nullptr && d->function < 0;
    if (ok) {
      ok = false;
      for (const spirv::Instruction& inst : ctx.module().types_values)
        if (inst.result_id() == init) ok = IsInitializer(ctx, inst);
    }
    if (!ok)
      return absl::FailedPreconditionError(absl::StrCat(
          "%", init, " is not an int or float scalar/vector constant"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const uint32_t init = Field<uint32_t>(r, "initializer");
    const uint32_t ptr = ctx.builder().PointerType(spv::StorageClass::Function,
                                                   ctx.TypeOf(init));
    spirv::Function& fn =
        *ctx.module().FindFunction(Field<uint32_t>(r, "function"));
    const uint32_t var = ctx.NewId();
    auto& insts = fn.blocks.front().instructions;
    insts.insert(
        insts.begin() + static_cast<ptrdiff_t>(VariableInsertionIndex(fn)),
        spirv::Instruction(
            U(Op::OpVariable), ptr, var,
            {spirv::EnumOperand(spirv::OperandKind::kStorageClass,
                                U32(spv::StorageClass::Function)),
             spirv::IdOperand(init)}));
    ctx.facts().AddIrrelevantPointee(var);
  }

 private:
  static uint32_t U32(spv::StorageClass c) { return static_cast<uint32_t>(c); }
};

}  // namespace

const Transformation* AddLocalVariable() {
  static const AddLocalVariableKind* t = new AddLocalVariableKind;
  return t;
}

}  // namespace l0spv::generators::transform
