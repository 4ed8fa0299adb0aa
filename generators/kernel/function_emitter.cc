#include "generators/kernel/function_emitter.h"

#include <cassert>
#include <utility>

namespace l0spv::generators::kernel {

using spirv::Instruction;
using spirv::Operand;
using spv::Op;

FunctionEmitter::FunctionEmitter(spirv::ModuleBuilder& builder,
                                 uint32_t function_id, uint32_t return_type,
                                 uint32_t function_type)
    : builder_(builder), function_id_(function_id) {
  function_.def = Instruction(
      static_cast<uint32_t>(Op::OpFunction), return_type, function_id,
      {spirv::EnumOperand(spirv::OperandKind::kFunctionControl, 0),
       Id(function_type)});
  function_.end =
      Instruction(static_cast<uint32_t>(Op::OpFunctionEnd), 0, 0, {});
}

uint32_t FunctionEmitter::AddParameter(uint32_t type) {
  const uint32_t id = NewId();
  function_.parameters.emplace_back(
      static_cast<uint32_t>(Op::OpFunctionParameter), type, id,
      std::vector<Operand>{});
  parameter_ids_.push_back(id);
  return id;
}

void FunctionEmitter::StartBlock(uint32_t label) {
  assert(terminated_ && "previous block has no terminator");
  spirv::BasicBlock block;
  block.label = Instruction(static_cast<uint32_t>(Op::OpLabel), 0, label, {});
  function_.blocks.push_back(std::move(block));
  terminated_ = false;
}

uint32_t FunctionEmitter::current_label() const {
  return function_.blocks.back().id();
}

uint32_t FunctionEmitter::Op(spv::Op op, uint32_t type,
                             std::initializer_list<uint32_t> ids) {
  std::vector<Operand> operands;
  operands.reserve(ids.size());
  for (uint32_t id : ids) operands.push_back(Id(id));
  return OpWith(op, type, std::move(operands));
}

uint32_t FunctionEmitter::Op(spv::Op op, uint32_t type,
                             const std::vector<uint32_t>& ids) {
  std::vector<Operand> operands;
  operands.reserve(ids.size());
  for (uint32_t id : ids) operands.push_back(Id(id));
  return OpWith(op, type, std::move(operands));
}

uint32_t FunctionEmitter::OpWith(spv::Op op, uint32_t type,
                                 std::vector<Operand> operands) {
  assert(!terminated_);
  const uint32_t id = NewId();
  current().instructions.emplace_back(static_cast<uint32_t>(op), type, id,
                                      std::move(operands));
  ++instruction_count_;
  return id;
}

void FunctionEmitter::Void(spv::Op op, std::vector<Operand> operands) {
  assert(!terminated_);
  current().instructions.emplace_back(static_cast<uint32_t>(op), 0, 0,
                                      std::move(operands));
  ++instruction_count_;
  switch (op) {
    case Op::OpBranch:
    case Op::OpBranchConditional:
    case Op::OpSwitch:
    case Op::OpReturn:
    case Op::OpReturnValue:
    case Op::OpUnreachable:
      terminated_ = true;
      break;
    default:
      break;
  }
}

void FunctionEmitter::Branch(uint32_t target) {
  Void(Op::OpBranch, {Id(target)});
}

void FunctionEmitter::BranchConditional(uint32_t condition, uint32_t if_true,
                                        uint32_t if_false) {
  Void(Op::OpBranchConditional, {Id(condition), Id(if_true), Id(if_false)});
}

uint32_t FunctionEmitter::Phi(
    uint32_t type, const std::vector<std::pair<uint32_t, uint32_t>>& incoming) {
  std::vector<Operand> operands;
  for (const auto& [value, label] : incoming) {
    operands.push_back(Id(value));
    operands.push_back(Id(label));
  }
  // Phis lead their block: insert before any non-phi instruction.
  auto& instructions = current().instructions;
  size_t position = 0;
  while (position < instructions.size() &&
         instructions[position].opcode() == static_cast<uint32_t>(Op::OpPhi))
    ++position;
  const uint32_t id = NewId();
  instructions.emplace(instructions.begin() + position,
                       static_cast<uint32_t>(Op::OpPhi), type, id,
                       std::move(operands));
  ++instruction_count_;
  return id;
}

void FunctionEmitter::InsertPhi(
    uint32_t block_label, uint32_t result_id, uint32_t type,
    const std::vector<std::pair<uint32_t, uint32_t>>& incoming) {
  std::vector<Operand> operands;
  for (const auto& [value, label] : incoming) {
    operands.push_back(Id(value));
    operands.push_back(Id(label));
  }
  for (auto it = function_.blocks.rbegin(); it != function_.blocks.rend();
       ++it) {
    if (it->id() != block_label) continue;
    it->instructions.emplace(it->instructions.begin(),
                             static_cast<uint32_t>(Op::OpPhi), type, result_id,
                             std::move(operands));
    ++instruction_count_;
    return;
  }
  assert(false && "InsertPhi: no such block");
}

uint32_t FunctionEmitter::LocalVariable(uint32_t pointer_type,
                                        uint32_t initializer,
                                        bool store_initializer) {
  const uint32_t id = NewId();
  std::vector<Operand> operands{
      spirv::EnumOperand(spirv::OperandKind::kStorageClass,
                         static_cast<uint32_t>(spv::StorageClass::Function))};
  if (initializer != 0 && store_initializer) {
    initial_stores_.emplace_back(static_cast<uint32_t>(Op::OpStore), 0, 0,
                                 std::vector<Operand>{Id(id), Id(initializer)});
    ++instruction_count_;
  } else if (initializer != 0) {
    operands.push_back(Id(initializer));
  }
  variables_.emplace_back(static_cast<uint32_t>(Op::OpVariable), pointer_type,
                          id, std::move(operands));
  ++instruction_count_;
  return id;
}

void FunctionEmitter::Finish(spirv::Module& module) {
  assert(terminated_);
  if (!function_.blocks.empty()) {
    auto& entry = function_.blocks.front().instructions;
    entry.insert(entry.begin(),
                 std::make_move_iterator(initial_stores_.begin()),
                 std::make_move_iterator(initial_stores_.end()));
    entry.insert(entry.begin(), std::make_move_iterator(variables_.begin()),
                 std::make_move_iterator(variables_.end()));
  }
  variables_.clear();
  initial_stores_.clear();
  module.functions.push_back(std::move(function_));
}

}  // namespace l0spv::generators::kernel
