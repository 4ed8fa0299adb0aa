#include "spirv/builder.h"

namespace l0spv::spirv {

using spv::Op;

namespace {
// Only these are deduplicated: types are structurally unique in SPIR-V
// except structs (which may legitimately repeat with different decorations;
// we still reuse undecorated ones), and constants are pure values.
bool IsDeduplicated(Op op) {
  switch (op) {
    case Op::OpTypeVoid:
    case Op::OpTypeBool:
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
    case Op::OpTypeVector:
    case Op::OpTypeArray:
    case Op::OpTypeStruct:
    case Op::OpTypePointer:
    case Op::OpTypeFunction:
    case Op::OpConstant:
    case Op::OpConstantTrue:
    case Op::OpConstantFalse:
    case Op::OpConstantComposite:
    case Op::OpConstantNull:
      return true;
    default:
      return false;
  }
}
}  // namespace

ModuleBuilder::Key ModuleBuilder::KeyOf(const Instruction& inst) {
  Key key{inst.opcode(), inst.type_id(), {}};
  for (const Operand& op : inst.operands())
    key.words.insert(key.words.end(), op.words.begin(), op.words.end());
  return key;
}

ModuleBuilder::ModuleBuilder(Module& module) : module_(module) {
  absl::flat_hash_map<uint32_t, bool> decorated;
  for (const Instruction& a : module_.annotations) {
    if (a.NumOperands() > 0) decorated[a.word(0)] = true;
  }
  for (const Instruction& inst : module_.types_values) {
    const Op op = static_cast<Op>(inst.opcode());
    if (op == Op::OpTypeInt || op == Op::OpTypeFloat)
      scalar_widths_[inst.result_id()] = inst.word(0);
    // A decorated declaration (e.g. a SpecId constant) is not interchangeable.
    if (!IsDeduplicated(op) || decorated.contains(inst.result_id())) continue;
    unique_.emplace(KeyOf(inst), inst.result_id());
  }
}

uint32_t ModuleBuilder::GetOrAdd(Op op, uint32_t type_id,
                                 std::vector<Operand> operands) {
  Instruction inst(static_cast<uint32_t>(op), type_id, 0, std::move(operands));
  Key key = KeyOf(inst);
  if (auto it = unique_.find(key); it != unique_.end()) return it->second;
  const uint32_t id = TakeNextId();
  inst.set_result_id(id);
  module_.types_values.push_back(std::move(inst));
  unique_.emplace(std::move(key), id);
  if (op == Op::OpTypeInt || op == Op::OpTypeFloat)
    scalar_widths_[id] = module_.types_values.back().word(0);
  return id;
}

uint32_t ModuleBuilder::VoidType() { return GetOrAdd(Op::OpTypeVoid, 0, {}); }
uint32_t ModuleBuilder::BoolType() { return GetOrAdd(Op::OpTypeBool, 0, {}); }

uint32_t ModuleBuilder::IntType(uint32_t width) {
  // The Level Zero environment requires Signedness 0 for every integer type.
  return GetOrAdd(Op::OpTypeInt, 0, {LiteralOperand(width), LiteralOperand(0)});
}

uint32_t ModuleBuilder::FloatType(uint32_t width) {
  return GetOrAdd(Op::OpTypeFloat, 0, {LiteralOperand(width)});
}

uint32_t ModuleBuilder::VectorType(uint32_t component_type, uint32_t count) {
  return GetOrAdd(Op::OpTypeVector, 0,
                  {IdOperand(component_type), LiteralOperand(count)});
}

uint32_t ModuleBuilder::ArrayType(uint32_t element_type, uint32_t length) {
  const uint32_t length_id = IntConstant(IntType(32), length);
  return GetOrAdd(Op::OpTypeArray, 0,
                  {IdOperand(element_type), IdOperand(length_id)});
}

uint32_t ModuleBuilder::StructType(const std::vector<uint32_t>& members) {
  std::vector<Operand> ops;
  for (uint32_t m : members) ops.push_back(IdOperand(m));
  return GetOrAdd(Op::OpTypeStruct, 0, std::move(ops));
}

uint32_t ModuleBuilder::PointerType(spv::StorageClass storage,
                                    uint32_t pointee) {
  return GetOrAdd(
      Op::OpTypePointer, 0,
      {EnumOperand(OperandKind::kStorageClass, static_cast<uint32_t>(storage)),
       IdOperand(pointee)});
}

uint32_t ModuleBuilder::FunctionType(uint32_t return_type,
                                     const std::vector<uint32_t>& params) {
  std::vector<Operand> ops{IdOperand(return_type)};
  for (uint32_t p : params) ops.push_back(IdOperand(p));
  return GetOrAdd(Op::OpTypeFunction, 0, std::move(ops));
}

uint32_t ModuleBuilder::WidthOfType(uint32_t type_id) const {
  auto it = scalar_widths_.find(type_id);
  return it == scalar_widths_.end() ? 32 : it->second;
}

uint32_t ModuleBuilder::IntConstant(uint32_t type_id, uint64_t value) {
  const uint32_t width = WidthOfType(type_id);
  if (width < 64) value &= (uint64_t{1} << width) - 1;
  Operand literal{OperandKind::kLiteralContextDependentNumber,
                  {static_cast<uint32_t>(value)}};
  if (width > 32) literal.words.push_back(static_cast<uint32_t>(value >> 32));
  return GetOrAdd(Op::OpConstant, type_id, {std::move(literal)});
}

uint32_t ModuleBuilder::FloatConstantBits(uint32_t type_id, uint64_t bits) {
  return IntConstant(type_id, bits);  // same encoding: raw bits, low first
}

uint32_t ModuleBuilder::BoolConstant(bool value) {
  return GetOrAdd(value ? Op::OpConstantTrue : Op::OpConstantFalse, BoolType(),
                  {});
}

uint32_t ModuleBuilder::CompositeConstant(
    uint32_t type_id, const std::vector<uint32_t>& components) {
  std::vector<Operand> ops;
  for (uint32_t c : components) ops.push_back(IdOperand(c));
  return GetOrAdd(Op::OpConstantComposite, type_id, std::move(ops));
}

uint32_t ModuleBuilder::NullConstant(uint32_t type_id) {
  return GetOrAdd(Op::OpConstantNull, type_id, {});
}

uint32_t ModuleBuilder::ZeroConstant(uint32_t type_id) {
  if (scalar_widths_.contains(type_id)) return IntConstant(type_id, 0);
  for (const Instruction& t : module_.types_values)
    if (t.result_id() == type_id &&
        t.opcode() == static_cast<uint32_t>(Op::OpTypeBool))
      return BoolConstant(false);
  return NullConstant(type_id);
}

void ModuleBuilder::AddCapability(spv::Capability capability) {
  const uint32_t value = static_cast<uint32_t>(capability);
  for (const Instruction& inst : module_.capabilities) {
    if (inst.word(0) == value) return;
  }
  module_.capabilities.emplace_back(
      static_cast<uint32_t>(Op::OpCapability), 0, 0,
      std::vector<Operand>{EnumOperand(OperandKind::kCapability, value)});
}

void ModuleBuilder::AddExtension(std::string_view name) {
  for (const Instruction& inst : module_.extensions) {
    if (inst.operand(0).AsString() == name) return;
  }
  module_.extensions.emplace_back(static_cast<uint32_t>(Op::OpExtension), 0, 0,
                                  std::vector<Operand>{StringOperand(name)});
}

uint32_t ModuleBuilder::ImportExtInstSet(std::string_view name) {
  for (const Instruction& inst : module_.ext_inst_imports) {
    if (inst.operand(0).AsString() == name) return inst.result_id();
  }
  const uint32_t id = TakeNextId();
  module_.ext_inst_imports.emplace_back(
      static_cast<uint32_t>(Op::OpExtInstImport), 0, id,
      std::vector<Operand>{StringOperand(name)});
  return id;
}

}  // namespace l0spv::spirv
