// oracles/reference/decode_types.cc — type declarations and value shapes;
// the layout (sizes, alignments, member offsets) is spirv::TypeTable's.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "oracles/reference/decode_state.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference::decoder {

using spv::Op;

absl::Status DecodeState::DecodeType(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  const uint32_t id = inst.result_id();
  if (op == Op::OpTypeForwardPointer) return absl::OkStatus();
  // Sizes, alignments and member offsets are spirv::TypeTable's (the one
  // OpenCL layout engine); array lengths are this decoder's module-level
  // values, so spec constants' defaults and folded OpSpecConstantOp
  // results size arrays.
  layout_.Declare(inst, [this](uint32_t length_id) -> std::optional<uint64_t> {
    auto it = values_.find(length_id);
    if (it == values_.end()) return std::nullopt;
    uint64_t n = 0;
    std::memcpy(&n, it->second.bytes.data(),
                std::min<size_t>(8, it->second.bytes.size()));
    return n;
  });
  TypeDesc t;
  auto w = [&inst](size_t i) -> uint32_t {
    return i < inst.NumOperands() && !inst.operand(i).words.empty()
               ? inst.operand(i).words[0]
               : 0;
  };
  auto sized = [this](uint32_t tid) -> const TypeDesc* {
    const TypeDesc* d = Type(tid);
    return d && d->sized ? d : nullptr;
  };
  // Takes the type's layout; a type the interpreter has no storage for
  // (or the table has no layout for) becomes opaque.
  auto take_layout = [&](bool supported) {
    const std::optional<uint64_t> size = layout_.SizeOf(id);
    const std::optional<uint64_t> align = layout_.AlignOf(id);
    if (!supported || !size || !align) {
      t.cls = TypeDesc::kOpaque;
      t.sized = false;
      return;
    }
    t.sized = true;
    t.size = *size;
    t.align = *align;
  };
  switch (op) {
    case Op::OpTypeVoid:
      t.cls = TypeDesc::kVoid;
      break;
    case Op::OpTypeBool:
      t.cls = TypeDesc::kBool;
      take_layout(true);
      break;
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
      t.cls = op == Op::OpTypeInt ? TypeDesc::kInt : TypeDesc::kFloat;
      t.width = w(0);
      take_layout(op == Op::OpTypeInt
                      ? (t.width == 8 || t.width == 16 || t.width == 32 ||
                         t.width == 64)
                      : (t.width == 16 || t.width == 32 || t.width == 64));
      break;
    case Op::OpTypeVector: {
      const TypeDesc* e = sized(w(0));
      t.cls = TypeDesc::kVector;
      t.elem = w(0);
      t.lanes = w(1);
      take_layout(e != nullptr &&
                  (e->cls == TypeDesc::kInt || e->cls == TypeDesc::kFloat ||
                   e->cls == TypeDesc::kBool) &&
                  (t.lanes == 2 || t.lanes == 3 || t.lanes == 4 ||
                   t.lanes == 8 || t.lanes == 16));
      break;
    }
    case Op::OpTypeArray: {
      const TypeDesc* e = sized(w(0));
      const spirv::TypeInfo* info = layout_.Get(id);
      t.cls = TypeDesc::kArray;
      t.elem = w(0);
      t.count = info != nullptr && info->known_length ? info->count : 0;
      // Objects stay below 4 GiB: offsets in the executor are 32-bit.
      const bool fits =
          e != nullptr && t.count != 0 && t.count <= kMaxObjectBytes / e->size;
      take_layout(fits);
      // The length as declared, even where the layout table refused it.
      uint64_t length = t.count;
      if (length == 0) {
        if (auto it = values_.find(w(1)); it != values_.end()) {
          std::memcpy(&length, it->second.bytes.data(),
                      std::min<size_t>(8, it->second.bytes.size()));
        }
      }
      if (!fits && e != nullptr && e->size != 0 &&
          length > kMaxObjectBytes / e->size) {
        t.oversize_bytes =
            length > UINT64_MAX / e->size ? UINT64_MAX : length * e->size;
      }
      break;
    }
    case Op::OpTypeStruct: {
      t.cls = TypeDesc::kStruct;
      bool supported = true;
      for (size_t i = 0; i < inst.NumOperands() && supported; ++i) {
        const TypeDesc* mt = sized(w(i));
        const std::optional<uint64_t> offset = layout_.MemberOffset(id, i);
        supported = mt != nullptr && offset.has_value() &&
                    *offset + mt->size <= kMaxObjectBytes;
        if (supported) {
          t.members.push_back(w(i));
          t.offsets.push_back(*offset);
        }
      }
      take_layout(supported);
      break;
    }
    case Op::OpTypePointer:
      t.cls = TypeDesc::kPointer;
      t.storage = w(0);
      t.elem = w(1);
      take_layout(true);
      if (const Decorations* d = Deco(id)) t.array_stride = d->array_stride;
      break;
    case Op::OpTypeFunction:
      t.cls = TypeDesc::kFunction;
      t.return_type = w(0);
      for (size_t i = 1; i < inst.NumOperands(); ++i) t.params.push_back(w(i));
      break;
    case Op::OpTypeEvent:
      // An event is a 64-bit handle (0: no event; else the async copy's
      // number within the work-group).
      t.cls = TypeDesc::kOpaque;
      take_layout(true);
      break;
    case Op::OpTypeImage:
    case Op::OpTypeSampler:
    case Op::OpTypeSampledImage:
      if (auto s = DecodeImageType(inst, &t); !s.ok()) return s;
      break;
    default:
      t.cls = TypeDesc::kOpaque;  // pipes, queues, ...: no storage
      break;
  }
  types_[id] = std::move(t);
  return absl::OkStatus();
}

absl::StatusOr<Shape> DecodeState::ShapeOf(uint32_t type_id) const {
  const TypeDesc* t = Type(type_id);
  if (t == nullptr || !t->sized || t->size > kMaxFrameBytes)
    return Unimpl(absl::StrCat("type %", type_id,
                               " has no storage the reference interpreter "
                               "supports"));
  Shape s;
  s.bytes = static_cast<uint32_t>(t->size);
  s.access = s.bytes;
  auto scalar_kind = [](const TypeDesc& d) -> Kind {
    switch (d.cls) {
      case TypeDesc::kBool:
        return kBool;
      case TypeDesc::kInt:
        return d.width == 8    ? kI8
               : d.width == 16 ? kI16
               : d.width == 32 ? kI32
                               : kI64;
      case TypeDesc::kFloat:
        return d.width == 16 ? kF16 : d.width == 32 ? kF32 : kF64;
      case TypeDesc::kPointer:
        return kI64;
      default:
        return kAgg;
    }
  };
  if (t->cls == TypeDesc::kVector) {
    const TypeDesc* e = Type(t->elem);
    s.k = scalar_kind(*e);
    s.n = static_cast<uint8_t>(t->lanes);
    s.access = static_cast<uint32_t>(e->size * t->lanes);
  } else {
    s.k = scalar_kind(*t);
  }
  return s;
}

std::optional<std::pair<uint64_t, uint32_t>> DecodeState::MemberAt(
    uint32_t type, const std::vector<uint32_t>& indices) const {
  uint64_t offset = 0;
  for (uint32_t index : indices) {
    const TypeDesc* t = Type(type);
    if (t == nullptr) return std::nullopt;
    if (t->cls == TypeDesc::kStruct) {
      if (index >= t->members.size() || index >= t->offsets.size())
        return std::nullopt;
      offset += t->offsets[index];
      type = t->members[index];
    } else if (t->cls == TypeDesc::kVector || t->cls == TypeDesc::kArray) {
      const TypeDesc* e = Type(t->elem);
      const uint64_t count = t->cls == TypeDesc::kVector ? t->lanes : t->count;
      if (e == nullptr || !e->sized || index >= count) return std::nullopt;
      offset += uint64_t{index} * e->size;
      type = t->elem;
    } else {
      return std::nullopt;
    }
  }
  return std::make_pair(offset, type);
}

}  // namespace l0spv::oracles::reference::decoder
