// spirv/def_use.h — id → definition and id → uses over a Module.
//
// Contract: built in one pass over the module; holds pointers into it, so it
// is invalidated by any change that moves instructions (rebuild it then).
// Lookups of ids the module does not define return nullptr / empty.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "spirv/module.h"

namespace l0spv::spirv {

struct Use {
  const Instruction* user;
  uint32_t operand_index;  // index into user->operands(); ~0u = result type
};

class DefUse {
 public:
  explicit DefUse(const Module& module);

  const Instruction* Def(uint32_t id) const;
  std::span<const Use> Uses(uint32_t id) const;
  // The function whose body (or parameter list) defines `id`, or nullptr for
  // module-scope ids.
  const Function* FunctionOf(uint32_t id) const;
  // The block defining `id` (labels map to their own block), or nullptr.
  const BasicBlock* BlockOf(uint32_t id) const;

 private:
  absl::flat_hash_map<uint32_t, const Instruction*> defs_;
  absl::flat_hash_map<uint32_t, std::vector<Use>> uses_;
  absl::flat_hash_map<uint32_t, const Function*> function_of_;
  absl::flat_hash_map<uint32_t, const BasicBlock*> block_of_;
};

}  // namespace l0spv::spirv
