#include "generators/kernel/subgroups.h"

#include "generators/kernel/expressions.h"
#include "spirv/numeric_bits.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::generators::kernel {
namespace {

using spv::Op;

// Shuffle data the Level Zero environment accepts on every device: scalars
// and 2/4/8/16-vectors of i16/i32/f32, i64 scalars (L0-SUBGROUP rules).
ValueType ShuffleType(GenContext& ctx) {
  Rng& rng = ctx.rng;
  static constexpr uint8_t kLanes[] = {1, 1, 1, 2, 4, 8, 16};
  uint8_t lanes = ctx.features.vectors ? rng.Pick<uint8_t>(kLanes) : 1;
  if (lanes == 16 && !ctx.features.vector16) lanes = 4;
  if (ctx.features.fp32 && rng.Percent(30)) return FloatT(32, lanes);
  if (ctx.features.int64 && lanes == 1 && rng.Percent(25)) return IntT(64);
  if (ctx.features.int16 && rng.Percent(30)) return IntT(16, lanes);
  return IntT(32, lanes);
}

bool GenIdentityShuffle(GenContext& ctx) {
  const KernelResources& k = *ctx.kernel;
  FunctionEmitter& fn = *ctx.fn;
  ctx.builder.AddExtension("SPV_INTEL_subgroups");
  ctx.builder.AddCapability(spv::Capability::SubgroupShuffleINTEL);
  const ValueType t = ShuffleType(ctx);
  const uint32_t type = ctx.types.Id(t);
  const uint32_t x = DrawOperand(ctx, t);
  const uint32_t zero = ctx.types.U32(0);
  uint32_t r = 0;
  switch (ctx.rng.Below(k.subgroup_local_id != 0 ? 4 : 3)) {
    case 0:
      r = fn.Op(Op::OpSubgroupShuffleXorINTEL, type, {x, zero});
      break;
    case 1:
      r = fn.Op(Op::OpSubgroupShuffleDownINTEL, type,
                {x, DrawOperand(ctx, t), zero});
      break;
    case 2:
      r = fn.Op(Op::OpSubgroupShuffleUpINTEL, type,
                {DrawOperand(ctx, t), x, zero});
      break;
    default:
      r = fn.Op(Op::OpSubgroupShuffleINTEL, type, {x, k.subgroup_local_id});
      break;
  }
  AddValue(ctx, r, t);
  return true;
}

// in_int[index] for a constant index: the same value in every work-item.
uint32_t UniformInput(GenContext& ctx) {
  const KernelResources& k = *ctx.kernel;
  const uint32_t u32 = ctx.types.Id(IntT(32));
  const uint32_t pointer = ctx.types.Pointer(k.in_int_storage, u32);
  const uint32_t index = ctx.types.U64(ctx.rng.Below(k.in_int_count));
  const uint32_t element =
      ctx.fn->Op(Op::OpInBoundsPtrAccessChain, pointer, {k.in_int, index});
  return ctx.fn->Op(Op::OpLoad, u32, {element});
}

bool GenUniformGroupOp(GenContext& ctx) {
  FunctionEmitter& fn = *ctx.fn;
  ctx.builder.AddCapability(spv::Capability::Groups);
  const uint32_t scope = ctx.types.U32(kScopeSubgroup);
  const ValueType u32 = IntT(32);
  const uint32_t u32_type = ctx.types.Id(u32);
  const uint32_t value = UniformInput(ctx);
  switch (ctx.rng.Below(3)) {
    case 0: {
      const uint32_t bool_type = ctx.types.Id(BoolT());
      const uint32_t cond =
          fn.Op(Op::OpULessThan, bool_type,
                {value, ctx.types.U32(ctx.rng.Below(1u << 31))});
      const Op op = ctx.rng.Percent(50) ? Op::OpGroupAll : Op::OpGroupAny;
      AddValue(ctx, fn.Op(op, bool_type, {scope, cond}), BoolT());
      return true;
    }
    case 1:
      AddValue(ctx,
               fn.Op(Op::OpGroupBroadcast, u32_type,
                     {scope, value, ctx.types.U32(0)}),
               u32);
      return true;
    default: {
      // min/max of equal values is that value, however many lanes there
      // are; a sum or an exclusive scan would depend on the subgroup size
      // and position.
      static constexpr Op kOps[] = {Op::OpGroupUMin, Op::OpGroupSMin,
                                    Op::OpGroupUMax, Op::OpGroupSMax};
      const uint32_t operation = ctx.rng.Below(2);  // Reduce, InclusiveScan
      AddValue(ctx,
               fn.OpWith(ctx.rng.Pick<Op>(kOps), u32_type,
                         {Id(scope),
                          spirv::EnumOperand(
                              spirv::OperandKind::kGroupOperation, operation),
                          Id(value)}),
               u32);
      return true;
    }
  }
}

// A value of scalar type `t` that is the same in every work-item: the
// uniform u32 input converted.
uint32_t UniformValue(GenContext& ctx, ValueType t) {
  const uint32_t u = UniformInput(ctx);
  const uint32_t type = ctx.types.Id(t);
  if (t.IsFloat()) return ctx.fn->Op(Op::OpConvertUToF, type, {u});
  if (t.width == 32) return u;
  return ctx.fn->Op(Op::OpUConvert, type, {u});
}

// Integer or float scalars: the Value types the programming guide's
// extended subgroups accept for every OpGroupNonUniform* instruction.
ValueType NonUniformType(GenContext& ctx) {
  if (ctx.features.fp16 || ctx.features.fp32 || ctx.features.fp64) {
    if (ctx.rng.Percent(30)) return RandomFloatType(ctx, false);
  }
  return RandomIntType(ctx, false);
}

uint32_t UniformPredicate(GenContext& ctx) {
  // Ids in a fixed order: the type before the operands (argument evaluation
  // order is unspecified).
  const uint32_t bool_type = ctx.types.Id(BoolT());
  return ctx.fn->Op(
      Op::OpULessThan, bool_type,
      {UniformInput(ctx), ctx.types.U32(ctx.rng.Below(1u << 31))});
}

spirv::Operand GroupOperation(GenContext& ctx) {
  // Reduce or InclusiveScan: every lane sees all lanes or the lanes up to
  // itself, which for equal values is that value; ExclusiveScan would give
  // lane 0 the identity.
  return spirv::EnumOperand(spirv::OperandKind::kGroupOperation,
                            ctx.rng.Below(2));
}

// Sums, products, xors and ballot counts over a subgroup where only lane 0
// contributes and every other lane brings the operation's identity: the
// result is lane 0's value whatever the subgroup size (and it is uniform,
// so a float sum or product is exact: x + 0.0 and x * 1.0 are x; x is a
// converted integer, never -0.0). Needs the subgroup-local id.
bool GenLaneZeroContribution(GenContext& ctx) {
  const KernelResources& k = *ctx.kernel;
  FunctionEmitter& fn = *ctx.fn;
  Rng& rng = ctx.rng;
  const uint32_t scope = ctx.types.U32(kScopeSubgroup);
  const ValueType b = BoolT();
  const uint32_t bool_type = ctx.types.Id(b);
  const uint32_t lane0 =
      fn.Op(Op::OpIEqual, bool_type, {k.subgroup_local_id, ctx.types.U32(0)});
  if (rng.Percent(25)) {  // one bit set: count 1, highest bit 0
    ctx.builder.AddCapability(spv::Capability::GroupNonUniformBallot);
    const ValueType v4 = IntT(32, 4);
    const uint32_t v4_type = ctx.types.Id(v4);
    const uint32_t ballot =
        fn.Op(Op::OpGroupNonUniformBallot, v4_type, {scope, lane0});
    const ValueType u32 = IntT(32);
    const uint32_t u32_type = ctx.types.Id(u32);
    const uint32_t r =
        rng.Percent(50)
            ? fn.OpWith(
                  Op::OpGroupNonUniformBallotBitCount, u32_type,
                  {Id(scope),
                   spirv::EnumOperand(spirv::OperandKind::kGroupOperation, 0),
                   Id(ballot)})
            : fn.Op(Op::OpGroupNonUniformBallotFindMSB, u32_type,
                    {scope, ballot});
    AddValue(ctx, r, u32);
    return true;
  }
  ctx.builder.AddCapability(spv::Capability::GroupNonUniformArithmetic);
  if (rng.Percent(20)) {
    const uint32_t p = UniformPredicate(ctx);
    const uint32_t contribution =
        fn.Op(Op::OpSelect, bool_type, {lane0, p, ctx.types.Splat(b, 0)});
    AddValue(ctx,
             fn.OpWith(Op::OpGroupNonUniformLogicalXor, bool_type,
                       {Id(scope), GroupOperation(ctx), Id(contribution)}),
             b);
    return true;
  }
  const ValueType t = NonUniformType(ctx);
  const uint32_t type = ctx.types.Id(t);
  Op op;
  uint64_t identity = 0;  // bits of the identity element
  if (t.IsFloat()) {
    const bool product = rng.Percent(50);
    op = product ? Op::OpGroupNonUniformFMul : Op::OpGroupNonUniformFAdd;
    identity = product ? spirv::EncodeFloat(1.0, t.width) : 0;
  } else {
    static constexpr Op kInt[] = {Op::OpGroupNonUniformIAdd,
                                  Op::OpGroupNonUniformIMul,
                                  Op::OpGroupNonUniformBitwiseXor};
    op = rng.Pick<Op>(kInt);
    identity = op == Op::OpGroupNonUniformIMul ? 1 : 0;
  }
  const uint32_t v = UniformValue(ctx, t);
  const uint32_t contribution =
      fn.Op(Op::OpSelect, type, {lane0, v, ctx.types.Splat(t, identity)});
  AddValue(
      ctx,
      fn.OpWith(op, type, {Id(scope), GroupOperation(ctx), Id(contribution)}),
      t);
  return true;
}

// SPIR-V 1.3's OpGroupNonUniform* (the guide's "Extended Subgroups") in forms
// whose result does not depend on the subgroup size or on which lane a
// work-item is: votes, broadcasts, reductions and inclusive scans of uniform
// values, identity shuffles of any value, ballots read back at the
// work-item's own bit, and Elect compared with "lane 0". Uniform control
// flow (ctx.uniform) keeps every lane of the subgroup active.
bool GenNonUniformGroupOp(GenContext& ctx) {
  const KernelResources& k = *ctx.kernel;
  FunctionEmitter& fn = *ctx.fn;
  Rng& rng = ctx.rng;
  ctx.builder.AddCapability(spv::Capability::GroupNonUniform);
  const uint32_t scope = ctx.types.U32(kScopeSubgroup);
  const ValueType b = BoolT();
  const uint32_t bool_type = ctx.types.Id(b);
  const bool lane_id = k.subgroup_local_id != 0;
  switch (rng.Below(lane_id ? 7 : 5)) {
    case 0: {  // votes
      ctx.builder.AddCapability(spv::Capability::GroupNonUniformVote);
      if (rng.Percent(30)) {  // true: every lane holds the same value
        const ValueType t = NonUniformType(ctx);
        AddValue(ctx,
                 fn.Op(Op::OpGroupNonUniformAllEqual, bool_type,
                       {scope, UniformValue(ctx, t)}),
                 b);
        return true;
      }
      const Op op =
          rng.Percent(50) ? Op::OpGroupNonUniformAll : Op::OpGroupNonUniformAny;
      AddValue(ctx, fn.Op(op, bool_type, {scope, UniformPredicate(ctx)}), b);
      return true;
    }
    case 1: {  // broadcasts of a uniform value
      ctx.builder.AddCapability(spv::Capability::GroupNonUniformBallot);
      const ValueType t = NonUniformType(ctx);
      const uint32_t v = UniformValue(ctx, t);
      // Intel's CPU runtime 2026.2 aborts on the scalar (unvectorised)
      // form of broadcast-first and elect (known-consumer-bugs/
      // intel_cpu_subgroup_broadcast_first_scalar).
      const bool first =
          rng.Percent(50) &&
          ctx.BugsAllowed(KnownBugId::kIntelCpuSubgroupBroadcastFirstScalar);
      const uint32_t r =
          first ? fn.Op(Op::OpGroupNonUniformBroadcastFirst, ctx.types.Id(t),
                        {scope, v})
                : fn.Op(Op::OpGroupNonUniformBroadcast, ctx.types.Id(t),
                        {scope, v, ctx.types.U32(0)});
      AddValue(ctx, r, t);
      return true;
    }
    case 2: {  // identity shuffles: any value, uniform or not
      const ValueType t = NonUniformType(ctx);
      const uint32_t x = DrawOperand(ctx, t);
      const uint32_t type = ctx.types.Id(t);
      const uint32_t zero = ctx.types.U32(0);
      uint32_t r = 0;
      switch (rng.Below(lane_id ? 4 : 3)) {
        case 0:
          ctx.builder.AddCapability(spv::Capability::GroupNonUniformShuffle);
          r = fn.Op(Op::OpGroupNonUniformShuffleXor, type, {scope, x, zero});
          break;
        case 1:
          ctx.builder.AddCapability(
              spv::Capability::GroupNonUniformShuffleRelative);
          r = fn.Op(Op::OpGroupNonUniformShuffleUp, type, {scope, x, zero});
          break;
        case 2:
          ctx.builder.AddCapability(
              spv::Capability::GroupNonUniformShuffleRelative);
          r = fn.Op(Op::OpGroupNonUniformShuffleDown, type, {scope, x, zero});
          break;
        default:
          ctx.builder.AddCapability(spv::Capability::GroupNonUniformShuffle);
          r = fn.Op(Op::OpGroupNonUniformShuffle, type,
                    {scope, x, k.subgroup_local_id});
          break;
      }
      AddValue(ctx, r, t);
      return true;
    }
    case 3: {  // reductions and inclusive scans of a uniform value
      ctx.builder.AddCapability(spv::Capability::GroupNonUniformArithmetic);
      if (rng.Percent(20)) {
        const Op op = rng.Percent(50) ? Op::OpGroupNonUniformLogicalAnd
                                      : Op::OpGroupNonUniformLogicalOr;
        AddValue(ctx,
                 fn.OpWith(op, bool_type,
                           {Id(scope), GroupOperation(ctx),
                            Id(UniformPredicate(ctx))}),
                 b);
        return true;
      }
      const ValueType t = NonUniformType(ctx);
      static constexpr Op kInt[] = {
          Op::OpGroupNonUniformSMin,       Op::OpGroupNonUniformUMin,
          Op::OpGroupNonUniformSMax,       Op::OpGroupNonUniformUMax,
          Op::OpGroupNonUniformBitwiseAnd, Op::OpGroupNonUniformBitwiseOr};
      static constexpr Op kFloat[] = {Op::OpGroupNonUniformFMin,
                                      Op::OpGroupNonUniformFMax};
      const Op op = t.IsFloat() ? rng.Pick<Op>(kFloat) : rng.Pick<Op>(kInt);
      const uint32_t type = ctx.types.Id(t);
      AddValue(
          ctx,
          fn.OpWith(op, type,
                    {Id(scope), GroupOperation(ctx), Id(UniformValue(ctx, t))}),
          t);
      return true;
    }
    case 4: {  // a ballot read back: the lane's own bit is its predicate
      ctx.builder.AddCapability(spv::Capability::GroupNonUniformBallot);
      const ValueType v4 = IntT(32, 4);
      const bool always = rng.Percent(25);
      const uint32_t predicate =
          always ? ctx.types.Splat(b, 1) : UniformPredicate(ctx);
      const uint32_t ballot = fn.Op(Op::OpGroupNonUniformBallot,
                                    ctx.types.Id(v4), {scope, predicate});
      if (always) {  // lane 0 is active, so the lowest set bit is 0
        AddValue(ctx,
                 fn.Op(Op::OpGroupNonUniformBallotFindLSB,
                       ctx.types.Id(IntT(32)), {scope, ballot}),
                 IntT(32));
        return true;
      }
      const uint32_t r =
          lane_id && rng.Percent(50)
              ? fn.Op(Op::OpGroupNonUniformBallotBitExtract, bool_type,
                      {scope, ballot, k.subgroup_local_id})
              : fn.Op(Op::OpGroupNonUniformInverseBallot, bool_type,
                      {scope, ballot});
      AddValue(ctx, r, b);
      return true;
    }
    case 5:
      return GenLaneZeroContribution(ctx);
    default: {  // Elect is true exactly in lane 0: their inequality is false
      if (!ctx.BugsAllowed(KnownBugId::kIntelCpuSubgroupBroadcastFirstScalar))
        return GenLaneZeroContribution(ctx);
      const uint32_t elect =
          fn.Op(Op::OpGroupNonUniformElect, bool_type, {scope});
      const uint32_t lane0 = fn.Op(Op::OpIEqual, bool_type,
                                   {k.subgroup_local_id, ctx.types.U32(0)});
      AddValue(ctx, fn.Op(Op::OpLogicalNotEqual, bool_type, {elect, lane0}), b);
      return true;
    }
  }
}

}  // namespace

bool GenSubgroup(GenContext& ctx) {
  if (ctx.kernel == nullptr || !ctx.uniform) return false;
  // Oclgrind 21.10 is an OpenCL 1.2 device without subgroups; PoCL 3.1's
  // kernel library has neither get_sub_group_local_id nor the Intel
  // shuffles (known-consumer-bugs/pocl_subgroups.spvasm).
  if (!ctx.BugsAllowed(KnownBugId::kPoclSubgroups)) return false;
  if (ctx.features.non_uniform_subgroups &&
      ctx.rng.Percent(ctx.features.subgroup_focus ? 80 : 40))
    return GenNonUniformGroupOp(ctx);
  return ctx.rng.Percent(60) ? GenIdentityShuffle(ctx) : GenUniformGroupOp(ctx);
}

}  // namespace l0spv::generators::kernel
