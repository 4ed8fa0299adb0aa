// SPV_INTEL_subgroups data-type rules ("Extensions: SPV_INTEL_subgroups"):
// the types a Level Zero environment must accept for shuffles and for buffer
// and image block reads/writes. Where the specification says "TBD" (char
// shuffles, long vector shuffles) the rule accepts: a lint must not flag
// what the environment may well take.
#include <string>

#include "absl/strings/str_cat.h"
#include "oracles/validity/rule_context.h"

namespace l0spv::oracles::validity_internal {
namespace {

using spirv::Instruction;
using spirv::TypeInfo;
using spv::Op;

bool IsShuffle(Op op) {
  return op == Op::OpSubgroupShuffleINTEL ||
         op == Op::OpSubgroupShuffleDownINTEL ||
         op == Op::OpSubgroupShuffleUpINTEL ||
         op == Op::OpSubgroupShuffleXorINTEL;
}

// Data of a shuffle: scalars or 2/4/8/16-vectors of f32, i16, i32 (and i8,
// TBD); i64 scalars (and vectors, TBD); f16 / f64 scalars when the module
// declares Float16 / Float64 and the device supports them.
bool ShuffleTypeOk(const RuleContext& ctx, uint32_t type_id) {
  const TypeInfo* t = ctx.types().Get(type_id);
  if (t == nullptr) return true;  // undeclared: spirv-val's business
  bool vector = false;
  if (t->op == Op::OpTypeVector) {
    if (t->count != 2 && t->count != 4 && t->count != 8 && t->count != 16) {
      return false;
    }
    vector = true;
    t = ctx.types().Get(t->element);
    if (t == nullptr) return true;
  }
  if (t->op == Op::OpTypeInt) {
    return t->width == 8 || t->width == 16 || t->width == 32 || t->width == 64;
  }
  if (t->op != Op::OpTypeFloat) return false;
  switch (t->width) {
    case 32:
      return true;
    case 16:
      return !vector && ctx.profile().fp16 &&
             ctx.Declares(spv::Capability::Float16);
    case 64:
      return !vector && ctx.profile().fp64 &&
             ctx.Declares(spv::Capability::Float64);
    default:
      return false;
  }
}

// Data of a block read/write: scalars or 2/4/8-vectors of i16 or i32.
bool BlockTypeOk(const RuleContext& ctx, uint32_t type_id) {
  const TypeInfo* t = ctx.types().Get(type_id);
  if (t == nullptr) return true;
  if (t->op == Op::OpTypeVector) {
    if (t->count != 2 && t->count != 4 && t->count != 8) return false;
    t = ctx.types().Get(t->element);
    if (t == nullptr) return true;
  }
  return t->op == Op::OpTypeInt && (t->width == 16 || t->width == 32);
}

uint32_t ValueType(const RuleContext& ctx, std::optional<uint32_t> value) {
  if (!value) return 0;
  const Instruction* def = ctx.def_use().Def(*value);
  return def ? def->type_id() : 0;
}

void CheckShuffle(RuleContext& ctx, const Instruction& inst) {
  if (ShuffleTypeOk(ctx, inst.type_id())) return;
  ctx.Report(kRuleSubgroupTypes, &inst,
             absl::StrCat(ctx.Describe(inst), " shuffles ",
                          ctx.TypeName(inst.type_id()),
                          "; SPV_INTEL_subgroups shuffles take scalars or "
                          "2/4/8/16-component vectors of 32-bit floats and "
                          "16/32-bit integers, 64-bit integer scalars, and "
                          "half/double scalars when Float16/Float64 are "
                          "declared and supported"));
}

void CheckBlockData(RuleContext& ctx, const Instruction& inst, uint32_t type_id,
                    std::string_view role) {
  if (BlockTypeOk(ctx, type_id)) return;
  ctx.Report(kRuleSubgroupTypes, &inst,
             absl::StrCat(ctx.Describe(inst), " has ", AbslView(role), " type ",
                          ctx.TypeName(type_id),
                          "; SPV_INTEL_subgroups block reads/writes take "
                          "scalars or 2/4/8-component vectors of 16 or 32-bit "
                          "integers"));
}

void CheckBlockPointer(RuleContext& ctx, const Instruction& inst,
                       std::optional<uint32_t> ptr) {
  if (!ptr) return;
  const TypeInfo* t = ctx.TypeOfValue(*ptr);
  if (t == nullptr || t->op != Op::OpTypePointer ||
      t->storage_class == spv::StorageClass::CrossWorkgroup) {
    return;
  }
  ctx.Report(kRuleSubgroupTypes, &inst,
             absl::StrCat(ctx.Describe(inst), "'s Ptr ", ctx.IdName(*ptr),
                          " is a ", ctx.TypeName(t->id),
                          "; SPV_INTEL_subgroups block reads/writes need "
                          "CrossWorkgroup (global) pointers"));
}

void CheckImageOperands(RuleContext& ctx, const Instruction& inst) {
  if (auto image = OperandWord(inst, 0)) {
    const TypeInfo* t = ctx.TypeOfValue(*image);
    const Instruction* decl = t != nullptr ? ctx.def_use().Def(t->id) : nullptr;
    if (decl != nullptr && static_cast<Op>(decl->opcode()) == Op::OpTypeImage) {
      const bool ok =
          OperandWord(*decl, 1) == static_cast<uint32_t>(spv::Dim::Dim2D) &&
          OperandWord(*decl, 2) == 0u && OperandWord(*decl, 3) == 0u &&
          OperandWord(*decl, 4) == 0u;
      if (!ok) {
        ctx.Report(kRuleSubgroupTypes, &inst,
                   absl::StrCat(ctx.Describe(inst), "'s Image ",
                                ctx.IdName(*image), " has type %", t->id,
                                "; SPV_INTEL_subgroups image block reads/"
                                "writes need a 2D, non-depth, non-arrayed, "
                                "single-sampled image"));
      }
    }
  }
  if (auto coord = OperandWord(inst, 1)) {
    const TypeInfo* t = ctx.TypeOfValue(*coord);
    if (t == nullptr) return;
    const TypeInfo* e = ctx.types().Get(t->element);
    const bool ok = t->op == Op::OpTypeVector && t->count == 2 &&
                    e != nullptr && e->op == Op::OpTypeInt && e->width == 32;
    if (!ok) {
      ctx.Report(kRuleSubgroupTypes, &inst,
                 absl::StrCat(ctx.Describe(inst), "'s Coordinate ",
                              ctx.IdName(*coord), " is ", ctx.TypeName(t->id),
                              "; SPV_INTEL_subgroups image block reads/writes "
                              "need an int2 (2 x 32-bit integer) coordinate"));
    }
  }
}

// Extended subgroups (programming guide): OpGroupNonUniform* values are
// integer or float scalars; OpGroupNonUniformBroadcast also takes 2/3/4/8/16
// component vectors of them. Bool (vote, logical) and uvec4 (ballot)
// operands are spirv-val's business; width and fp16/fp64 support are
// L0-INT-WIDTH / L0-FLOAT-WIDTH / L0-CAPABILITY's.
void CheckNonUniform(RuleContext& ctx, const Instruction& inst, Op op) {
  uint32_t type_id = 0;
  bool vectors = false;
  switch (op) {
    case Op::OpGroupNonUniformAllEqual:
      type_id = ValueType(ctx, OperandWord(inst, 1));
      break;
    case Op::OpGroupNonUniformBroadcast:
      vectors = true;
      type_id = inst.type_id();
      break;
    case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleXor:
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown:
    case Op::OpGroupNonUniformIAdd:
    case Op::OpGroupNonUniformFAdd:
    case Op::OpGroupNonUniformIMul:
    case Op::OpGroupNonUniformFMul:
    case Op::OpGroupNonUniformSMin:
    case Op::OpGroupNonUniformUMin:
    case Op::OpGroupNonUniformFMin:
    case Op::OpGroupNonUniformSMax:
    case Op::OpGroupNonUniformUMax:
    case Op::OpGroupNonUniformFMax:
    case Op::OpGroupNonUniformBitwiseAnd:
    case Op::OpGroupNonUniformBitwiseOr:
    case Op::OpGroupNonUniformBitwiseXor:
      type_id = inst.type_id();
      break;
    default:
      return;
  }
  const TypeInfo* t = ctx.types().Get(type_id);
  if (t == nullptr) return;  // undeclared: spirv-val's business
  const TypeInfo* scalar = t;
  bool ok = true;
  if (t->op == Op::OpTypeVector) {
    ok = vectors && (t->count == 2 || t->count == 3 || t->count == 4 ||
                     t->count == 8 || t->count == 16);
    scalar = ctx.types().Get(t->element);
    if (scalar == nullptr) return;
  }
  ok = ok && (scalar->op == Op::OpTypeInt || scalar->op == Op::OpTypeFloat);
  if (ok) return;
  ctx.Report(
      kRuleNonUniformTypes, &inst,
      absl::StrCat(ctx.Describe(inst), " operates on ", ctx.TypeName(type_id),
                   "; the extended subgroups take integer or float "
                   "scalars",
                   vectors ? " and 2/3/4/8/16-component vectors of them" : "",
                   " for ", AbslView(inst.name())));
}

void CheckInstruction(RuleContext& ctx, const Instruction& inst) {
  const Op op = static_cast<Op>(inst.opcode());
  if (inst.name().starts_with("OpGroupNonUniform")) {
    CheckNonUniform(ctx, inst, op);
    return;
  }
  if (IsShuffle(op)) {
    CheckShuffle(ctx, inst);
    return;
  }
  switch (op) {
    case Op::OpSubgroupBlockReadINTEL:
      CheckBlockPointer(ctx, inst, OperandWord(inst, 0));
      CheckBlockData(ctx, inst, inst.type_id(), "Result");
      break;
    case Op::OpSubgroupBlockWriteINTEL:
      CheckBlockPointer(ctx, inst, OperandWord(inst, 0));
      CheckBlockData(ctx, inst, ValueType(ctx, OperandWord(inst, 1)), "Data");
      break;
    case Op::OpSubgroupImageBlockReadINTEL:
      CheckImageOperands(ctx, inst);
      CheckBlockData(ctx, inst, inst.type_id(), "Result");
      break;
    case Op::OpSubgroupImageBlockWriteINTEL:
      CheckImageOperands(ctx, inst);
      CheckBlockData(ctx, inst, ValueType(ctx, OperandWord(inst, 2)), "Data");
      break;
    default:
      break;
  }
}

}  // namespace

void CheckSubgroupRules(RuleContext& ctx) {
  for (const spirv::Function& fn : ctx.module().functions) {
    for (const spirv::BasicBlock& bb : fn.blocks) {
      for (const Instruction& inst : bb.instructions) {
        CheckInstruction(ctx, inst);
      }
    }
  }
}

}  // namespace l0spv::oracles::validity_internal
