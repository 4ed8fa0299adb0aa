// Atomic rules ("Validation Rules", Atomic Instructions): data widths and
// the storage class the Pointer operand points into.
#include <cstring>

#include "absl/strings/str_cat.h"
#include "oracles/validity/rule_context.h"
#include "spirv/grammar.h"

namespace l0spv::oracles::validity_internal {
namespace {

using spirv::Instruction;
using spirv::TypeInfo;
using spv::Op;

bool IsAtomic(const Instruction& inst) {
  const spirv::OpcodeInfo* info = inst.info();
  return info != nullptr && std::strcmp(info->instr_class, "Atomic") == 0;
}

// Atomics whose data may be a float: OpenCL C's atomic_xchg on float and the
// C11 atomic_float load/store/exchange compile to these, and
// SPV_EXT_shader_atomic_float_* add the float add/min/max (their capability
// is checked by L0-CAPABILITY).
bool AllowsFloat(Op op) {
  switch (op) {
    case Op::OpAtomicLoad:
    case Op::OpAtomicStore:
    case Op::OpAtomicExchange:
    case Op::OpAtomicFAddEXT:
    case Op::OpAtomicFMinEXT:
    case Op::OpAtomicFMaxEXT:
      return true;
    default:
      return false;
  }
}

// The type the atomic operates on: its Result Type, the type of OpAtomicStore's
// Value, or 0 for the flag instructions (whose data is implicit).
uint32_t DataType(const RuleContext& ctx, const Instruction& inst) {
  const Op op = static_cast<Op>(inst.opcode());
  if (op == Op::OpAtomicFlagTestAndSet || op == Op::OpAtomicFlagClear) return 0;
  if (op == Op::OpAtomicStore) {
    auto value = OperandWord(inst, 3);
    if (!value) return 0;
    const Instruction* def = ctx.def_use().Def(*value);
    return def ? def->type_id() : 0;
  }
  return inst.type_id();
}

void CheckWidth(RuleContext& ctx, const Instruction& inst) {
  const uint32_t type_id = DataType(ctx, inst);
  const TypeInfo* t = ctx.types().Get(type_id);
  if (t == nullptr) return;  // flag atomics, or undeclared: spirv-val's
  const Op op = static_cast<Op>(inst.opcode());
  const bool is_int = t->op == Op::OpTypeInt;
  const bool is_float = t->op == Op::OpTypeFloat && AllowsFloat(op);
  const std::string what =
      absl::StrCat(ctx.Describe(inst), " operates on ", ctx.TypeName(type_id));
  if (!is_int && !is_float) {
    ctx.Report(kRuleAtomicWidth, &inst,
               absl::StrCat(what,
                            "; Level Zero atomics operate on 32-bit "
                            "integers (64-bit with int64 atomics)"));
    return;
  }
  if (t->width == 32) return;
  // The float add/min/max of every width are declared by their own
  // capability (AtomicFloat16AddEXT, AtomicFloat64MinMaxEXT, ...), which
  // L0-CAPABILITY checks against the profile.
  if (is_float && (op == Op::OpAtomicFAddEXT || op == Op::OpAtomicFMinEXT ||
                   op == Op::OpAtomicFMaxEXT))
    return;
  if (t->width == 64 && ctx.profile().int64_atomics) return;
  ctx.Report(kRuleAtomicWidth, &inst,
             absl::StrCat(what, "; Level Zero atomics are 32-bit",
                          ctx.profile().int64_atomics
                              ? " or 64-bit"
                              : absl::StrCat(" (profile '", ctx.profile().name,
                                             "' has no int64 atomics)")));
}

void CheckStorageClass(RuleContext& ctx, const Instruction& inst) {
  auto pointer = OperandWord(inst, 0);
  if (!pointer) return;
  const TypeInfo* t = ctx.TypeOfValue(*pointer);
  if (t == nullptr || t->op != Op::OpTypePointer) return;
  switch (t->storage_class) {
    case spv::StorageClass::Function:
    case spv::StorageClass::Workgroup:
    case spv::StorageClass::CrossWorkgroup:
    case spv::StorageClass::Generic:
      return;
    default:
      ctx.Report(kRuleAtomicStorageClass, &inst,
                 absl::StrCat(ctx.Describe(inst), "'s Pointer ",
                              ctx.IdName(*pointer), " points to ",
                              EnumName(spirv::OperandKind::kStorageClass,
                                       static_cast<uint32_t>(t->storage_class)),
                              " storage; Level Zero atomics need Function, "
                              "Workgroup, CrossWorkgroup or Generic storage"));
  }
}

}  // namespace

void CheckAtomicRules(RuleContext& ctx) {
  for (const spirv::Function& fn : ctx.module().functions) {
    for (const spirv::BasicBlock& bb : fn.blocks) {
      for (const Instruction& inst : bb.instructions) {
        if (!IsAtomic(inst)) continue;
        CheckWidth(ctx, inst);
        CheckStorageClass(ctx, inst);
      }
    }
  }
}

}  // namespace l0spv::oracles::validity_internal
