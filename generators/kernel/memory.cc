#include "generators/kernel/memory.h"

#include "generators/kernel/expressions.h"
#include "generators/kernel/ext_inst.h"
#include "generators/kernel/float_atomics.h"
#include "generators/kernel/subgroups.h"
#include "spirv/unified1/OpenCL.std.h"

namespace l0spv::generators::kernel {

using spv::Op;
using spv::StorageClass;

namespace {

// SequentiallyConsistent | WorkgroupMemory, as OpenCL's
// barrier(CLK_LOCAL_MEM_FENCE) is translated.
constexpr uint32_t kLocalFenceSemantics = 0x110;

uint32_t LoadWith(GenContext& ctx, uint32_t type, uint32_t pointer,
                  uint32_t alignment) {
  std::vector<spirv::Operand> ops{Id(pointer)};
  if (ctx.rng.Percent(30)) {
    ops.push_back(spirv::EnumOperand(
        spirv::OperandKind::kMemoryAccess,
        static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)));
    ops.push_back(Lit(alignment));
  }
  return ctx.fn->OpWith(Op::OpLoad, type, std::move(ops));
}

uint32_t ByteSize(ValueType t) {
  const uint32_t lanes = t.lanes == 3 ? 4 : t.lanes;
  return lanes * (t.IsBool() ? 1 : t.width / 8);
}

void ControlBarrier(GenContext& ctx) {
  ctx.fn->Void(Op::OpControlBarrier, {Id(ctx.types.U32(kScopeWorkgroup)),
                                      Id(ctx.types.U32(kScopeWorkgroup)),
                                      Id(ctx.types.U32(kLocalFenceSemantics))});
}

}  // namespace

const PrivateArray& NewPrivateArray(GenContext& ctx, ValueType element,
                                    uint32_t length) {
  // IGC for pvc rejects a stored-whole Function array of char3 read through
  // a dynamic index (known-consumer-bugs/igc_pvc_char3_array_store): such
  // arrays get 4 lanes unless IGC bugs are allowed.
  if (element.IsInt() && element.width == 8 && element.lanes == 3 &&
      !ctx.BugsAllowed(KnownBugId::kIgcPvcChar3ArrayStore))
    element = element.WithLanes(4);
  // ... and so it does with an element of any 8-bit vector stored through a
  // dynamic index too (igc_pvc_int8_vector_array_element_store): 16-bit
  // lanes build.
  if (element.IsInt() && element.width == 8 && element.lanes > 1 &&
      !ctx.BugsAllowed(KnownBugId::kIgcPvcInt8VectorArrayElementStore))
    element = element.WithWidth(ctx.features.int16 ? 16 : 32);
  const uint32_t element_type = ctx.types.Id(element);
  const uint32_t array_type = ctx.types.Array(element_type, length);
  // Intel's CPU runtime reads garbage through a run-time index from a
  // private array whose initial value is all zero (known-consumer-bugs/
  // intel_cpu_zero_array_dynamic_read): while it is a target, no null
  // initial value and a first element that is never zero.
  const bool zero_ok =
      ctx.BugsAllowed(KnownBugId::kIntelCpuZeroArrayDynamicRead);
  uint32_t initializer = 0;
  if (ctx.rng.Percent(40) && zero_ok) {
    initializer = ctx.builder.NullConstant(array_type);
  } else {
    std::vector<uint32_t> elements;
    for (uint32_t i = 0; i < length; ++i)
      elements.push_back(RandomConstant(ctx, element));
    if (!zero_ok) elements[0] = ctx.types.Splat(element, 1);
    initializer = ctx.builder.CompositeConstant(array_type, elements);
  }
  PrivateArray array;
  // An initializer on a Function variable makes llvm-spirv 14's round trip
  // emit invalid SPIR-V (known-consumer-bugs/function_variable_initializer):
  // without known bugs, the initial value is stored in the entry block.
  array.pointer = ctx.fn->LocalVariable(
      ctx.types.Pointer(StorageClass::Function, array_type), initializer,
      /*store_initializer=*/
      !ctx.BugsAllowed(KnownBugId::kFunctionVariableInitializer) ||
          ctx.rng.Percent(50));
  array.element = element;
  array.length = length;
  ctx.arrays.push_back(array);
  return ctx.arrays.back();
}

uint32_t ArrayElementPointer(GenContext& ctx, const PrivateArray& array,
                             uint32_t index) {
  const uint32_t pointer =
      ctx.types.Pointer(array.storage, ctx.types.Id(array.element));
  if (array.element_pointer) {
    return ctx.fn->Op(ctx.rng.Percent(50) ? Op::OpPtrAccessChain
                                          : Op::OpInBoundsPtrAccessChain,
                      pointer, {array.pointer, index});
  }
  switch (ctx.rng.Below(3)) {
    case 0:
      return ctx.fn->Op(Op::OpAccessChain, pointer, {array.pointer, index});
    case 1:
      return ctx.fn->Op(Op::OpInBoundsAccessChain, pointer,
                        {array.pointer, index});
    default: {
      // Element 0, then pointer arithmetic.
      const uint32_t first = ctx.fn->Op(Op::OpInBoundsAccessChain, pointer,
                                        {array.pointer, ctx.types.U64(0)});
      return ctx.fn->Op(Op::OpPtrAccessChain, pointer, {first, index});
    }
  }
}

bool GenPrivateMemory(GenContext& ctx) {
  Rng& rng = ctx.rng;
  FunctionEmitter& fn = *ctx.fn;
  if (ctx.arrays.empty() || rng.Percent(15)) {
    static constexpr uint32_t kLengths[] = {2, 4, 5, 8, 16};
    const ValueType element = rng.Percent(75) || !ctx.features.fp32
                                  ? RandomIntType(ctx)
                                  : RandomFloatType(ctx);
    NewPrivateArray(ctx, element, rng.Pick<uint32_t>(kLengths));
  }
  const PrivateArray array =
      ctx.arrays[rng.Below(static_cast<uint32_t>(ctx.arrays.size()))];
  const uint32_t element_type = ctx.types.Id(array.element);
  const uint32_t index =
      IndexInto(ctx, AnyIntAs(ctx, 32), IntT(32), array.length);
  const uint32_t pointer = ArrayElementPointer(ctx, array, index);
  switch (rng.Below(6)) {
    case 0:
    case 1: {
      fn.Void(Op::OpStore,
              {Id(pointer), Id(DrawOperand(ctx, array.element, true))});
      return true;
    }
    case 2:
    case 3:
      AddValue(ctx,
               LoadWith(ctx, element_type, pointer, ByteSize(array.element)),
               array.element);
      return true;
    case 4: {
      // A short-lived temporary with explicit lifetime markers.
      if (array.element_pointer) return false;
      const uint32_t ptr_type =
          ctx.types.Pointer(StorageClass::Function, element_type);
      const uint32_t temp = fn.LocalVariable(ptr_type);
      fn.Void(Op::OpLifetimeStart, {Id(temp), Lit(0)});
      fn.Void(Op::OpStore,
              {Id(temp), Id(DrawOperand(ctx, array.element, true))});
      AddValue(ctx, fn.Op(Op::OpLoad, element_type, {temp}), array.element);
      fn.Void(Op::OpLifetimeStop, {Id(temp), Lit(0)});
      return true;
    }
    default: {
      // Copy the whole array into a fresh one, then read from the copy.
      if (array.element_pointer) return false;
      const uint32_t bytes = ByteSize(array.element) * array.length;
      const PrivateArray copy =
          NewPrivateArray(ctx, array.element, array.length);
      // Typed OpCopyMemory: IGC and llvm-spirv -r
      // (known-consumer-bugs/copy_memory_typed).
      if (ctx.BugsAllowed(KnownBugId::kCopyMemoryTyped) && rng.Percent(50)) {
        fn.Void(Op::OpCopyMemory, {Id(copy.pointer), Id(array.pointer)});
      } else {
        fn.Void(Op::OpCopyMemorySized, {Id(copy.pointer), Id(array.pointer),
                                        Id(ctx.types.U64(bytes))});
      }
      const uint32_t i2 =
          IndexInto(ctx, AnyIntAs(ctx, 32), IntT(32), array.length);
      AddValue(
          ctx,
          fn.Op(Op::OpLoad, element_type, {ArrayElementPointer(ctx, copy, i2)}),
          array.element);
      return true;
    }
  }
}

bool GenBufferLoad(GenContext& ctx) {
  if (ctx.kernel == nullptr) return false;
  KernelResources& k = *ctx.kernel;
  Rng& rng = ctx.rng;
  FunctionEmitter& fn = *ctx.fn;
  const ValueType u32 = IntT(32);
  const uint32_t u32_ptr =
      ctx.types.Pointer(k.in_int_storage, ctx.types.Id(u32));
  switch (rng.Below(6)) {
    case 0:
    case 1: {
      const uint32_t index =
          IndexInto(ctx, AnyIntAs(ctx, 32), u32, k.in_int_count);
      const uint32_t p =
          fn.Op(Op::OpInBoundsPtrAccessChain, u32_ptr, {k.in_int, index});
      AddValue(ctx, LoadWith(ctx, ctx.types.Id(u32), p, 4), u32);
      return true;
    }
    case 2: {
      if (k.in_float == 0) return false;
      const ValueType f32 = FloatT(32);
      const uint32_t f_ptr =
          ctx.types.Pointer(StorageClass::CrossWorkgroup, ctx.types.Id(f32));
      const uint32_t index =
          IndexInto(ctx, AnyIntAs(ctx, 32), u32, k.in_float_count);
      const uint32_t p =
          fn.Op(Op::OpPtrAccessChain, f_ptr, {k.in_float, index});
      AddValue(ctx, LoadWith(ctx, ctx.types.Id(f32), p, 4), f32);
      return true;
    }
    case 3: {
      // The input reinterpreted as narrower or wider integers.
      ValueType t = RandomIntType(ctx, false);
      const uint32_t count = k.in_int_count * 4 / (t.width / 8);
      const uint32_t t_ptr =
          ctx.types.Pointer(k.in_int_storage, ctx.types.Id(t));
      const uint32_t cast = fn.Op(Op::OpBitcast, t_ptr, {k.in_int});
      const uint32_t index = IndexInto(ctx, AnyIntAs(ctx, 32), u32, count);
      const uint32_t element =
          fn.Op(Op::OpPtrAccessChain, t_ptr, {cast, index});
      AddValue(ctx, fn.Op(Op::OpLoad, ctx.types.Id(t), {element}), t);
      return true;
    }
    case 4: {
      // vloadn of u32 lanes.
      if (!ctx.features.vectors) return false;
      static constexpr uint8_t kLanes[] = {2, 3, 4, 8, 16};
      const uint8_t n = rng.Pick<uint8_t>(kLanes);
      if (n >= 8 && !ctx.features.vector16) return false;
      const uint32_t offset =
          IndexInto(ctx, AnyIntAs(ctx, 32), u32, k.in_int_count / 16);
      const ValueType t = IntT(32, n);
      AddValue(ctx,
               ExtInst(ctx, ctx.types.Id(t), OpenCLLIB::Vloadn,
                       {offset, k.in_int}, n),
               t);
      return true;
    }
    default: {
      // vload_half(n): the input's bytes as halves, widened to float.
      if (!ctx.features.fp32) return false;
      ctx.builder.AddCapability(spv::Capability::Float16Buffer);
      const uint32_t half_ptr =
          ctx.types.Pointer(k.in_int_storage, ctx.builder.FloatType(16));
      const uint32_t cast = fn.Op(Op::OpBitcast, half_ptr, {k.in_int});
      const uint8_t n = ctx.features.vectors
                            ? rng.Pick<uint8_t>(std::span<const uint8_t>(
                                  kLaneCounts.data(), 4))
                            : 1;
      const ValueType t = FloatT(32, n);
      const uint32_t offset =
          IndexInto(ctx, AnyIntAs(ctx, 32), u32, k.in_int_count * 2 / 4);
      if (n == 1) {
        AddValue(ctx,
                 ExtInst(ctx, ctx.types.Id(t), OpenCLLIB::Vload_half,
                         {offset, cast}),
                 t);
      } else {
        AddValue(ctx,
                 ExtInst(ctx, ctx.types.Id(t), OpenCLLIB::Vload_halfn,
                         {offset, cast}, n),
                 t);
      }
      return true;
    }
  }
}

bool GenPointerForms(GenContext& ctx) {
  Rng& rng = ctx.rng;
  FunctionEmitter& fn = *ctx.fn;
  const ValueType u32 = IntT(32);
  const uint32_t u32_type = ctx.types.Id(u32);
  const uint32_t u64_type = ctx.types.Id(IntT(64));
  switch (rng.Below(6)) {
    case 0: {
      // Integer round trip of a global pointer with byte arithmetic.
      if (ctx.kernel == nullptr) return false;
      KernelResources& k = *ctx.kernel;
      const uint32_t index =
          IndexInto(ctx, AnyIntAs(ctx, 32), u32, k.in_int_count);
      const uint32_t address = fn.Op(Op::OpConvertPtrToU, u64_type, {k.in_int});
      const uint32_t offset =
          fn.Op(Op::OpIMul, u64_type, {index, ctx.types.U64(4)});
      const uint32_t moved = fn.Op(Op::OpIAdd, u64_type, {address, offset});
      const uint32_t pointer =
          fn.Op(Op::OpConvertUToPtr,
                ctx.types.Pointer(k.in_int_storage, u32_type), {moved});
      AddValue(ctx, fn.Op(Op::OpLoad, u32_type, {pointer}), u32);
      return true;
    }
    case 1:
    case 2: {
      // Through the generic address space and back. Oclgrind 21.10 has no
      // addrspacecast (oclgrind_generic_cast.spvasm).
      // Nor __to_private, which explicit casts become (oclgrind_to_private).
      if (!ctx.BugsAllowed({KnownBugId::kOclgrindGenericCast,
                            KnownBugId::kOclgrindToPrivate}))
        return false;
      const PrivateArray* array = nullptr;
      for (const PrivateArray& a : ctx.arrays) {
        if (a.storage == StorageClass::Function) array = &a;
      }
      if (array == nullptr) array = &NewPrivateArray(ctx, u32, 4);
      const PrivateArray a = *array;
      const uint32_t element_type = ctx.types.Id(a.element);
      const uint32_t index = IndexInto(ctx, AnyIntAs(ctx, 32), u32, a.length);
      const uint32_t private_ptr = ArrayElementPointer(ctx, a, index);
      const uint32_t generic_type =
          ctx.types.Pointer(StorageClass::Generic, element_type);
      ctx.builder.AddCapability(spv::Capability::GenericPointer);
      const uint32_t generic =
          fn.Op(Op::OpPtrCastToGeneric, generic_type, {private_ptr});
      uint32_t load_from = generic;
      if (rng.Percent(50)) {
        // IGC: known-consumer-bugs/generic_cast_explicit_i32; llvm-spirv:
        // llvm_spirv_to_private_redefined (one pointee type per module).
        const bool explicit_ok =
            ctx.BugsAllowed(KnownBugId::kGenericCastExplicitI32) &&
            (ctx.BugsAllowed(KnownBugId::kLlvmSpirvToPrivateRedefined) ||
             ctx.explicit_private_cast_pointee == 0 ||
             ctx.explicit_private_cast_pointee == element_type);
        const Op cast = explicit_ok && rng.Percent(50)
                            ? Op::OpGenericCastToPtrExplicit
                            : Op::OpGenericCastToPtr;
        if (cast == Op::OpGenericCastToPtrExplicit)
          ctx.explicit_private_cast_pointee = element_type;
        const uint32_t fn_ptr =
            ctx.types.Pointer(StorageClass::Function, element_type);
        if (cast == Op::OpGenericCastToPtrExplicit) {
          load_from =
              fn.OpWith(cast, fn_ptr,
                        {Id(generic),
                         spirv::EnumOperand(
                             spirv::OperandKind::kStorageClass,
                             static_cast<uint32_t>(StorageClass::Function))});
        } else {
          load_from = fn.Op(cast, fn_ptr, {generic});
        }
      } else if (ctx.kernel != nullptr && a.element == u32 &&
                 ctx.kernel->in_int_storage == StorageClass::CrossWorkgroup &&
                 rng.Percent(50)) {
        // A generic pointer that may point to private or global memory.
        KernelResources& k = *ctx.kernel;
        const uint32_t gi =
            IndexInto(ctx, AnyIntAs(ctx, 32), u32, k.in_int_count);
        const uint32_t global =
            fn.Op(Op::OpInBoundsPtrAccessChain,
                  ctx.types.Pointer(StorageClass::CrossWorkgroup, u32_type),
                  {k.in_int, gi});
        const uint32_t global_generic =
            fn.Op(Op::OpPtrCastToGeneric, generic_type, {global});
        load_from = fn.Op(Op::OpSelect, generic_type,
                          {Condition(ctx), generic, global_generic});
      }
      AddValue(ctx, fn.Op(Op::OpLoad, element_type, {load_from}), a.element);
      return true;
    }
    case 4: {
      // SPIR-V 1.4's pointer comparisons on two elements of the u32 input
      // buffer (one object, so OpPtrDiff is defined): neither IGC nor
      // llvm-spirv 14 has them (known-consumer-bugs/igc_ptr_compare,
      // llvm_spirv_ptr_compare).
      if (ctx.kernel == nullptr || !ctx.features.HasVersion(1, 4) ||
          !ctx.BugsAllowed(
              {KnownBugId::kIgcPtrCompare, KnownBugId::kLlvmSpirvPtrCompare}))
        return false;
      KernelResources& k = *ctx.kernel;
      const uint32_t pointer_type =
          ctx.types.Pointer(k.in_int_storage, u32_type);
      uint32_t element[2];
      for (uint32_t& e : element) {
        e = fn.Op(
            Op::OpInBoundsPtrAccessChain, pointer_type,
            {k.in_int, IndexInto(ctx, AnyIntAs(ctx, 32), u32, k.in_int_count)});
      }
      const uint32_t form = rng.Below(3);
      if (form == 2) {
        AddValue(ctx, fn.Op(Op::OpPtrDiff, u64_type, {element[0], element[1]}),
                 IntT(64));
      } else {
        const Op op = form == 0 ? Op::OpPtrEqual : Op::OpPtrNotEqual;
        AddValue(ctx,
                 fn.Op(op, ctx.types.Id(BoolT()), {element[0], element[1]}),
                 BoolT());
      }
      return true;
    }
    case 5: {
      // SPIR-V 1.1's OpSizeOf of the u32 input buffer's element or of a
      // private array: neither IGC nor llvm-spirv 14 has it
      // (known-consumer-bugs/sizeof_v11).
      if (!ctx.features.HasVersion(1, 1) ||
          !ctx.BugsAllowed(KnownBugId::kSizeofV11))
        return false;
      uint32_t pointer = 0;
      if (ctx.kernel != nullptr && rng.Percent(50)) {
        pointer = ctx.kernel->in_int;
      } else if (!ctx.arrays.empty()) {
        pointer =
            ctx.arrays[rng.Below(static_cast<uint32_t>(ctx.arrays.size()))]
                .pointer;
      } else {
        pointer = NewPrivateArray(ctx, u32, rng.Range(1, 8)).pointer;
      }
      AddValue(ctx, fn.Op(Op::OpSizeOf, u32_type, {pointer}), u32);
      return true;
    }
    default: {
      // vstoren into a private u32 array, then read an element back.
      if (!ctx.features.vectors) return false;
      const PrivateArray a = NewPrivateArray(ctx, u32, 16);
      static constexpr uint8_t kLanes[] = {2, 3, 4, 8};
      uint8_t n = rng.Pick<uint8_t>(kLanes);
      if (n == 8 && !ctx.features.vector16) n = 4;
      const ValueType vt = IntT(32, n);
      const uint32_t offset = IndexInto(ctx, AnyIntAs(ctx, 32), u32, 16 / 8);
      const uint32_t pointer_type =
          ctx.types.Pointer(StorageClass::Function, u32_type);
      const uint32_t zero = ctx.types.U64(0);
      const uint32_t first =
          fn.Op(Op::OpInBoundsAccessChain, pointer_type, {a.pointer, zero});
      const uint32_t void_type = ctx.types.Void();
      ExtInst(ctx, void_type, OpenCLLIB::Vstoren,
              {DrawOperand(ctx, vt), offset, first});
      const uint32_t index = IndexInto(ctx, AnyIntAs(ctx, 32), u32, 16);
      AddValue(
          ctx,
          fn.Op(Op::OpLoad, u32_type, {ArrayElementPointer(ctx, a, index)}),
          u32);
      return true;
    }
  }
}

bool GenAtomic(GenContext& ctx) {
  if (ctx.kernel == nullptr || ctx.kernel->atomics == 0) return false;
  KernelResources& k = *ctx.kernel;
  Rng& rng = ctx.rng;
  if (k.float_atomics != 0 && rng.Percent(35) && GenFloatAtomic(ctx))
    return true;
  FunctionEmitter& fn = *ctx.fn;
  const bool wide = k.atomics64 != 0 && rng.Percent(30);
  const ValueType t = IntT(wide ? 64 : 32);
  const uint32_t type = ctx.types.Id(t);
  const uint32_t buffer = wide ? k.atomics64 : k.atomics;
  const uint32_t pointer_type =
      ctx.types.Pointer(StorageClass::CrossWorkgroup, type);
  const uint32_t scope = ctx.types.U32(kScopeDevice);
  // Relaxed, or SequentiallyConsistent | CrossWorkgroupMemory.
  const uint32_t semantics = ctx.types.U32(rng.Percent(50) ? 0 : 0x210);
  const std::vector<uint32_t>& ops = wide ? k.counter64_ops : k.counter_ops;
  if (rng.Percent(50)) {
    // A shared counter, its one commutative operation; result discarded.
    const uint32_t c = rng.Below(static_cast<uint32_t>(ops.size()));
    const uint32_t p =
        fn.Op(Op::OpPtrAccessChain, pointer_type, {buffer, ctx.types.U64(c)});
    const Op op = static_cast<Op>(ops[c]);
    if (op == Op::OpAtomicIIncrement || op == Op::OpAtomicIDecrement) {
      fn.Op(op, type, {p, scope, semantics});
    } else {
      fn.Op(op, type, {p, scope, semantics, DrawOperand(ctx, t)});
    }
    return true;
  }
  // This work-item's own slot: every result is deterministic.
  const uint32_t u64 = ctx.types.Id(IntT(64));
  const uint32_t index =
      fn.Op(Op::OpIAdd, u64,
            {k.linear_id, ctx.types.U64(static_cast<uint32_t>(ops.size()))});
  const uint32_t p =
      fn.Op(Op::OpInBoundsPtrAccessChain, pointer_type, {buffer, index});
  static constexpr Op kOwn[] = {
      Op::OpAtomicLoad,       Op::OpAtomicStore,
      Op::OpAtomicExchange,   Op::OpAtomicCompareExchange,
      Op::OpAtomicIIncrement, Op::OpAtomicIDecrement,
      Op::OpAtomicIAdd,       Op::OpAtomicISub,
      Op::OpAtomicSMin,       Op::OpAtomicUMin,
      Op::OpAtomicSMax,       Op::OpAtomicUMax,
      Op::OpAtomicAnd,        Op::OpAtomicOr,
      Op::OpAtomicXor};
  const Op op = rng.Pick<Op>(kOwn);
  switch (op) {
    case Op::OpAtomicLoad:
      AddValue(ctx, fn.Op(op, type, {p, scope, semantics}), t);
      return true;
    case Op::OpAtomicStore:
      fn.Void(op, {Id(p), Id(scope), Id(semantics), Id(DrawOperand(ctx, t))});
      return true;
    case Op::OpAtomicCompareExchange: {
      // The Weak form (same semantics in SPIR-V) exists up to 1.3. Drawn
      // apart: arguments are evaluated in an unspecified order.
      const Op form = !ctx.features.HasVersion(1, 4) && rng.Percent(30)
                          ? Op::OpAtomicCompareExchangeWeak
                          : op;
      AddValue(ctx,
               fn.Op(form, type,
                     {p, scope, semantics, ctx.types.U32(0),
                      DrawOperand(ctx, t), DrawOperand(ctx, t)}),
               t);
      return true;
    }
    case Op::OpAtomicIIncrement:
    case Op::OpAtomicIDecrement:
      AddValue(ctx, fn.Op(op, type, {p, scope, semantics}), t);
      return true;
    default:
      AddValue(ctx, fn.Op(op, type, {p, scope, semantics, DrawOperand(ctx, t)}),
               t);
      return true;
  }
}

bool GenExchange(GenContext& ctx) {
  if (ctx.kernel == nullptr || !ctx.uniform || ctx.kernel->local_base == 0)
    return false;
  KernelResources& k = *ctx.kernel;
  FunctionEmitter& fn = *ctx.fn;
  const ValueType u32 = IntT(32);
  const uint32_t u32_type = ctx.types.Id(u32);
  const uint32_t u64_type = ctx.types.Id(IntT(64));
  const uint32_t pointer_type =
      ctx.types.Pointer(StorageClass::Workgroup, u32_type);
  const uint32_t mine =
      fn.Op(Op::OpPtrAccessChain, pointer_type, {k.local_base, k.local_index});
  fn.Void(Op::OpStore, {Id(mine), Id(AnyIntAs(ctx, 32))});
  if (ctx.GuardOn(kGuardBarrier)) ControlBarrier(ctx);
  // Read a neighbour's value: (index + shift) mod the group's actual size.
  const uint32_t shift = ctx.rng.Range(1, 7);
  const uint32_t moved =
      fn.Op(Op::OpIAdd, u64_type, {k.local_index, ctx.types.U64(shift)});
  const uint32_t other = fn.Op(Op::OpUMod, u64_type, {moved, k.local_size});
  const uint32_t theirs =
      fn.Op(Op::OpPtrAccessChain, pointer_type, {k.local_base, other});
  AddValue(ctx, fn.Op(Op::OpLoad, u32_type, {theirs}), u32);
  // Everyone has read before anyone writes again.
  ControlBarrier(ctx);
  return true;
}

bool GenGroup(GenContext& ctx) {
  if (ctx.kernel == nullptr || !ctx.uniform) return false;
  if (ctx.rng.Percent(ctx.features.subgroup_focus ? 80 : 40) &&
      GenSubgroup(ctx))
    return true;
  // PoCL 3.1 has no work-group collective functions (the build fails to
  // link work_group_broadcast & co.; known-consumer-bugs/
  // pocl_work_group_functions.spvasm), nor has Oclgrind 21.10, an OpenCL
  // 1.2 device (oclgrind_work_group_functions.spvasm).
  if (!ctx.BugsAllowed({KnownBugId::kPoclWorkGroupFunctions,
                        KnownBugId::kOclgrindWorkGroupFunctions}))
    return GenSubgroup(ctx);
  Rng& rng = ctx.rng;
  FunctionEmitter& fn = *ctx.fn;
  ctx.builder.AddCapability(spv::Capability::Groups);
  const uint32_t scope = ctx.types.U32(kScopeWorkgroup);
  switch (rng.Below(5)) {
    case 0: {
      const Op op = rng.Percent(50) ? Op::OpGroupAll : Op::OpGroupAny;
      const uint32_t bool_type = ctx.types.Id(BoolT());
      const uint32_t r = fn.Op(op, bool_type, {scope, Condition(ctx)});
      AddValue(ctx, r, BoolT());
      return true;
    }
    case 1: {
      // Broadcast from the first work-item of the group.
      ValueType t = rng.Percent(60) ? IntT(rng.Percent(50) ? 32 : 64)
                                    : RandomFloatType(ctx, false);
      // Intel's CPU runtime 2026.2 segfaults building a work-group broadcast
      // of half (known-consumer-bugs/intel_cpu_work_group_broadcast_half).
      if (t.IsFloat() && t.width == 16 &&
          !ctx.BugsAllowed(KnownBugId::kIntelCpuWorkGroupBroadcastHalf))
        t = IntT(32);
      const uint32_t local_id = ctx.types.U64(0);
      const uint32_t type = ctx.types.Id(t);
      AddValue(ctx,
               fn.Op(Op::OpGroupBroadcast, type,
                     {scope, DrawOperand(ctx, t), local_id}),
               t);
      return true;
    }
    case 2:
      fn.Void(Op::OpControlBarrier,
              {Id(scope), Id(scope), Id(ctx.types.U32(kLocalFenceSemantics))});
      // OpMemoryBarrier becomes mem_fence(), which PoCL 3.1's kernel
      // library lacks (known-consumer-bugs/pocl_mem_fence.spvasm).
      if (ctx.BugsAllowed(KnownBugId::kPoclMemFence)) {
        fn.Void(Op::OpMemoryBarrier,
                {Id(scope), Id(ctx.types.U32(kLocalFenceSemantics))});
      }
      return true;
    default: {
      // Integer reductions and scans are order-independent; so are float
      // min/max, and float sums of small integers (exact in any order).
      const bool is_float = ctx.features.fp32 && rng.Percent(25);
      const ValueType t =
          is_float ? FloatT(32) : IntT(rng.Percent(50) ? 32 : 64);
      static constexpr Op kIntOps[] = {Op::OpGroupIAdd, Op::OpGroupUMin,
                                       Op::OpGroupSMin, Op::OpGroupUMax,
                                       Op::OpGroupSMax};
      static constexpr Op kFloatOps[] = {Op::OpGroupFMin, Op::OpGroupFMax,
                                         Op::OpGroupFAdd};
      const Op op = is_float ? rng.Pick<Op>(kFloatOps) : rng.Pick<Op>(kIntOps);
      const uint32_t operation = rng.Below(3);  // Reduce, Inclusive, Exclusive
      const uint32_t type = ctx.types.Id(t);
      uint32_t value;
      if (op == Op::OpGroupFAdd) {
        const uint32_t u32_type = ctx.types.Id(IntT(32));
        const uint32_t byte = fn.Op(Op::OpBitwiseAnd, u32_type,
                                    {AnyIntAs(ctx, 32), ctx.types.U32(255)});
        value = fn.Op(Op::OpConvertUToF, type, {byte});
      } else {
        value = DrawOperand(ctx, t);
      }
      AddValue(ctx,
               fn.OpWith(op, type,
                         {Id(scope),
                          spirv::EnumOperand(
                              spirv::OperandKind::kGroupOperation, operation),
                          Id(value)}),
               t);
      return true;
    }
  }
}

}  // namespace l0spv::generators::kernel
