// Inlines one OpFunctionCall:
//   B: pre; %r = OpFunctionCall %T %F args; post; term
//   →  B: pre; OpBranch %E'
//      copies of F's blocks (every id fresh, parameters replaced by the
//      arguments); OpReturn / OpReturnValue %v → OpBranch %K
//      K: %r = OpPhi %T %v' %ret' ...   (non-void callees); post; term
// F's OpVariables move to the caller's entry block (fresh ids, no
// initializer: an initializer becomes an OpStore where F's entry began, so
// a call in a loop still starts from the initial value). Callees that reach
// a barrier or group operation, or whose results carry decorations (a copy
// without NoContraction could round differently), are left alone, as are
// calls in loop headers (their back edges name the header).
#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

absl::Status Inlinable(TransformContext& ctx, const InstPos& pos) {
  const spirv::Module& m = ctx.module();
  const spirv::Instruction& call = ctx.At(pos);
  if (OpOf(call) != Op::OpFunctionCall)
    return absl::FailedPreconditionError("not an OpFunctionCall");
  const spirv::BasicBlock& bb = ctx.BlockAt(pos);
  if (!ctx.dominators(pos.function).IsReachable(bb.id()))
    return absl::FailedPreconditionError("the call is unreachable");
  if (HasLoopMerge(bb))
    return absl::FailedPreconditionError("the call is in a loop header");
  // The callee's body goes between the code before and after the call.
  if (SeparatesSampledImage(bb, pos.index) ||
      SeparatesSampledImage(bb, pos.index + 1))
    return absl::FailedPreconditionError(
        "inlining would separate an OpSampledImage from its use");
  const uint32_t callee = call.word(0);
  const spirv::Function* fn = m.FindFunction(callee);
  if (fn == nullptr || fn->IsDeclaration() || spirv::IsEntryPoint(m, callee) ||
      callee == m.functions[pos.function].id())
    return absl::FailedPreconditionError(
        absl::StrCat("callee %", callee, " has no body or is an entry point"));
  if (ReachesCollective(m, callee))
    return absl::FailedPreconditionError(
        absl::StrCat("callee %", callee, " reaches a barrier"));
  bool returns_value = false;
  for (const spirv::BasicBlock& b : fn->blocks)
    for (const spirv::Instruction& inst : b.instructions) {
      if (inst.result_id() != 0 && IsDecorated(m, inst.result_id()))
        return absl::FailedPreconditionError(
            absl::StrCat("callee result %", inst.result_id(), " is decorated"));
      returns_value = returns_value || OpOf(inst) == Op::OpReturnValue;
    }
  const spirv::TypeInfo* ret = ctx.types().Get(call.type_id());
  if (ret != nullptr && ret->op != Op::OpTypeVoid && !returns_value)
    return absl::FailedPreconditionError(
        "the callee never returns a value (the call result would be lost)");
  return absl::OkStatus();
}

class InlineCallKind : public Transformation {
 public:
  std::string_view kind() const override { return "inline_call"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    auto pos = PickPosition(
        FindPositions(ctx,
                      [&](const spirv::Instruction& inst, const InstPos& p) {
                        return OpOf(inst) == Op::OpFunctionCall &&
                               Inlinable(ctx, p).ok();
                      }),
        rng);
    if (!pos) return std::nullopt;
    return Record{{"call", ctx.At(*pos).result_id()}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t id = Field<uint32_t>(r, "call");
    std::optional<InstPos> pos = ctx.PosOfDef(id);
    if (!pos)
      return absl::FailedPreconditionError(
          absl::StrCat("%", id, " is not defined in a block"));
    return Inlinable(ctx, *pos);
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos pos = *ctx.PosOfDef(Field<uint32_t>(r, "call"));
    const spirv::Instruction call = ctx.At(pos);
    const spirv::Function callee = *ctx.module().FindFunction(call.word(0));
    const bool dead = ctx.facts().IsDeadBlock(ctx.BlockAt(pos).id());
    const spirv::TypeInfo* ret = ctx.types().Get(call.type_id());
    const bool has_value = ret != nullptr && ret->op != Op::OpTypeVoid;
    // Fresh ids, in definition order; parameters map to the arguments.
    spirv::IdMap ids;
    for (size_t i = 0; i < callee.parameters.size(); ++i)
      ids[callee.parameters[i].result_id()] = call.word(1 + i);
    spirv::MapFreshIds(
        callee.blocks, [&] { return ctx.NewId(); }, ids);
    const uint32_t k = ctx.NewId();
    std::vector<spirv::Instruction> variables, inits;
    std::vector<spirv::BasicBlock> blocks;
    std::vector<spirv::Operand> phi_ops;
    for (const spirv::BasicBlock& source : callee.blocks) {
      spirv::BasicBlock bb = NewBlock(ids.at(source.id()));
      for (spirv::Instruction inst : source.instructions) {
        spirv::RemapIds(inst, ids);
        if (OpOf(inst) == Op::OpVariable) {
          if (inst.NumOperands() > 1) {
            inits.push_back(
                spirv::Instruction(U(Op::OpStore), 0, 0,
                                   {spirv::IdOperand(inst.result_id()),
                                    spirv::IdOperand(inst.word(1))}));
            inst.mutable_operands().resize(1);
          }
          variables.push_back(std::move(inst));
          continue;
        }
        if (OpOf(inst) == Op::OpReturnValue) {
          phi_ops.push_back(spirv::IdOperand(inst.word(0)));
          phi_ops.push_back(spirv::IdOperand(bb.id()));
          inst = Branch(k);
        } else if (OpOf(inst) == Op::OpReturn) {
          inst = Branch(k);
        }
        bb.instructions.push_back(std::move(inst));
      }
      blocks.push_back(std::move(bb));
    }
    auto& entry = blocks[0].instructions;
    entry.insert(
        entry.begin() + static_cast<ptrdiff_t>(
                            TransformContext::FirstInsertionIndex(blocks[0])),
        inits.begin(), inits.end());
    for (const spirv::BasicBlock& source : callee.blocks)
      if (dead || ctx.facts().IsDeadBlock(source.id()))
        ctx.facts().AddDeadBlock(ids.at(source.id()));
    // Split the caller's block: the call and what follows go to K.
    SplitBlockBefore(ctx, {pos.function, pos.block}, pos.index, k);
    spirv::Function& fn = ctx.module().functions[pos.function];
    fn.blocks[pos.block].instructions.push_back(Branch(blocks[0].id()));
    auto& k_insts = fn.blocks[pos.block + 1].instructions;
    k_insts.erase(k_insts.begin());  // the call
    if (has_value)
      k_insts.insert(k_insts.begin(),
                     spirv::Instruction(U(Op::OpPhi), call.type_id(),
                                        call.result_id(), std::move(phi_ops)));
    else
      RemoveNamesAndDecorations(ctx.module(), call.result_id());
    fn.blocks.insert(fn.blocks.begin() + static_cast<ptrdiff_t>(pos.block) + 1,
                     std::make_move_iterator(blocks.begin()),
                     std::make_move_iterator(blocks.end()));
    auto& caller_entry = fn.blocks[0].instructions;
    caller_entry.insert(caller_entry.begin(), variables.begin(),
                        variables.end());
  }
};

}  // namespace

const Transformation* InlineCall() {
  static const InlineCallKind* t = new InlineCallKind;
  return t;
}

}  // namespace l0spv::generators::transform
