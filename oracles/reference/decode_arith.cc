// oracles/reference/decode_arith.cc — the Arithmetic, Bit,
// Relational_and_Logical and Conversion instruction classes: integer and
// float families (the internal opcode encodes the lane type), logic,
// selects and conversions.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "oracles/reference/decode_state.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference::decoder {

using spv::Op;

absl::Status DecodeState::TranslateArith(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  switch (op) {
#define L0SPV_INT(spv_name, ours, bin) \
  case Op::spv_name:                   \
    return IntFamily(inst, Op_::k##ours##8, bin);
    L0SPV_INT(OpIAdd, IAdd, true)
    L0SPV_INT(OpISub, ISub, true)
    L0SPV_INT(OpIMul, IMul, true)
    L0SPV_INT(OpUDiv, UDiv, true)
    L0SPV_INT(OpSDiv, SDiv, true)
    L0SPV_INT(OpUMod, UMod, true)
    L0SPV_INT(OpSRem, SRem, true)
    L0SPV_INT(OpSMod, SMod, true)
    L0SPV_INT(OpShiftLeftLogical, Shl, true)
    L0SPV_INT(OpShiftRightLogical, Shr, true)
    L0SPV_INT(OpShiftRightArithmetic, Sar, true)
    L0SPV_INT(OpBitwiseOr, Or, true)
    L0SPV_INT(OpBitwiseXor, Xor, true)
    L0SPV_INT(OpBitwiseAnd, And, true)
    L0SPV_INT(OpSNegate, SNeg, false)
    L0SPV_INT(OpNot, Not, false)
    L0SPV_INT(OpBitReverse, BitReverse, false)
#undef L0SPV_INT
    case Op::OpBitCount: {
      // The result may be narrower or wider than the operand in principle;
      // kernels use the same type.
      L0SPV_DECODE_TRY(aid, Id(inst, 0));
      L0SPV_DECODE_TRY(at, TypeOfValue(*aid));
      if (*at != inst.type_id())
        return Unimpl("OpBitCount with a result type unlike its operand");
      return IntFamily(inst, Op_::kBitCount8, false);
    }
#define L0SPV_F(spv_name, ours, arity) \
  case Op::spv_name:                   \
    return FloatFamily(inst, Op_::k##ours##16, arity);
      L0SPV_F(OpFAdd, FAdd, 2)
      L0SPV_F(OpFSub, FSub, 2)
      L0SPV_F(OpFMul, FMul, 2)
      L0SPV_F(OpFDiv, FDiv, 2)
      L0SPV_F(OpFRem, FRem, 2)
      L0SPV_F(OpFMod, FMod, 2)
      L0SPV_F(OpFNegate, FNeg, 1)
#undef L0SPV_F
    case Op::OpDot:
    case Op::OpVectorTimesScalar: {
      L0SPV_DECODE_TRY(aid, Id(inst, 0));
      L0SPV_DECODE_TRY(at, TypeOfValue(*aid));
      L0SPV_DECODE_TRY(s, ShapeOf(*at));
      if (s->k < kF16 || s->k > kF64) return Bad("OpDot on non-floats");
      Inst i{op == Op::OpDot ? Op_::kDot : Op_::kVecTimesScalar};
      i.k = s->k;
      i.n = s->n;
      L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
      L0SPV_DECODE_TRY(a, Slot(*aid));
      L0SPV_DECODE_TRY(b, SlotOf(inst, 1));
      i.r = *r;
      i.a = *a;
      i.b = *b;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpIAddCarry:
    case Op::OpISubBorrow:
    case Op::OpUMulExtended:
    case Op::OpSMulExtended:
      return ExtendedArith(inst);
    default:
      return Unsupported(inst, kNotImplemented);
  }
}

absl::Status DecodeState::TranslateLogic(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  switch (op) {
#define L0SPV_CMP(spv_name, ours) \
  case Op::spv_name:              \
    return IntCompare(inst, Op_::k##ours##8);
    L0SPV_CMP(OpIEqual, IEq)
    L0SPV_CMP(OpINotEqual, INe)
    L0SPV_CMP(OpUGreaterThan, UGt)
    L0SPV_CMP(OpSGreaterThan, SGt)
    L0SPV_CMP(OpUGreaterThanEqual, UGe)
    L0SPV_CMP(OpSGreaterThanEqual, SGe)
    L0SPV_CMP(OpULessThan, ULt)
    L0SPV_CMP(OpSLessThan, SLt)
    L0SPV_CMP(OpULessThanEqual, ULe)
    L0SPV_CMP(OpSLessThanEqual, SLe)
#undef L0SPV_CMP
#define L0SPV_F(spv_name, ours, arity) \
  case Op::spv_name:                   \
    return FloatFamily(inst, Op_::k##ours##16, arity);
    L0SPV_F(OpFOrdEqual, FOrdEq, 2)
    L0SPV_F(OpFUnordEqual, FUnordEq, 2)
    L0SPV_F(OpFOrdNotEqual, FOrdNe, 2)
    L0SPV_F(OpFUnordNotEqual, FUnordNe, 2)
    L0SPV_F(OpFOrdLessThan, FOrdLt, 2)
    L0SPV_F(OpFUnordLessThan, FUnordLt, 2)
    L0SPV_F(OpFOrdGreaterThan, FOrdGt, 2)
    L0SPV_F(OpFUnordGreaterThan, FUnordGt, 2)
    L0SPV_F(OpFOrdLessThanEqual, FOrdLe, 2)
    L0SPV_F(OpFUnordLessThanEqual, FUnordLe, 2)
    L0SPV_F(OpFOrdGreaterThanEqual, FOrdGe, 2)
    L0SPV_F(OpFUnordGreaterThanEqual, FUnordGe, 2)
    L0SPV_F(OpLessOrGreater, LessOrGreater, 2)
    L0SPV_F(OpOrdered, Ordered, 2)
    L0SPV_F(OpUnordered, Unordered, 2)
    L0SPV_F(OpIsNan, IsNan, 1)
    L0SPV_F(OpIsInf, IsInf, 1)
    L0SPV_F(OpIsFinite, IsFinite, 1)
    L0SPV_F(OpIsNormal, IsNormal, 1)
    L0SPV_F(OpSignBitSet, SignBitSet, 1)
#undef L0SPV_F
    case Op::OpLogicalAnd:
    case Op::OpLogicalOr:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
    case Op::OpLogicalNot: {
      L0SPV_DECODE_TRY(s, ShapeOf(inst.type_id()));
      Inst i{op == Op::OpLogicalAnd        ? Op_::kLogicalAnd
             : op == Op::OpLogicalOr       ? Op_::kLogicalOr
             : op == Op::OpLogicalEqual    ? Op_::kLogicalEq
             : op == Op::OpLogicalNotEqual ? Op_::kLogicalNe
                                           : Op_::kLogicalNot};
      i.n = s->n;
      i.k = kBool;
      L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
      L0SPV_DECODE_TRY(a, SlotOf(inst, 0));
      i.r = *r;
      i.a = *a;
      if (op != Op::OpLogicalNot) {
        L0SPV_DECODE_TRY(b, SlotOf(inst, 1));
        i.b = *b;
      }
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpAny:
    case Op::OpAll: {
      L0SPV_DECODE_TRY(aid, Id(inst, 0));
      L0SPV_DECODE_TRY(at, TypeOfValue(*aid));
      L0SPV_DECODE_TRY(s, ShapeOf(*at));
      Inst i{op == Op::OpAny ? Op_::kAny : Op_::kAll};
      i.n = s->n;
      L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
      L0SPV_DECODE_TRY(a, Slot(*aid));
      i.r = *r;
      i.a = *a;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpSelect: {
      L0SPV_DECODE_TRY(cid, Id(inst, 0));
      L0SPV_DECODE_TRY(ct, TypeOfValue(*cid));
      L0SPV_DECODE_TRY(cs, ShapeOf(*ct));
      L0SPV_DECODE_TRY(s, ShapeOf(inst.type_id()));
      L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
      L0SPV_DECODE_TRY(c, Slot(*cid));
      L0SPV_DECODE_TRY(a, SlotOf(inst, 1));
      L0SPV_DECODE_TRY(b, SlotOf(inst, 2));
      if (auto st = NeedBytes(inst.word(1), s->bytes); !st.ok()) return st;
      if (auto st = NeedBytes(inst.word(2), s->bytes); !st.ok()) return st;
      Inst i{cs->n == 1 ? Op_::kSelectScalar : Op_::kSelectVector};
      if (cs->n != 1 && (cs->n != s->n || s->k == kAgg))
        return Bad("OpSelect condition and result lanes differ");
      i.r = *r;
      i.a = *c;
      i.b = *a;
      i.c = *b;
      i.k = s->k;
      i.n = s->n;
      i.d = s->bytes;
      Emit(i, inst);
      return absl::OkStatus();
    }
    default:
      return Unsupported(inst, kNotImplemented);
  }
}

absl::Status DecodeState::TranslateConversion(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  switch (op) {
    case Op::OpConvertFToU:
      return Convert(inst, true, false, false);
    case Op::OpConvertFToS:
      return Convert(inst, true, true, false);
    case Op::OpConvertSToF:
      return Convert(inst, true, true, false);
    case Op::OpConvertUToF:
      return Convert(inst, false, true, false);
    case Op::OpUConvert:
      return Convert(inst, false, false, false);
    case Op::OpSConvert:
      return Convert(inst, true, true, false);
    case Op::OpFConvert:
      return Convert(inst, true, true, false);
    case Op::OpSatConvertSToU:
      return Convert(inst, true, false, true);
    case Op::OpSatConvertUToS:
      return Convert(inst, false, true, true);
    case Op::OpConvertPtrToU:
    case Op::OpConvertUToPtr: {
      L0SPV_DECODE_TRY(aid, Id(inst, 0));
      L0SPV_DECODE_TRY(at, TypeOfValue(*aid));
      L0SPV_DECODE_TRY(from, ShapeOf(*at));
      L0SPV_DECODE_TRY(to, ShapeOf(inst.type_id()));
      if (from->n != 1 || to->n != 1 || from->k < kI8 || from->k > kI64 ||
          to->k < kI8 || to->k > kI64)
        return Bad("pointer/integer conversion shapes");
      Inst i{Op_::kUConvert};
      i.c = from->k;
      i.k = to->k;
      L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
      L0SPV_DECODE_TRY(a, Slot(*aid));
      i.r = *r;
      i.a = *a;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpBitcast:
    case Op::OpPtrCastToGeneric:
      return BitCopy(inst);
    case Op::OpGenericCastToPtr:
    case Op::OpGenericCastToPtrExplicit: {
      const TypeDesc* rt = Type(inst.type_id());
      if (rt == nullptr || rt->cls != TypeDesc::kPointer)
        return Bad("generic cast to a non-pointer");
      Inst i{op == Op::OpGenericCastToPtr ? Op_::kGenericCastToPtr
                                          : Op_::kGenericCastToPtrExplicit};
      L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
      L0SPV_DECODE_TRY(a, SlotOf(inst, 0));
      i.r = *r;
      i.a = *a;
      i.c = rt->storage;
      Emit(i, inst);
      return absl::OkStatus();
    }
    default:
      return Unsupported(inst, kNotImplemented);
  }
}

absl::Status DecodeState::IntFamily(const Instruction& inst, Op_ base8,
                                    bool binary) {
  auto shape = ShapeOf(inst.type_id());
  if (!shape.ok()) return shape.status();
  if (shape->k < kI8 || shape->k > kI64)
    return Unimpl(
        absl::StrCat(OpName(inst.opcode()), " on a non-integer type"));
  Inst i{static_cast<Op_>(static_cast<int>(base8) + (shape->k - kI8))};
  i.k = shape->k;
  i.n = shape->n;
  auto r = Slot(inst.result_id());
  if (inst.NumOperands() < 1) return Bad("integer operation without operands");
  auto a = Slot(inst.word(0));
  if (!r.ok()) return r.status();
  if (!a.ok()) return a.status();
  i.r = *r;
  i.a = *a;
  {
    auto at = TypeOfValue(inst.word(0));
    if (!at.ok()) return at.status();
    auto as = ShapeOf(*at);
    if (!as.ok()) return as.status();
    if (as->k != shape->k || as->n != shape->n)
      return Unimpl(absl::StrCat(OpName(inst.opcode()),
                                 " with an operand unlike its result"));
  }
  if (binary) {
    auto bid = Id(inst, 1);
    if (!bid.ok()) return bid.status();
    auto b = Slot(*bid);
    if (!b.ok()) return b.status();
    auto bt = TypeOfValue(*bid);
    if (!bt.ok()) return bt.status();
    auto bs = ShapeOf(*bt);
    if (!bs.ok()) return bs.status();
    if (bs->k != shape->k || bs->n != shape->n)
      return Unimpl(absl::StrCat(OpName(inst.opcode()),
                                 " with operands of different widths"));
    i.b = *b;
  }
  if (const Decorations* d = Deco(inst.result_id());
      d != nullptr && (d->no_signed_wrap || d->no_unsigned_wrap)) {
    Inst check{Op_::kNoWrapCheck};
    check.k = i.k;
    check.n = i.n;
    check.a = i.a;
    check.b = binary ? i.b : kNoSlot;
    check.d = inst.opcode() | (d->no_signed_wrap ? 1u << 16 : 0u) |
              (d->no_unsigned_wrap ? 1u << 17 : 0u);
    Emit(check, inst);
  }
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::IntCompare(const Instruction& inst, Op_ base8) {
  auto aid = Id(inst, 0);
  if (!aid.ok()) return aid.status();
  auto bid = Id(inst, 1);
  if (!bid.ok()) return bid.status();
  auto at = TypeOfValue(*aid);
  if (!at.ok()) return at.status();
  auto s = ShapeOf(*at);
  if (!s.ok()) return s.status();
  if (s->k < kI8 || s->k > kI64)
    return Unimpl(
        absl::StrCat(OpName(inst.opcode()), " on a non-integer type"));
  auto bt = TypeOfValue(*bid);
  if (!bt.ok()) return bt.status();
  auto bs = ShapeOf(*bt);
  if (!bs.ok()) return bs.status();
  if (bs->k != s->k || bs->n != s->n)
    return Unimpl(absl::StrCat(OpName(inst.opcode()),
                               " with operands of different widths"));
  Inst i{static_cast<Op_>(static_cast<int>(base8) + (s->k - kI8))};
  i.k = s->k;
  i.n = s->n;
  auto r = Slot(inst.result_id());
  auto a = Slot(*aid);
  auto b = Slot(*bid);
  if (!r.ok() || !a.ok() || !b.ok()) return Bad("comparison operands");
  i.r = *r;
  i.a = *a;
  i.b = *b;
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::FloatFamily(const Instruction& inst, Op_ base16,
                                      int arity) {
  auto aid = Id(inst, 0);
  if (!aid.ok()) return aid.status();
  auto at = TypeOfValue(*aid);
  if (!at.ok()) return at.status();
  auto s = ShapeOf(*at);
  if (!s.ok()) return s.status();
  if (s->k < kF16 || s->k > kF64)
    return Unimpl(absl::StrCat(OpName(inst.opcode()), " on a non-float type"));
  Inst i{static_cast<Op_>(static_cast<int>(base16) + (s->k - kF16))};
  i.k = s->k;
  i.n = s->n;
  auto r = Slot(inst.result_id());
  auto a = Slot(*aid);
  if (!r.ok()) return r.status();
  if (!a.ok()) return a.status();
  i.r = *r;
  i.a = *a;
  if (arity == 2) {
    auto bid = Id(inst, 1);
    if (!bid.ok()) return bid.status();
    auto bt = TypeOfValue(*bid);
    if (!bt.ok()) return bt.status();
    auto bs = ShapeOf(*bt);
    if (!bs.ok()) return bs.status();
    if (bs->k != s->k || bs->n != s->n)
      return Unimpl(absl::StrCat(OpName(inst.opcode()),
                                 " with operands of different types"));
    auto b = Slot(*bid);
    if (!b.ok()) return b.status();
    i.b = *b;
  }
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::Convert(const Instruction& inst, bool from_signed,
                                  bool to_signed, bool saturate) {
  auto aid = Id(inst, 0);
  if (!aid.ok()) return aid.status();
  auto at = TypeOfValue(*aid);
  if (!at.ok()) return at.status();
  auto from = ShapeOf(*at);
  auto to = ShapeOf(inst.type_id());
  if (!from.ok()) return from.status();
  if (!to.ok()) return to.status();
  if (from->n != to->n || from->k == kAgg || to->k == kAgg)
    return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                            ": operand and result shapes differ"));
  const Decorations* d = Deco(inst.result_id());
  saturate = saturate || (d && d->saturated);
  const bool has_mode = d && d->rounding >= 0 && d->rounding <= 3;
  auto r = Slot(inst.result_id());
  auto a = Slot(*aid);
  if (!r.ok()) return r.status();
  if (!a.ok()) return a.status();
  Inst i{Op_::kConvert};
  const bool int_to_int =
      from->k >= kI8 && from->k <= kI64 && to->k >= kI8 && to->k <= kI64;
  if (int_to_int && !saturate) {
    i.op = from_signed ? Op_::kSConvert : Op_::kUConvert;
    i.c = from->k;
  } else {
    ConvertSpec spec;
    spec.from = from->k;
    spec.to = to->k;
    spec.from_signed = from_signed;
    spec.to_signed = to_signed;
    spec.saturate = saturate;
    spec.default_rounding = !has_mode;
    if (has_mode) spec.mode = static_cast<RoundMode>(d->rounding);
    i.d = static_cast<uint32_t>(prog_.converts.size());
    prog_.converts.push_back(spec);
  }
  i.k = to->k;
  i.n = to->n;
  i.r = *r;
  i.a = *a;
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::ExtendedArith(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  L0SPV_DECODE_TRY(aid, Id(inst, 0));
  L0SPV_DECODE_TRY(at, TypeOfValue(*aid));
  L0SPV_DECODE_TRY(s, ShapeOf(*at));
  if (s->k < kI8 || s->k > kI64) return Bad("extended arithmetic types");
  const TypeDesc* rt = Type(inst.type_id());
  if (rt == nullptr || rt->cls != TypeDesc::kStruct || rt->offsets.size() != 2)
    return Bad("extended arithmetic result is not a 2-member struct");
  if (rt->offsets[1] + uint64_t{s->n} * KindBytes(s->k) > rt->size)
    return Bad("extended arithmetic result layout");
  Inst i{op == Op::OpIAddCarry      ? Op_::kIAddCarry
         : op == Op::OpISubBorrow   ? Op_::kISubBorrow
         : op == Op::OpUMulExtended ? Op_::kUMulExtended
                                    : Op_::kSMulExtended};
  i.k = s->k;
  i.n = s->n;
  L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
  L0SPV_DECODE_TRY(a, Slot(*aid));
  L0SPV_DECODE_TRY(b, SlotOf(inst, 1));
  i.r = *r;
  i.a = *a;
  i.b = *b;
  i.d = static_cast<uint32_t>(rt->offsets[1]);
  Emit(i, inst);
  return absl::OkStatus();
}

// OpBitcast, OpPtrCastToGeneric and OpCopyObject: a byte copy.
absl::Status DecodeState::BitCopy(const Instruction& inst) {
  L0SPV_DECODE_TRY(aid, Id(inst, 0));
  L0SPV_DECODE_TRY(at, TypeOfValue(*aid));
  L0SPV_DECODE_TRY(from, ShapeOf(*at));
  L0SPV_DECODE_TRY(to, ShapeOf(inst.type_id()));
  if (from->access != to->access)
    return Bad(absl::StrCat(OpName(inst.opcode()),
                            ": operand and result sizes differ"));
  Inst i{Op_::kCopy};
  L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
  L0SPV_DECODE_TRY(a, Slot(*aid));
  i.r = *r;
  i.a = *a;
  i.d = std::min(from->bytes, to->bytes);
  Emit(i, inst);
  return absl::OkStatus();
}

}  // namespace l0spv::oracles::reference::decoder
