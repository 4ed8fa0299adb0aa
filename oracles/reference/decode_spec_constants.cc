// oracles/reference/decode_spec_constants.cc — OpSpecConstantOp folding.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "oracles/reference/decode_state.h"
#include "oracles/reference/numeric.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference::decoder {

using spv::Op;

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
      const uint32_t lb = KindBytes(rshape.k);
      for (uint32_t l = 0; l < rshape.n; ++l) {
        // Half and float lanes in float, doubles in double: one rounding to
        // the lane format, as the executor does.
        auto get = [&](const ModValue* m) -> double {
          const uint8_t* p = m->bytes.data() + l * lb;
          if (rshape.k == kF16) {
            uint16_t h;
            std::memcpy(&h, p, 2);
            return HalfToFloat(h);
          }
          if (rshape.k == kF32) {
            float f;
            std::memcpy(&f, p, 4);
            return f;
          }
          double d;
          std::memcpy(&d, p, 8);
          return d;
        };
        auto compute = [&](auto x, auto y) {
          using C = decltype(x);
          switch (sop) {
            case Op::OpFNegate:
              return static_cast<C>(-x);
            case Op::OpFAdd:
              return static_cast<C>(x + y);
            case Op::OpFSub:
              return static_cast<C>(x - y);
            case Op::OpFMul:
              return static_cast<C>(x * y);
            case Op::OpFDiv:
              return static_cast<C>(x / y);
            case Op::OpFRem:
              return static_cast<C>(std::fmod(x, y));
            default: {
              C r = std::fmod(x, y);
              if (r != 0 && std::signbit(r) != std::signbit(y)) r += y;
              return r;
            }
          }
        };
        uint8_t* p = out.data() + l * lb;
        if (rshape.k == kF64) {
          const double r = compute(get(a), get(b));
          std::memcpy(p, &r, 8);
        } else {
          const float r =
              compute(static_cast<float>(get(a)), static_cast<float>(get(b)));
          if (rshape.k == kF32) {
            std::memcpy(p, &r, 4);
          } else {
            uint16_t h = FloatToHalf(r);
            if (sop == Op::OpFNegate) {
              std::memcpy(&h, a->bytes.data() + l * lb, 2);
              h ^= 0x8000u;
            }
            std::memcpy(p, &h, 2);
          }
        }
      }
      return "";
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
  const int bits = static_cast<int>(eb) * 8;
  auto lane = [&](size_t a, int l, bool sign) -> uint64_t {
    if (a >= args.size()) return 0;
    auto sh = ShapeOf(args[a]->type);
    const uint32_t b = sh.ok() ? KindBytes(sh->k) : 1;
    const int lane_index = sh.ok() && sh->n == 1 ? 0 : l;
    uint64_t x = 0;
    if ((lane_index + 1) * b <= args[a]->bytes.size())
      std::memcpy(&x, args[a]->bytes.data() + lane_index * b, b);
    if (sign && b < 8) {
      const uint64_t sbit = uint64_t{1} << (b * 8 - 1);
      x = (x ^ sbit) - sbit;
    }
    return x;
  };
  for (int l = 0; l < rshape->n; ++l) {
    const uint64_t a = lane(0, l, false), b = lane(1, l, false);
    const int64_t sa = static_cast<int64_t>(lane(0, l, true));
    const int64_t sb = static_cast<int64_t>(lane(1, l, true));
    uint64_t r = 0;
    switch (sop) {
      case Op::OpUConvert:
        r = a;
        break;
      case Op::OpSConvert:
        r = static_cast<uint64_t>(sa);
        break;
      case Op::OpIAdd:
        r = a + b;
        break;
      case Op::OpISub:
        r = a - b;
        break;
      case Op::OpIMul:
        r = a * b;
        break;
      case Op::OpUDiv:
      case Op::OpUMod:
        if (b == 0) return fail("division by zero");
        r = sop == Op::OpUDiv ? a / b : a % b;
        break;
      case Op::OpSDiv:
      case Op::OpSRem:
      case Op::OpSMod: {
        if (sb == 0 || (sb == -1 && bits == 64 &&
                        sa == std::numeric_limits<int64_t>::min()))
          return fail("division by zero or overflow");
        const __int128 q = static_cast<__int128>(sa) / sb;
        __int128 m = static_cast<__int128>(sa) % sb;
        if (sop == Op::OpSMod && m != 0 && ((m < 0) != (sb < 0))) m += sb;
        r = static_cast<uint64_t>(sop == Op::OpSDiv ? q : m);
        break;
      }
      case Op::OpShiftLeftLogical:
      case Op::OpShiftRightLogical:
      case Op::OpShiftRightArithmetic:
        if (b >= static_cast<uint64_t>(bits)) return fail("shift out of range");
        r = sop == Op::OpShiftLeftLogical    ? a << b
            : sop == Op::OpShiftRightLogical ? a >> b
                                             : static_cast<uint64_t>(sa >> b);
        break;
      case Op::OpBitwiseAnd:
        r = a & b;
        break;
      case Op::OpBitwiseOr:
        r = a | b;
        break;
      case Op::OpBitwiseXor:
        r = a ^ b;
        break;
      case Op::OpNot:
        r = ~a;
        break;
      case Op::OpSNegate:
        r = 0 - a;
        break;
      case Op::OpIEqual:
      case Op::OpLogicalEqual:
        r = a == b;
        break;
      case Op::OpINotEqual:
      case Op::OpLogicalNotEqual:
        r = a != b;
        break;
      case Op::OpULessThan:
        r = a < b;
        break;
      case Op::OpSLessThan:
        r = sa < sb;
        break;
      case Op::OpUGreaterThan:
        r = a > b;
        break;
      case Op::OpSGreaterThan:
        r = sa > sb;
        break;
      case Op::OpULessThanEqual:
        r = a <= b;
        break;
      case Op::OpSLessThanEqual:
        r = sa <= sb;
        break;
      case Op::OpUGreaterThanEqual:
        r = a >= b;
        break;
      case Op::OpSGreaterThanEqual:
        r = sa >= sb;
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
      default:
        return fail(absl::StrCat(OpName(inst.word(0)), " is not evaluated"));
    }
    std::memcpy(v.bytes.data() + l * rb, &r, rb);
  }
  values_[id] = std::move(v);
  return absl::OkStatus();
}

}  // namespace l0spv::oracles::reference::decoder
