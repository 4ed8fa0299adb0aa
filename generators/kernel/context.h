// generators/kernel/context.h — the state shared by the statement
// generators while one test case is built.
//
// Contract (internal to generators/kernel): a GenContext lives for one
// GenerateTestCase call. `pool` holds the values usable at the current
// point, scoped by control-flow region so a value is only used where its
// definition dominates. `kernel` is null while a helper function is built:
// kernel-only statements (outputs, atomics, barriers) check it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "generators/kernel/features.h"
#include "generators/kernel/function_emitter.h"
#include "generators/kernel/random.h"
#include "generators/kernel/value_type.h"
#include "oracles/known_bugs/registry.h"
#include "spirv/test_case.h"

namespace l0spv::generators::kernel {

using oracles::KnownBugId;

// Scope operands as the generator emits them (SPIR-V's Scope enum values,
// spelled once for every statement file).
inline constexpr uint32_t kScopeDevice = 1;
inline constexpr uint32_t kScopeWorkgroup = 2;
inline constexpr uint32_t kScopeSubgroup = 3;

struct Value {
  uint32_t id = 0;
  ValueType type;
  // A float product (OpFMul / OpVectorTimesScalar result): never fed to an
  // add or subtract, so no consumer may contract the pair into an fma.
  bool product = false;
};

class ValuePool {
 public:
  void PushScope() { marks_.push_back(values_.size()); }
  void PopScope() {
    values_.resize(marks_.back());
    marks_.pop_back();
  }
  void Add(Value v) { values_.push_back(v); }
  std::span<const Value> values() const { return values_; }

  // A uniformly chosen value satisfying `pred`, or nullptr.
  template <typename Pred>
  const Value* PickIf(Rng& rng, Pred pred) const {
    const Value* chosen = nullptr;
    uint32_t seen = 0;
    for (const Value& v : values_) {
      if (!pred(v)) continue;
      ++seen;
      if (rng.Below(seen) == 0) chosen = &v;
    }
    return chosen;
  }

 private:
  std::vector<Value> values_;
  std::vector<size_t> marks_;
};

// One float result buffer (f16, f32 or f64): its slots per work-item and the
// tolerance recorded for each slot.
struct FloatOutput {
  uint32_t arg_index = 0;
  uint32_t param = 0;  // pointer parameter of the kernel
  uint32_t base = 0;   // u64 element index of this work-item's first slot
  uint32_t slots = 0;
  uint32_t used = 0;
  struct Slot {
    double ulp = 0;
    double absolute = 0;  // beyond the smallest normal (linear filtering)
    bool skip = false;
    std::string reason;
  };
  std::vector<Slot> slot_info;
};

// An image kernel argument and what the kernel does with it (images.h).
struct ImageResource {
  enum class Role { kSampled, kRead, kWrite, kReadWrite };
  Role role = Role::kRead;
  spirv::ImageDesc desc;
  uint32_t arg = 0;   // argument index
  uint32_t type = 0;  // OpTypeImage
  uint32_t param = 0;
  // kSampled: the sampler argument (sampler_arg >= 0), else only literal
  // samplers.
  int32_t sampler_arg = -1;
  spirv::SamplerDesc sampler;
  uint32_t sampler_param = 0;
};

// What the kernel function provides to its statements.
struct KernelResources {
  uint32_t out_int = 0;  // CrossWorkgroup u32*
  uint32_t out_int_arg = 0;
  uint32_t out_int_base = 0;  // u64
  uint32_t int_slots = 0;
  uint32_t next_int_slot = 0;
  FloatOutput float_out[3];  // f16, f32, f64 (param 0 = absent)

  uint32_t in_int = 0;  // u32* (read-only input) in in_int_storage
  // CrossWorkgroup (__global) or UniformConstant (__constant): every pointer
  // derived from in_int keeps this storage class (no Generic casts from
  // UniformConstant).
  spv::StorageClass in_int_storage = spv::StorageClass::CrossWorkgroup;
  uint32_t in_int_count = 0;  // power of two
  uint32_t in_float = 0;      // CrossWorkgroup float* (read-only input)
  uint32_t in_float_count = 0;

  // Atomics: `atomic_counters` shared u32 counters (each with one
  // commutative operation), then one private slot per work-item.
  uint32_t atomics = 0;
  uint32_t atomic_counters = 0;
  std::vector<uint32_t> counter_ops;  // spv::Op per counter
  uint32_t atomics64 = 0;             // same layout with u64 elements
  std::vector<uint32_t> counter64_ops;
  uint32_t float_atomics = 0;  // same layout, Features::float_atomic_width
  std::vector<uint32_t> float_counter_ops;
  uint32_t linear_id = 0;  // u64 global linear id

  // Exchange through local memory: pointer to the first u32 element.
  uint32_t local_base = 0;
  uint32_t local_index = 0;  // u64 LocalInvocationIndex
  uint32_t local_size = 0;   // u64 actual work-group size (> 0)
  uint32_t local_capacity = 0;
  uint32_t local_id_vector = 0;  // v3 u64 LocalInvocationId
  // u32 SubgroupLocalInvocationId (identity shuffles), or 0.
  uint32_t subgroup_local_id = 0;

  uint64_t work_items = 0;
  uint64_t group_size = 1;  // work-items per (full) work-group

  std::vector<ImageResource> images;
  // Loads a built-in variable (one variable per built-in, listed in the
  // entry point's interface).
  std::function<uint32_t(spv::BuiltIn, ValueType)> load_builtin;
};

// A private array the current function can index: either its own
// Function-storage array variable, or an element pointer it received.
struct PrivateArray {
  uint32_t pointer = 0;
  bool element_pointer = false;  // pointer to element 0 (else to the array)
  spv::StorageClass storage = spv::StorageClass::Function;
  ValueType element;
  uint32_t length = 0;
};

struct HelperFunction {
  uint32_t id = 0;
  ValueType return_type;
  std::vector<ValueType> params;
  bool has_array_param = false;  // after `params`: pointer to u32[8]
  spv::StorageClass array_storage = spv::StorageClass::Function;
  // Last parameter: the caller's opaque_false (GenContext), so the helper's
  // conditions stay unfoldable once inlined.
  bool has_opaque_param = false;
};

struct GenContext {
  GenContext(Rng& r, const Features& f, const GeneratorOptions& o,
             spirv::Module& m, spirv::ModuleBuilder& b, TypeCatalog& t)
      : rng(r), features(f), options(o), module(m), builder(b), types(t) {}

  Rng& rng;
  const Features& features;
  const GeneratorOptions& options;
  spirv::Module& module;
  spirv::ModuleBuilder& builder;
  TypeCatalog& types;

  FunctionEmitter* fn = nullptr;
  ValuePool pool;
  KernelResources* kernel = nullptr;  // null inside helper functions
  std::vector<HelperFunction> helpers;
  // Helpers the current function may call (those defined before it).
  size_t callable_helpers = 0;
  std::vector<PrivateArray> arrays;  // of the current function
  uint32_t std_set = 0;              // OpenCL.std import id
  uint32_t debug_file = 0;  // OpString naming the "source" for OpLine, or 0
  uint32_t debug_line = 1;
  // Pointee type id of the module's OpGenericCastToPtrExplicit to Function,
  // or 0: llvm-spirv 14 allows only one (known-consumer-bugs/
  // llvm_spirv_to_private_redefined).
  uint32_t explicit_private_cast_pointee = 0;

  uint32_t depth = 0;
  // True while control flow is uniform across the work-group (the kernel's
  // top level): barriers and work-group collectives are allowed only here.
  bool uniform = true;
  // Product of the trip counts of the enclosing loops (bounds nesting).
  uint32_t loop_weight = 1;
  uint32_t statements_left = 0;
  uint32_t printf_calls = 0;  // made so far (printf.h)
  // A bool that is false at run time but that no optimizer can fold (the
  // global linear id compared with 2^64 - 1), or 0. Set in the kernel while
  // spirv-opt's constant-branch crash is avoided: every branch condition
  // and switch selector then depends on it (expressions.h Unfoldable).
  uint32_t opaque_false = 0;
  // Bools that IGC folds to another bool: x == true, x != false, x && true,
  // x || false (any logical op of x with a constant, conservatively) and
  // x && x map to x's root; a comparison of a value with itself (x <= x)
  // maps to kFoldedConstant. An OpLogicalOr of two bools with one root is
  // the self-OR that aborts IGC (known-consumer-bugs/igc_logical_or_self,
  // igc_logical_or_alias).
  static constexpr uint32_t kFoldedConstant = 0;  // never a result id
  // Values loaded straight from a built-in PoCL keeps in its work-group
  // context (local id, group count, local size, ...): PoCL 3.1 cannot link
  // a kernel that bitcasts one (known-consumer-bugs/
  // pocl_context_builtin_bitcast).
  absl::flat_hash_set<uint32_t> work_group_context;
  // Conversions decorated FPRoundingMode or SaturatedConversion (Decorate
  // records them): the llvm-spirv 14 round trip drops the definition of one
  // that a loop header's OpPhi reads before it is defined
  // (known-consumer-bugs/llvm_spirv_phi_rounding_conversion).
  absl::flat_hash_set<uint32_t> decorated_conversions;
  absl::flat_hash_map<uint32_t, uint32_t> bool_roots;
  uint32_t BoolRoot(uint32_t id) const {
    const auto it = bool_roots.find(id);
    return it == bool_roots.end() ? id : it->second;
  }

  bool GuardOn(Guard g) const { return (options.disabled_guards & g) == 0; }
  // A known-bug gate: may the construct of these registry entries be
  // emitted (none of their consumers is avoided, or every one of them is
  // in GeneratorOptions::allowed_bugs)?
  bool BugsAllowed(oracles::KnownBugId id) const {
    return BugsAllowed(std::initializer_list<oracles::KnownBugId>{id});
  }
  bool BugsAllowed(std::initializer_list<oracles::KnownBugId> ids) const {
    return oracles::KnownBugsAllowed(
        std::span<const oracles::KnownBugId>(ids.begin(), ids.size()),
        features.avoid_bugs, options.allowed_bugs);
  }
  void Decorate(uint32_t target, spv::Decoration decoration,
                std::vector<uint32_t> literals = {});
};

}  // namespace l0spv::generators::kernel
