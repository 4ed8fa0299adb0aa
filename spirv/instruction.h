// spirv/instruction.h — one SPIR-V instruction with typed operands.
//
// Contract: an Instruction owns its operand words. The result type id and the
// result id are kept out of `operands()` (0 when the opcode has none), in the
// manner of SPIRV-Tools' opt IR, so passes can rewrite operands without
// re-deriving positions. `Encode` produces the exact words the instruction
// occupies in a binary; an Instruction read from a binary re-encodes to the
// same words.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {

struct Operand {
  OperandKind kind;
  absl::InlinedVector<uint32_t, 2> words;

  uint32_t AsId() const { return words.empty() ? 0 : words[0]; }
  uint32_t AsLiteral() const { return words.empty() ? 0 : words[0]; }
  // 64-bit literal (low word first, as SPIR-V stores multi-word literals).
  uint64_t AsLiteral64() const;
  // Decodes a LiteralString operand (nul-terminated UTF-8 packed in words).
  std::string AsString() const;
  bool IsId() const;  // any Id-category operand other than result/result type

  friend bool operator==(const Operand&, const Operand&) = default;
};

// Builds operands.
Operand IdOperand(uint32_t id);
Operand LiteralOperand(uint32_t value);
Operand EnumOperand(OperandKind kind, uint32_t value);
Operand StringOperand(std::string_view text);

class Instruction {
 public:
  Instruction() = default;
  Instruction(uint32_t opcode, uint32_t type_id, uint32_t result_id,
              std::vector<Operand> operands)
      : opcode_(opcode),
        type_id_(type_id),
        result_id_(result_id),
        operands_(std::move(operands)) {}

  uint32_t opcode() const { return opcode_; }
  uint32_t type_id() const { return type_id_; }
  uint32_t result_id() const { return result_id_; }
  void set_type_id(uint32_t id) { type_id_ = id; }
  void set_result_id(uint32_t id) { result_id_ = id; }
  void set_opcode(uint32_t opcode) { opcode_ = opcode; }

  const std::vector<Operand>& operands() const { return operands_; }
  std::vector<Operand>& mutable_operands() { return operands_; }
  size_t NumOperands() const { return operands_.size(); }
  const Operand& operand(size_t i) const { return operands_[i]; }
  // First word of operand i (the id for id operands); 0 for an operand
  // without words (only hand-built instructions can have one).
  uint32_t word(size_t i) const {
    return operands_[i].words.empty() ? 0 : operands_[i].words[0];
  }
  void AddOperand(Operand op) { operands_.push_back(std::move(op)); }

  // Grammar entry; nullptr only for opcodes the grammar lacks (never for an
  // instruction produced by the reader).
  const OpcodeInfo* info() const { return FindOpcode(opcode_); }
  std::string_view name() const;

  // Number of words when encoded, including the opcode word.
  size_t WordCount() const;
  void Encode(std::vector<uint32_t>& out) const;

  // Calls f(uint32_t& id) for every id the instruction *uses* (not its result
  // id, but including its result type).
  template <typename F>
  void ForEachInId(F&& f);
  template <typename F>
  void ForEachInId(F&& f) const;

  friend bool operator==(const Instruction&, const Instruction&) = default;

 private:
  uint32_t opcode_ = 0;
  uint32_t type_id_ = 0;
  uint32_t result_id_ = 0;
  std::vector<Operand> operands_;
};

inline bool IsIdKind(OperandKind kind) {
  return kind == OperandKind::kIdRef || kind == OperandKind::kIdScope ||
         kind == OperandKind::kIdMemorySemantics;
}

template <typename F>
void Instruction::ForEachInId(F&& f) {
  if (type_id_ != 0) f(type_id_);
  for (Operand& op : operands_) {
    if (IsIdKind(op.kind)) {
      for (uint32_t& w : op.words) f(w);
    }
  }
}

template <typename F>
void Instruction::ForEachInId(F&& f) const {
  if (type_id_ != 0) f(type_id_);
  for (const Operand& op : operands_) {
    if (IsIdKind(op.kind)) {
      for (uint32_t w : op.words) f(w);
    }
  }
}

// The instruction's opcode as SPIRV-Headers' enum, and a test against one:
// the one spelling every room uses instead of comparing raw words.
inline spv::Op OpOf(const Instruction& inst) {
  return static_cast<spv::Op>(inst.opcode());
}
inline bool Is(const Instruction& inst, spv::Op op) {
  return inst.opcode() == static_cast<uint32_t>(op);
}

}  // namespace l0spv::spirv
