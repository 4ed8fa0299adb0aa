#include "spirv/type_table.h"

#include <algorithm>

namespace l0spv::spirv {

using spv::Op;

TypeTable::TypeTable(const Module& module) {
  for (const Instruction& inst : module.annotations) {
    // CPacked structs change layout; remember them before decoding types.
    if (static_cast<Op>(inst.opcode()) == Op::OpDecorate &&
        inst.NumOperands() >= 2 &&
        inst.word(1) == static_cast<uint32_t>(spv::Decoration::CPacked)) {
      types_[inst.word(0)].packed = true;
    }
  }
  for (const Instruction& inst : module.types_values) {
    const Op op = static_cast<Op>(inst.opcode());
    const uint32_t id = inst.result_id();
    switch (op) {
      case Op::OpConstant:
      case Op::OpSpecConstant:
        constants_[id] = {op, inst.type_id(),
                          inst.NumOperands() ? inst.operand(0).AsLiteral64()
                                             : 0};
        continue;
      case Op::OpConstantTrue:
      case Op::OpSpecConstantTrue:
        constants_[id] = {op, inst.type_id(), 1};
        continue;
      case Op::OpConstantFalse:
      case Op::OpSpecConstantFalse:
      case Op::OpConstantNull:
        constants_[id] = {op, inst.type_id(), 0};
        continue;
      default:
        break;
    }
    if (std::string_view(inst.info()->instr_class) != "Type-Declaration" ||
        op == Op::OpTypeForwardPointer) {
      continue;
    }
    TypeInfo& t = types_[id];
    t.op = op;
    t.id = id;
    const auto& ops = inst.operands();
    auto w = [&ops](size_t i) { return i < ops.size() ? ops[i].words[0] : 0u; };
    switch (op) {
      case Op::OpTypeInt:
        t.width = w(0);
        t.signedness = w(1);
        break;
      case Op::OpTypeFloat:
        t.width = w(0);
        break;
      case Op::OpTypeVector:
        t.element = w(0);
        t.count = w(1);
        break;
      case Op::OpTypeArray: {
        t.element = w(0);
        auto c = constants_.find(w(1));
        t.known_length = c != constants_.end() && c->second.op == Op::OpConstant;
        t.count = c != constants_.end() ? static_cast<uint32_t>(c->second.value)
                                        : 0;
        break;
      }
      case Op::OpTypeRuntimeArray:
        t.element = w(0);
        break;
      case Op::OpTypePointer:
        t.storage_class = static_cast<spv::StorageClass>(w(0));
        t.element = w(1);
        break;
      case Op::OpTypeStruct:
        for (const Operand& o : ops) t.members.push_back(o.AsId());
        break;
      case Op::OpTypeFunction:
        t.return_type = w(0);
        for (size_t i = 1; i < ops.size(); ++i) t.members.push_back(w(i));
        break;
      default:
        break;
    }
    // Composite types must name types declared before them (spec §2.4); a
    // module that does not is malformed. Dropping such a type keeps every
    // recursive size/alignment query finite on hostile input.
    bool components_declared = true;
    auto declared = [this](uint32_t tid) { return Get(tid) != nullptr; };
    if (op == Op::OpTypeVector || op == Op::OpTypeArray ||
        op == Op::OpTypeRuntimeArray) {
      components_declared = declared(t.element) && t.element != id;
    } else if (op == Op::OpTypeStruct) {
      for (uint32_t m : t.members)
        components_declared &= declared(m) && m != id;
    }
    if (!components_declared) types_.erase(id);
  }
}

const TypeInfo* TypeTable::Get(uint32_t type_id) const {
  auto it = types_.find(type_id);
  if (it == types_.end() || it->second.op == Op::OpNop) return nullptr;
  return &it->second;
}

std::optional<uint64_t> TypeTable::AlignOf(uint32_t type_id) const {
  const TypeInfo* t = Get(type_id);
  if (t == nullptr) return std::nullopt;
  switch (t->op) {
    case Op::OpTypeBool:
      return 1;
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
      return std::max<uint64_t>(1, t->width / 8);
    case Op::OpTypePointer:
    case Op::OpTypeEvent:
    case Op::OpTypeDeviceEvent:
      return 8;  // Physical64
    case Op::OpTypeVector: {
      auto e = SizeOf(t->element);
      if (!e) return std::nullopt;
      return *e * (t->count == 3 ? 4 : t->count);
    }
    case Op::OpTypeArray:
      return AlignOf(t->element);
    case Op::OpTypeStruct: {
      if (t->packed) return 1;
      uint64_t a = 1;
      for (uint32_t m : t->members) {
        auto ma = AlignOf(m);
        if (!ma) return std::nullopt;
        a = std::max(a, *ma);
      }
      return a;
    }
    default:
      return std::nullopt;
  }
}

std::optional<uint64_t> TypeTable::SizeOf(uint32_t type_id) const {
  const TypeInfo* t = Get(type_id);
  if (t == nullptr) return std::nullopt;
  switch (t->op) {
    case Op::OpTypeVector: {
      auto e = SizeOf(t->element);
      if (!e) return std::nullopt;
      return *e * (t->count == 3 ? 4 : t->count);
    }
    case Op::OpTypeArray: {
      if (!t->known_length) return std::nullopt;
      auto e = SizeOf(t->element);
      if (!e) return std::nullopt;
      return *e * t->count;
    }
    case Op::OpTypeStruct: {
      uint64_t offset = 0, align = 1;
      for (uint32_t m : t->members) {
        auto ms = SizeOf(m);
        auto ma = t->packed ? std::optional<uint64_t>(1) : AlignOf(m);
        if (!ms || !ma) return std::nullopt;
        offset = (offset + *ma - 1) / *ma * *ma + *ms;
        align = std::max(align, *ma);
      }
      return (offset + align - 1) / align * align;
    }
    default:
      return AlignOf(type_id);  // scalars and pointers: size == alignment
  }
}

std::optional<uint64_t> TypeTable::MemberOffset(uint32_t struct_id,
                                                uint32_t index) const {
  const TypeInfo* t = Get(struct_id);
  if (t == nullptr || t->op != Op::OpTypeStruct || index >= t->members.size())
    return std::nullopt;
  uint64_t offset = 0;
  for (uint32_t i = 0; i <= index; ++i) {
    auto ma = t->packed ? std::optional<uint64_t>(1) : AlignOf(t->members[i]);
    auto ms = SizeOf(t->members[i]);
    if (!ms || !ma) return std::nullopt;
    offset = (offset + *ma - 1) / *ma * *ma;
    if (i == index) return offset;
    offset += *ms;
  }
  return std::nullopt;
}

std::optional<uint64_t> TypeTable::IntConstant(uint32_t id,
                                               bool allow_spec) const {
  auto it = constants_.find(id);
  if (it == constants_.end()) return std::nullopt;
  const Constant& c = it->second;
  const bool spec = c.op == Op::OpSpecConstant ||
                    c.op == Op::OpSpecConstantTrue ||
                    c.op == Op::OpSpecConstantFalse;
  if (spec && !allow_spec) return std::nullopt;
  const TypeInfo* t = Get(c.type_id);
  if (t == nullptr || (t->op != Op::OpTypeInt && t->op != Op::OpTypeBool))
    return std::nullopt;
  if (t->op == Op::OpTypeInt && t->width < 64)
    return c.value & ((uint64_t{1} << t->width) - 1);
  return c.value;
}

uint32_t TypeTable::ScalarOf(uint32_t type_id) const {
  const TypeInfo* t = Get(type_id);
  if (t != nullptr && t->op == Op::OpTypeVector) return t->element;
  return type_id;
}

uint32_t TypeTable::ScalarWidth(uint32_t type_id) const {
  const TypeInfo* t = Get(ScalarOf(type_id));
  if (t == nullptr) return 0;
  return (t->op == Op::OpTypeInt || t->op == Op::OpTypeFloat) ? t->width : 0;
}

}  // namespace l0spv::spirv
