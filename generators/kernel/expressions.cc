#include "generators/kernel/expressions.h"

#include <cmath>

#include "generators/kernel/outputs.h"
#include "spirv/numeric_bits.h"

namespace l0spv::generators::kernel {

using spv::Op;

namespace {

uint64_t IntMin(uint8_t width) { return uint64_t{1} << (width - 1); }
uint64_t AllOnes(uint8_t width) {
  return width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

}  // namespace

uint8_t RandomLanes(GenContext& ctx) {
  if (!ctx.features.vectors || ctx.rng.Percent(55)) return 1;
  static constexpr uint8_t kSmall[] = {2, 3, 4};
  static constexpr uint8_t kAll[] = {2, 3, 4, 8, 16};
  return ctx.features.vector16 ? ctx.rng.Pick<uint8_t>(kAll)
                               : ctx.rng.Pick<uint8_t>(kSmall);
}

ValueType RandomIntType(GenContext& ctx, bool allow_vector) {
  uint8_t widths[4];
  size_t n = 0;
  widths[n++] = 32;
  if (ctx.features.int8) widths[n++] = 8;
  if (ctx.features.int16) widths[n++] = 16;
  if (ctx.features.int64) widths[n++] = 64;
  const uint8_t width = widths[ctx.rng.Below(static_cast<uint32_t>(n))];
  return IntT(width, allow_vector ? RandomLanes(ctx) : 1);
}

ValueType RandomFloatType(GenContext& ctx, bool allow_vector) {
  uint8_t widths[3];
  size_t n = 0;
  if (ctx.features.fp32) widths[n++] = 32;
  if (ctx.features.fp16) widths[n++] = 16;
  if (ctx.features.fp64) widths[n++] = 64;
  if (n == 0) widths[n++] = 32;
  const uint8_t width = widths[ctx.rng.Below(static_cast<uint32_t>(n))];
  return FloatT(width, allow_vector ? RandomLanes(ctx) : 1);
}

uint32_t RandomConstant(GenContext& ctx, ValueType type) {
  Rng& rng = ctx.rng;
  const ValueType element = type.Element();
  uint64_t lanes[16];
  const bool splat = rng.Percent(60);
  for (uint32_t i = 0; i < type.lanes; ++i) {
    if (splat && i > 0) {
      lanes[i] = lanes[0];
      continue;
    }
    uint64_t bits = 0;
    if (element.IsBool()) {
      bits = rng.Below(2);
    } else if (element.IsInt()) {
      const uint8_t w = element.width;
      switch (rng.Below(8)) {
        case 0:
          bits = 0;
          break;
        case 1:
          bits = 1;
          break;
        case 2:
          bits = AllOnes(w);
          break;  // -1
        case 3:
          bits = IntMin(w);
          break;
        case 4:
          bits = IntMin(w) - 1;
          break;  // INT_MAX
        case 5:
          bits = w - 1;
          break;
        case 6:
          bits = rng.Next();
          break;
        default:
          bits = rng.Below(64);
          break;
      }
      bits &= AllOnes(w);
    } else {
      double v = 0;
      switch (rng.Below(12)) {
        case 0:
          v = 0;
          break;
        case 1:
          v = -0.0;
          break;
        case 2:
          v = 1;
          break;
        case 3:
          v = -1;
          break;
        case 4:
          v = 0.5;
          break;
        case 5:
          v = rng.Percent(50) ? INFINITY : -INFINITY;
          break;
        case 6:
          v = rng.OneIn(3) ? NAN : 1024;
          break;
        default:
          v = (static_cast<int>(rng.Below(513)) - 256) / 4.0;
          break;
      }
      bits = spirv::EncodeFloat(v, element.width);
    }
    lanes[i] = bits;
  }
  return ctx.types.Constant(type, std::span<const uint64_t>(lanes, type.lanes));
}

void AddValue(GenContext& ctx, uint32_t id, ValueType type, bool product) {
  ctx.pool.Add(Value{id, type, product});
}

uint32_t DrawOperand(GenContext& ctx, ValueType type, bool no_product) {
  if (!ctx.rng.Percent(12)) {
    const Value* v = ctx.pool.PickIf(ctx.rng, [&](const Value& c) {
      return c.type == type && !(no_product && c.product);
    });
    if (v != nullptr) return v->id;
  }
  return RandomConstant(ctx, type);
}

// OpUConvert or OpSConvert (drawn) from `from_width` bits: spirv-opt 2025.5
// folds the sign extension of an 8/16-bit constant as a zero extension
// (known-consumer-bugs/spirv_opt_narrow_signed_fold), so a widening
// OpSConvert of one is an OpUConvert while spirv-opt 2025.5 is avoided.
Op ConvertOp(GenContext& ctx, uint8_t from_width, uint8_t to_width) {
  const bool sign = !ctx.rng.Percent(50);
  if (sign && from_width < 32 && to_width > from_width &&
      !ctx.BugsAllowed(KnownBugId::kSpirvOptNarrowSignedFold))
    return Op::OpUConvert;
  return sign ? Op::OpSConvert : Op::OpUConvert;
}

uint32_t AnyIntAs(GenContext& ctx, uint8_t width, bool wide_lanes_only) {
  const ValueType target = IntT(width);
  const Value* v = ctx.pool.PickIf(ctx.rng, [&](const Value& c) {
    return c.type.IsInt() &&
           !(wide_lanes_only && c.type.IsVector() && c.type.width < 32);
  });
  if (v == nullptr) return RandomConstant(ctx, target);
  FunctionEmitter& fn = *ctx.fn;
  uint32_t id = v->id;
  ValueType t = v->type;
  if (t.IsVector()) {
    id = fn.OpWith(Op::OpCompositeExtract, ctx.types.Id(t.Element()),
                   {Id(id), Lit(ctx.rng.Below(t.lanes))});
    t = t.Element();
  }
  if (t.width == width) return id;
  return fn.Op(ConvertOp(ctx, t.width, width), ctx.types.Id(target), {id});
}

uint32_t IndexInto(GenContext& ctx, uint32_t value, ValueType type,
                   uint32_t count) {
  FunctionEmitter& fn = *ctx.fn;
  const uint32_t u64 = ctx.types.Id(IntT(64));
  uint32_t index = value;
  if (type.width != 64) index = fn.Op(Op::OpUConvert, u64, {value});
  if (!ctx.GuardOn(kGuardIndex)) return index;
  if ((count & (count - 1)) == 0) {
    return fn.Op(Op::OpBitwiseAnd, u64, {index, ctx.types.U64(count - 1)});
  }
  return fn.Op(Op::OpUMod, u64, {index, ctx.types.U64(count)});
}

namespace {
uint32_t AnyCondition(GenContext& ctx) {
  if (ctx.rng.Percent(60)) {
    const Value* v = ctx.pool.PickIf(
        ctx.rng, [](const Value& c) { return c.type == BoolT(); });
    if (v != nullptr) return v->id;
  }
  const ValueType t = RandomIntType(ctx, false);
  static constexpr Op kOps[] = {Op::OpULessThan, Op::OpSLessThan, Op::OpIEqual,
                                Op::OpINotEqual, Op::OpUGreaterThanEqual};
  const Op op = ctx.rng.Pick<Op>(kOps);
  const uint32_t type = ctx.types.Id(BoolT());
  const uint32_t a = DrawOperand(ctx, t);
  const uint32_t b = DrawOperand(ctx, t);
  return ctx.fn->Op(op, type, {a, b});
}
}  // namespace

uint32_t Condition(GenContext& ctx) {
  const uint32_t condition = AnyCondition(ctx);
  if (ctx.opaque_false == 0) return condition;
  return ctx.fn->Op(Op::OpLogicalNotEqual, ctx.types.Id(BoolT()),
                    {condition, ctx.opaque_false});
}

uint32_t UnfoldableU32(GenContext& ctx, uint32_t value) {
  if (ctx.opaque_false == 0) return value;
  const uint32_t u32 = ctx.types.Id(IntT(32));
  const uint32_t zero =
      ctx.fn->Op(Op::OpSelect, u32,
                 {ctx.opaque_false, ctx.types.U32(1), ctx.types.U32(0)});
  return ctx.fn->Op(Op::OpIAdd, u32, {value, zero});
}

// SPIR-V 1.4's NoSignedWrap / NoUnsignedWrap where no wrap can happen: an
// add or multiply of two operands masked below half the width (so the exact
// result fits signed and unsigned); `ref` reports a decorated wrap as
// undefined, so a consumer that miscompiles the flags shows up as a
// mismatch.
uint32_t NoWrapArith(GenContext& ctx, Op op, ValueType t, uint32_t type) {
  FunctionEmitter& fn = *ctx.fn;
  const uint64_t mask = (uint64_t{1} << (t.width / 2 - 1)) - 1;
  const uint32_t a = fn.Op(Op::OpBitwiseAnd, type,
                           {DrawOperand(ctx, t), ctx.types.Splat(t, mask)});
  const uint32_t b = fn.Op(Op::OpBitwiseAnd, type,
                           {DrawOperand(ctx, t), ctx.types.Splat(t, mask)});
  const uint32_t r = fn.Op(op, type, {a, b});
  const uint32_t which = ctx.rng.Below(3);  // signed, unsigned, both
  // DPC++'s translator leaves a module-scope variable out of a 1.4
  // entry point's interface when a wrap decoration makes its output 1.4
  // (known-consumer-bugs/llvm_spirv_dpcpp_entry_interface_spirv14).
  if (!ctx.BugsAllowed(KnownBugId::kLlvmSpirvDpcppEntryInterfaceSpirv14))
    return r;
  if (which != 1) ctx.Decorate(r, spv::Decoration::NoSignedWrap);
  if (which != 0) ctx.Decorate(r, spv::Decoration::NoUnsignedWrap);
  return r;
}

bool GenIntArith(GenContext& ctx) {
  const ValueType t = RandomIntType(ctx);
  const uint32_t type = ctx.types.Id(t);
  FunctionEmitter& fn = *ctx.fn;
  const uint32_t form = ctx.rng.Below(10);
  if ((form <= 1 || form == 4 || form == 5) && ctx.features.HasVersion(1, 4) &&
      ctx.rng.Percent(30)) {
    AddValue(ctx,
             NoWrapArith(ctx, form <= 1 ? Op::OpIAdd : Op::OpIMul, t, type), t);
    return true;
  }
  switch (form) {
    case 0:
    case 1:
      AddValue(
          ctx,
          fn.Op(Op::OpIAdd, type, {DrawOperand(ctx, t), DrawOperand(ctx, t)}),
          t);
      return true;
    case 2:
    case 3:
      AddValue(
          ctx,
          fn.Op(Op::OpISub, type, {DrawOperand(ctx, t), DrawOperand(ctx, t)}),
          t);
      return true;
    case 4:
    case 5:
      AddValue(
          ctx,
          fn.Op(Op::OpIMul, type, {DrawOperand(ctx, t), DrawOperand(ctx, t)}),
          t);
      return true;
    case 6:
      AddValue(ctx, fn.Op(Op::OpSNegate, type, {DrawOperand(ctx, t)}), t);
      return true;
    case 7:
      AddValue(ctx, fn.Op(Op::OpBitCount, type, {DrawOperand(ctx, t)}), t);
      return true;
    default: {
      // Extended arithmetic: a struct of two members, both extracted.
      // All four are known consumer bugs: OpIAddCarry / OpISubBorrow fail
      // in IGC (ocloc exits 1 without a message; iadd_carry.spvasm), and
      // llvm-spirv 14 -r implements none of them ("Unimplemented opcode
      // 149/150/151/152"; mul_extended.spvasm).
      Op ops[4];
      uint32_t choices = 0;
      // Intel's CPU runtime links neither (intel_cpu_mul_extended).
      if (ctx.BugsAllowed({KnownBugId::kMulExtended,
                           KnownBugId::kLlvmSpirvSmulExtended,
                           KnownBugId::kIntelCpuMulExtended})) {
        ops[choices++] = Op::OpUMulExtended;
        ops[choices++] = Op::OpSMulExtended;
      }
      if (ctx.BugsAllowed({KnownBugId::kIaddCarry,
                           KnownBugId::kLlvmSpirvIaddCarry,
                           KnownBugId::kLlvmSpirvIsubBorrow})) {
        ops[choices++] = Op::OpIAddCarry;
        ops[choices++] = Op::OpISubBorrow;
      }
      if (choices == 0) return false;
      const uint32_t pair = ctx.builder.StructType({type, type});
      const Op op = ops[ctx.rng.Below(choices)];
      const uint32_t r =
          fn.Op(op, pair, {DrawOperand(ctx, t), DrawOperand(ctx, t)});
      AddValue(ctx, fn.OpWith(Op::OpCompositeExtract, type, {Id(r), Lit(0)}),
               t);
      AddValue(ctx, fn.OpWith(Op::OpCompositeExtract, type, {Id(r), Lit(1)}),
               t);
      return true;
    }
  }
}

bool GenIntDivision(GenContext& ctx) {
  const ValueType t = RandomIntType(ctx);
  const uint32_t type = ctx.types.Id(t);
  const uint32_t btype = ctx.types.Id(t.BoolOf());
  FunctionEmitter& fn = *ctx.fn;
  static constexpr Op kOps[] = {Op::OpUDiv, Op::OpSDiv, Op::OpUMod, Op::OpSRem,
                                Op::OpSMod};
  Op op = ctx.rng.Pick<Op>(kOps);
  // spirv-opt 2023.1 folds a constant 32/64-bit OpSMod wrongly when
  // (a rem b) + b overflows (known-consumer-bugs/spirv_opt_smod_fold), 2025.5
  // when the remainder is 0 and the divisor negative
  // (spirv_opt_smod_zero_remainder).
  if (op == Op::OpSMod && t.width >= 32 &&
      !ctx.BugsAllowed({KnownBugId::kSpirvOptSmodFold,
                        KnownBugId::kSpirvOptSmodZeroRemainder}))
    op = Op::OpSRem;
  // llvm-spirv 14's round trip of a 1.4 OpSMod adds (a rem b) + b in an
  // OpIAdd decorated NoSignedWrap, which wraps for large divisors
  // (known-consumer-bugs/llvm_spirv_smod_nsw).
  if (op == Op::OpSMod && ctx.features.HasVersion(1, 4) &&
      !ctx.BugsAllowed(KnownBugId::kLlvmSpirvSmodNsw))
    op = Op::OpSRem;
  // spirv-opt 2025.5 folds 8/16-bit signed division of a negative constant
  // wrongly (known-consumer-bugs/spirv_opt_narrow_signed_fold).
  if (t.width < 32 && !ctx.BugsAllowed(KnownBugId::kSpirvOptNarrowSignedFold)) {
    if (op == Op::OpSDiv) op = Op::OpUDiv;
    if (op == Op::OpSRem || op == Op::OpSMod) op = Op::OpUMod;
  }
  const bool is_signed =
      op == Op::OpSDiv || op == Op::OpSRem || op == Op::OpSMod;
  const uint32_t a = DrawOperand(ctx, t);
  uint32_t b = DrawOperand(ctx, t);
  if (ctx.GuardOn(kGuardDivision)) {
    uint32_t bad = fn.Op(Op::OpIEqual, btype, {b, ctx.types.Splat(t, 0)});
    if (is_signed) {
      const uint32_t a_min =
          fn.Op(Op::OpIEqual, btype, {a, ctx.types.Splat(t, IntMin(t.width))});
      const uint32_t b_neg1 =
          fn.Op(Op::OpIEqual, btype, {b, ctx.types.Splat(t, AllOnes(t.width))});
      const uint32_t overflow = fn.Op(Op::OpLogicalAnd, btype, {a_min, b_neg1});
      bad = fn.Op(Op::OpLogicalOr, btype, {bad, overflow});
    }
    b = fn.Op(Op::OpSelect, type, {bad, ctx.types.Splat(t, 1), b});
    // PoCL 3.1 divides every lane by 1 when one lane of such a guarded
    // divisor is 0 (known-consumer-bugs/pocl_vector_div_select_zero_lane):
    // lane by lane while PoCL is avoided.
    if (t.IsVector() &&
        !ctx.BugsAllowed(KnownBugId::kPoclVectorDivSelectZeroLane)) {
      // Lanes go back in with OpCompositeInsert: llvm-spirv 14 reads no
      // OpCompositeConstruct of run-time values (composite_construct_runtime).
      const uint32_t e_type = ctx.types.Id(t.Element());
      uint32_t acc = a;
      for (uint32_t i = 0; i < t.lanes; ++i) {
        const uint32_t ai =
            fn.OpWith(Op::OpCompositeExtract, e_type, {Id(a), Lit(i)});
        const uint32_t bi =
            fn.OpWith(Op::OpCompositeExtract, e_type, {Id(b), Lit(i)});
        const uint32_t qi = fn.Op(op, e_type, {ai, bi});
        acc = fn.OpWith(Op::OpCompositeInsert, type, {Id(qi), Id(acc), Lit(i)});
      }
      AddValue(ctx, acc, t);
      return true;
    }
  }
  AddValue(ctx, fn.Op(op, type, {a, b}), t);
  return true;
}

bool GenShift(GenContext& ctx) {
  const ValueType t = RandomIntType(ctx);
  const uint32_t type = ctx.types.Id(t);
  FunctionEmitter& fn = *ctx.fn;
  static constexpr Op kOps[] = {Op::OpShiftLeftLogical, Op::OpShiftRightLogical,
                                Op::OpShiftRightArithmetic};
  uint32_t amount = DrawOperand(ctx, t);
  if (ctx.GuardOn(kGuardShift)) {
    amount = fn.Op(Op::OpBitwiseAnd, type,
                   {amount, ctx.types.Splat(t, t.width - 1)});
  }
  const Op op = ctx.rng.Pick<Op>(kOps);
  AddValue(ctx, fn.Op(op, type, {DrawOperand(ctx, t), amount}), t);
  return true;
}

bool GenBitwise(GenContext& ctx) {
  const ValueType t = RandomIntType(ctx);
  const uint32_t type = ctx.types.Id(t);
  FunctionEmitter& fn = *ctx.fn;
  static constexpr Op kOps[] = {Op::OpBitwiseAnd, Op::OpBitwiseOr,
                                Op::OpBitwiseXor, Op::OpNot};
  const Op op = ctx.rng.Pick<Op>(kOps);
  if (op == Op::OpNot) {
    AddValue(ctx, fn.Op(op, type, {DrawOperand(ctx, t)}), t);
  } else {
    AddValue(ctx, fn.Op(op, type, {DrawOperand(ctx, t), DrawOperand(ctx, t)}),
             t);
  }
  return true;
}

bool GenCompare(GenContext& ctx) {
  FunctionEmitter& fn = *ctx.fn;
  if (ctx.rng.Percent(30)) {
    // Logic on existing bools.
    const Value* v = ctx.pool.PickIf(
        ctx.rng, [](const Value& c) { return c.type.IsBool(); });
    if (v != nullptr) {
      const ValueType t = v->type;
      const uint32_t type = ctx.types.Id(t);
      std::vector<Op> ops = {Op::OpLogicalAnd, Op::OpLogicalOr,
                             Op::OpLogicalEqual, Op::OpLogicalNotEqual};
      if (t.IsVector()) {
        ops = {Op::OpAny, Op::OpAll, Op::OpLogicalAnd, Op::OpLogicalOr};
        // Oclgrind 21.10 (through llvm-spirv): any() of a true bool vector
        // is false (corpora/known-consumer-bugs/oclgrind_any_vector.spvasm).
        if (!ctx.BugsAllowed(KnownBugId::kOclgrindAnyVector))
          ops = {Op::OpLogicalAnd, Op::OpLogicalOr, Op::OpLogicalAnd,
                 Op::OpLogicalOr};
      }
      // IGC: known-consumer-bugs/logical_not. Oclgrind 21.10 does not flip
      // the true lanes of a run-time bool vector
      // (known-consumer-bugs/oclgrind_bool_vector_not).
      if (ctx.BugsAllowed(KnownBugId::kLogicalNot) &&
          (!t.IsVector() ||
           ctx.BugsAllowed(KnownBugId::kOclgrindBoolVectorNot)))
        ops.push_back(Op::OpLogicalNot);
      const Op op = ops[ctx.rng.Below(static_cast<uint32_t>(ops.size()))];
      if (op == Op::OpAny || op == Op::OpAll) {
        AddValue(ctx, fn.Op(op, ctx.types.Id(BoolT()), {v->id}), BoolT());
      } else if (op == Op::OpLogicalNot) {
        AddValue(ctx, fn.Op(op, type, {v->id}), t);
      } else {
        const uint32_t rhs = DrawOperand(ctx, t);
        // IGC (ocloc): OpLogicalOr of a value with itself aborts
        // (known-consumer-bugs/igc_logical_or_self), and so does one with a
        // bool IGC folds to it, x == true || x (igc_logical_or_alias).
        const uint32_t root = ctx.BoolRoot(v->id);
        const bool same_root = ctx.BoolRoot(rhs) == root;
        const bool gated =
            rhs == v->id ? !ctx.BugsAllowed(KnownBugId::kIgcLogicalOrSelf)
                         : !ctx.BugsAllowed(KnownBugId::kIgcLogicalOrAlias);
        const Op safe =
            op == Op::OpLogicalOr && same_root && gated ? Op::OpLogicalAnd : op;
        const uint32_t result = fn.Op(safe, type, {v->id, rhs});
        // With a constant operand (not in the pool, or one IGC folds) the
        // result is the other operand itself, its negation or a constant:
        // rooted at that operand. The constant may be either operand: a
        // campaign's abort was (y != y) != x || x.
        const bool rhs_constant =
            ctx.BoolRoot(rhs) == GenContext::kFoldedConstant ||
            std::none_of(ctx.pool.values().begin(), ctx.pool.values().end(),
                         [&](const Value& c) { return c.id == rhs; });
        if (rhs_constant || (same_root && (safe == Op::OpLogicalAnd ||
                                           safe == Op::OpLogicalOr))) {
          ctx.bool_roots[result] = root;
        } else if (root == GenContext::kFoldedConstant) {
          ctx.bool_roots[result] = ctx.BoolRoot(rhs);
        }
        AddValue(ctx, result, t);
      }
      return true;
    }
  }
  const ValueType t = RandomIntType(ctx);
  static constexpr Op kOps[] = {
      Op::OpIEqual,        Op::OpINotEqual,         Op::OpUGreaterThan,
      Op::OpSGreaterThan,  Op::OpUGreaterThanEqual, Op::OpSGreaterThanEqual,
      Op::OpULessThan,     Op::OpSLessThan,         Op::OpULessThanEqual,
      Op::OpSLessThanEqual};
  const Op op = ctx.rng.Pick<Op>(kOps);
  const uint32_t type = ctx.types.Id(t.BoolOf());
  const uint32_t a = DrawOperand(ctx, t);
  const uint32_t b = DrawOperand(ctx, t);
  const uint32_t result = fn.Op(op, type, {a, b});
  // x <= x, x != x, ...: a constant to IGC (the alias of igc_logical_or_alias
  // in the campaign's case was x == (y <= y)).
  if (a == b) ctx.bool_roots[result] = GenContext::kFoldedConstant;
  AddValue(ctx, result, t.BoolOf());
  return true;
}

bool GenSelect(GenContext& ctx) {
  const Value* v = ctx.pool.PickIf(ctx.rng, [](const Value&) { return true; });
  if (v == nullptr) return false;
  const ValueType t = v->type;
  uint32_t condition = 0;
  // SPIR-V 1.4 lets one scalar condition choose a whole vector; llvm-spirv
  // 14 writes that back into a SPIR-V 1.0 module
  // (known-consumer-bugs/llvm_spirv_select_spirv14).
  const bool scalar_condition =
      t.IsVector() && ctx.features.HasVersion(1, 4) &&
      ctx.BugsAllowed(KnownBugId::kLlvmSpirvSelectSpirv14) &&
      ctx.rng.Percent(50);
  if (t.IsVector() && !scalar_condition) {
    // Before SPIR-V 1.4 a vector select needs a condition of equal size.
    const ValueType bt = t.BoolOf();
    const Value* c =
        ctx.pool.PickIf(ctx.rng, [&](const Value& x) { return x.type == bt; });
    condition = c ? c->id : RandomConstant(ctx, bt);
  } else {
    condition = Condition(ctx);
  }
  const uint32_t other = DrawOperand(ctx, t);
  const bool swap = ctx.rng.Percent(50);
  const uint32_t r =
      ctx.fn->Op(Op::OpSelect, ctx.types.Id(t),
                 {condition, swap ? other : v->id, swap ? v->id : other});
  // c ? x : x is x to IGC, and so is c ? x : alias-of-x
  // (igc_logical_or_alias).
  if (t.IsBool() && ctx.BoolRoot(other) == ctx.BoolRoot(v->id))
    ctx.bool_roots[r] = ctx.BoolRoot(v->id);
  AddValue(ctx, r, t, v->product);
  return true;
}

bool GenConvert(GenContext& ctx) {
  FunctionEmitter& fn = *ctx.fn;
  const Value* v =
      ctx.pool.PickIf(ctx.rng, [](const Value& c) { return !c.type.IsBool(); });
  if (v == nullptr) return false;
  const ValueType from = v->type;
  const bool floats =
      ctx.features.fp16 || ctx.features.fp32 || ctx.features.fp64;
  if (from.IsInt()) {
    const uint32_t choice = ctx.rng.Below(floats ? 5 : 3);
    if (choice == 0) {  // width change
      const ValueType to = RandomIntType(ctx, false).WithLanes(from.lanes);
      if (to.width == from.width) {
        // llvm-spirv: known-consumer-bugs/llvm_spirv_copy_object_alloca.
        if (!ctx.BugsAllowed(KnownBugId::kLlvmSpirvCopyObjectAlloca))
          return false;
        AddValue(ctx, fn.Op(Op::OpCopyObject, ctx.types.Id(from), {v->id}),
                 from);
        return true;
      }
      AddValue(ctx,
               fn.Op(ConvertOp(ctx, from.width, to.width), ctx.types.Id(to),
                     {v->id}),
               to);
      return true;
    }
    if (choice == 1) {  // saturating
      const ValueType to = RandomIntType(ctx, false).WithLanes(from.lanes);
      AddValue(ctx,
               fn.Op(ctx.rng.Percent(50) ? Op::OpSatConvertSToU
                                         : Op::OpSatConvertUToS,
                     ctx.types.Id(to), {v->id}),
               to);
      return true;
    }
    if (choice == 2) {  // bitcast between integer layouts of equal size
      const uint32_t bits = from.Bits();
      if (from.lanes == 3) return false;
      if (ctx.work_group_context.contains(v->id) &&
          !ctx.BugsAllowed(KnownBugId::kPoclContextBuiltinBitcast))
        return false;
      ValueType options[4];
      size_t n = 0;
      for (uint8_t w : kIntWidths) {
        if (w == 8 && !ctx.features.int8) continue;
        if (w == 16 && !ctx.features.int16) continue;
        if (w == 64 && !ctx.features.int64) continue;
        if (bits % w != 0) continue;
        const uint32_t lanes = bits / w;
        // spirv-opt 2023.1 folds a bitcast of a constant vector of
        // sub-32-bit integers into an invalid scalar OpConstant
        // (corpora/known-consumer-bugs/spirv_opt_bitcast_fold.spvasm).
        if (lanes == 1 && from.lanes > 1 && from.width < 32 &&
            !ctx.BugsAllowed(KnownBugId::kSpirvOptBitcastFold))
          continue;
        if (lanes == 1 || lanes == 2 || lanes == 4 ||
            ((lanes == 8 || lanes == 16) && ctx.features.vector16)) {
          options[n++] = IntT(w, static_cast<uint8_t>(lanes));
        }
      }
      if (n == 0) return false;
      const ValueType to = options[ctx.rng.Below(static_cast<uint32_t>(n))];
      AddValue(ctx, fn.Op(Op::OpBitcast, ctx.types.Id(to), {v->id}), to);
      return true;
    }
    // int -> float, correctly rounded (optionally with a rounding mode).
    const ValueType to = RandomFloatType(ctx, false).WithLanes(from.lanes);
    const uint32_t r =
        fn.Op(ctx.rng.Percent(50) ? Op::OpConvertSToF : Op::OpConvertUToF,
              ctx.types.Id(to), {v->id});
    if (ctx.rng.Percent(25)) {
      ctx.Decorate(r, spv::Decoration::FPRoundingMode, {ctx.rng.Below(4)});
    }
    AddValue(ctx, r, to);
    return true;
  }
  // Float source.
  if (ctx.rng.Percent(50)) {
    const ValueType to = RandomIntType(ctx, false).WithLanes(from.lanes);
    uint32_t x = v->id;
    // Oclgrind 21.10 saturates NaN to INT_MIN, not 0
    // (known-consumer-bugs/oclgrind_saturated_nan).
    if (ctx.GuardOn(kGuardFloatToInt) &&
        !ctx.BugsAllowed(KnownBugId::kOclgrindSaturatedNan)) {
      const uint32_t nan = fn.Op(Op::OpIsNan, ctx.types.Id(from.BoolOf()), {x});
      const uint32_t zero = ctx.types.Splat(from, 0);
      x = fn.Op(Op::OpSelect, ctx.types.Id(from), {nan, zero, x});
    }
    const uint32_t r =
        fn.Op(ctx.rng.Percent(50) ? Op::OpConvertFToS : Op::OpConvertFToU,
              ctx.types.Id(to), {x});
    if (ctx.GuardOn(kGuardFloatToInt)) {
      ctx.Decorate(r, spv::Decoration::SaturatedConversion);
    }
    if (ctx.rng.Percent(25)) {
      uint32_t mode = ctx.rng.Below(4);  // RTE, RTZ, RTP, RTN
      // PoCL 3.1 drops unrelated stores after a saturating rounded
      // conversion of an out-of-range constant
      // (known-consumer-bugs/pocl_sat_rounding_conversion): RTZ only.
      if (!ctx.BugsAllowed(KnownBugId::kPoclSatRoundingConversion)) mode = 1;
      ctx.Decorate(r, spv::Decoration::FPRoundingMode, {mode});
    }
    AddValue(ctx, r, to);
    return true;
  }
  const ValueType to = RandomFloatType(ctx, false).WithLanes(from.lanes);
  if (to.width == from.width) return false;
  const uint32_t r = fn.Op(Op::OpFConvert, ctx.types.Id(to), {v->id});
  if (to.width < from.width && ctx.rng.Percent(30)) {
    ctx.Decorate(r, spv::Decoration::FPRoundingMode, {ctx.rng.Below(4)});
  }
  AddValue(ctx, r, to);
  return true;
}

namespace {

// A struct value with 2-3 members, the first possibly a 2-element array
// (a nested composite), built from pool values by OpCompositeInsert into an
// OpUndef (or OpCompositeConstruct where llvm-spirv's construct bug is not
// avoided), then one member (or array element, through a two-index path)
// extracted back into the pool. Every member is written before the extract,
// so the OpUndef contributes nothing.
bool GenStructValue(GenContext& ctx) {
  FunctionEmitter& fn = *ctx.fn;
  Rng& rng = ctx.rng;
  const uint32_t count = rng.Range(2, 3);
  std::vector<ValueType> members;
  for (uint32_t i = 0; i < count; ++i) {
    if (ctx.features.fp32 && rng.Percent(30)) {
      members.push_back(RandomFloatType(ctx));
    } else {
      members.push_back(RandomIntType(ctx));
    }
  }
  const bool nested = rng.Percent(50);
  std::vector<uint32_t> member_ids;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t id = ctx.types.Id(members[i]);
    member_ids.push_back(i == 0 && nested ? ctx.types.Array(id, 2) : id);
  }
  const uint32_t struct_type = ctx.builder.StructType(member_ids);
  uint32_t value = 0;
  // llvm-spirv 14 crashes on a run-time struct construct; DPC++'s
  // translator places its alloca after the entry block's first instructions
  // (known-consumer-bugs/llvm_spirv_dpcpp_composite_construct_alloca).
  if (ctx.BugsAllowed({KnownBugId::kCompositeConstructRuntime,
                       KnownBugId::kLlvmSpirvDpcppCompositeConstructAlloca}) &&
      rng.Percent(50)) {
    std::vector<uint32_t> parts;
    for (uint32_t i = 0; i < count; ++i) {
      if (i == 0 && nested) {
        const uint32_t a = DrawOperand(ctx, members[0], true);
        const uint32_t b = DrawOperand(ctx, members[0], true);
        parts.push_back(fn.Op(Op::OpCompositeConstruct, member_ids[0], {a, b}));
      } else {
        parts.push_back(DrawOperand(ctx, members[i], true));
      }
    }
    value = fn.Op(Op::OpCompositeConstruct, struct_type, parts);
  } else {
    value = fn.Op(Op::OpUndef, struct_type, {});
    for (uint32_t i = 0; i < count; ++i) {
      for (uint32_t j = 0; j < (i == 0 && nested ? 2u : 1u); ++j) {
        const uint32_t part = DrawOperand(ctx, members[i], true);
        std::vector<spirv::Operand> ops{Id(part), Id(value), Lit(i)};
        if (i == 0 && nested) ops.push_back(Lit(j));
        value = fn.OpWith(Op::OpCompositeInsert, struct_type, std::move(ops));
      }
    }
  }
  const uint32_t pick = rng.Below(count);
  std::vector<spirv::Operand> path{Id(value), Lit(pick)};
  if (pick == 0 && nested) path.push_back(Lit(rng.Below(2)));
  // SPIR-V 1.4: OpSelect of whole structs, between the value and a copy
  // with the picked member replaced (llvm_spirv_select_spirv14 as above).
  if (ctx.features.HasVersion(1, 4) &&
      ctx.BugsAllowed(KnownBugId::kLlvmSpirvSelectSpirv14) && rng.Percent(40)) {
    const ValueType member = pick == 0 && nested ? members[0] : members[pick];
    std::vector<spirv::Operand> insert{Id(DrawOperand(ctx, member, true)),
                                       Id(value)};
    for (size_t i = 1; i < path.size(); ++i) insert.push_back(path[i]);
    const uint32_t other =
        fn.OpWith(Op::OpCompositeInsert, struct_type, std::move(insert));
    const bool swap = rng.Percent(50);
    value = fn.Op(Op::OpSelect, struct_type,
                  {Condition(ctx), swap ? other : value, swap ? value : other});
    path[0] = Id(value);
  }
  AddValue(ctx,
           fn.OpWith(Op::OpCompositeExtract, ctx.types.Id(members[pick]),
                     std::move(path)),
           members[pick]);
  return true;
}

}  // namespace

bool GenComposite(GenContext& ctx) {
  FunctionEmitter& fn = *ctx.fn;
  Rng& rng = ctx.rng;
  if (rng.Percent(15)) return GenStructValue(ctx);
  const Value* vec =
      ctx.pool.PickIf(rng, [](const Value& c) { return c.type.IsVector(); });
  const uint32_t choice = rng.Below(7);
  if (vec == nullptr || choice == 0) {
    // Construct a vector from scalars (or halves), possibly via OpUndef +
    // inserts that overwrite every lane.
    const ValueType scalar = rng.Percent(70) || !ctx.features.fp32
                                 ? RandomIntType(ctx, false)
                                 : RandomFloatType(ctx, false);
    ValueType t = scalar.WithLanes(RandomLanes(ctx));
    if (!t.IsVector()) t = scalar.WithLanes(2);
    // OpCompositeConstruct from run-time values crashes llvm-spirv 14 -r
    // (corpora/known-consumer-bugs/composite_construct_runtime.spvasm):
    // without known bugs, vectors are built by inserting into OpUndef.
    const bool construct_ok =
        ctx.BugsAllowed(KnownBugId::kCompositeConstructRuntime);
    // Halves as constituents: DPC++'s translator turns a vector built from
    // vectors into an invalid insertelement
    // (llvm_spirv_dpcpp_vector_from_vectors).
    if (construct_ok && t.lanes == 4 &&
        ctx.BugsAllowed(KnownBugId::kLlvmSpirvDpcppVectorFromVectors) &&
        rng.Percent(30)) {
      const ValueType half = scalar.WithLanes(2);
      const uint32_t type = ctx.types.Id(t);
      const uint32_t low = DrawOperand(ctx, half);
      const uint32_t high = DrawOperand(ctx, half);
      AddValue(ctx, fn.Op(Op::OpCompositeConstruct, type, {low, high}), t);
      return true;
    }
    if (!construct_ok || rng.Percent(20)) {
      uint32_t acc = fn.Op(Op::OpUndef, ctx.types.Id(t), {});
      for (uint32_t i = 0; i < t.lanes; ++i) {
        const uint32_t lane = DrawOperand(ctx, scalar);
        acc = fn.OpWith(Op::OpCompositeInsert, ctx.types.Id(t),
                        {Id(lane), Id(acc), Lit(i)});
      }
      AddValue(ctx, acc, t);
      return true;
    }
    std::vector<uint32_t> lanes;
    for (uint32_t i = 0; i < t.lanes; ++i)
      lanes.push_back(DrawOperand(ctx, scalar));
    AddValue(ctx, fn.Op(Op::OpCompositeConstruct, ctx.types.Id(t), lanes), t);
    return true;
  }
  if (!ctx.BugsAllowed(KnownBugId::kCompositeConstructRuntime) && choice == 6 &&
      rng.Percent(30)) {
    // OpCompositeConstruct of constants only: the form llvm-spirv 14 reads.
    const ValueType t = vec->type;
    std::vector<uint32_t> lanes;
    for (uint32_t i = 0; i < t.lanes; ++i)
      lanes.push_back(RandomConstant(ctx, t.Element()));
    AddValue(ctx, fn.Op(Op::OpCompositeConstruct, ctx.types.Id(t), lanes), t);
    return true;
  }
  const ValueType t = vec->type;
  const ValueType e = t.Element();
  switch (choice) {
    case 1:
      AddValue(ctx,
               fn.OpWith(Op::OpCompositeExtract, ctx.types.Id(e),
                         {Id(vec->id), Lit(rng.Below(t.lanes))}),
               e, vec->product);
      return true;
    case 2: {
      const uint32_t type = ctx.types.Id(t);
      const uint32_t lane = DrawOperand(ctx, e);
      AddValue(ctx,
               fn.OpWith(Op::OpCompositeInsert, type,
                         {Id(lane), Id(vec->id), Lit(rng.Below(t.lanes))}),
               t, vec->product);
    }
      return true;
    case 3: {
      // ocloc -device pvc rejects a run-time lane index into a vector of
      // 8-bit lanes, bools included (known-consumer-bugs/igc_pvc_int8_
      // vector_array_element_store's family): a fixed lane while IGC is
      // avoided.
      if (((e.IsInt() && e.width == 8) || e.IsBool()) &&
          !ctx.BugsAllowed(KnownBugId::kIgcPvcInt8VectorArrayElementStore)) {
        AddValue(ctx,
                 fn.OpWith(Op::OpCompositeExtract, ctx.types.Id(e),
                           {Id(vec->id), Lit(rng.Below(t.lanes))}),
                 e, vec->product);
        return true;
      }
      const uint32_t index =
          IndexInto(ctx, AnyIntAs(ctx, 32), IntT(32), t.lanes);
      AddValue(
          ctx,
          fn.Op(Op::OpVectorExtractDynamic, ctx.types.Id(e), {vec->id, index}),
          e, vec->product);
      return true;
    }
    case 4: {
      const uint32_t index =
          IndexInto(ctx, AnyIntAs(ctx, 32), IntT(32), t.lanes);
      const uint32_t type = ctx.types.Id(t);
      const uint32_t lane = DrawOperand(ctx, e);
      // Intel's CPU runtime loses a dynamic insert whose index differs
      // between work-items once a barrier follows (known-consumer-bugs/
      // intel_cpu_insert_dynamic_across_barrier): the same value built lane
      // by lane while it is a target, each lane select(index == k, lane,
      // vec[k]) put back with OpCompositeInsert (an OpCompositeConstruct of
      // run-time lanes crashes llvm-spirv 14: composite_construct_runtime).
      if (!ctx.BugsAllowed(KnownBugId::kIntelCpuInsertDynamicAcrossBarrier)) {
        const uint32_t bool_type = ctx.types.Id(BoolT());
        const uint32_t e_type = ctx.types.Id(e);
        uint32_t result = vec->id;
        for (uint32_t k = 0; k < t.lanes; ++k) {
          const uint32_t is_k =
              fn.Op(Op::OpIEqual, bool_type, {index, ctx.types.U64(k)});
          const uint32_t old_lane =
              fn.OpWith(Op::OpCompositeExtract, e_type, {Id(vec->id), Lit(k)});
          const uint32_t new_lane =
              fn.Op(Op::OpSelect, e_type, {is_k, lane, old_lane});
          result = fn.OpWith(Op::OpCompositeInsert, type,
                             {Id(new_lane), Id(result), Lit(k)});
        }
        AddValue(ctx, result, t, vec->product);
        return true;
      }
      AddValue(ctx,
               fn.Op(Op::OpVectorInsertDynamic, type, {vec->id, lane, index}),
               t, vec->product);
      return true;
    }
    case 5: {
      // Shuffle two vectors of the same element type into any lane count.
      // Operands of different lane counts are valid SPIR-V but abort
      // llvm-spirv 14 -r (known-consumer-bugs/vector_shuffle_mixed.spvasm).
      const bool mixed_ok = ctx.BugsAllowed(KnownBugId::kVectorShuffleMixed);
      const Value* other = ctx.pool.PickIf(rng, [&](const Value& c) {
        return c.type.IsVector() && c.type.Element() == e &&
               (mixed_ok || c.type == t);
      });
      const uint32_t second = other ? other->id : vec->id;
      const uint32_t second_lanes = other ? other->type.lanes : t.lanes;
      ValueType r = t.WithLanes(RandomLanes(ctx));
      if (!r.IsVector()) r = t.WithLanes(2);
      std::vector<spirv::Operand> ops{Id(vec->id), Id(second)};
      for (uint32_t i = 0; i < r.lanes; ++i)
        ops.push_back(Lit(rng.Below(t.lanes + second_lanes)));
      AddValue(ctx, fn.OpWith(Op::OpVectorShuffle, ctx.types.Id(r), ops), r,
               vec->product || (other && other->product));
      return true;
    }
    default:
      // llvm-spirv: known-consumer-bugs/llvm_spirv_copy_object_alloca.
      if (!ctx.BugsAllowed(KnownBugId::kLlvmSpirvCopyObjectAlloca))
        return false;
      AddValue(ctx, fn.Op(Op::OpCopyObject, ctx.types.Id(t), {vec->id}), t,
               vec->product);
      return true;
  }
}

bool GenFloatArith(GenContext& ctx) {
  FunctionEmitter& fn = *ctx.fn;
  const ValueType t = RandomFloatType(ctx);
  const uint32_t type = ctx.types.Id(t);
  switch (ctx.rng.Below(9)) {
    case 0:
    case 1:
      AddValue(ctx,
               fn.Op(Op::OpFAdd, type,
                     {DrawOperand(ctx, t, true), DrawOperand(ctx, t, true)}),
               t);
      return true;
    case 2:
      AddValue(ctx,
               fn.Op(Op::OpFSub, type,
                     {DrawOperand(ctx, t, true), DrawOperand(ctx, t, true)}),
               t);
      return true;
    case 3:
      AddValue(
          ctx,
          fn.Op(Op::OpFMul, type, {DrawOperand(ctx, t), DrawOperand(ctx, t)}),
          t, true);
      return true;
    case 4:
      // Intel's CPU runtime stores garbage for a negation used across a
      // barrier (known-consumer-bugs/intel_cpu_fnegate_across_barrier).
      if (!ctx.BugsAllowed(KnownBugId::kIntelCpuFnegateAcrossBarrier))
        return false;
      AddValue(ctx, fn.Op(Op::OpFNegate, type, {DrawOperand(ctx, t)}), t);
      return true;
    case 5: {
      if (!t.IsVector()) return false;
      // IGC 22.43 and PoCL 3.1 have no dot of 8 or 16 components
      // (known-consumer-bugs/igc_dot_wide_vectors).
      const bool dot_ok =
          t.lanes <= 4 || ctx.BugsAllowed(KnownBugId::kIgcDotWideVectors);
      if (dot_ok && ctx.rng.Percent(30)) {
        // OpDot of small integers: exact in any summation order (an
        // implementation may also contract it into fmas).
        const ValueType it = IntT(32, t.lanes);
        const uint32_t it_type = ctx.types.Id(it);
        const uint32_t small = ctx.types.Splat(it, t.width == 16 ? 7 : 255);
        uint32_t v[2];
        for (uint32_t& x : v) {
          const uint32_t masked =
              fn.Op(Op::OpBitwiseAnd, it_type, {DrawOperand(ctx, it), small});
          x = fn.Op(Op::OpConvertUToF, type, {masked});
        }
        const uint32_t scalar = ctx.types.Id(t.Element());
        AddValue(ctx, fn.Op(Op::OpDot, scalar, {v[0], v[1]}), t.Element());
        return true;
      }
      AddValue(ctx,
               fn.Op(Op::OpVectorTimesScalar, type,
                     {DrawOperand(ctx, t), DrawOperand(ctx, t.Element())}),
               t, true);
      return true;
    }
    case 6: {
      // Division by a power of two is exact (unless it underflows).
      const double sign = ctx.rng.Percent(50) ? 1.0 : -1.0;
      const double divisor = std::ldexp(sign, ctx.rng.Range(0, 4));
      AddValue(
          ctx,
          fn.Op(Op::OpFDiv, type,
                {DrawOperand(ctx, t),
                 ctx.types.Splat(t, spirv::EncodeFloat(divisor, t.width))}),
          t);
      return true;
    }
    default: {
      // Not exactly rounded in OpenCL (FDiv: 2.5 ulp for float) or exact
      // but sensitive: stored directly with its tolerance.
      // OpFMod is lowered by llvm-spirv to frem + llvm.copysign, which
      // Oclgrind 21.10 cannot call (known-consumer-bugs/oclgrind_fmod).
      static constexpr Op kOps[] = {Op::OpFDiv, Op::OpFRem, Op::OpFMod};
      const uint32_t choices =
          ctx.BugsAllowed(KnownBugId::kOclgrindFmod) ? 3 : 2;
      const Op op = kOps[ctx.rng.Below(choices)];
      const uint32_t x = DrawOperand(ctx, t);
      uint32_t y = DrawOperand(ctx, t);
      if (op != Op::OpFDiv) {
        // OpFRem and OpFMod are undefined for a zero divisor (SPIR-V:
        // "the resulting value is undefined if Operand 2 is 0"; OpenCL C's
        // fmod(x, 0) is NaN, but that is the built-in, not these): 1 in
        // its place. The sign of a zero OpFMod result is left open too
        // ("if r != 0, the sign of r is the same as the sign of Operand
        // 2"): the result is stored, and +0 and -0 are within its
        // tolerance.
        const uint32_t zero = fn.Op(Op::OpFOrdEqual, ctx.types.Id(t.BoolOf()),
                                    {y, ctx.types.Splat(t, 0)});
        y = fn.Op(
            Op::OpSelect, type,
            {zero, ctx.types.Splat(t, spirv::EncodeFloat(1.0, t.width)), y});
      }
      const uint32_t r = fn.Op(op, type, {x, y});
      double ulp = 0;
      if (op == Op::OpFDiv) ulp = t.width == 32 ? 2.5 : (t.width == 16 ? 1 : 0);
      SinkLooseFloat(ctx, r, t, ulp, false,
                     op == Op::OpFDiv ? "OpFDiv" : "fmod");
      return true;
    }
  }
}

bool GenFloatCompare(GenContext& ctx) {
  FunctionEmitter& fn = *ctx.fn;
  const ValueType t = RandomFloatType(ctx);
  const ValueType bt = t.BoolOf();
  if (ctx.rng.Percent(35)) {
    static constexpr Op kUnary[] = {Op::OpIsNan, Op::OpIsInf, Op::OpIsFinite,
                                    Op::OpIsNormal, Op::OpSignBitSet};
    const Op op = ctx.rng.Pick<Op>(kUnary);
    const uint32_t type = ctx.types.Id(bt);
    uint32_t x = DrawOperand(ctx, t);
    if (op == Op::OpSignBitSet && ctx.GuardOn(kGuardNanSign)) {
      const uint32_t nan = fn.Op(Op::OpIsNan, type, {x});
      x = fn.Op(Op::OpSelect, ctx.types.Id(t), {nan, ctx.types.Splat(t, 0), x});
    }
    AddValue(ctx, fn.Op(op, type, {x}), bt);
    return true;
  }
  static constexpr Op kOps[] = {Op::OpFOrdEqual,
                                Op::OpFUnordEqual,
                                Op::OpFOrdNotEqual,
                                Op::OpFUnordNotEqual,
                                Op::OpFOrdLessThan,
                                Op::OpFUnordLessThan,
                                Op::OpFOrdGreaterThan,
                                Op::OpFUnordGreaterThan,
                                Op::OpFOrdLessThanEqual,
                                Op::OpFUnordLessThanEqual,
                                Op::OpFOrdGreaterThanEqual,
                                Op::OpFUnordGreaterThanEqual,
                                Op::OpLessOrGreater,
                                Op::OpOrdered,
                                Op::OpUnordered};
  const Op op = ctx.rng.Pick<Op>(kOps);
  const uint32_t type = ctx.types.Id(bt);
  const uint32_t a = DrawOperand(ctx, t);
  const uint32_t b = DrawOperand(ctx, t);
  const uint32_t result = fn.Op(op, type, {a, b});
  // x < x, x != x (ordered), ...: a constant to IGC; the unordered and
  // equal forms are isnan(x) or its negation, taken as constants too
  // (conservatively, as GenCompare does for integers).
  if (a == b) ctx.bool_roots[result] = GenContext::kFoldedConstant;
  AddValue(ctx, result, bt);
  return true;
}

}  // namespace l0spv::generators::kernel
