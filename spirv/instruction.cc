#include "spirv/instruction.h"

#include <cstring>

namespace l0spv::spirv {

uint64_t Operand::AsLiteral64() const {
  uint64_t value = words.empty() ? 0 : words[0];
  if (words.size() > 1) value |= static_cast<uint64_t>(words[1]) << 32;
  return value;
}

std::string Operand::AsString() const {
  std::string out;
  for (uint32_t w : words) {
    for (int b = 0; b < 4; ++b) {
      const char c = static_cast<char>((w >> (8 * b)) & 0xFF);
      if (c == '\0') return out;
      out.push_back(c);
    }
  }
  return out;
}

bool Operand::IsId() const { return IsIdKind(kind); }

Operand IdOperand(uint32_t id) { return Operand{OperandKind::kIdRef, {id}}; }

Operand LiteralOperand(uint32_t value) {
  return Operand{OperandKind::kLiteralInteger, {value}};
}

Operand EnumOperand(OperandKind kind, uint32_t value) {
  return Operand{kind, {value}};
}

Operand StringOperand(std::string_view text) {
  Operand op{OperandKind::kLiteralString, {}};
  // Words hold the bytes little-end first, then a terminating nul; the last
  // word is zero-padded.
  const size_t word_count = text.size() / 4 + 1;
  op.words.assign(word_count, 0);
  for (size_t i = 0; i < text.size(); ++i) {
    op.words[i / 4] |= static_cast<uint32_t>(static_cast<uint8_t>(text[i]))
                       << (8 * (i % 4));
  }
  return op;
}

std::string_view Instruction::name() const {
  const OpcodeInfo* i = info();
  return i ? std::string_view(i->name) : std::string_view("<unknown opcode>");
}

size_t Instruction::WordCount() const {
  size_t count = 1 + (type_id_ != 0) + (result_id_ != 0);
  for (const Operand& op : operands_) count += op.words.size();
  return count;
}

void Instruction::Encode(std::vector<uint32_t>& out) const {
  out.push_back(static_cast<uint32_t>(WordCount() << 16) | (opcode_ & 0xFFFF));
  if (type_id_ != 0) out.push_back(type_id_);
  if (result_id_ != 0) out.push_back(result_id_);
  for (const Operand& op : operands_) {
    out.insert(out.end(), op.words.begin(), op.words.end());
  }
}

}  // namespace l0spv::spirv
