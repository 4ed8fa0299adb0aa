// oracles/reference/decode_constants.cc — OpConstant*, OpSpecConstant*
// (their defaults: a TestCase sets no specialization) and OpUndef at
// module scope.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "oracles/reference/decode_state.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference::decoder {

using spv::Op;

std::optional<uint64_t> DecodeState::ConstantInt(uint32_t id) const {
  auto it = values_.find(id);
  if (it == values_.end()) return std::nullopt;
  const TypeDesc* t = Type(it->second.type);
  if (t == nullptr || (t->cls != TypeDesc::kInt && t->cls != TypeDesc::kBool))
    return std::nullopt;
  uint64_t v = 0;
  std::memcpy(&v, it->second.bytes.data(),
              std::min<size_t>(8, it->second.bytes.size()));
  return v;
}

absl::Status DecodeState::DecodeConstant(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  const uint32_t id = inst.result_id();
  if (op == Op::OpSpecConstantOp) return DecodeSpecConstantOp(inst);
  auto shape = ShapeOf(inst.type_id());
  if (!shape.ok()) {
    // Constants of unsupported types (samplers, ...) are simply not values.
    return absl::OkStatus();
  }
  ModValue v;
  v.type = inst.type_id();
  v.bytes.assign(shape->bytes, 0);
  const TypeDesc* t = Type(inst.type_id());
  switch (op) {
    case Op::OpConstantTrue:
    case Op::OpSpecConstantTrue:
      v.bytes[0] = 1;
      break;
    case Op::OpConstantFalse:
    case Op::OpSpecConstantFalse:
    case Op::OpConstantNull:
    case Op::OpUndef:
      break;
    case Op::OpConstant:
    case Op::OpSpecConstant: {
      if (inst.NumOperands() < 1) return Bad("constant without a value");
      const auto& words = inst.operand(0).words;
      for (size_t i = 0; i < v.bytes.size() && i / 4 < words.size(); ++i)
        v.bytes[i] = static_cast<uint8_t>(words[i / 4] >> (8 * (i % 4)));
      break;
    }
    case Op::OpConstantComposite:
    case Op::OpSpecConstantComposite: {
      for (size_t i = 0; i < inst.NumOperands(); ++i) {
        auto part = values_.find(inst.word(i));
        if (part == values_.end())
          return Bad(absl::StrCat("constant %", id, ": constituent %",
                                  inst.word(i), " is not a constant"));
        uint64_t off;
        if (t->cls == TypeDesc::kVector) {
          off = i * Type(t->elem)->size;
        } else if (t->cls == TypeDesc::kArray) {
          off = i * Type(t->elem)->size;
        } else if (t->cls == TypeDesc::kStruct && i < t->offsets.size()) {
          off = t->offsets[i];
        } else {
          return Bad(absl::StrCat("constant %", id, ": bad constituent"));
        }
        const auto& pb = part->second.bytes;
        if (off > v.bytes.size() || pb.size() > v.bytes.size() - off)
          return Bad(absl::StrCat("constant %", id,
                                  ": constituents overflow the type"));
        std::copy(pb.begin(), pb.end(), v.bytes.begin() + off);
      }
      break;
    }
    default:
      return absl::OkStatus();
  }
  values_[id] = std::move(v);
  return absl::OkStatus();
}

}  // namespace l0spv::oracles::reference::decoder
