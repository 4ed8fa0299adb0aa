// spirv/type_table.h — type and constant queries over a Module.
//
// Contract: decodes every type declaration and scalar/composite constant of
// the module once. Type ids the module does not declare yield nullptr. Sizes
// and alignments follow the OpenCL C layout rules that SPIR 1.2 §2.1.4–2.1.5
// prescribe (3-component vectors are sized and aligned as 4 components);
// packed structs (CPacked decoration, direct or through a decoration group)
// have alignment 1 and no padding.
// Pointers are 8 bytes, or 4 under the Physical32 addressing model. Layouts
// are computed once, in declaration order, so queries are O(1) and a hostile
// module (deep nesting, sizes that overflow) cannot make them recurse or
// wrap: such types have no size. A reader that computes constants itself
// (the reference interpreter, which folds OpSpecConstantOp) builds the
// table incrementally and supplies array lengths (Incremental, Declare).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "spirv/module.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {

struct TypeInfo {
  spv::Op op = spv::Op::OpNop;  // OpTypeInt, OpTypeVector, ...
  uint32_t id = 0;
  uint32_t width = 0;       // int/float bit width
  uint32_t signedness = 0;  // int only
  uint32_t element = 0;     // vector component / array element / pointee
  uint32_t count = 0;       // vector components; array length (0 = runtime)
  spv::StorageClass storage_class = spv::StorageClass::Max;  // pointers
  std::vector<uint32_t> members;  // struct members; function params
  uint32_t return_type = 0;       // function types
  bool packed = false;            // struct decorated CPacked
  bool known_length = true;       // array length from a non-spec constant
};

class TypeTable {
 public:
  explicit TypeTable(const Module& module);

  // A table that knows `module`'s addressing model and CPacked decorations
  // but declares no type yet: Declare adds them one by one, in module
  // order, each from the layouts of the types declared before it.
  static TypeTable Incremental(const Module& module);
  // Array lengths by the id of the length operand; nullopt when unknown.
  using LengthFn = std::function<std::optional<uint64_t>(uint32_t id)>;
  // Adds the type `inst` declares (other instructions are ignored), taking
  // an OpTypeArray's length from `length`. A type id declared again is
  // declared afresh.
  void Declare(const Instruction& inst, const LengthFn& length);

  const TypeInfo* Get(uint32_t type_id) const;
  // Size and alignment in bytes (OpenCL layout); nullopt for types without
  // storage (void, function, runtime arrays, opaque types).
  std::optional<uint64_t> SizeOf(uint32_t type_id) const;
  std::optional<uint64_t> AlignOf(uint32_t type_id) const;
  // Byte offset of member `index` in a struct (known when every earlier
  // member has a size, even if this one has none, e.g. a runtime array).
  std::optional<uint64_t> MemberOffset(uint32_t struct_id,
                                       uint32_t index) const;

  // Value of an integer OpConstant (zero-extended to 64 bits), including
  // spec constants' defaults when `allow_spec` is set.
  std::optional<uint64_t> IntConstant(uint32_t id,
                                      bool allow_spec = false) const;
  // Scalar component type: the type itself, or a vector's component type.
  uint32_t ScalarOf(uint32_t type_id) const;
  // Bit width of an int/float scalar or vector's component; 0 otherwise.
  uint32_t ScalarWidth(uint32_t type_id) const;

 private:
  TypeTable() = default;
  struct Constant {
    spv::Op op;
    uint32_t type_id;
    uint64_t value;
  };
  struct Layout {
    std::optional<uint64_t> size;
    std::optional<uint64_t> align;
    // Structs: offsets of the leading members whose offset is known.
    std::vector<uint64_t> member_offsets;
  };
  // Reads the addressing model and the CPacked decorations.
  void ReadLayoutInputs(const Module& module);
  // Layout of `t` from the already computed layouts of its components.
  Layout ComputeLayout(const TypeInfo& t) const;
  const Layout* LayoutOf(uint32_t type_id) const;

  uint64_t pointer_size_ = 8;
  absl::flat_hash_map<uint32_t, TypeInfo> types_;
  absl::flat_hash_map<uint32_t, Constant> constants_;
  absl::flat_hash_map<uint32_t, Layout> layouts_;
};

}  // namespace l0spv::spirv
