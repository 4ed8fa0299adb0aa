// spirv/builder.h — adds types, constants and ids to a Module, deduplicated.
//
// Contract: a ModuleBuilder edits one Module it does not own. Types and
// constants are unique: asking twice for `int 32` or for the constant 7 of a
// type returns the same id, whether the module already had it or the builder
// added it. New ids come from the header bound, which is raised by exactly
// one per id, so a tight bound stays tight. New declarations are appended to
// the types/values section, which keeps them after everything they use.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "spirv/module.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {

class ModuleBuilder {
 public:
  explicit ModuleBuilder(Module& module);

  // A fresh id: from the id source when one is set, else the header bound
  // (raised by one).
  uint32_t TakeNextId() {
    return id_source_ ? id_source_() : module_.header.bound++;
  }
  // Routes every new id through `source` (transformations record the ids
  // they create so that a replay recreates the same ones). The source must
  // keep the header bound above the ids it hands out.
  void set_id_source(std::function<uint32_t()> source) {
    id_source_ = std::move(source);
  }

  uint32_t VoidType();
  uint32_t BoolType();
  uint32_t IntType(uint32_t width);
  uint32_t FloatType(uint32_t width);
  uint32_t VectorType(uint32_t component_type, uint32_t count);
  uint32_t ArrayType(uint32_t element_type, uint32_t length);
  uint32_t StructType(const std::vector<uint32_t>& members);
  uint32_t PointerType(spv::StorageClass storage, uint32_t pointee);
  uint32_t FunctionType(uint32_t return_type,
                        const std::vector<uint32_t>& params);

  // Integer constant of an OpTypeInt; `value` is truncated to the width.
  uint32_t IntConstant(uint32_t type_id, uint64_t value);
  // Float constant from its bit pattern (16/32/64-bit types).
  uint32_t FloatConstantBits(uint32_t type_id, uint64_t bits);
  uint32_t BoolConstant(bool value);
  uint32_t CompositeConstant(uint32_t type_id,
                             const std::vector<uint32_t>& components);
  uint32_t NullConstant(uint32_t type_id);
  // The zero of a type: OpConstant 0 (+0.0) for int/float scalars,
  // OpConstantFalse for bool, OpConstantNull for anything else.
  // llvm-spirv 14 aborts on a scalar OpConstantNull (corpora/
  // known-consumer-bugs/llvm_spirv_scalar_constant_null), so code that
  // needs "some zero" asks for this.
  uint32_t ZeroConstant(uint32_t type_id);

  void AddCapability(spv::Capability capability);
  void AddExtension(std::string_view name);
  uint32_t ImportExtInstSet(std::string_view name);  // deduplicated

  Module& module() { return module_; }

 private:
  struct Key {
    uint32_t opcode;
    uint32_t type_id;
    std::vector<uint32_t> words;
    friend bool operator==(const Key&, const Key&) = default;
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.opcode, k.type_id, k.words);
    }
  };
  static Key KeyOf(const Instruction& inst);
  uint32_t GetOrAdd(spv::Op op, uint32_t type_id,
                    std::vector<Operand> operands);
  uint32_t WidthOfType(uint32_t type_id) const;

  Module& module_;
  std::function<uint32_t()> id_source_;
  absl::flat_hash_map<Key, uint32_t> unique_;
  absl::flat_hash_map<uint32_t, uint32_t> scalar_widths_;
};

}  // namespace l0spv::spirv
