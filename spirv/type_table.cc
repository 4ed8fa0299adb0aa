#include "spirv/type_table.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace l0spv::spirv {

using spv::Op;

namespace {

std::optional<uint64_t> CheckedMul(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// `offset` rounded up to a multiple of `align` (align > 0), or nullopt on
// overflow.
std::optional<uint64_t> RoundUp(uint64_t offset, uint64_t align) {
  uint64_t r;
  if (__builtin_add_overflow(offset, align - 1, &r)) return std::nullopt;
  return r / align * align;
}

}  // namespace

void TypeTable::ReadLayoutInputs(const Module& module) {
  for (const Instruction& inst : module.memory_model) {
    if (inst.NumOperands() >= 1 &&
        inst.word(0) ==
            static_cast<uint32_t>(spv::AddressingModel::Physical32)) {
      pointer_size_ = 4;
    }
  }
  // CPacked structs change layout; remember them before decoding types,
  // including those a decoration group packs.
  std::vector<uint32_t> packed_groups;
  for (const Instruction& inst : module.annotations) {
    if (static_cast<Op>(inst.opcode()) == Op::OpDecorate &&
        inst.NumOperands() >= 2 &&
        inst.word(1) == static_cast<uint32_t>(spv::Decoration::CPacked)) {
      types_[inst.word(0)].packed = true;
      packed_groups.push_back(inst.word(0));
    }
  }
  for (const Instruction& inst : module.annotations) {
    if (static_cast<Op>(inst.opcode()) != Op::OpGroupDecorate ||
        inst.NumOperands() < 1 ||
        std::find(packed_groups.begin(), packed_groups.end(), inst.word(0)) ==
            packed_groups.end())
      continue;
    for (size_t i = 1; i < inst.NumOperands(); ++i)
      types_[inst.word(i)].packed = true;
  }
}

TypeTable TypeTable::Incremental(const Module& module) {
  TypeTable table;
  table.ReadLayoutInputs(module);
  return table;
}

TypeTable::TypeTable(const Module& module) {
  ReadLayoutInputs(module);
  const LengthFn length = [this](uint32_t id) { return IntConstant(id); };
  for (const Instruction& inst : module.types_values) {
    const Op op = static_cast<Op>(inst.opcode());
    const uint32_t id = inst.result_id();
    switch (op) {
      case Op::OpConstant:
      case Op::OpSpecConstant:
        constants_[id] = {
            op, inst.type_id(),
            inst.NumOperands() ? inst.operand(0).AsLiteral64() : 0};
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
        Declare(inst, length);
    }
  }
}

void TypeTable::Declare(const Instruction& inst, const LengthFn& length) {
  const Op op = static_cast<Op>(inst.opcode());
  const uint32_t id = inst.result_id();
  const OpcodeInfo* info = inst.info();
  if (info == nullptr ||
      std::string_view(info->instr_class) != "Type-Declaration" ||
      op == Op::OpTypeForwardPointer) {
    return;
  }
  TypeInfo& t = types_[id];
  // Start afresh (keeping the decoration) should an id be declared twice.
  const bool packed = t.packed;
  t = TypeInfo{};
  t.packed = packed;
  t.op = op;
  t.id = id;
  const auto& ops = inst.operands();
  auto w = [&ops](size_t i) {
    return i < ops.size() && !ops[i].words.empty() ? ops[i].words[0] : 0u;
  };
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
      // A spec-constant length is unknown until specialization.
      const std::optional<uint64_t> len = length(w(1));
      t.known_length = len.has_value() && *len <= UINT32_MAX;
      t.count = t.known_length ? static_cast<uint32_t>(*len) : 0;
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
  // module that does not is malformed. Dropping such a type keeps layouts
  // well-founded: each is computed from earlier ones only.
  bool components_declared = true;
  auto declared = [this](uint32_t tid) { return Get(tid) != nullptr; };
  if (op == Op::OpTypeVector || op == Op::OpTypeArray ||
      op == Op::OpTypeRuntimeArray) {
    components_declared = declared(t.element) && t.element != id;
  } else if (op == Op::OpTypeStruct) {
    for (uint32_t m : t.members) components_declared &= declared(m) && m != id;
  }
  if (!components_declared) {
    types_.erase(id);
    return;
  }
  layouts_[id] = ComputeLayout(t);
}

const TypeInfo* TypeTable::Get(uint32_t type_id) const {
  auto it = types_.find(type_id);
  if (it == types_.end() || it->second.op == Op::OpNop) return nullptr;
  return &it->second;
}

const TypeTable::Layout* TypeTable::LayoutOf(uint32_t type_id) const {
  auto it = layouts_.find(type_id);
  return it == layouts_.end() ? nullptr : &it->second;
}

TypeTable::Layout TypeTable::ComputeLayout(const TypeInfo& t) const {
  switch (t.op) {
    case Op::OpTypeBool:
      return {1, 1, {}};
    case Op::OpTypeInt:
    case Op::OpTypeFloat: {
      const uint64_t bytes = std::max<uint64_t>(1, t.width / 8);
      return {bytes, bytes, {}};
    }
    case Op::OpTypePointer:
    case Op::OpTypeEvent:
    case Op::OpTypeDeviceEvent:
      return {pointer_size_, pointer_size_, {}};
    case Op::OpTypeVector: {
      // 3-component vectors are sized and aligned as 4 components.
      const Layout* e = LayoutOf(t.element);
      if (e == nullptr || !e->size || t.count == 0) return {};
      const auto size = CheckedMul(*e->size, t.count == 3 ? 4 : t.count);
      if (!size || *size == 0) return {};
      return {size, size, {}};
    }
    case Op::OpTypeArray: {
      const Layout* e = LayoutOf(t.element);
      if (e == nullptr || !e->align) return {};
      if (!t.known_length || !e->size) return {std::nullopt, e->align, {}};
      return {CheckedMul(*e->size, t.count), e->align, {}};
    }
    case Op::OpTypeStruct: {
      Layout layout;
      uint64_t offset = 0, align = 1;
      bool sized = true;  // every member so far has a size, no overflow
      for (uint32_t m : t.members) {
        const Layout* ml = LayoutOf(m);
        if (ml == nullptr || !ml->align) return {};
        const uint64_t ma = t.packed ? 1 : *ml->align;
        align = std::max(align, ma);
        if (!sized) continue;
        const auto start = RoundUp(offset, ma);
        if (!start) {
          sized = false;
          continue;
        }
        layout.member_offsets.push_back(*start);
        sized = ml->size.has_value() &&
                !__builtin_add_overflow(*start, *ml->size, &offset);
      }
      layout.align = align;
      if (sized) layout.size = RoundUp(offset, align);
      return layout;
    }
    default:
      return {};
  }
}

std::optional<uint64_t> TypeTable::AlignOf(uint32_t type_id) const {
  const Layout* l = LayoutOf(type_id);
  return l == nullptr ? std::nullopt : l->align;
}

std::optional<uint64_t> TypeTable::SizeOf(uint32_t type_id) const {
  const Layout* l = LayoutOf(type_id);
  return l == nullptr ? std::nullopt : l->size;
}

std::optional<uint64_t> TypeTable::MemberOffset(uint32_t struct_id,
                                                uint32_t index) const {
  const TypeInfo* t = Get(struct_id);
  if (t == nullptr || t->op != Op::OpTypeStruct) return std::nullopt;
  const Layout* l = LayoutOf(struct_id);
  if (l == nullptr || index >= l->member_offsets.size()) return std::nullopt;
  return l->member_offsets[index];
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
