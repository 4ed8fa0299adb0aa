// oracles/reference/decode_spec_constants.cc — OpSpecConstantOp folding,
// through the executor's own lane semantics (scalar_ops.h): a folded
// constant is what the instruction computes at run time, and a lane the
// executor reports as undefined behaviour leaves the constant unsupported.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "oracles/reference/decode_state.h"
#include "oracles/reference/numeric.h"
#include "oracles/reference/scalar_ops.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference::decoder {

using spv::Op;

namespace {

using scalar::IntOp;

// Folds lane (a, b) of integer operation kOp through the executor's
// semantics (scalar_ops.h): "" with *r set, else the check the lane fails.
template <IntOp kOp, typename U>
std::string Fold(uint64_t a, uint64_t b, uint64_t* r) {
  const U x = static_cast<U>(a);
  // An operand wider than the lane (a shift amount, or a module that
  // skipped validation) saturates, so a too-large amount stays out of range.
  const U y = b > std::numeric_limits<U>::max() ? std::numeric_limits<U>::max()
                                                : static_cast<U>(b);
  if constexpr (kOp >= IntOp::kIEq) {
    *r = scalar::IntCompare<kOp>(x, y) ? 1 : 0;
  } else {
    if (const char* check = scalar::IntUndefined<kOp>(x, y)) return check;
    *r = scalar::IntLane<kOp>(x, y);
  }
  return "";
}

// An integer OpSpecConstantOp lane of width U: nullopt when `sop` is not an
// integer operation the executor has, else Fold's answer.
template <typename U>
std::optional<std::string> FoldIntLane(Op sop, uint64_t a, uint64_t b,
                                       uint64_t* r) {
  switch (sop) {
#define L0SPV_FOLD(spv_name, ours) \
  case Op::spv_name:               \
    return Fold<IntOp::k##ours, U>(a, b, r);
    L0SPV_FOLD(OpIAdd, IAdd)
    L0SPV_FOLD(OpISub, ISub)
    L0SPV_FOLD(OpIMul, IMul)
    L0SPV_FOLD(OpUDiv, UDiv)
    L0SPV_FOLD(OpSDiv, SDiv)
    L0SPV_FOLD(OpUMod, UMod)
    L0SPV_FOLD(OpSRem, SRem)
    L0SPV_FOLD(OpSMod, SMod)
    L0SPV_FOLD(OpShiftLeftLogical, Shl)
    L0SPV_FOLD(OpShiftRightLogical, Shr)
    L0SPV_FOLD(OpShiftRightArithmetic, Sar)
    L0SPV_FOLD(OpBitwiseOr, Or)
    L0SPV_FOLD(OpBitwiseXor, Xor)
    L0SPV_FOLD(OpBitwiseAnd, And)
    L0SPV_FOLD(OpSNegate, SNeg)
    L0SPV_FOLD(OpNot, Not)
    L0SPV_FOLD(OpIEqual, IEq)
    L0SPV_FOLD(OpINotEqual, INe)
    L0SPV_FOLD(OpUGreaterThan, UGt)
    L0SPV_FOLD(OpSGreaterThan, SGt)
    L0SPV_FOLD(OpUGreaterThanEqual, UGe)
    L0SPV_FOLD(OpSGreaterThanEqual, SGe)
    L0SPV_FOLD(OpULessThan, ULt)
    L0SPV_FOLD(OpSLessThan, SLt)
    L0SPV_FOLD(OpULessThanEqual, ULe)
    L0SPV_FOLD(OpSLessThanEqual, SLe)
#undef L0SPV_FOLD
    default:
      return std::nullopt;
  }
}

// Folds float lanes of FL (scalar_ops.h) into `out`: "" or why not.
template <typename FL>
std::string FoldFloatLanes(Op sop, const uint8_t* a, const uint8_t* b, int n,
                           uint8_t* out) {
  using S = typename FL::Storage;
  using scalar::FloatBinary;
  using scalar::FloatOp;
  for (int l = 0; l < n; ++l) {
    S x, y, r;
    std::memcpy(&x, a + l * sizeof(S), sizeof(S));
    std::memcpy(&y, b + l * sizeof(S), sizeof(S));
    const auto cx = FL::Load(x), cy = FL::Load(y);
    switch (sop) {
      case Op::OpFNegate:
        r = scalar::Negate(x);
        break;
      case Op::OpFAdd:
        r = FL::Store(FloatBinary<FloatOp::kFAdd>(cx, cy));
        break;
      case Op::OpFSub:
        r = FL::Store(FloatBinary<FloatOp::kFSub>(cx, cy));
        break;
      case Op::OpFMul:
        r = FL::Store(FloatBinary<FloatOp::kFMul>(cx, cy));
        break;
      case Op::OpFDiv:
        r = FL::Store(FloatBinary<FloatOp::kFDiv>(cx, cy));
        break;
      case Op::OpFRem:
        r = FL::Store(FloatBinary<FloatOp::kFRem>(cx, cy));
        break;
      case Op::OpFMod:
        r = FL::Store(FloatBinary<FloatOp::kFMod>(cx, cy));
        break;
      default:
        return "not a float operation";
    }
    std::memcpy(out + l * sizeof(S), &r, sizeof(S));
  }
  return "";
}

}  // namespace

// Evaluates OpSpecConstantOp with the specialization constants' defaults
// (a TestCase sets no specialization). Integer, logical, conversion,
// select and composite operations are computed lane by lane; anything else
// makes the id unsupported, reported where it is used.
std::string DecodeState::EvaluateSpecOp(const Instruction& inst,
                                        const Shape& rshape, ModValue* v) {
  const auto sop = static_cast<Op>(inst.word(0));
  auto value = [&](size_t operand) -> const ModValue* {
    if (operand >= inst.NumOperands()) return nullptr;
    auto it = values_.find(inst.word(operand));
    return it == values_.end() ? nullptr : &it->second;
  };
  auto literals = [&](size_t from) {
    std::vector<uint32_t> out;
    for (size_t i = from; i < inst.NumOperands(); ++i)
      out.push_back(inst.word(i));
    return out;
  };
  std::vector<uint8_t>& out = v->bytes;
  switch (sop) {
    case Op::OpCompositeExtract: {
      const ModValue* c = value(1);
      if (c == nullptr) return "composite operand is not known";
      auto at = MemberAt(c->type, literals(2));
      if (!at || at->first + out.size() > c->bytes.size())
        return "CompositeExtract indices do not fit the composite";
      std::memcpy(out.data(), c->bytes.data() + at->first, out.size());
      return "";
    }
    case Op::OpCompositeInsert: {
      const ModValue* obj = value(1);
      const ModValue* c = value(2);
      if (obj == nullptr || c == nullptr) return "operand is not known";
      if (c->bytes.size() != out.size()) return "composite type mismatch";
      out = c->bytes;
      auto at = MemberAt(c->type, literals(3));
      if (!at || at->first + obj->bytes.size() > out.size())
        return "CompositeInsert indices do not fit the composite";
      std::memcpy(out.data() + at->first, obj->bytes.data(), obj->bytes.size());
      return "";
    }
    case Op::OpVectorShuffle: {
      const ModValue* a = value(1);
      const ModValue* b = value(2);
      if (a == nullptr || b == nullptr) return "operand is not known";
      auto sa = ShapeOf(a->type);
      if (!sa.ok() || rshape.k == kAgg) return "operand type";
      const uint32_t lb = KindBytes(rshape.k);
      const std::vector<uint32_t> lanes = literals(3);
      if (lanes.size() != rshape.n) return "component count mismatch";
      for (size_t l = 0; l < lanes.size(); ++l) {
        const uint32_t c = lanes[l];
        if (c == 0xFFFFFFFFu) continue;  // undefined lane: zero
        const ModValue* src = c < sa->n ? a : b;
        const uint64_t at = uint64_t{c < sa->n ? c : c - sa->n} * lb;
        if (at + lb > src->bytes.size()) return "component out of range";
        std::memcpy(out.data() + l * lb, src->bytes.data() + at, lb);
      }
      return "";
    }
    case Op::OpBitcast: {
      const ModValue* a = value(1);
      if (a == nullptr) return "operand is not known";
      auto sa = ShapeOf(a->type);
      if (!sa.ok() || sa->access != rshape.access)
        return "Bitcast between types of different sizes";
      std::memcpy(out.data(), a->bytes.data(), rshape.access);
      return "";
    }
    case Op::OpFConvert:
    case Op::OpConvertFToS:
    case Op::OpConvertFToU:
    case Op::OpConvertSToF:
    case Op::OpConvertUToF: {
      const ModValue* a = value(1);
      if (a == nullptr) return "operand is not known";
      auto sa = ShapeOf(a->type);
      if (!sa.ok() || sa->k == kAgg || sa->n != rshape.n) return "operand type";
      ConvertSpec spec;
      spec.from = sa->k;
      spec.to = rshape.k;
      spec.from_signed = sop == Op::OpConvertSToF;
      spec.to_signed = sop == Op::OpConvertFToS;
      if (const Decorations* d = Deco(inst.result_id())) {
        spec.saturate = d->saturated;
        if (d->rounding >= 0 && d->rounding <= 3) {
          spec.default_rounding = false;
          spec.mode = static_cast<RoundMode>(d->rounding);
        }
      }
      if (ConvertLanes(spec, a->bytes.data(), out.data(), rshape.n, false) >= 0)
        return "float to integer conversion out of range";
      return "";
    }
    case Op::OpFNegate:
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFRem:
    case Op::OpFMod: {
      const ModValue* a = value(1);
      const ModValue* b = sop == Op::OpFNegate ? a : value(2);
      if (a == nullptr || b == nullptr) return "operand is not known";
      if (rshape.k < kF16 || rshape.k > kF64 || a->bytes.size() < out.size() ||
          b->bytes.size() < out.size())
        return "operand type";
      const uint8_t* x = a->bytes.data();
      const uint8_t* y = b->bytes.data();
      if (rshape.k == kF16)
        return FoldFloatLanes<scalar::FloatLane<scalar::Half>>(
            sop, x, y, rshape.n, out.data());
      if (rshape.k == kF32)
        return FoldFloatLanes<scalar::FloatLane<float>>(sop, x, y, rshape.n,
                                                        out.data());
      return FoldFloatLanes<scalar::FloatLane<double>>(sop, x, y, rshape.n,
                                                       out.data());
    }
    default:
      return absl::StrCat(OpName(inst.word(0)), " is not evaluated");
  }
}

absl::Status DecodeState::DecodeSpecConstantOp(const Instruction& inst) {
  const uint32_t id = inst.result_id();
  auto fail = [&](std::string why) {
    unsupported_values_[id] = absl::StrCat("OpSpecConstantOp %", id, ": ", why);
    return absl::OkStatus();
  };
  if (inst.NumOperands() < 1) return Bad("OpSpecConstantOp without opcode");
  const auto sop = static_cast<Op>(inst.word(0));
  auto rshape = ShapeOf(inst.type_id());
  if (!rshape.ok()) return fail("unsupported result type");
  std::vector<const ModValue*> args;
  for (size_t i = 1; i < inst.NumOperands(); ++i) {
    if (!spirv::IsIdKind(inst.operand(i).kind)) continue;
    auto it = values_.find(inst.word(i));
    if (it == values_.end())
      return fail(absl::StrCat("operand %", inst.word(i), " is not known"));
    args.push_back(&it->second);
  }
  ModValue v;
  v.type = inst.type_id();
  v.bytes.assign(rshape->bytes, 0);
  if (args.empty()) return fail("no operands");
  auto shape0 = ShapeOf(args[0]->type);
  if (!shape0.ok()) return fail("operand type");
  const Kind k = shape0->k;
  const uint32_t eb = KindBytes(k), rb = KindBytes(rshape->k);
  if (sop == Op::OpCompositeExtract || sop == Op::OpCompositeInsert ||
      sop == Op::OpVectorShuffle || sop == Op::OpBitcast || k == kAgg ||
      rshape->k == kAgg || k >= kF16 || rshape->k >= kF16) {
    std::string why = EvaluateSpecOp(inst, *rshape, &v);
    if (!why.empty()) return fail(why);
    values_[id] = std::move(v);
    return absl::OkStatus();
  }
  auto lane = [&](size_t a, int l, bool sign) -> uint64_t {
    if (a >= args.size()) return 0;
    auto sh = ShapeOf(args[a]->type);
    const uint32_t b = sh.ok() ? KindBytes(sh->k) : 1;
    const int lane_index = sh.ok() && sh->n == 1 ? 0 : l;
    uint64_t x = 0;
    if ((lane_index + 1) * b <= args[a]->bytes.size())
      std::memcpy(&x, args[a]->bytes.data() + lane_index * b, b);
    return sign ? scalar::SignExtend(x, b) : x;
  };
  for (int l = 0; l < rshape->n; ++l) {
    const uint64_t a = lane(0, l, false), b = lane(1, l, false);
    uint64_t r = 0;
    switch (sop) {
      case Op::OpUConvert:
        r = a;
        break;
      case Op::OpSConvert:
        r = lane(0, l, true);
        break;
      case Op::OpLogicalEqual:
        r = a == b;
        break;
      case Op::OpLogicalNotEqual:
        r = a != b;
        break;
      case Op::OpLogicalAnd:
        r = (a != 0) && (b != 0);
        break;
      case Op::OpLogicalOr:
        r = (a != 0) || (b != 0);
        break;
      case Op::OpLogicalNot:
        r = a == 0;
        break;
      case Op::OpSelect:
        r = a != 0 ? lane(1, l, false) : lane(2, l, false);
        break;
      default: {
        std::optional<std::string> why;
        switch (eb) {
          case 1:
            why = FoldIntLane<uint8_t>(sop, a, b, &r);
            break;
          case 2:
            why = FoldIntLane<uint16_t>(sop, a, b, &r);
            break;
          case 4:
            why = FoldIntLane<uint32_t>(sop, a, b, &r);
            break;
          default:
            why = FoldIntLane<uint64_t>(sop, a, b, &r);
            break;
        }
        if (!why)
          return fail(absl::StrCat(OpName(inst.word(0)), " is not evaluated"));
        if (!why->empty()) return fail(*why);
      }
    }
    std::memcpy(v.bytes.data() + l * rb, &r, rb);
  }
  values_[id] = std::move(v);
  return absl::OkStatus();
}

}  // namespace l0spv::oracles::reference::decoder
