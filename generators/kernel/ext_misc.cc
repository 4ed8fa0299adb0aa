#include "generators/kernel/ext_misc.h"

#include <vector>

#include "generators/kernel/expressions.h"
#include "generators/kernel/ext_inst.h"
#include "generators/kernel/memory.h"
#include "spirv/numeric_bits.h"
#include "spirv/unified1/OpenCL.std.h"

namespace l0spv::generators::kernel {

using namespace OpenCLLIB;  // NOLINT: entrypoint names read like the spec
using spv::Op;

namespace {

// An integer type of `width` bits the case may declare, or false.
bool IntWidthUsable(const GenContext& ctx, uint8_t width) {
  return width == 32 || width == 64 || (width == 8 && ctx.features.int8) ||
         (width == 16 && ctx.features.int16);
}

// An int or float type for the bitwise forms; floats through MathFloatType
// (PoCL's half and wide-vector library gaps).
bool AnyType(GenContext& ctx, ValueType* t) {
  const bool has_float =
      ctx.features.fp16 || ctx.features.fp32 || ctx.features.fp64;
  if (has_float && ctx.rng.Percent(40)) return MathFloatType(ctx, t);
  *t = RandomIntType(ctx);
  return true;
}

bool GenBitselectOrSelect(GenContext& ctx) {
  ValueType t;
  if (!AnyType(ctx, &t)) return false;
  const uint32_t type = ctx.types.Id(t);
  // Oclgrind 21.10's float bitselect is not bitwise
  // (known-consumer-bugs/oclgrind_bitselect_float).
  const bool bitselect_ok =
      !t.IsFloat() || ctx.BugsAllowed(KnownBugId::kOclgrindBitselectFloat);
  if (bitselect_ok && ctx.rng.Percent(50)) {
    AddValue(ctx,
             ExtInst(ctx, type, Bitselect,
                     {DrawOperand(ctx, t), DrawOperand(ctx, t),
                      DrawOperand(ctx, t)}),
             t);
    return true;
  }
  // select(a, b, c): c an integer of the element's width.
  const ValueType c = IntT(t.width, t.lanes);
  if (!IntWidthUsable(ctx, c.width)) return false;
  AddValue(
      ctx,
      ExtInst(ctx, type, Select,
              {DrawOperand(ctx, t), DrawOperand(ctx, t), DrawOperand(ctx, c)}),
      t);
  return true;
}

// shuffle(x, mask) / shuffle2(x, y, mask): sizes 2, 4, 8, 16 only.
bool GenShuffle(GenContext& ctx) {
  if (!ctx.features.vectors) return false;
  Rng& rng = ctx.rng;
  static constexpr uint8_t kSmall[] = {2, 4};
  static constexpr uint8_t kAll[] = {2, 4, 8, 16};
  const auto size = [&] {
    return ctx.features.vector16 ? rng.Pick<uint8_t>(kAll)
                                 : rng.Pick<uint8_t>(kSmall);
  };
  ValueType element;
  if (!AnyType(ctx, &element)) return false;
  element = element.Element();
  // Intel's CPU runtime 2026.2 has no half shuffle/shuffle2 in its built-in
  // library (known-consumer-bugs/intel_cpu_shuffle_half).
  if (element.IsFloat() && element.width == 16 &&
      !ctx.BugsAllowed(KnownBugId::kIntelCpuShuffleHalf))
    return false;
  const uint8_t m = size(), n = size();
  const ValueType in = element.WithLanes(m);
  const ValueType out = element.WithLanes(n);
  const ValueType mask_t = IntT(element.width, n);
  if (!IntWidthUsable(ctx, mask_t.width)) return false;
  const bool two = rng.Percent(50);
  uint32_t mask = DrawOperand(ctx, mask_t);
  if (rng.Percent(50)) {
    // The bits that count, alone (the others must be ignored: tested by
    // the other half).
    const uint32_t bits = ctx.types.Splat(mask_t, two ? 2 * m - 1 : m - 1);
    mask = ctx.fn->Op(Op::OpBitwiseAnd, ctx.types.Id(mask_t), {mask, bits});
  }
  std::vector<uint32_t> ops{DrawOperand(ctx, in)};
  if (two) ops.push_back(DrawOperand(ctx, in));
  ops.push_back(mask);
  AddValue(ctx, ExtInst(ctx, ctx.types.Id(out), two ? Shuffle2 : Shuffle, ops),
           out);
  return true;
}

// mad, nan, fast_length / fast_distance / fast_normalize, lgamma_r.
bool GenLooseMath(GenContext& ctx) {
  Rng& rng = ctx.rng;
  FunctionEmitter& fn = *ctx.fn;
  ValueType t;
  if (!MathFloatType(ctx, &t)) return false;
  const uint32_t type = ctx.types.Id(t);
  switch (rng.Below(4)) {
    case 0:
      FloatResult(ctx,
                  ExtInst(ctx, type, Mad,
                          {DrawOperand(ctx, t), DrawOperand(ctx, t),
                           DrawOperand(ctx, t)}),
                  t, Mad, "mad");
      return true;
    case 1: {
      const ValueType code = IntT(t.width, t.lanes);
      if (!IntWidthUsable(ctx, code.width)) return false;
      FloatResult(ctx, ExtInst(ctx, type, Nan, {DrawOperand(ctx, code)}), t,
                  Nan, "nan");
      return true;
    }
    case 2: {
      // fast_*: float and float2-4 only.
      if (!ctx.features.fp32) return false;
      const ValueType v = FloatT(32, t.lanes > 4 ? 4 : t.lanes);
      const uint32_t v_type = ctx.types.Id(v);
      const uint32_t p = Finite(ctx, DrawOperand(ctx, v), v);
      const uint32_t which = rng.Below(3);
      if (which == 0) {
        FloatResult(ctx,
                    ExtInst(ctx, ctx.types.Id(FloatT(32)), Fast_length, {p}),
                    FloatT(32), Fast_length, "fast_length");
      } else if (which == 1) {
        const uint32_t q = Finite(ctx, DrawOperand(ctx, v), v);
        FloatResult(
            ctx, ExtInst(ctx, ctx.types.Id(FloatT(32)), Fast_distance, {p, q}),
            FloatT(32), Fast_distance, "fast_distance");
      } else {
        FloatResult(ctx, ExtInst(ctx, v_type, Fast_normalize, {p}), v,
                    Fast_normalize, "fast_normalize");
      }
      return true;
    }
    default: {
      // lgamma_r of a positive argument: the sign is 1.
      const ValueType it = IntT(32, t.lanes);
      const uint32_t sign = fn.LocalVariable(
          ctx.types.Pointer(spv::StorageClass::Function, ctx.types.Id(it)));
      const uint32_t x = fn.Op(
          Op::OpFAdd, type,
          {ExtInst(ctx, type, Fabs, {Finite(ctx, DrawOperand(ctx, t), t)}),
           ctx.types.Splat(t, spirv::EncodeFloat(0.5, t.width))});
      FloatResult(ctx, ExtInst(ctx, type, Lgamma_r, {x, sign}), t, Lgamma_r,
                  "lgamma_r");
      AddValue(ctx, fn.Op(Op::OpLoad, ctx.types.Id(it), {sign}), it);
      return true;
    }
  }
}

// Half stores into a private u32[16] (32 halves), read back.
bool GenHalfStore(GenContext& ctx) {
  if (!ctx.features.fp32) return false;
  Rng& rng = ctx.rng;
  FunctionEmitter& fn = *ctx.fn;
  const ValueType u32 = IntT(32);
  const uint32_t u32_type = ctx.types.Id(u32);
  const PrivateArray array = NewPrivateArray(ctx, u32, 16);
  ctx.builder.AddCapability(spv::Capability::Float16Buffer);
  const uint32_t half_ptr =
      ctx.types.Pointer(spv::StorageClass::Function, ctx.builder.FloatType(16));
  // Ids allocated one statement at a time (argument order is unspecified).
  const uint32_t u32_ptr =
      ctx.types.Pointer(spv::StorageClass::Function, u32_type);
  const uint32_t zero = ctx.types.U64(0);
  const uint32_t first =
      fn.Op(Op::OpInBoundsAccessChain, u32_ptr, {array.pointer, zero});
  const uint32_t p = fn.Op(Op::OpBitcast, half_ptr, {first});
  const auto lanes = [&]() -> uint8_t {
    static constexpr uint8_t kSmall[] = {2, 3, 4};
    static constexpr uint8_t kAll[] = {2, 3, 4, 8, 16};
    return ctx.features.vector16 ? rng.Pick<uint8_t>(kAll)
                                 : rng.Pick<uint8_t>(kSmall);
  };
  // Halves an access of n lanes at `offset` spans (aligned: 3 counts 4).
  const auto stride = [](uint8_t n, bool aligned) -> uint32_t {
    return aligned && n == 3 ? 4 : n;
  };
  const bool vector = ctx.features.vectors && rng.Percent(70);
  bool aligned = vector && rng.Percent(50);
  const bool rounded = rng.Percent(50);
  uint8_t n = vector ? lanes() : 1;
  // PoCL 3.1 crashes on a half store of 8 or 16 lanes at a run-time offset
  // once an atomic depends on what it stored
  // (known-consumer-bugs/pocl_vstore_half_wide_crash): 4 lanes at most.
  if (n >= 8 && !ctx.BugsAllowed(KnownBugId::kPoclVstoreHalfWideCrash)) n = 4;
  // PoCL 3.1's vstorea_half3 writes a fourth half after z
  // (known-consumer-bugs/pocl_vstorea_half3_fourth_lane).
  if (aligned && n == 3 &&
      !ctx.BugsAllowed(KnownBugId::kPoclVstoreaHalf3FourthLane))
    aligned = false;
  const ValueType data_t = FloatT(32, n);
  const uint32_t data = Finite(ctx, DrawOperand(ctx, data_t), data_t);
  const uint32_t offset =
      IndexInto(ctx, AnyIntAs(ctx, 32), u32, 32 / stride(n, aligned));
  uint32_t number = Vstore_half;
  if (vector) number = aligned ? Vstorea_halfn : Vstore_halfn;
  if (rounded) {
    number = number == Vstore_half    ? Vstore_half_r
             : number == Vstore_halfn ? Vstore_halfn_r
                                      : Vstorea_halfn_r;
  }
  std::vector<spirv::Operand> ops{
      Id(ctx.std_set),
      spirv::Operand{spirv::OperandKind::kLiteralExtInstInteger, {number}},
      Id(data), Id(offset), Id(p)};
  if (rounded)
    ops.push_back(
        spirv::EnumOperand(spirv::OperandKind::kFPRoundingMode, rng.Below(4)));
  fn.OpWith(Op::OpExtInst, ctx.types.Void(), std::move(ops));
  // Read back: as halves (aligned vector or scalar) and as words.
  if (ctx.features.vectors && rng.Percent(50)) {
    const uint8_t m = lanes();
    const ValueType r = FloatT(32, m);
    const uint32_t at =
        IndexInto(ctx, AnyIntAs(ctx, 32), u32, 32 / stride(m, true));
    AddValue(ctx, ExtInst(ctx, ctx.types.Id(r), Vloada_halfn, {at, p}, m), r);
  } else {
    const uint32_t at = IndexInto(ctx, AnyIntAs(ctx, 32), u32, 32);
    AddValue(ctx, ExtInst(ctx, ctx.types.Id(FloatT(32)), Vload_half, {at, p}),
             FloatT(32));
  }
  const uint32_t word = IndexInto(ctx, AnyIntAs(ctx, 32), u32, 16);
  AddValue(ctx,
           fn.Op(Op::OpLoad, u32_type, {ArrayElementPointer(ctx, array, word)}),
           u32);
  return true;
}

// prefetch(p, n) on the kernel's __global input: no effect on results.
bool GenPrefetch(GenContext& ctx) {
  const KernelResources* k = ctx.kernel;
  if (k == nullptr || k->in_int_storage != spv::StorageClass::CrossWorkgroup)
    return false;
  const uint32_t count = ctx.types.U64(ctx.rng.Range(1, k->in_int_count));
  ExtInst(ctx, ctx.types.Void(), Prefetch, {k->in_int, count});
  return true;
}

}  // namespace

bool GenExtMisc(GenContext& ctx) {
  switch (ctx.rng.Below(6)) {
    case 0:
    case 1:
      return GenBitselectOrSelect(ctx);
    case 2:
      return GenShuffle(ctx);
    case 3:
      return GenLooseMath(ctx);
    case 4:
      return GenHalfStore(ctx);
    default:
      return GenPrefetch(ctx);
  }
}

}  // namespace l0spv::generators::kernel
