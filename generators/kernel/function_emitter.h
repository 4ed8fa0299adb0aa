// generators/kernel/function_emitter.h — appends one function to a module,
// block by block.
//
// Contract: blocks are appended in the order they are started, which the
// generator keeps a dominance order (a block is started only after every
// block that dominates it). Function-storage variables requested at any
// point are placed at the start of the entry block, as SPIR-V requires.
// `Finish` moves the function into the module; the emitter must not be used
// afterwards. Emitting into a block after its terminator is a generator bug
// and is caught by an assertion in debug builds and by validation in tests.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "spirv/builder.h"
#include "spirv/module.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::generators::kernel {

class FunctionEmitter {
 public:
  FunctionEmitter(spirv::ModuleBuilder& builder, uint32_t function_id,
                  uint32_t return_type, uint32_t function_type);

  uint32_t AddParameter(uint32_t type);
  const std::vector<uint32_t>& parameter_ids() const { return parameter_ids_; }

  uint32_t NewId() { return builder_.TakeNextId(); }
  // Starts (appends) the block with this label; it becomes current.
  void StartBlock(uint32_t label);
  uint32_t current_label() const;
  // True when the current block ends with a terminator.
  bool Terminated() const { return terminated_; }

  // An instruction with a result; `operands` are ids.
  uint32_t Op(spv::Op op, uint32_t type, std::initializer_list<uint32_t> ids);
  uint32_t Op(spv::Op op, uint32_t type, const std::vector<uint32_t>& ids);
  // An instruction with a result and arbitrary operands.
  uint32_t OpWith(spv::Op op, uint32_t type,
                  std::vector<spirv::Operand> operands);
  // An instruction without a result (stores, branches, barriers...).
  void Void(spv::Op op, std::vector<spirv::Operand> operands);
  void Branch(uint32_t target);
  void BranchConditional(uint32_t condition, uint32_t if_true,
                         uint32_t if_false);
  // OpPhi with (value, predecessor label) pairs.
  uint32_t Phi(uint32_t type,
               const std::vector<std::pair<uint32_t, uint32_t>>& incoming);
  // OpPhi with a reserved result id, inserted at the head of an already
  // started block (loop headers: the latch values are known only later).
  void InsertPhi(uint32_t block_label, uint32_t result_id, uint32_t type,
                 const std::vector<std::pair<uint32_t, uint32_t>>& incoming);
  // Function-storage variable in the entry block, optionally initialised:
  // through the OpVariable's initializer operand, or (store_initializer) by
  // an OpStore of `initializer` placed right after the entry block's
  // variables, so it dominates every use.
  uint32_t LocalVariable(uint32_t pointer_type, uint32_t initializer = 0,
                         bool store_initializer = false);

  uint32_t id() const { return function_id_; }
  size_t instruction_count() const { return instruction_count_; }

  void Finish(spirv::Module& module);

 private:
  spirv::BasicBlock& current() { return function_.blocks.back(); }

  spirv::ModuleBuilder& builder_;
  uint32_t function_id_;
  spirv::Function function_;
  std::vector<uint32_t> parameter_ids_;
  std::vector<spirv::Instruction> variables_;
  std::vector<spirv::Instruction> initial_stores_;
  bool terminated_ = true;
  size_t instruction_count_ = 0;
};

// Operand helpers.
inline spirv::Operand Id(uint32_t id) { return spirv::IdOperand(id); }
inline spirv::Operand Lit(uint32_t value) {
  return spirv::LiteralOperand(value);
}

}  // namespace l0spv::generators::kernel
