#include "generators/kernel/outputs.h"

#include "generators/kernel/expressions.h"

namespace l0spv::generators::kernel {

using spv::Op;

namespace {

uint32_t FloatIndex(uint8_t width) {
  return width == 16 ? 0 : (width == 32 ? 1 : 2);
}

// A pointer to element `base + slot` of `buffer` (u64 element indices), in
// one of the equivalent pointer forms.
uint32_t SlotPointer(GenContext& ctx, uint32_t buffer, uint32_t element_type,
                     uint32_t base, uint32_t slot) {
  FunctionEmitter& fn = *ctx.fn;
  const uint32_t u64 = ctx.types.Id(IntT(64));
  const uint32_t pointer =
      ctx.types.Pointer(spv::StorageClass::CrossWorkgroup, element_type);
  const uint32_t index = fn.Op(Op::OpIAdd, u64, {base, ctx.types.U64(slot)});
  switch (ctx.rng.Below(3)) {
    case 0:
      return fn.Op(Op::OpPtrAccessChain, pointer, {buffer, index});
    case 1: {
      // Offset the base pointer first, then index the slot from there.
      const uint32_t row =
          fn.Op(Op::OpInBoundsPtrAccessChain, pointer, {buffer, base});
      return fn.Op(Op::OpInBoundsPtrAccessChain, pointer,
                   {row, ctx.types.U64(slot)});
    }
    default:
      return fn.Op(Op::OpInBoundsPtrAccessChain, pointer, {buffer, index});
  }
}

void Store(GenContext& ctx, uint32_t pointer, uint32_t value,
           uint32_t alignment) {
  std::vector<spirv::Operand> ops{Id(pointer), Id(value)};
  if (ctx.rng.Percent(40)) {
    ops.push_back(spirv::EnumOperand(
        spirv::OperandKind::kMemoryAccess,
        static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)));
    ops.push_back(Lit(alignment));
  }
  ctx.fn->Void(Op::OpStore, std::move(ops));
}

void StoreInt32(GenContext& ctx, uint32_t value) {
  KernelResources& k = *ctx.kernel;
  const uint32_t slot = k.next_int_slot++ % k.int_slots;
  const uint32_t pointer =
      SlotPointer(ctx, k.out_int, ctx.types.Id(IntT(32)), k.out_int_base, slot);
  Store(ctx, pointer, value, 4);
}

void StoreFloatScalar(GenContext& ctx, uint32_t id, ValueType scalar,
                      double ulp, bool skip, const std::string& reason) {
  FloatOutput& out = ctx.kernel->float_out[FloatIndex(scalar.width)];
  if (out.param == 0 || out.used >= out.slots) return;
  const uint32_t slot = out.used++;
  out.slot_info[slot] = {ulp, 0, skip, reason};
  const uint32_t pointer =
      SlotPointer(ctx, out.param, ctx.types.Id(scalar), out.base, slot);
  Store(ctx, pointer, id, scalar.width / 8);
}

void SinkIntScalar(GenContext& ctx, uint32_t id, ValueType t) {
  FunctionEmitter& fn = *ctx.fn;
  const uint32_t u32 = ctx.types.Id(IntT(32));
  if (t.IsBool()) {
    StoreInt32(ctx, fn.Op(Op::OpSelect, u32,
                          {id, ctx.types.U32(1), ctx.types.U32(0)}));
    return;
  }
  if (t.width < 32) {
    StoreInt32(ctx, fn.Op(ConvertOp(ctx, t.width, 32), u32, {id}));
  } else if (t.width == 32) {
    StoreInt32(ctx, id);
  } else {
    StoreInt32(ctx, fn.Op(Op::OpUConvert, u32, {id}));
    const uint32_t shift = ctx.types.U64(32);
    const uint32_t high =
        fn.Op(Op::OpShiftRightLogical, ctx.types.Id(t), {id, shift});
    StoreInt32(ctx, fn.Op(Op::OpUConvert, u32, {high}));
  }
}

}  // namespace

void SinkValue(GenContext& ctx, const Value& value) {
  if (ctx.kernel == nullptr) return;
  FunctionEmitter& fn = *ctx.fn;
  const ValueType t = value.type;
  if (!t.IsVector()) {
    if (t.IsFloat()) {
      StoreFloatScalar(ctx, value.id, t, 0, false, "");
    } else {
      SinkIntScalar(ctx, value.id, t);
    }
    return;
  }
  // A 32-bit vector is one of 16- or 8-bit lanes: spirv-opt folds its
  // bitcast wrongly when it is constant (spirv_opt_bitcast_fold).
  if (t.IsInt() && t.Bits() == 32 &&
      ctx.BugsAllowed(KnownBugId::kSpirvOptBitcastFold) &&
      ctx.rng.Percent(50)) {
    StoreInt32(ctx, fn.Op(Op::OpBitcast, ctx.types.Id(IntT(32)), {value.id}));
    return;
  }
  uint32_t vector = value.id;
  ValueType element = t.Element();
  if (t.IsBool()) {
    const ValueType u = IntT(32, t.lanes);
    const uint32_t u_type = ctx.types.Id(u);
    vector = fn.Op(Op::OpSelect, u_type,
                   {value.id, ctx.types.Splat(u, 1), ctx.types.Splat(u, 0)});
    element = IntT(32);
  }
  // Every lane of small vectors, two random lanes of wide ones.
  const uint32_t lanes = t.lanes <= 4 ? t.lanes : 2;
  for (uint32_t i = 0; i < lanes; ++i) {
    const uint32_t lane = t.lanes <= 4 ? i : ctx.rng.Below(t.lanes);
    const uint32_t scalar = fn.OpWith(
        Op::OpCompositeExtract, ctx.types.Id(element), {Id(vector), Lit(lane)});
    if (element.IsFloat()) {
      StoreFloatScalar(ctx, scalar, element, 0, false, "");
    } else {
      SinkIntScalar(ctx, scalar, element);
    }
  }
}

void SinkLooseFloat(GenContext& ctx, uint32_t id, ValueType type, double ulp,
                    bool skip, const std::string& reason) {
  if (ctx.kernel == nullptr) return;
  if (!type.IsVector()) {
    StoreFloatScalar(ctx, id, type, ulp, skip, reason);
    return;
  }
  const uint32_t lanes = type.lanes <= 4 ? type.lanes : 2;
  for (uint32_t i = 0; i < lanes; ++i) {
    const uint32_t lane = type.lanes <= 4 ? i : ctx.rng.Below(type.lanes);
    const uint32_t scalar =
        ctx.fn->OpWith(Op::OpCompositeExtract, ctx.types.Id(type.Element()),
                       {Id(id), Lit(lane)});
    StoreFloatScalar(ctx, scalar, type.Element(), ulp, skip, reason);
  }
}

bool GenSink(GenContext& ctx) {
  if (ctx.kernel == nullptr) return false;
  const Value* v = ctx.pool.PickIf(ctx.rng, [](const Value&) { return true; });
  if (v == nullptr) return false;
  SinkValue(ctx, *v);
  return true;
}

}  // namespace l0spv::generators::kernel
