// A helper function (not an entry point, called only directly) gets a new
// last parameter that its body never reads; every call passes a constant.
// The function gets a new OpTypeFunction; the parameter is recorded as an
// irrelevant id (its value never matters).
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

constexpr size_t kMaxParameters = 32;

absl::Status Changeable(TransformContext& ctx, uint32_t id) {
  const spirv::Module& m = ctx.module();
  const spirv::Function* fn = m.FindFunction(id);
  if (fn == nullptr || fn->IsDeclaration())
    return absl::FailedPreconditionError(
        absl::StrCat("%", id, " is not a function with a body"));
  if (spirv::IsEntryPoint(m, id) || IsDecorated(m, id) ||
      !UsedOnlyAsCallee(m, id))
    return absl::FailedPreconditionError(absl::StrCat(
        "%", id,
        " is an entry point, decorated (linkage) or used other than by "
        "OpFunctionCall"));
  return absl::OkStatus();
}

class AddParameterKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_parameter"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> ids;
    for (const spirv::Function& fn : ctx.module().functions)
      if (fn.parameters.size() < kMaxParameters &&
          Changeable(ctx, fn.id()).ok())
        ids.push_back(fn.id());
    if (ids.empty()) return std::nullopt;
    const char* types[] = {"u32", "f32", "bool"};
    const uint32_t t = rng.Below(3);
    const uint32_t value =
        t == 2 ? rng.Below(2) : static_cast<uint32_t>(rng.Next());
    return Record{
        {"function", ids[rng.Below(static_cast<uint32_t>(ids.size()))]},
        {"type", types[t]},
        {"value", value}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const std::string type = Field<std::string>(r, "type");
    if (type != "u32" && type != "f32" && type != "bool")
      return absl::InvalidArgumentError(
          "\"type\" must be \"u32\", \"f32\" or \"bool\"");
    Field<uint32_t>(r, "value");
    const uint32_t id = Field<uint32_t>(r, "function");
    if (absl::Status s = Changeable(ctx, id); !s.ok()) return s;
    if (ctx.module().FindFunction(id)->parameters.size() >= kMaxParameters)
      return absl::FailedPreconditionError(
          "the function has enough parameters");
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const uint32_t id = Field<uint32_t>(r, "function");
    const std::string type = Field<std::string>(r, "type");
    const uint32_t value = Field<uint32_t>(r, "value");
    spirv::ModuleBuilder& mb = ctx.builder();
    uint32_t type_id = 0, constant = 0;
    if (type == "u32") {
      type_id = mb.IntType(32);
      constant = mb.IntConstant(type_id, value);
    } else if (type == "f32") {
      type_id = mb.FloatType(32);
      // A finite float: NaN payloads are not worth a consumer's scrutiny.
      constant = mb.FloatConstantBits(type_id, value & 0x3fffffff);
    } else {
      type_id = mb.BoolType();
      constant = mb.BoolConstant(value != 0);
    }
    spirv::Function* fn = ctx.module().FindFunction(id);
    std::vector<uint32_t> params;
    for (const spirv::Instruction& p : fn->parameters)
      params.push_back(p.type_id());
    params.push_back(type_id);
    const uint32_t fn_type = mb.FunctionType(fn->def.type_id(), params);
    const uint32_t param = ctx.NewId();
    fn = ctx.module().FindFunction(id);  // the builder may have grown lists
    fn->def.mutable_operands()[1].words[0] = fn_type;
    fn->parameters.push_back(
        spirv::Instruction(U(Op::OpFunctionParameter), type_id, param, {}));
    for (spirv::Function& f : ctx.module().functions)
      for (spirv::BasicBlock& bb : f.blocks)
        for (spirv::Instruction& inst : bb.instructions)
          if (OpOf(inst) == Op::OpFunctionCall && inst.word(0) == id)
            inst.AddOperand(spirv::IdOperand(constant));
    ctx.facts().AddIrrelevantId(param);
  }
};

}  // namespace

const Transformation* AddParameter() {
  static const AddParameterKind* t = new AddParameterKind;
  return t;
}

}  // namespace l0spv::generators::transform
