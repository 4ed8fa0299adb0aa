// oracles/reference/decode_state.cc — DecodeState helpers shared by every
// instruction class: errors, emission, operands, frame slots.
#include "oracles/reference/decode_state.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference::decoder {

using spv::Op;

absl::Status Bad(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("reference decoder: ", what));
}

absl::Status Unimpl(absl::string_view what) {
  return absl::UnimplementedError(what);
}

absl::Status CheckObjectSize(const TypeDesc& t, absl::string_view what) {
  if (t.oversize_bytes == 0) return absl::OkStatus();
  const std::string size = t.oversize_bytes == UINT64_MAX
                               ? std::string("2^64 bytes or more")
                               : absl::StrCat(t.oversize_bytes, " bytes (",
                                              t.oversize_bytes >> 30, " GiB)");
  return Unimpl(absl::StrCat(what, " needs ", size,
                             " of memory; the reference interpreter holds "
                             "objects below 4 GiB"));
}

std::string OpName(uint32_t opcode) {
  const spirv::OpcodeInfo* info = spirv::FindOpcode(opcode);
  return info ? info->name : absl::StrCat("opcode ", opcode);
}

std::string ShapeName(const Shape& s) {
  static constexpr const char* kNames[] = {
      "bool", "char", "short", "int", "long", "half", "float", "double", ""};
  if (s.k == kAgg) return "a composite";
  return s.n == 1 ? std::string(kNames[s.k]) : absl::StrCat(kNames[s.k], +s.n);
}

void DecodeState::Emit(const Inst& inst, const Instruction& origin) {
  prog_.insts.push_back(inst);
  prog_.origins.push_back(
      {origin.opcode(), origin.result_id(), current_function_});
}

void DecodeState::EmitTrap(const Instruction& origin, std::string message) {
  Inst t{Op_::kTrapUnsupported};
  t.d = static_cast<uint32_t>(prog_.messages.size());
  prog_.messages.push_back(std::move(message));
  Emit(t, origin);
}

absl::Status DecodeState::Unsupported(const Instruction& inst,
                                      absl::string_view why) {
  EmitTrap(inst, absl::StrCat(OpName(inst.opcode()), " ", why));
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> DecodeState::Id(const Instruction& inst,
                                         size_t i) const {
  if (i >= inst.NumOperands() || inst.operand(i).words.empty())
    return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                            ": operand ", i, " missing"));
  return inst.operand(i).words[0];
}

absl::StatusOr<uint32_t> DecodeState::SlotOf(const Instruction& inst,
                                             size_t i) {
  auto id = Id(inst, i);
  if (!id.ok()) return id.status();
  return Slot(*id);
}

absl::Status DecodeState::NeedBytes(uint32_t id, uint64_t bytes) const {
  auto t = TypeOfValue(id);
  if (!t.ok()) return t.status();
  auto s = ShapeOf(*t);
  if (!s.ok()) return s.status();
  if (s->bytes < bytes)
    return Bad(absl::StrCat("value %", id, " is smaller than its use"));
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> DecodeState::AllocSlot(uint64_t bytes) {
  uint64_t off = (uint64_t{fn_->frame_bytes} + 7) & ~uint64_t{7};
  if (off + bytes + 8 > kMaxFrameBytes)
    return Unimpl("a function's values exceed the interpreter's frame limit");
  fn_->frame_bytes = static_cast<uint32_t>(off + std::max<uint64_t>(bytes, 1));
  return static_cast<uint32_t>(off);
}

absl::StatusOr<uint32_t> DecodeState::ConstSlot(
    const std::vector<uint8_t>& bytes) {
  auto slot = AllocSlot(bytes.size());
  if (!slot.ok()) return slot.status();
  template_writes_.push_back({*slot, bytes});
  return *slot;
}

absl::StatusOr<uint32_t> DecodeState::Slot(uint32_t id) {
  auto it = slots_.find(id);
  if (it != slots_.end()) return it->second;
  auto v = values_.find(id);
  if (auto u = unsupported_values_.find(id); u != unsupported_values_.end())
    return Unimpl(u->second);
  if (v == values_.end())
    return Bad(absl::StrCat("id %", id,
                            " is used but not defined as a value the "
                            "interpreter supports"));
  auto slot = ConstSlot(v->second.bytes);
  if (!slot.ok()) return slot.status();
  slots_[id] = *slot;
  return *slot;
}

absl::StatusOr<uint32_t> DecodeState::TypeOfValue(uint32_t id) const {
  auto it = local_types_.find(id);
  if (it != local_types_.end()) return it->second;
  auto v = values_.find(id);
  if (v != values_.end()) return v->second.type;
  // A module-level value the interpreter could not compute: the
  // instruction using it traps as unsupported.
  if (auto u = unsupported_values_.find(id); u != unsupported_values_.end())
    return Unimpl(u->second);
  return Bad(absl::StrCat("id %", id, " has no known type"));
}

absl::StatusOr<uint32_t> DecodeState::ScopeOf(const Instruction& inst,
                                              size_t i) const {
  auto id = Id(inst, i);
  if (!id.ok()) return id.status();
  auto v = ConstantInt(*id);
  if (!v)
    return Bad(
        absl::StrCat(OpName(inst.opcode()), ": scope is not a constant"));
  return static_cast<uint32_t>(*v);
}

}  // namespace l0spv::oracles::reference::decoder
