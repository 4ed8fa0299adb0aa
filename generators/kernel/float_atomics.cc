#include "generators/kernel/float_atomics.h"

#include <algorithm>
#include <vector>

#include "generators/kernel/expressions.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::generators::kernel {
namespace {

using spv::Capability;
using spv::Op;
using spv::StorageClass;

constexpr char kAdd[] = "SPV_EXT_shader_atomic_float_add";
constexpr char kAdd16[] = "SPV_EXT_shader_atomic_float16_add";
constexpr char kMinMax[] = "SPV_EXT_shader_atomic_float_min_max";

Capability AddCapability(uint8_t width) {
  return width == 16   ? Capability::AtomicFloat16AddEXT
         : width == 32 ? Capability::AtomicFloat32AddEXT
                       : Capability::AtomicFloat64AddEXT;
}

Capability MinMaxCapability(uint8_t width) {
  return width == 16   ? Capability::AtomicFloat16MinMaxEXT
         : width == 32 ? Capability::AtomicFloat32MinMaxEXT
                       : Capability::AtomicFloat64MinMaxEXT;
}

bool Enables(const oracles::DeviceProfile& profile, const char* extension,
             Capability capability) {
  const oracles::ProfileExtension* e = profile.FindExtension(extension);
  return e != nullptr &&
         std::find(e->capabilities.begin(), e->capabilities.end(),
                   capability) != e->capabilities.end();
}

// Declares what `op` needs for the case's width.
void Require(GenContext& ctx, Op op, uint8_t width) {
  if (op == Op::OpAtomicFAddEXT) {
    // OpAtomicFAddEXT itself comes from float_add; float16_add adds fp16.
    ctx.builder.AddExtension(kAdd);
    if (width == 16) ctx.builder.AddExtension(kAdd16);
    ctx.builder.AddCapability(AddCapability(width));
  } else if (op == Op::OpAtomicFMinEXT || op == Op::OpAtomicFMaxEXT) {
    ctx.builder.AddExtension(kMinMax);
    ctx.builder.AddCapability(MinMaxCapability(width));
  }
}

// (x & 7) - 4 as a float: a small integer, so sums stay exact and no
// operand is NaN or -0.0.
uint32_t SmallIntegerFloat(GenContext& ctx, ValueType t) {
  FunctionEmitter& fn = *ctx.fn;
  const uint32_t u32 = ctx.types.Id(IntT(32));
  const uint32_t masked =
      fn.Op(Op::OpBitwiseAnd, u32, {AnyIntAs(ctx, 32), ctx.types.U32(7)});
  const uint32_t centred = fn.Op(Op::OpISub, u32, {masked, ctx.types.U32(4)});
  return fn.Op(Op::OpConvertSToF, ctx.types.Id(t), {centred});
}

}  // namespace

FloatAtomicSupport FloatAtomicsOf(const oracles::DeviceProfile& profile,
                                  uint8_t width) {
  FloatAtomicSupport s;
  s.add = Enables(profile, width == 16 ? kAdd16 : kAdd, AddCapability(width));
  // fp16 add needs float_add's OpAtomicFAddEXT as well.
  if (width == 16) s.add = s.add && profile.FindExtension(kAdd) != nullptr;
  s.min_max = Enables(profile, kMinMax, MinMaxCapability(width));
  return s;
}

bool GenFloatAtomic(GenContext& ctx) {
  if (ctx.kernel == nullptr || ctx.kernel->float_atomics == 0) return false;
  const KernelResources& k = *ctx.kernel;
  const Features& f = ctx.features;
  Rng& rng = ctx.rng;
  FunctionEmitter& fn = *ctx.fn;
  const uint8_t width = f.float_atomic_width;
  const ValueType t = FloatT(width);
  const uint32_t type = ctx.types.Id(t);
  const uint32_t pointer_type =
      ctx.types.Pointer(StorageClass::CrossWorkgroup, type);
  const uint32_t scope = ctx.types.U32(kScopeDevice);
  // Relaxed, or SequentiallyConsistent | CrossWorkgroupMemory.
  const uint32_t semantics = ctx.types.U32(rng.Percent(50) ? 0 : 0x210);
  const auto counters = static_cast<uint32_t>(k.float_counter_ops.size());
  if (counters != 0 && rng.Percent(50)) {
    // A shared counter and its one operation; the old value is discarded.
    const uint32_t c = rng.Below(counters);
    const Op op = static_cast<Op>(k.float_counter_ops[c]);
    Require(ctx, op, width);
    const uint32_t p = fn.Op(Op::OpPtrAccessChain, pointer_type,
                             {k.float_atomics, ctx.types.U64(c)});
    fn.Op(op, type, {p, scope, semantics, SmallIntegerFloat(ctx, t)});
    return true;
  }
  // This work-item's own slot: every result is deterministic.
  std::vector<Op> ops;
  if (f.float_atomic_add) ops.push_back(Op::OpAtomicFAddEXT);
  if (f.float_atomic_min_max) {
    ops.push_back(Op::OpAtomicFMinEXT);
    ops.push_back(Op::OpAtomicFMaxEXT);
  }
  if (width == 32) {  // 32-bit float load/exchange are core OpenCL
    ops.push_back(Op::OpAtomicLoad);
    ops.push_back(Op::OpAtomicExchange);
  }
  if (ops.empty()) return false;
  const uint32_t index = fn.Op(Op::OpIAdd, ctx.types.Id(IntT(64)),
                               {k.linear_id, ctx.types.U64(counters)});
  const uint32_t p = fn.Op(Op::OpInBoundsPtrAccessChain, pointer_type,
                           {k.float_atomics, index});
  const Op op = rng.Pick<Op>(ops);
  Require(ctx, op, width);
  const uint32_t r =
      op == Op::OpAtomicLoad
          ? fn.Op(op, type, {p, scope, semantics})
          : fn.Op(op, type, {p, scope, semantics, SmallIntegerFloat(ctx, t)});
  // An f32 result only joins the pool when the case computes with f32 (its
  // sinks need the f32 results buffer); fp16/fp64 widths imply theirs.
  if (width != 32 || f.fp32) AddValue(ctx, r, t);
  return true;
}

}  // namespace l0spv::generators::kernel
