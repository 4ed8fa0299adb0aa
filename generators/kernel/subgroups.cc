#include "generators/kernel/subgroups.h"

#include "generators/kernel/expressions.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::generators::kernel {
namespace {

using spv::Op;

constexpr uint32_t kScopeSubgroup = 3;

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
  const uint32_t x = Operand(ctx, t);
  const uint32_t zero = ctx.types.U32(0);
  uint32_t r = 0;
  switch (ctx.rng.Below(k.subgroup_local_id != 0 ? 4 : 3)) {
    case 0:
      r = fn.Op(Op::OpSubgroupShuffleXorINTEL, type, {x, zero});
      break;
    case 1:
      r = fn.Op(Op::OpSubgroupShuffleDownINTEL, type,
                {x, Operand(ctx, t), zero});
      break;
    case 2:
      r = fn.Op(Op::OpSubgroupShuffleUpINTEL, type, {Operand(ctx, t), x, zero});
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

}  // namespace

bool GenSubgroup(GenContext& ctx) {
  if (ctx.kernel == nullptr || !ctx.uniform) return false;
  // Oclgrind 21.10 is an OpenCL 1.2 device without subgroups; PoCL 3.1's
  // kernel library has neither get_sub_group_local_id nor the Intel
  // shuffles (known-consumer-bugs/pocl_subgroups.spvasm).
  if (!ctx.BugsAllowed(KnownBugId::kPoclSubgroups)) return false;
  return ctx.rng.Percent(60) ? GenIdentityShuffle(ctx) : GenUniformGroupOp(ctx);
}

}  // namespace l0spv::generators::kernel
