// Adds a new function and a call to it from a block the facts say no
// work-item executes. The function is either a copy (every id fresh) of an
// existing helper function that reaches no barrier or group operation, or
// a small arithmetic function (u32 a, u32 b) → (a ^ b) + a * b, which is
// recorded as live-safe. The call passes zero arguments (OpConstant 0 /
// OpConstantFalse for scalars: llvm-spirv 14 asserts on a scalar
// OpConstantNull, known-consumer-bugs/llvm_spirv_scalar_constant_null;
// OpConstantNull otherwise): it is never executed, only compiled.
#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

// Parameter types OpConstantNull can stand in for.
bool NullableType(TransformContext& ctx, uint32_t type_id) {
  const spirv::TypeInfo* t = ctx.types().Get(type_id);
  if (t == nullptr) return false;
  switch (t->op) {
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
    case Op::OpTypeBool:
    case Op::OpTypeVector:
    case Op::OpTypePointer:
      return true;
    default:
      return false;
  }
}

absl::Status Copyable(TransformContext& ctx, uint32_t id) {
  const spirv::Module& m = ctx.module();
  const spirv::Function* fn = m.FindFunction(id);
  if (fn == nullptr || fn->IsDeclaration() || spirv::IsEntryPoint(m, id))
    return absl::FailedPreconditionError(
        absl::StrCat("%", id, " is not a helper function with a body to copy"));
  if (ReachesCollective(m, id))
    return absl::FailedPreconditionError(
        absl::StrCat("%", id, " reaches a barrier or group operation"));
  for (const spirv::Instruction& p : fn->parameters)
    if (!NullableType(ctx, p.type_id()))
      return absl::FailedPreconditionError(
          absl::StrCat("a parameter of %", id, " cannot be passed a null"));
  return absl::OkStatus();
}

absl::StatusOr<BlockRef> DeadBlock(TransformContext& ctx, uint32_t label) {
  auto ref = ReachableBlock(ctx, label);
  if (!ref.ok()) return ref.status();
  if (!ctx.facts().IsDeadBlock(label))
    return absl::FailedPreconditionError(
        absl::StrCat("block %", label, " is not known to be dead"));
  return ref;
}

class AddFunctionCalledFromDeadCodeKind : public Transformation {
 public:
  std::string_view kind() const override {
    return "add_function_called_from_dead_code";
  }
  // It calls only from dead blocks: add_dead_block makes them.
  std::vector<std::string_view> enablers() const override {
    return {"add_dead_block"};
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<std::pair<uint32_t, uint32_t>> dead;  // (label, function)
    for (auto [f, b] : ReachableBlocks(ctx)) {
      const spirv::Function& fn = ctx.module().functions[f];
      if (ctx.facts().IsDeadBlock(fn.blocks[b].id()))
        dead.emplace_back(fn.blocks[b].id(), fn.id());
    }
    if (dead.empty()) return std::nullopt;
    auto [label, caller] = dead[rng.Below(static_cast<uint32_t>(dead.size()))];
    std::vector<uint32_t> sources{0};
    for (const spirv::Function& fn : ctx.module().functions)
      if (Copyable(ctx, fn.id()).ok() &&
          !Reaches(ctx.module(), fn.id(), caller))
        sources.push_back(fn.id());
    return Record{
        {"block", label},
        {"copy_of", sources[rng.Below(static_cast<uint32_t>(sources.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto ref = DeadBlock(ctx, Field<uint32_t>(r, "block"));
    if (!ref.ok()) return ref.status();
    const uint32_t source = Field<uint32_t>(r, "copy_of");
    if (source == 0) return absl::OkStatus();
    if (absl::Status s = Copyable(ctx, source); !s.ok()) return s;
    const uint32_t caller = ctx.module().functions[ref->function].id();
    if (Reaches(ctx.module(), source, caller))
      return absl::FailedPreconditionError(absl::StrCat(
          "%", source, " calls %", caller, ": the call would recurse"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const uint32_t label = Field<uint32_t>(r, "block");
    const uint32_t source = Field<uint32_t>(r, "copy_of");
    spirv::ModuleBuilder& mb = ctx.builder();
    spirv::Function copy;
    if (source == 0) {
      const uint32_t u32 = mb.IntType(32);
      const uint32_t fn_type = mb.FunctionType(u32, {u32, u32});
      const uint32_t id = ctx.NewId(), a = ctx.NewId(), b = ctx.NewId(),
                     entry = ctx.NewId(), x = ctx.NewId(), p = ctx.NewId(),
                     sum = ctx.NewId();
      copy.def = spirv::Instruction(
          U(Op::OpFunction), u32, id,
          {spirv::EnumOperand(spirv::OperandKind::kFunctionControl, 0),
           spirv::IdOperand(fn_type)});
      copy.parameters = {
          spirv::Instruction(U(Op::OpFunctionParameter), u32, a, {}),
          spirv::Instruction(U(Op::OpFunctionParameter), u32, b, {})};
      spirv::BasicBlock bb = NewBlock(entry);
      auto bin = [&](Op op, uint32_t result, uint32_t l, uint32_t rr) {
        bb.instructions.push_back(spirv::Instruction(
            U(op), u32, result, {spirv::IdOperand(l), spirv::IdOperand(rr)}));
      };
      bin(Op::OpBitwiseXor, x, a, b);
      bin(Op::OpIMul, p, a, b);
      bin(Op::OpIAdd, sum, x, p);
      bb.instructions.push_back(spirv::Instruction(U(Op::OpReturnValue), 0, 0,
                                                   {spirv::IdOperand(sum)}));
      copy.blocks.push_back(std::move(bb));
      copy.end = spirv::Instruction(U(Op::OpFunctionEnd), 0, 0, {});
      ctx.facts().AddLiveSafeFunction(id);
    } else {
      // Fresh ids for every id the function defines, in definition order.
      spirv::IdMap ids;
      copy = spirv::CloneFunction(
          *ctx.module().FindFunction(source), [&] { return ctx.NewId(); }, ids);
    }
    // The call, before the dead block's merge instruction and terminator.
    std::vector<spirv::Operand> args{spirv::IdOperand(copy.id())};
    for (const spirv::Instruction& p : copy.parameters)
      args.push_back(spirv::IdOperand(mb.ZeroConstant(p.type_id())));
    const uint32_t result = ctx.NewId();
    spirv::Instruction call(U(Op::OpFunctionCall), copy.def.type_id(), result,
                            std::move(args));
    ctx.module().functions.push_back(std::move(copy));
    auto [f, b] = *ctx.FindBlock(label);
    spirv::BasicBlock& bb = ctx.module().functions[f].blocks[b];
    bb.instructions.insert(
        bb.instructions.begin() +
            static_cast<ptrdiff_t>(TransformContext::LastInsertionIndex(bb)),
        std::move(call));
  }
};

}  // namespace

const Transformation* AddFunctionCalledFromDeadCode() {
  static const AddFunctionCalledFromDeadCodeKind* t =
      new AddFunctionCalledFromDeadCodeKind;
  return t;
}

}  // namespace l0spv::generators::transform
