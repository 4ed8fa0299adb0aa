#include "generators/kernel/kernel_builder.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>

#include "generators/kernel/expressions.h"
#include "generators/kernel/images.h"
#include "generators/kernel/outputs.h"
#include "generators/kernel/printf.h"
#include "generators/kernel/statements.h"
#include "spirv/ir_edit.h"
#include "spirv/numeric_bits.h"

namespace l0spv::generators::kernel {

using spv::Op;
using spv::StorageClass;

namespace {

constexpr uint32_t kInputInts = 64;
constexpr uint32_t kInputFloats = 32;

class KernelBuilder {
 public:
  KernelBuilder(GenContext& ctx, spirv::TestCase& tc) : ctx_(ctx), tc_(tc) {}

  void Build();

 private:
  void ChooseNdRange();
  uint32_t AddBufferArg(ValueType element, uint64_t elements, bool result,
                        std::vector<uint8_t> bytes, const std::string& type,
                        StorageClass storage = StorageClass::CrossWorkgroup);
  std::vector<uint8_t> RandomInts(uint32_t count);
  std::vector<uint8_t> NiceFloats(uint32_t count);
  void AddFloatAtomicsArg();
  uint32_t BuiltinVariable(spv::BuiltIn builtin, ValueType type);
  uint32_t LoadBuiltin(spv::BuiltIn builtin, ValueType type);
  uint32_t Component(uint32_t vector, uint32_t index);
  void Prologue();
  void AddScalarArgs();
  void AddStructArg();
  void LoadStructMembers();
  void Finish();
  void RecordTolerances();

  GenContext& ctx_;
  spirv::TestCase& tc_;
  KernelResources k_;
  std::unique_ptr<FunctionEmitter> fn_;
  std::vector<uint32_t> param_types_;
  std::vector<uint32_t> interface_;
  std::map<uint32_t, uint32_t> builtins_;  // BuiltIn -> variable
  uint32_t kernel_id_ = 0;
  uint64_t local_total_ = 1;
  uint32_t next_spec_id_ = 0;
  struct PendingParam {
    uint32_t* slot;  // where to store the parameter id once created
  };
  std::vector<uint32_t*> param_slots_;
  std::vector<uint32_t> param_ids_;
  std::vector<std::pair<uint32_t, ValueType>> scalar_params_;
  // The by-value struct argument (struct_arg_ = its argument index).
  std::optional<uint32_t> struct_arg_;
  uint32_t struct_type_ = 0;
  std::vector<ValueType> struct_members_;
};

void KernelBuilder::ChooseNdRange() {
  Rng& rng = ctx_.rng;
  spirv::NdRange& r = tc_.nd_range;
  const uint32_t dims_roll = rng.Below(10);
  r.dims = dims_roll < 5 ? 1 : (dims_roll < 8 ? 2 : 3);
  std::array<uint64_t, 3> local{1, 1, 1};
  uint64_t total = 1;
  for (uint32_t d = 0; d < r.dims; ++d) {
    const uint64_t limit = std::max<uint64_t>(1, 64 / total);
    const uint64_t g =
        std::min<uint64_t>(limit, d == 0 ? rng.Range(1, 32) : rng.Range(1, 6));
    r.global[d] = g;
    total *= g;
    if (ctx_.features.non_uniform && rng.Percent(50)) {
      local[d] = rng.Range(1, static_cast<uint32_t>(g));
    } else {
      std::vector<uint64_t> divisors;
      for (uint64_t x = 1; x <= g; ++x)
        if (g % x == 0) divisors.push_back(x);
      local[d] = divisors[rng.Below(static_cast<uint32_t>(divisors.size()))];
    }
    if (rng.Percent(20)) r.offset[d] = rng.Range(1, 3);
  }
  // Level Zero has no work-dimension parameter: drivers derive
  // get_work_dim() from the sizes. Keep `dims` the highest dimension with
  // more than one work-item so every target agrees on it.
  while (r.dims > 1 && r.global[r.dims - 1] == 1) {
    --r.dims;
    r.offset[r.dims] = 0;
    local[r.dims] = 1;
  }
  r.local = local;
  k_.work_items = total;
  local_total_ = local[0] * local[1] * local[2];
}

std::vector<uint8_t> KernelBuilder::RandomInts(uint32_t count) {
  std::vector<uint8_t> bytes(count * 4);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t v = 0;
    switch (ctx_.rng.Below(6)) {
      case 0:
        v = 0;
        break;
      case 1:
        v = ctx_.rng.Below(16);
        break;
      case 2:
        v = 0xffffffffu - ctx_.rng.Below(4);
        break;
      case 3:
        v = 0x80000000u;
        break;
      default:
        v = static_cast<uint32_t>(ctx_.rng.Next());
        break;
    }
    std::memcpy(&bytes[i * 4], &v, 4);
  }
  return bytes;
}

std::vector<uint8_t> KernelBuilder::NiceFloats(uint32_t count) {
  std::vector<uint8_t> bytes(count * 4);
  for (uint32_t i = 0; i < count; ++i) {
    double v = (static_cast<int>(ctx_.rng.Below(1025)) - 512) / 8.0;
    if (ctx_.rng.OneIn(16)) v = ctx_.rng.Percent(50) ? 1e30 : -1e-30;
    const uint32_t bits = static_cast<uint32_t>(spirv::EncodeFloat(v, 32));
    std::memcpy(&bytes[i * 4], &bits, 4);
  }
  return bytes;
}

// The float atomics buffer (float_atomics.h): shared counters, then a slot
// per work-item, all starting at small integers.
void KernelBuilder::AddFloatAtomicsArg() {
  const Features& f = ctx_.features;
  std::vector<Op> ops;
  // fp16 sums of small integers stop being exact at 2048.
  if (f.float_atomic_add && f.float_atomic_width != 16)
    ops.push_back(Op::OpAtomicFAddEXT);
  if (f.float_atomic_min_max) {
    ops.push_back(Op::OpAtomicFMinEXT);
    ops.push_back(Op::OpAtomicFMaxEXT);
  }
  const uint32_t counters = ops.empty() ? 0 : ctx_.rng.Range(1, 3);
  for (uint32_t c = 0; c < counters; ++c)
    k_.float_counter_ops.push_back(
        static_cast<uint32_t>(ctx_.rng.Pick<Op>(ops)));
  const uint8_t width = f.float_atomic_width;
  const uint64_t n = counters + k_.work_items;
  std::vector<uint8_t> bytes(n * width / 8);
  for (uint64_t i = 0; i < n; ++i) {
    const double v = static_cast<int>(ctx_.rng.Below(33)) - 16;
    const uint64_t bits = spirv::EncodeFloat(v, width);
    std::memcpy(&bytes[i * width / 8], &bits, width / 8);
  }
  AddBufferArg(FloatT(width), n, true, std::move(bytes),
               "f" + std::to_string(width) + " atomics");
  param_slots_.push_back(&k_.float_atomics);
}

uint32_t KernelBuilder::AddBufferArg(ValueType element, uint64_t elements,
                                     bool result, std::vector<uint8_t> bytes,
                                     const std::string& type,
                                     StorageClass storage) {
  spirv::KernelArg arg;
  arg.kind = spirv::KernelArg::Kind::kBuffer;
  arg.bytes = bytes.empty() ? std::vector<uint8_t>(elements * element.width / 8)
                            : std::move(bytes);
  arg.is_result = result;
  arg.type = type;
  tc_.args.push_back(std::move(arg));
  param_types_.push_back(ctx_.types.Pointer(storage, ctx_.types.Id(element)));
  return static_cast<uint32_t>(tc_.args.size() - 1);
}

uint32_t KernelBuilder::BuiltinVariable(spv::BuiltIn builtin, ValueType type) {
  auto it = builtins_.find(static_cast<uint32_t>(builtin));
  if (it != builtins_.end()) return it->second;
  const uint32_t pointer =
      ctx_.types.Pointer(StorageClass::Input, ctx_.types.Id(type));
  const uint32_t id = ctx_.builder.TakeNextId();
  ctx_.module.types_values.emplace_back(
      static_cast<uint32_t>(Op::OpVariable), pointer, id,
      std::vector<spirv::Operand>{
          spirv::EnumOperand(spirv::OperandKind::kStorageClass,
                             static_cast<uint32_t>(StorageClass::Input))});
  ctx_.Decorate(id, spv::Decoration::BuiltIn, {static_cast<uint32_t>(builtin)});
  ctx_.Decorate(id, spv::Decoration::Constant);
  builtins_[static_cast<uint32_t>(builtin)] = id;
  interface_.push_back(id);
  return id;
}

uint32_t KernelBuilder::LoadBuiltin(spv::BuiltIn builtin, ValueType type) {
  // Intel's CPU runtime cannot link get_local_linear_id
  // (known-consumer-bugs/intel_cpu_linear_id_builtins): the same value from
  // LocalInvocationId and WorkgroupSize, x + sx * (y + sy * z).
  if (builtin == spv::BuiltIn::LocalInvocationIndex && type == IntT(64) &&
      !ctx_.BugsAllowed(KnownBugId::kIntelCpuLinearIdBuiltins)) {
    const ValueType v3 = IntT(64, 3);
    const uint32_t u64 = ctx_.types.Id(type);
    const uint32_t lid = LoadBuiltin(spv::BuiltIn::LocalInvocationId, v3);
    const uint32_t size = LoadBuiltin(spv::BuiltIn::WorkgroupSize, v3);
    uint32_t index = Component(lid, 2);
    for (int d = 1; d >= 0; --d) {
      index = fn_->Op(Op::OpIMul, u64, {index, Component(size, d)});
      index = fn_->Op(Op::OpIAdd, u64, {index, Component(lid, d)});
    }
    return index;
  }
  const uint32_t variable = BuiltinVariable(builtin, type);
  return fn_->Op(Op::OpLoad, ctx_.types.Id(type), {variable});
}

uint32_t KernelBuilder::Component(uint32_t vector, uint32_t index) {
  return fn_->OpWith(Op::OpCompositeExtract, ctx_.types.Id(IntT(64)),
                     {Id(vector), Lit(index)});
}

void KernelBuilder::AddScalarArgs() {
  const uint32_t count = ctx_.rng.Range(0, 3);
  for (uint32_t i = 0; i < count; ++i) {
    ValueType t = ctx_.rng.Percent(70) || !ctx_.features.fp32
                      ? RandomIntType(ctx_)
                      : RandomFloatType(ctx_);
    if (t.IsFloat() && t.width == 16) t = t.WithWidth(32);  // no half args
    spirv::KernelArg arg;
    arg.kind = spirv::KernelArg::Kind::kScalar;
    const uint32_t lanes = t.lanes == 3 ? 4 : t.lanes;
    arg.bytes.resize(lanes * t.width / 8);
    for (uint32_t lane = 0; lane < t.lanes; ++lane) {
      uint64_t bits =
          t.IsFloat() ? spirv::EncodeFloat(
                            (static_cast<int>(ctx_.rng.Below(257)) - 128) / 4.0,
                            t.width)
                      : ctx_.rng.Next();
      std::memcpy(&arg.bytes[lane * t.width / 8], &bits, t.width / 8);
    }
    arg.type = (t.IsFloat() ? "f" : "i") + std::to_string(t.width) +
               (t.IsVector() ? "x" + std::to_string(t.lanes) : "");
    tc_.args.push_back(std::move(arg));
    param_types_.push_back(ctx_.types.Id(t));
    scalar_params_.emplace_back(static_cast<uint32_t>(tc_.args.size() - 1), t);
  }
}

// A struct of 2-5 int (and float) scalars and vectors, passed by value the
// way llvm-spirv passes a C struct: a Function-storage pointer parameter
// decorated FuncParamAttr ByVal. Its bytes are built in the OpenCL layout
// (SPIR 1.2 2.1.5: members aligned to their size, 3-lane vectors to 4 lanes,
// the struct to its largest member), padding zeroed.
void KernelBuilder::AddStructArg() {
  const uint32_t count = ctx_.rng.Range(2, 5);
  std::vector<uint32_t> member_ids;
  std::vector<uint8_t> bytes;
  uint64_t align = 1;
  for (uint32_t i = 0; i < count; ++i) {
    ValueType t;
    if (ctx_.features.fp32 && ctx_.rng.Percent(25)) {
      uint8_t lanes = 1;
      if (ctx_.features.vectors && ctx_.rng.Percent(40))
        lanes = kLaneCounts[ctx_.rng.Range(1, 3)];
      t = FloatT(32, lanes);
    } else {
      t = RandomIntType(ctx_);
    }
    const uint64_t lane_bytes = t.width / 8;
    const uint64_t size = lane_bytes * (t.lanes == 3 ? 4 : t.lanes);
    align = std::max(align, size);
    const uint64_t offset = (bytes.size() + size - 1) / size * size;
    bytes.resize(offset + size, 0);
    for (uint32_t lane = 0; lane < t.lanes; ++lane) {
      const uint64_t bits =
          t.IsFloat() ? spirv::EncodeFloat(
                            (static_cast<int>(ctx_.rng.Below(257)) - 128) / 4.0,
                            t.width)
                      : ctx_.rng.Next();
      std::memcpy(&bytes[offset + lane * lane_bytes], &bits, lane_bytes);
    }
    struct_members_.push_back(t);
    member_ids.push_back(ctx_.types.Id(t));
  }
  bytes.resize((bytes.size() + align - 1) / align * align, 0);
  struct_type_ = ctx_.builder.StructType(member_ids);
  // Member names, as a producer writes them (debug only).
  for (uint32_t m = 0; m < member_ids.size(); ++m) {
    ctx_.module.debug_names.emplace_back(
        static_cast<uint32_t>(Op::OpMemberName), 0, 0,
        std::vector<spirv::Operand>{
            Id(struct_type_), Lit(m),
            spirv::StringOperand("m" + std::to_string(m))});
  }
  spirv::KernelArg arg;
  arg.kind = spirv::KernelArg::Kind::kScalar;
  arg.bytes = std::move(bytes);
  arg.type = "struct";
  tc_.args.push_back(std::move(arg));
  param_types_.push_back(
      ctx_.types.Pointer(StorageClass::Function, struct_type_));
  struct_arg_ = static_cast<uint32_t>(tc_.args.size() - 1);
}

// Members of the struct argument join the value pool (each with
// probability 3/4, through OpInBoundsAccessChain + OpLoad).
void KernelBuilder::LoadStructMembers() {
  const uint32_t param = fn_->parameter_ids()[*struct_arg_];
  constexpr uint32_t kByVal = 2;  // FunctionParameterAttribute ByVal
  ctx_.Decorate(param, spv::Decoration::FuncParamAttr, {kByVal});
  for (uint32_t m = 0; m < struct_members_.size(); ++m) {
    if (!ctx_.rng.Percent(75)) continue;
    const ValueType t = struct_members_[m];
    const uint32_t type = ctx_.types.Id(t);
    const uint32_t pointer_type =
        ctx_.types.Pointer(StorageClass::Function, type);
    const uint32_t index = ctx_.types.U32(m);
    const uint32_t member =
        fn_->Op(Op::OpInBoundsAccessChain, pointer_type, {param, index});
    AddValue(ctx_, fn_->Op(Op::OpLoad, type, {member}), t);
  }
}

void KernelBuilder::Prologue() {
  FunctionEmitter& fn = *fn_;
  const ValueType u64 = IntT(64);
  const ValueType v3 = IntT(64, 3);
  const uint32_t u64_type = ctx_.types.Id(u64);
  // Global linear id: computed from the components, or the built-in.
  if (ctx_.features.computed_linear_id) {
    const uint32_t gid = LoadBuiltin(spv::BuiltIn::GlobalInvocationId, v3);
    const uint32_t offset = LoadBuiltin(spv::BuiltIn::GlobalOffset, v3);
    const uint32_t size = LoadBuiltin(spv::BuiltIn::GlobalSize, v3);
    const uint32_t rel = fn.Op(Op::OpISub, ctx_.types.Id(v3), {gid, offset});
    uint32_t lin = Component(rel, 2);
    for (int d = 1; d >= 0; --d) {
      lin = fn.Op(Op::OpIMul, u64_type, {lin, Component(size, d)});
      lin = fn.Op(Op::OpIAdd, u64_type, {lin, Component(rel, d)});
    }
    k_.linear_id = lin;
  } else {
    k_.linear_id = LoadBuiltin(spv::BuiltIn::GlobalLinearId, u64);
  }
  if (!ctx_.BugsAllowed({KnownBugId::kSpirvOptConstantBranchCrash,
                         KnownBugId::kSpirvOptDeadBranchCrash})) {
    // One id-allocating call per statement: argument order is unspecified.
    const uint32_t bool_type = ctx_.types.Id(BoolT());
    const uint32_t all_ones = ctx_.types.U64(~uint64_t{0});
    ctx_.opaque_false =
        fn.Op(Op::OpIEqual, bool_type, {k_.linear_id, all_ones});
  }
  k_.out_int_base =
      fn.Op(Op::OpIMul, u64_type, {k_.linear_id, ctx_.types.U64(k_.int_slots)});
  for (FloatOutput& out : k_.float_out) {
    if (out.param == 0) continue;
    out.base =
        fn.Op(Op::OpIMul, u64_type, {k_.linear_id, ctx_.types.U64(out.slots)});
  }
  // Values every statement can start from.
  const uint32_t u32_type = ctx_.types.Id(IntT(32));
  AddValue(ctx_, fn.Op(Op::OpUConvert, u32_type, {k_.linear_id}), IntT(32));
  const uint32_t lid = LoadBuiltin(spv::BuiltIn::LocalInvocationId, v3);
  const uint32_t group = LoadBuiltin(spv::BuiltIn::WorkgroupId, v3);
  const uint32_t lid_x = Component(lid, 0);
  AddValue(ctx_, lid_x, u64);
  ctx_.work_group_context.insert(lid_x);
  // PoCL 3.1's kernel compiler breaks on a bitcast of a group id to a
  // vector (known-consumer-bugs/pocl_group_id_bitcast): the component stays
  // out of the value pool when PoCL is a target.
  const uint32_t group_component =
      Component(group, ctx_.rng.Below(tc_.nd_range.dims));
  if (ctx_.BugsAllowed(KnownBugId::kPoclGroupIdBitcast))
    AddValue(ctx_, group_component, u64);
  if (ctx_.rng.Percent(50)) {
    const uint32_t groups = LoadBuiltin(spv::BuiltIn::NumWorkgroups, v3);
    const uint32_t count = Component(groups, ctx_.rng.Below(3));
    AddValue(ctx_, count, u64);
    ctx_.work_group_context.insert(count);
  }
  if (ctx_.rng.Percent(30)) {
    const uint32_t work_dim = LoadBuiltin(spv::BuiltIn::WorkDim, IntT(32));
    AddValue(ctx_, work_dim, IntT(32));
    // Also in PoCL's context: a bitcast of it is as broken.
    ctx_.work_group_context.insert(work_dim);
  }
  // Intel's CPU runtime cannot link get_enqueued_local_size
  // (intel_cpu_linear_id_builtins).
  if (ctx_.rng.Percent(30) &&
      ctx_.BugsAllowed(KnownBugId::kIntelCpuLinearIdBuiltins)) {
    const uint32_t size =
        Component(LoadBuiltin(spv::BuiltIn::EnqueuedWorkgroupSize, v3), 0);
    AddValue(ctx_, size, u64);
    ctx_.work_group_context.insert(size);
  }
  for (const auto& [arg, type] : scalar_params_) {
    AddValue(ctx_, fn.parameter_ids()[arg], type);
  }
  // The subgroup-local id, for identity shuffles (subgroups.h); neither
  // Oclgrind nor PoCL has subgroups.
  if (ctx_.features.weights[kFamGroup] != 0 &&
      ctx_.BugsAllowed(KnownBugId::kPoclSubgroups))
    k_.subgroup_local_id =
        LoadBuiltin(spv::BuiltIn::SubgroupLocalInvocationId, IntT(32));
  if (struct_arg_) LoadStructMembers();
  // Specialization constants, used with their default values. SpecId on a
  // Kernel module's constant is SPIR-V 1.1 (1.0 allows it for Shader only).
  if (ctx_.rng.Percent(40) && ctx_.features.HasVersion(1, 1)) {
    const ValueType u32 = IntT(32);
    const uint32_t value = ctx_.builder.TakeNextId();
    ctx_.module.types_values.emplace_back(
        static_cast<uint32_t>(Op::OpSpecConstant), ctx_.types.Id(u32), value,
        std::vector<spirv::Operand>{Lit(ctx_.rng.Below(1000))});
    ctx_.Decorate(value, spv::Decoration::SpecId, {next_spec_id_++});
    AddValue(ctx_, value, u32);
    const uint32_t flag = ctx_.builder.TakeNextId();
    ctx_.module.types_values.emplace_back(
        static_cast<uint32_t>(ctx_.rng.Percent(50) ? Op::OpSpecConstantTrue
                                                   : Op::OpSpecConstantFalse),
        ctx_.types.Id(BoolT()), flag, std::vector<spirv::Operand>{});
    ctx_.Decorate(flag, spv::Decoration::SpecId, {next_spec_id_++});
    // Never specialized: a constant to IGC (igc_logical_or_alias).
    ctx_.bool_roots[flag] = GenContext::kFoldedConstant;
    AddValue(ctx_, flag, BoolT());
  }
  // Local-memory exchange set-up.
  if (k_.local_capacity != 0) {
    k_.local_index = LoadBuiltin(spv::BuiltIn::LocalInvocationIndex, u64);
    const uint32_t size = LoadBuiltin(spv::BuiltIn::WorkgroupSize, v3);
    k_.local_size = fn.Op(
        Op::OpIMul, u64_type,
        {fn.Op(Op::OpIMul, u64_type, {Component(size, 0), Component(size, 1)}),
         Component(size, 2)});
    if (k_.local_base == 0) {
      // A Workgroup variable (module scope).
      const uint32_t u32_type = ctx_.types.Id(IntT(32));
      const uint32_t array = ctx_.types.Array(u32_type, k_.local_capacity);
      const uint32_t var = ctx_.builder.TakeNextId();
      ctx_.module.types_values.emplace_back(
          static_cast<uint32_t>(Op::OpVariable),
          ctx_.types.Pointer(StorageClass::Workgroup, array), var,
          std::vector<spirv::Operand>{spirv::EnumOperand(
              spirv::OperandKind::kStorageClass,
              static_cast<uint32_t>(StorageClass::Workgroup))});
      const uint32_t pointer_type =
          ctx_.types.Pointer(StorageClass::Workgroup, u32_type);
      const uint32_t zero = ctx_.types.U64(0);
      k_.local_base =
          fn.Op(Op::OpInBoundsAccessChain, pointer_type, {var, zero});
    }
  }
}

void KernelBuilder::Build() {
  ChooseNdRange();
  const Features& f = ctx_.features;
  // Result buffers.
  k_.int_slots = ctx_.rng.Range(4, 24);
  k_.out_int_arg =
      AddBufferArg(IntT(32), k_.work_items * k_.int_slots, true,
                   RandomInts(k_.work_items * k_.int_slots), "u32 results");
  param_slots_.push_back(&k_.out_int);
  const bool widths[3] = {f.fp16, f.fp32, f.fp64};
  for (uint32_t w = 0; w < 3; ++w) {
    if (!widths[w]) continue;
    FloatOutput& out = k_.float_out[w];
    out.slots = ctx_.rng.Range(4, 16);
    if (w == 1 && f.images) out.slots += kImageFloatSlots;
    out.slot_info.resize(out.slots);
    const uint8_t width = static_cast<uint8_t>(16u << w);
    out.arg_index = AddBufferArg(FloatT(width), k_.work_items * out.slots, true,
                                 {}, "f" + std::to_string(width) + " results");
    param_slots_.push_back(&out.param);
  }
  // Inputs.
  k_.in_int_count = kInputInts;
  if (f.constant_input) k_.in_int_storage = StorageClass::UniformConstant;
  AddBufferArg(IntT(32), kInputInts, false, RandomInts(kInputInts),
               f.constant_input ? "u32 constant input" : "u32 input",
               k_.in_int_storage);
  param_slots_.push_back(&k_.in_int);
  if (f.fp32) {
    k_.in_float_count = kInputFloats;
    AddBufferArg(FloatT(32), kInputFloats, false, NiceFloats(kInputFloats),
                 "f32 input");
    param_slots_.push_back(&k_.in_float);
  }
  // Atomics: shared counters with one commutative operation each, then a
  // private slot per work-item.
  if (f.weights[kFamAtomic] != 0) {
    static constexpr Op kCommutative[] = {
        Op::OpAtomicIAdd,       Op::OpAtomicISub,      Op::OpAtomicAnd,
        Op::OpAtomicOr,         Op::OpAtomicXor,       Op::OpAtomicUMin,
        Op::OpAtomicUMax,       Op::OpAtomicSMin,      Op::OpAtomicSMax,
        Op::OpAtomicIIncrement, Op::OpAtomicIDecrement};
    const uint32_t counters = ctx_.rng.Range(1, 4);
    for (uint32_t c = 0; c < counters; ++c)
      k_.counter_ops.push_back(
          static_cast<uint32_t>(ctx_.rng.Pick<Op>(kCommutative)));
    const uint64_t n = counters + k_.work_items;
    AddBufferArg(IntT(32), n, true, RandomInts(static_cast<uint32_t>(n)),
                 "u32 atomics");
    param_slots_.push_back(&k_.atomics);
    if (f.int64_atomics) {
      k_.counter64_ops = k_.counter_ops;
      AddBufferArg(IntT(64), n, true, RandomInts(static_cast<uint32_t>(2 * n)),
                   "u64 atomics");
      param_slots_.push_back(&k_.atomics64);
      ctx_.builder.AddCapability(spv::Capability::Int64Atomics);
    }
    if (f.float_atomic_width != 0) AddFloatAtomicsArg();
  }
  // Local memory for exchanges: a __local argument or a Workgroup variable.
  uint32_t local_param = 0;
  if (f.weights[kFamExchange] != 0) {
    k_.local_capacity = static_cast<uint32_t>(local_total_);
    if (!f.workgroup_variable) {
      spirv::KernelArg arg;
      arg.kind = spirv::KernelArg::Kind::kLocal;
      arg.local_bytes = local_total_ * 4;
      arg.type = "u32 local";
      tc_.args.push_back(std::move(arg));
      param_types_.push_back(
          ctx_.types.Pointer(StorageClass::Workgroup, ctx_.types.Id(IntT(32))));
      param_slots_.push_back(&local_param);
    }
  }
  AddScalarArgs();
  if (f.struct_arg) AddStructArg();
  // Image and sampler arguments come last, so that cases without them keep
  // their argument order.
  k_.group_size = local_total_;
  if (f.images) PlanImages(ctx_, k_, tc_, param_types_);

  // The kernel function.
  const uint32_t void_type = ctx_.types.Void();
  kernel_id_ = ctx_.builder.TakeNextId();
  fn_ = std::make_unique<FunctionEmitter>(
      ctx_.builder, kernel_id_, void_type,
      ctx_.builder.FunctionType(void_type, param_types_));
  for (uint32_t t : param_types_) fn_->AddParameter(t);
  for (size_t i = 0; i < param_slots_.size(); ++i)
    *param_slots_[i] = fn_->parameter_ids()[i];
  param_ids_ = fn_->parameter_ids();
  if (local_param != 0) k_.local_base = local_param;
  for (ImageResource& img : k_.images) {
    img.param = param_ids_[img.arg];
    if (img.sampler_arg >= 0) img.sampler_param = param_ids_[img.sampler_arg];
  }
  k_.load_builtin = [this](spv::BuiltIn builtin, ValueType type) {
    return LoadBuiltin(builtin, type);
  };
  for (FloatOutput& out : k_.float_out) (void)out;
  fn_->StartBlock(fn_->NewId());

  ctx_.fn = fn_.get();
  ctx_.kernel = &k_;
  ctx_.arrays.clear();
  ctx_.pool = ValuePool();
  ctx_.pool.PushScope();
  ctx_.uniform = true;
  ctx_.depth = 0;
  Prologue();
  if (!k_.images.empty()) GenImageOps(ctx_);
  GenStatements(ctx_, f.statements);
  // A printf case prints at least once (the family may not have been
  // drawn among few statements).
  if (f.printf_calls > 0 && ctx_.printf_calls == 0) GenPrintf(ctx_);
  for (uint32_t i = ctx_.rng.Range(1, 4); i > 0; --i) GenSink(ctx_);
  fn_->Void(Op::OpReturn, {});
  fn_->Finish(ctx_.module);
  Finish();
  RecordTolerances();
}

void KernelBuilder::Finish() {
  spirv::Module& m = ctx_.module;
  const std::string name = "fuzz_kernel";
  std::vector<spirv::Operand> ep{
      spirv::EnumOperand(spirv::OperandKind::kExecutionModel,
                         static_cast<uint32_t>(spv::ExecutionModel::Kernel)),
      Id(kernel_id_), spirv::StringOperand(name)};
  for (uint32_t id : interface_) ep.push_back(Id(id));
  m.entry_points.emplace_back(static_cast<uint32_t>(Op::OpEntryPoint), 0, 0,
                              std::move(ep));
  const bool floats =
      ctx_.features.fp16 || ctx_.features.fp32 || ctx_.features.fp64;
  if (floats) {
    // No fusing of multiplies and adds: results must be exactly rounded.
    m.execution_modes.emplace_back(
        static_cast<uint32_t>(Op::OpExecutionMode), 0, 0,
        std::vector<spirv::Operand>{
            Id(kernel_id_),
            spirv::EnumOperand(
                spirv::OperandKind::kExecutionMode,
                static_cast<uint32_t>(spv::ExecutionMode::ContractionOff))});
  }
  if (ctx_.rng.Percent(25)) {
    const auto& local = *tc_.nd_range.local;
    m.execution_modes.emplace_back(
        static_cast<uint32_t>(Op::OpExecutionMode), 0, 0,
        std::vector<spirv::Operand>{
            Id(kernel_id_),
            spirv::EnumOperand(
                spirv::OperandKind::kExecutionMode,
                static_cast<uint32_t>(spv::ExecutionMode::LocalSize)),
            Lit(static_cast<uint32_t>(local[0])),
            Lit(static_cast<uint32_t>(local[1])),
            Lit(static_cast<uint32_t>(local[2]))});
  }
  std::vector<spirv::Operand> source{
      spirv::EnumOperand(spirv::OperandKind::kSourceLanguage,
                         static_cast<uint32_t>(spv::SourceLanguage::OpenCL_C)),
      Lit(102000)};
  // With a file: some source text, continued (debug only). IGC 22.43 and
  // llvm-spirv 14 mis-read the text operand (known-consumer-bugs/
  // igc_source_text, llvm_spirv_source_text).
  const bool text = ctx_.debug_file != 0 &&
                    ctx_.BugsAllowed({KnownBugId::kIgcSourceText,
                                      KnownBugId::kLlvmSpirvSourceText}) &&
                    ctx_.rng.Percent(50);
  if (text) {
    source.push_back(Id(ctx_.debug_file));
    source.push_back(spirv::StringOperand("// l0spv-fuzz kernel"));
  }
  m.debug_source.emplace_back(static_cast<uint32_t>(Op::OpSource), 0, 0,
                              std::move(source));
  if (text) {
    m.debug_source.emplace_back(
        static_cast<uint32_t>(Op::OpSourceContinued), 0, 0,
        std::vector<spirv::Operand>{spirv::StringOperand(
            "\n__kernel void fuzz_kernel(/* generated */);")});
  }
  m.debug_names.emplace_back(
      static_cast<uint32_t>(Op::OpName), 0, 0,
      std::vector<spirv::Operand>{Id(kernel_id_), spirv::StringOperand(name)});
  if (ctx_.rng.Percent(50)) {
    m.debug_source.emplace_back(
        static_cast<uint32_t>(Op::OpSourceExtension), 0, 0,
        std::vector<spirv::Operand>{spirv::StringOperand("l0spv-fuzz")});
    // OpModuleProcessed is SPIR-V 1.1.
    if (ctx_.features.HasVersion(1, 1)) {
      m.debug_module_processed.emplace_back(
          static_cast<uint32_t>(Op::OpModuleProcessed), 0, 0,
          std::vector<spirv::Operand>{
              spirv::StringOperand("generated by l0spv-fuzz")});
    }
  }
  // NoCapture on the buffer parameters, through a decoration group; one
  // OpDecorate each next to a ByVal struct parameter when llvm-spirv's bugs
  // are avoided (known-consumer-bugs/llvm_spirv_group_byval.spvasm).
  constexpr uint32_t kNoCapture = 5;  // FunctionParameterAttribute
  const bool group_ok =
      !struct_arg_ || ctx_.BugsAllowed(KnownBugId::kLlvmSpirvGroupByval);
  const bool no_capture = ctx_.rng.Percent(40);
  if (no_capture && !group_ok) {
    for (size_t i = 0; i < tc_.args.size(); ++i) {
      if (tc_.args[i].kind == spirv::KernelArg::Kind::kBuffer)
        ctx_.Decorate(param_ids_[i], spv::Decoration::FuncParamAttr,
                      {kNoCapture});
    }
  } else if (no_capture) {
    const uint32_t group = ctx_.builder.TakeNextId();
    ctx_.Decorate(group, spv::Decoration::FuncParamAttr, {kNoCapture});
    m.annotations.emplace_back(static_cast<uint32_t>(Op::OpDecorationGroup), 0,
                               group, std::vector<spirv::Operand>{});
    std::vector<spirv::Operand> targets{Id(group)};
    for (size_t i = 0; i < tc_.args.size(); ++i) {
      if (tc_.args[i].kind == spirv::KernelArg::Kind::kBuffer)
        targets.push_back(Id(param_ids_[i]));
    }
    m.annotations.emplace_back(static_cast<uint32_t>(Op::OpGroupDecorate), 0, 0,
                               std::move(targets));
    // llvm-spirv's reader would take every decoration before the group as
    // a member (llvm_spirv_group_byval; on DPC++'s translator a BuiltIn or
    // SpecId lands on the kernel wrapper's parameter): the group first.
    if (!ctx_.BugsAllowed(KnownBugId::kLlvmSpirvGroupByval))
      spirv::HoistDecorationGroups(m);
  }
  tc_.entry_point = name;
  tc_.profile = ctx_.options.profile;
}

void KernelBuilder::RecordTolerances() {
  static constexpr const char* kTypes[] = {"f16", "f32", "f64"};
  static constexpr double kMinNormal[] = {
      6.103515625e-05, 1.1754943508222875e-38, 2.2250738585072014e-308};
  for (uint32_t w = 0; w < 3; ++w) {
    const FloatOutput& out = k_.float_out[w];
    if (out.param == 0) continue;
    // One entry per distinct (ulp, skip, reason), covering its slots.
    std::map<std::tuple<double, double, bool, std::string>,
             std::vector<uint64_t>>
        groups;
    for (uint32_t s = 0; s < out.used; ++s) {
      const FloatOutput::Slot& slot = out.slot_info[s];
      groups[{slot.ulp, slot.absolute, slot.skip, slot.reason}].push_back(s);
    }
    for (auto& [key, fields] : groups) {
      spirv::ResultTolerance t;
      t.arg = out.arg_index;
      t.type = kTypes[w];
      t.ulp = std::get<0>(key);
      t.skip = std::get<2>(key);
      t.reason = std::get<3>(key).empty() ? "exactly rounded operations"
                                          : std::get<3>(key);
      // Devices may flush denormals: results within the smallest normal
      // of each other are equal.
      t.absolute = std::max(kMinNormal[w], std::get<1>(key));
      t.record = out.slots;
      t.fields = std::move(fields);
      tc_.tolerances.push_back(std::move(t));
    }
  }
}

}  // namespace

void BuildKernel(GenContext& ctx, spirv::TestCase& test_case) {
  KernelBuilder(ctx, test_case).Build();
}

}  // namespace l0spv::generators::kernel
