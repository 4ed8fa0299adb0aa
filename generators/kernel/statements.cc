#include "generators/kernel/statements.h"

#include <algorithm>
#include <optional>

#include "generators/kernel/expressions.h"
#include "generators/kernel/ext_inst.h"
#include "generators/kernel/ext_misc.h"
#include "generators/kernel/memory.h"
#include "generators/kernel/outputs.h"
#include "generators/kernel/printf.h"

namespace l0spv::generators::kernel {

namespace {

using Generator = bool (*)(GenContext&);

constexpr Generator kGenerators[kFamilyCount] = {GenIntArith,
                                                 GenIntDivision,
                                                 GenShift,
                                                 GenBitwise,
                                                 GenCompare,
                                                 GenSelect,
                                                 GenConvert,
                                                 GenComposite,
                                                 GenFloatArith,
                                                 GenFloatCompare,
                                                 GenExtInt,
                                                 GenExtFloatExact,
                                                 GenExtFloatLoose,
                                                 GenPrivateMemory,
                                                 GenBufferLoad,
                                                 GenPointerForms,
                                                 GenIf,
                                                 GenLoop,
                                                 GenSwitch,
                                                 GenCall,
                                                 GenAtomic,
                                                 GenExchange,
                                                 GenGroup,
                                                 GenSink,
                                                 GenExtMisc,
                                                 GenPrintf};

bool IsControlFlow(uint32_t family) {
  return family == kFamIf || family == kFamLoop || family == kFamSwitch;
}

}  // namespace

void GenStatements(GenContext& ctx, uint32_t count) {
  uint32_t weights[kFamilyCount];
  for (uint32_t i = 0; i < count && ctx.statements_left > 0; ++i) {
    for (uint32_t f = 0; f < kFamilyCount; ++f) {
      weights[f] = ctx.features.weights[f];
      if (IsControlFlow(f) && ctx.depth >= ctx.features.max_depth)
        weights[f] = 0;
    }
    --ctx.statements_left;
    // Debug-only instructions between statements: consumers must ignore
    // them, and line tables must not change code.
    if (ctx.debug_file != 0 && ctx.rng.Percent(8)) {
      if (ctx.rng.Percent(80)) {
        ctx.fn->Void(spv::Op::OpLine,
                     {Id(ctx.debug_file), Lit(ctx.debug_line++),
                      Lit(ctx.rng.Range(1, 80))});
      } else {
        ctx.fn->Void(spv::Op::OpNoLine, {});
      }
    }
    if (ctx.rng.Percent(1)) ctx.fn->Void(spv::Op::OpNop, {});
    for (int attempt = 0; attempt < 4; ++attempt) {
      const size_t family = ctx.rng.Weighted(weights);
      if (kGenerators[family](ctx)) break;
      weights[family] = 0;
    }
  }
}

// A value of the same type from the current scope to carry out of a region,
// or 0.
namespace {
const Value* PickCarry(GenContext& ctx, ValueType type) {
  return ctx.pool.PickIf(ctx.rng,
                         [&](const Value& v) { return v.type == type; });
}

// Enters a nested region: a new scope, non-uniform control flow.
struct Region {
  explicit Region(GenContext& c) : ctx(c), uniform(c.uniform) {
    ctx.pool.PushScope();
    ctx.uniform = false;
    ++ctx.depth;
  }
  ~Region() {
    ctx.pool.PopScope();
    ctx.uniform = uniform;
    --ctx.depth;
  }
  GenContext& ctx;
  bool uniform;
};

uint32_t RegionSize(GenContext& ctx) {
  return std::min<uint32_t>(ctx.rng.Range(1, 6), ctx.statements_left + 1);
}

// Kernels need no structured control flow (the Shader capability's rules do
// not apply): with the `unstructured` feature, half the ifs and loops carry
// no OpSelectionMerge/OpLoopMerge, as llvm-spirv emits them from -O0 code.
bool DropMerge(GenContext& ctx) {
  return ctx.features.unstructured && ctx.rng.Percent(50);
}
}  // namespace

bool GenIf(GenContext& ctx) {
  FunctionEmitter& fn = *ctx.fn;
  // The type a phi carries out (a value of it exists outside the region).
  // Copied: the pool grows (and reallocates) inside the arms.
  std::optional<Value> outer;
  if (const Value* v = ctx.pool.PickIf(ctx.rng, [](const Value& c) {
        return !c.type.IsBool() || !c.type.IsVector();
      }))
    outer = *v;
  const uint32_t condition = Condition(ctx);
  const uint32_t then_label = fn.NewId();
  const uint32_t else_label = fn.NewId();
  const uint32_t merge_label = fn.NewId();
  const bool has_else = ctx.rng.Percent(60);
  const uint32_t header = fn.current_label();
  if (!DropMerge(ctx)) {
    fn.Void(spv::Op::OpSelectionMerge,
            {Id(merge_label),
             spirv::EnumOperand(spirv::OperandKind::kSelectionControl,
                                ctx.rng.Below(3))});
  }
  fn.BranchConditional(condition, then_label,
                       has_else ? else_label : merge_label);

  std::vector<std::pair<uint32_t, uint32_t>> incoming;
  auto arm = [&](uint32_t label) {
    fn.StartBlock(label);
    Region region(ctx);
    GenStatements(ctx, RegionSize(ctx));
    const Value* carry = outer ? PickCarry(ctx, outer->type) : nullptr;
    if (outer)
      incoming.emplace_back(carry ? carry->id : outer->id, fn.current_label());
    fn.Branch(merge_label);
  };
  arm(then_label);
  if (has_else) {
    arm(else_label);
  } else if (outer) {
    incoming.emplace_back(outer->id, header);
  }
  fn.StartBlock(merge_label);
  if (outer) {
    const Value carried = *outer;
    AddValue(ctx, fn.Phi(ctx.types.Id(carried.type), incoming), carried.type,
             carried.product);
  }
  return true;
}

bool GenLoop(GenContext& ctx) {
  FunctionEmitter& fn = *ctx.fn;
  Rng& rng = ctx.rng;
  const uint32_t max_trips = 16 / ctx.loop_weight;
  if (max_trips < 2) return false;
  const uint32_t trips = rng.Range(1, std::min<uint32_t>(max_trips, 6));
  const ValueType u32 = IntT(32);
  const uint32_t u32_type = ctx.types.Id(u32);
  const uint32_t bool_type = ctx.types.Id(BoolT());
  // The bound: a constant, or data-dependent but never above `trips`.
  uint32_t bound = ctx.types.U32(trips);
  if (rng.Percent(40)) {
    // PoCL runs a loop bounded by a narrow vector lane a garbage number of
    // times (known-consumer-bugs/pocl_loop_bound_narrow_vector_lane).
    const bool wide_lanes_only =
        !ctx.BugsAllowed(KnownBugId::kPoclLoopBoundNarrowVectorLane);
    const uint32_t masked =
        fn.Op(spv::Op::OpUMod, u32_type,
              {AnyIntAs(ctx, 32, wide_lanes_only), ctx.types.U32(trips)});
    bound = fn.Op(spv::Op::OpIAdd, u32_type, {masked, ctx.types.U32(1)});
  }
  // An accumulator carried around the loop.
  const Value* acc_init = ctx.pool.PickIf(
      rng, [](const Value& v) { return v.type.IsInt() || v.type.IsFloat(); });
  const ValueType acc_type = acc_init ? acc_init->type : u32;
  const uint32_t acc_init_id =
      acc_init ? acc_init->id : RandomConstant(ctx, acc_type);
  const uint32_t acc_type_id = ctx.types.Id(acc_type);

  const uint32_t preheader = fn.current_label();
  const uint32_t header = fn.NewId(), body = fn.NewId(), latch = fn.NewId(),
                 merge = fn.NewId();
  const uint32_t counter = fn.NewId(), acc = fn.NewId();
  // Without a merge instruction, a break may leave through a second exit
  // block that joins the normal exit after the loop (a loop with two exit
  // targets; the header still dominates both, so its phis stay usable).
  const bool structured = !DropMerge(ctx);
  const uint32_t break_exit = !structured && rng.Percent(50) ? fn.NewId() : 0;
  fn.Branch(header);

  fn.StartBlock(header);
  const uint32_t go_on =
      fn.Op(spv::Op::OpULessThan, bool_type, {counter, bound});
  uint32_t loop_control = rng.Below(3);  // None, Unroll, DontUnroll
  // spirv-opt 2023.1 unrolls Unroll loops without copying decorations
  // (known-consumer-bugs/spirv_opt_unroll_drops_decorations): no Unroll
  // hint while spirv-opt is avoided.
  if (loop_control == 1 &&
      !ctx.BugsAllowed(KnownBugId::kSpirvOptUnrollDropsDecorations))
    loop_control = 0;
  if (structured) {
    fn.Void(
        spv::Op::OpLoopMerge,
        {Id(merge), Id(latch),
         spirv::EnumOperand(spirv::OperandKind::kLoopControl, loop_control)});
  }
  fn.BranchConditional(go_on, body, merge);

  std::vector<std::pair<uint32_t, uint32_t>> latch_acc;
  uint32_t counter_next = 0;
  uint32_t acc_next = 0;
  bool break_used = false;
  {
    fn.StartBlock(body);
    Region region(ctx);
    const uint32_t saved_weight = ctx.loop_weight;
    ctx.loop_weight *= trips;
    ctx.pool.Add(Value{counter, u32});
    ctx.pool.Add(Value{acc, acc_type});
    GenStatements(ctx, RegionSize(ctx));
    // An early exit (break) or an early continue, conditionally.
    const uint32_t exit_kind = rng.Below(4);
    if (exit_kind == 1 || exit_kind == 2) {
      const uint32_t rest = fn.NewId();
      const uint32_t from = fn.current_label();
      if (exit_kind == 1) {
        break_used = break_exit != 0;
        fn.BranchConditional(Condition(ctx), break_exit ? break_exit : merge,
                             rest);
      } else {
        fn.BranchConditional(Condition(ctx), latch, rest);
        latch_acc.emplace_back(acc, from);
      }
      fn.StartBlock(rest);
      GenStatements(ctx, RegionSize(ctx));
    }
    // Without an early continue, the header's phi reads the carried value
    // before its definition: no decorated conversion then while llvm-spirv
    // is avoided (llvm_spirv_phi_rounding_conversion). With one, a latch
    // phi after the body reads it instead.
    const bool decorated_ok =
        !latch_acc.empty() ||
        ctx.BugsAllowed(KnownBugId::kLlvmSpirvPhiRoundingConversion);
    const Value* carry = ctx.pool.PickIf(ctx.rng, [&](const Value& v) {
      return v.type == acc_type &&
             (decorated_ok || !ctx.decorated_conversions.contains(v.id));
    });
    latch_acc.emplace_back(carry ? carry->id : acc, fn.current_label());
    fn.Branch(latch);
    ctx.loop_weight = saved_weight;
  }
  fn.StartBlock(latch);
  acc_next = latch_acc.size() == 1 ? latch_acc[0].first
                                   : fn.Phi(acc_type_id, latch_acc);
  counter_next = fn.Op(spv::Op::OpIAdd, u32_type, {counter, ctx.types.U32(1)});
  fn.Branch(header);
  fn.InsertPhi(header, acc, acc_type_id,
               {{acc_init_id, preheader}, {acc_next, latch}});
  fn.InsertPhi(header, counter, u32_type,
               {{ctx.types.U32(0), preheader}, {counter_next, latch}});

  fn.StartBlock(merge);
  if (break_used) {
    // Both exits meet in a join block (when the body drew another exit
    // kind, break_exit stays an unused id).
    const uint32_t join = fn.NewId();
    fn.Branch(join);
    fn.StartBlock(break_exit);
    {
      Region region(ctx);
      GenStatements(ctx, std::min<uint32_t>(2, ctx.statements_left));
    }
    fn.Branch(join);
    fn.StartBlock(join);
  }
  // The header dominates the exits: its phis are usable after the loop.
  AddValue(ctx, acc, acc_type);
  AddValue(ctx, counter, u32);
  return true;
}

bool GenSwitch(GenContext& ctx) {
  FunctionEmitter& fn = *ctx.fn;
  Rng& rng = ctx.rng;
  const uint32_t cases = rng.Range(2, 4);
  // The selector lies in [0, cases): with every value a case, the default
  // is unreachable.
  const bool full = rng.Percent(50);
  const uint32_t selector_range = full ? cases : cases + 2;
  // PoCL 3.1 miscompiles a switch whose default is OpUnreachable (an atomic
  // before it runs once too often: known-consumer-bugs/
  // pocl_switch_unreachable_default): there the default goes to the merge.
  const bool unreachable_default =
      full && ctx.BugsAllowed(KnownBugId::kPoclSwitchUnreachableDefault);
  const uint32_t u32_type = ctx.types.Id(IntT(32));
  const uint32_t selector = fn.Op(
      spv::Op::OpUMod, u32_type,
      {UnfoldableU32(ctx, AnyIntAs(ctx, 32)), ctx.types.U32(selector_range)});
  std::optional<Value> outer;
  if (const Value* v = ctx.pool.PickIf(rng, [](const Value& c) {
        return !c.type.IsBool() || !c.type.IsVector();
      }))
    outer = *v;
  const uint32_t header = fn.current_label();
  const uint32_t merge = fn.NewId();
  const uint32_t default_label = unreachable_default ? fn.NewId() : merge;
  std::vector<uint32_t> labels;
  for (uint32_t i = 0; i < cases; ++i) labels.push_back(fn.NewId());
  fn.Void(spv::Op::OpSelectionMerge,
          {Id(merge),
           spirv::EnumOperand(spirv::OperandKind::kSelectionControl, 0)});
  std::vector<spirv::Operand> ops{Id(selector), Id(default_label)};
  for (uint32_t i = 0; i < cases; ++i) {
    ops.push_back(spirv::Operand{
        spirv::OperandKind::kLiteralContextDependentNumber, {i}});
    ops.push_back(Id(labels[i]));
  }
  fn.Void(spv::Op::OpSwitch, std::move(ops));

  std::vector<std::pair<uint32_t, uint32_t>> incoming;
  if (!unreachable_default && outer) incoming.emplace_back(outer->id, header);
  for (uint32_t i = 0; i < cases; ++i) {
    fn.StartBlock(labels[i]);
    Region region(ctx);
    GenStatements(ctx, RegionSize(ctx));
    // Fall through into the next case sometimes (it must directly follow).
    if (i + 1 < cases && rng.Percent(30)) {
      fn.Branch(labels[i + 1]);
      continue;
    }
    if (outer) {
      const Value* carry = PickCarry(ctx, outer->type);
      incoming.emplace_back(carry ? carry->id : outer->id, fn.current_label());
    }
    fn.Branch(merge);
  }
  if (unreachable_default) {
    fn.StartBlock(default_label);
    fn.Void(spv::Op::OpUnreachable, {});
  }
  fn.StartBlock(merge);
  if (outer && !incoming.empty()) {
    const Value carried = *outer;
    AddValue(ctx, fn.Phi(ctx.types.Id(carried.type), incoming), carried.type,
             carried.product);
  }
  return true;
}

bool GenCall(GenContext& ctx) {
  if (ctx.callable_helpers == 0) return false;
  FunctionEmitter& fn = *ctx.fn;
  const HelperFunction& h =
      ctx.helpers[ctx.rng.Below(static_cast<uint32_t>(ctx.callable_helpers))];
  std::vector<uint32_t> args;
  for (const ValueType& p : h.params) args.push_back(DrawOperand(ctx, p));
  if (h.has_array_param) {
    const PrivateArray* array = nullptr;
    for (const PrivateArray& a : ctx.arrays) {
      if (!a.element_pointer && a.element == IntT(32) && a.length == 8)
        array = &a;
    }
    if (array == nullptr) array = &NewPrivateArray(ctx, IntT(32), 8);
    const uint32_t u32_type = ctx.types.Id(IntT(32));
    const uint32_t pointer_type =
        ctx.types.Pointer(spv::StorageClass::Function, u32_type);
    const uint32_t zero = ctx.types.U64(0);
    uint32_t pointer = fn.Op(spv::Op::OpInBoundsAccessChain, pointer_type,
                             {array->pointer, zero});
    if (h.array_storage == spv::StorageClass::Generic) {
      pointer = fn.Op(spv::Op::OpPtrCastToGeneric,
                      ctx.types.Pointer(spv::StorageClass::Generic, u32_type),
                      {pointer});
    }
    args.push_back(pointer);
  }
  if (h.has_opaque_param) args.push_back(ctx.opaque_false);
  std::vector<spirv::Operand> ops{Id(h.id)};
  for (uint32_t a : args) ops.push_back(Id(a));
  AddValue(ctx,
           fn.OpWith(spv::Op::OpFunctionCall, ctx.types.Id(h.return_type),
                     std::move(ops)),
           h.return_type);
  return true;
}

void BuildHelperFunctions(GenContext& ctx) {
  const uint32_t total_budget = ctx.statements_left;
  // spirv-opt's constant-branch crash: see GenContext::opaque_false.
  const bool opaque =
      !ctx.BugsAllowed({KnownBugId::kSpirvOptConstantBranchCrash,
                        KnownBugId::kSpirvOptDeadBranchCrash});
  for (uint32_t i = 0; i < ctx.features.helper_functions; ++i) {
    HelperFunction h;
    h.id = ctx.builder.TakeNextId();
    h.return_type = ctx.rng.Percent(70) || !ctx.features.fp32
                        ? RandomIntType(ctx)
                        : RandomFloatType(ctx);
    const uint32_t params = ctx.rng.Range(0, 3);
    for (uint32_t p = 0; p < params; ++p) {
      h.params.push_back(ctx.rng.Percent(75) ? RandomIntType(ctx)
                                             : RandomFloatType(ctx));
      if (!ctx.features.fp16 && !ctx.features.fp32 && !ctx.features.fp64 &&
          h.params.back().IsFloat())
        h.params.back() = IntT(32);
    }
    if (!ctx.features.fp16 && !ctx.features.fp32 && !ctx.features.fp64 &&
        h.return_type.IsFloat())
      h.return_type = IntT(32);
    h.has_array_param = ctx.rng.Percent(50);
    if (h.has_array_param && ctx.rng.Percent(50) &&
        ctx.BugsAllowed(KnownBugId::kOclgrindGenericCast))
      h.array_storage = spv::StorageClass::Generic;

    std::vector<uint32_t> param_types;
    for (const ValueType& p : h.params) param_types.push_back(ctx.types.Id(p));
    const uint32_t u32_type = ctx.types.Id(IntT(32));
    if (h.has_array_param) {
      if (h.array_storage == spv::StorageClass::Generic)
        ctx.builder.AddCapability(spv::Capability::GenericPointer);
      param_types.push_back(ctx.types.Pointer(h.array_storage, u32_type));
    }
    h.has_opaque_param = opaque;
    if (opaque) param_types.push_back(ctx.types.Id(BoolT()));
    const uint32_t return_type = ctx.types.Id(h.return_type);
    FunctionEmitter emitter(ctx.builder, h.id, return_type,
                            ctx.builder.FunctionType(return_type, param_types));
    for (uint32_t t : param_types) emitter.AddParameter(t);
    emitter.StartBlock(emitter.NewId());

    ctx.fn = &emitter;
    ctx.callable_helpers = i;  // a call DAG: only earlier helpers
    ctx.arrays.clear();
    ctx.pool = ValuePool();
    ctx.pool.PushScope();
    for (size_t p = 0; p < h.params.size(); ++p)
      ctx.pool.Add(Value{emitter.parameter_ids()[p], h.params[p]});
    ctx.opaque_false = opaque ? emitter.parameter_ids().back() : 0;
    if (h.has_array_param) {
      PrivateArray a;
      a.pointer = emitter.parameter_ids()[h.params.size()];
      a.element_pointer = true;
      a.storage = h.array_storage;
      a.element = IntT(32);
      a.length = 8;
      ctx.arrays.push_back(a);
    }
    ctx.statements_left = std::max<uint32_t>(total_budget / 4, 4);
    ctx.uniform = false;
    GenStatements(ctx, ctx.rng.Range(2, 8));
    emitter.Void(spv::Op::OpReturnValue, {Id(DrawOperand(ctx, h.return_type))});
    emitter.Finish(ctx.module);
    ctx.helpers.push_back(h);
  }
  ctx.callable_helpers = ctx.helpers.size();
  ctx.opaque_false = 0;
  ctx.arrays.clear();
  ctx.pool = ValuePool();
  ctx.statements_left = total_budget;
  ctx.uniform = true;
}

}  // namespace l0spv::generators::kernel
