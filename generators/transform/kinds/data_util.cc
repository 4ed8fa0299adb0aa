#include "generators/transform/kinds/data_util.h"

#include <cstring>

#include "absl/strings/str_cat.h"

namespace l0spv::generators::transform {

using spv::Op;

bool IsComputableOperand(const spirv::Instruction& inst, size_t i) {
  if (i >= inst.NumOperands() ||
      inst.operand(i).kind != spirv::OperandKind::kIdRef)
    return false;
  const spirv::OpcodeInfo* info = inst.info();
  if (info == nullptr) return false;
  if (std::strcmp(info->instr_class, "Group") == 0 ||
      std::strcmp(info->instr_class, "Non-Uniform") == 0)
    return false;
  switch (OpOf(inst)) {
    case Op::OpPhi:
    case Op::OpVariable:
    case Op::OpLifetimeStart:
    case Op::OpLifetimeStop:
    case Op::OpLoopMerge:
    case Op::OpSelectionMerge:
    case Op::OpBranch:
    case Op::OpLine:
    // A run-time OpCompositeConstruct crashes llvm-spirv 14 -r (known-
    // consumer-bugs/composite_construct_runtime): constructs keep their
    // constant operands.
    case Op::OpCompositeConstruct:
      return false;
    case Op::OpSwitch:
    case Op::OpBranchConditional:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
      return i == 0;
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
      return i <= 1;
    case Op::OpFunctionCall:
      return i >= 1;
    case Op::OpExtInst:
      return i >= 2 && inst.word(1) != 184;  // printf's format
    default:
      return true;
  }
}

namespace {

// The value of a scalar integer OpConstant/OpConstantNull, or nullopt.
std::optional<uint64_t> ScalarIntConstant(TransformContext& ctx, uint32_t id) {
  const DefSite* d = ctx.Def(id);
  if (d == nullptr || d->function >= 0 ||
      (d->opcode != U(Op::OpConstant) && d->opcode != U(Op::OpConstantNull)))
    return std::nullopt;
  const spirv::TypeInfo* t = ctx.types().Get(d->type_id);
  if (t == nullptr || t->op != Op::OpTypeInt) return std::nullopt;
  return ctx.types().IntConstant(id);
}

}  // namespace

std::vector<ConstantUse> FindIntConstantUses(TransformContext& ctx,
                                             bool kernel_only) {
  std::vector<ConstantUse> out;
  FindPositions(ctx, [&](const spirv::Instruction& inst, const InstPos& pos) {
    if (kernel_only &&
        static_cast<int32_t>(pos.function) != ctx.entry_function())
      return false;
    for (size_t i = 0; i < inst.NumOperands(); ++i) {
      if (!IsComputableOperand(inst, i)) continue;
      const uint32_t id = inst.operand(i).AsId();
      if (ScalarIntConstant(ctx, id)) out.push_back({pos, i, id});
    }
    return false;
  });
  return out;
}

absl::StatusOr<uint64_t> CheckIntConstantUse(TransformContext& ctx,
                                             const InstPos& pos, size_t operand,
                                             uint32_t* constant) {
  const spirv::Instruction& inst = ctx.At(pos);
  if (!IsComputableOperand(inst, operand))
    return absl::FailedPreconditionError(
        absl::StrCat("operand ", operand, " of ", std::string(inst.name()),
                     " must stay as written"));
  *constant = inst.operand(operand).AsId();
  std::optional<uint64_t> value = ScalarIntConstant(ctx, *constant);
  if (!value)
    return absl::FailedPreconditionError(
        absl::StrCat("operand ", operand, " of ", std::string(inst.name()),
                     " is not a scalar integer constant"));
  if (!ctx.dominators(pos.function).IsReachable(ctx.BlockAt(pos).id()))
    return absl::FailedPreconditionError("the use is in an unreachable block");
  return *value;
}

size_t InsertionIndexForUse(const spirv::BasicBlock& block, size_t use_index) {
  return std::min(use_index, TransformContext::LastInsertionIndex(block));
}

uint32_t EmitBefore(TransformContext& ctx, InstPos& pos, spv::Op op,
                    uint32_t result_type,
                    std::vector<spirv::Operand> operands) {
  const uint32_t id = result_type != 0 ? ctx.NewId() : 0;
  InsertBefore(ctx, pos,
               spirv::Instruction(U(op), result_type, id, std::move(operands)));
  ++pos.index;
  return id;
}

size_t VariableInsertionIndex(const spirv::Function& fn) {
  const auto& insts = fn.blocks.front().instructions;
  size_t last = 0;
  for (size_t i = 0; i < insts.size(); ++i) {
    const Op op = OpOf(insts[i]);
    if (op == Op::OpVariable)
      last = i + 1;
    else if (op != Op::OpLine && op != Op::OpNoLine)
      break;
  }
  return last;
}

bool IsPlainDataType(TransformContext& ctx, uint32_t type_id) {
  const spirv::TypeTable& tt = ctx.types();
  const spirv::TypeInfo* t = tt.Get(type_id);
  if (t == nullptr) return false;
  if (t->op == Op::OpTypeVector) t = tt.Get(t->element);
  return t != nullptr && (t->op == Op::OpTypeInt || t->op == Op::OpTypeFloat);
}

bool IsUndef(TransformContext& ctx, uint32_t id) {
  const DefSite* d = ctx.Def(id);
  return d != nullptr && d->opcode == U(Op::OpUndef);
}

uint32_t PointeeOf(TransformContext& ctx, uint32_t pointer_id) {
  const spirv::TypeInfo* t = ctx.types().Get(ctx.TypeOf(pointer_id));
  return t != nullptr && t->op == Op::OpTypePointer ? t->element : 0;
}

bool IsIrrelevantLocal(TransformContext& ctx, uint32_t pointer,
                       const InstPos& pos) {
  if (!ctx.facts().IsIrrelevantPointee(pointer)) return false;
  const DefSite* d = ctx.Def(pointer);
  if (d == nullptr || d->opcode != U(Op::OpVariable) ||
      static_cast<size_t>(d->function) != pos.function)
    return false;
  const spirv::TypeInfo* t = ctx.types().Get(d->type_id);
  return t != nullptr && t->storage_class == spv::StorageClass::Function &&
         ctx.IsAvailableAt(pointer, pos);
}

std::optional<Record> ProposeValueSite(
    TransformContext& ctx, Rng& rng,
    const std::function<bool(uint32_t type)>& fits) {
  struct Value {
    uint32_t id;
    InstPos after;  // insertion starts after this index (params: none)
    bool param;
  };
  std::vector<Value> values;
  spirv::Module& m = ctx.module();
  for (size_t f = 0; f < m.functions.size(); ++f) {
    const spirv::Function& fn = m.functions[f];
    if (fn.IsDeclaration()) continue;
    for (const spirv::Instruction& p : fn.parameters)
      if (fits(p.type_id())) values.push_back({p.result_id(), {f, 0, 0}, true});
  }
  for (const InstPos& pos :
       FindPositions(ctx, [&](const spirv::Instruction&inst, const InstPos&) {
         return inst.result_id() != 0 && inst.type_id() != 0 &&
                OpOf(inst) != Op::OpUndef && fits(inst.type_id());
       }))
    values.push_back({ctx.At(pos).result_id(), pos, false});
  if (values.empty()) return std::nullopt;
  const Value& v = values[rng.Below(static_cast<uint32_t>(values.size()))];
  const spirv::BasicBlock& bb = ctx.BlockAt(v.after);
  const size_t lo = std::max(v.param ? 0 : v.after.index + 1,
                             TransformContext::FirstInsertionIndex(bb));
  const size_t hi = TransformContext::LastInsertionIndex(bb);
  if (lo > hi) return std::nullopt;
  InstPos at = v.after;
  at.index = rng.Range(static_cast<uint32_t>(lo), static_cast<uint32_t>(hi));
  return Record{{"id", v.id}, {"before", ToJson(ctx.Describe(at))}};
}

absl::Status CheckValueSite(TransformContext& ctx, const Record& r,
                            const std::function<bool(uint32_t type)>& fits) {
  auto pos = ResolveInsertionField(ctx, r, "before");
  if (!pos.ok()) return pos.status();
  const uint32_t id = Field<uint32_t>(r, "id");
  const DefSite* d = ctx.Def(id);
  if (d == nullptr || d->function < 0 || IsUndef(ctx, id) ||
      !fits(d->type_id) || !ctx.IsAvailableAt(id, *pos))
    return absl::FailedPreconditionError(
        absl::StrCat("%", id,
                     " is not a value of a fitting type available "
                     "there"));
  return absl::OkStatus();
}

}  // namespace l0spv::generators::transform
