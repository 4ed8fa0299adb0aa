#include "oracles/reference/decode.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "oracles/reference/numeric.h"
#include "oracles/reference/opencl_std.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference {
namespace {

using spirv::Instruction;
using spv::Op;

// Frames and register values are kept well below 4 GiB so every offset
// computation in the executor fits comfortably in 32 bits.
constexpr uint64_t kMaxFrameBytes = uint64_t{1} << 28;
constexpr uint64_t kMaxObjectBytes = (uint64_t{1} << 32) - 1;

struct TypeDesc {
  enum Cls {
    kVoid,
    kBool,
    kInt,
    kFloat,
    kVector,
    kArray,
    kStruct,
    kPointer,
    kFunction,
    kOpaque
  } cls = kOpaque;
  uint32_t width = 0;  // int/float bits
  uint32_t lanes = 1;  // vector components
  uint32_t elem = 0;   // vector/array element, pointee
  uint64_t count = 0;  // array length
  bool sized = false;
  uint64_t size = 0;
  uint64_t align = 1;
  uint32_t storage = 0;       // pointers
  uint32_t array_stride = 0;  // pointers: ArrayStride decoration
  std::vector<uint32_t> members;
  std::vector<uint64_t> offsets;
  uint32_t return_type = 0;
  std::vector<uint32_t> params;
};

struct Decorations {
  bool saturated = false;
  int rounding = -1;
  int builtin = -1;
  uint32_t array_stride = 0;
  bool packed = false;
  bool byval = false;
  uint32_t alignment = 0;
};

struct ModValue {
  uint32_t type = 0;
  std::vector<uint8_t> bytes;
};

// A value's shape in registers.
struct Shape {
  Kind k = kAgg;
  uint8_t n = 1;
  uint32_t bytes = 0;   // register bytes (layout size)
  uint32_t access = 0;  // bytes a load/store moves (vec3: 3 lanes)
};

absl::Status Bad(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("reference decoder: ", what));
}
absl::Status Unimpl(absl::string_view what) {
  return absl::UnimplementedError(what);
}

bool IsTerminator(reference::Op op) {
  switch (op) {
    case reference::Op::kBranch:
    case reference::Op::kBranchCond:
    case reference::Op::kSwitch:
    case reference::Op::kReturn:
    case reference::Op::kReturnValue:
    case reference::Op::kUnreachable:
    case reference::Op::kTrapUnsupported:
      return true;
    default:
      return false;
  }
}

std::string OpName(uint32_t opcode) {
  const spirv::OpcodeInfo* info = spirv::FindOpcode(opcode);
  return info ? info->name : absl::StrCat("opcode ", opcode);
}

class Decoder {
  using Op_ = reference::Op;

 public:
  Decoder(const spirv::Module& m, absl::string_view entry)
      : m_(m), entry_(entry) {}

  absl::StatusOr<Program> Run();

 private:
  // ---- module level ----
  absl::Status DecodeHeader();
  absl::Status DecodeDecorations();
  absl::Status DecodeType(const Instruction& inst);
  absl::Status DecodeConstant(const Instruction& inst);
  absl::Status DecodeGlobalVariable(const Instruction& inst);
  absl::Status DecodeSpecConstantOp(const Instruction& inst);
  // Composite, float, conversion and bitcast OpSpecConstantOp operations;
  // an empty string on success, else why the value cannot be computed.
  std::string EvaluateSpecOp(const Instruction& inst, const Shape& rshape,
                             ModValue* v);
  // Byte offset and type of the member `indices` names inside `type`.
  std::optional<std::pair<uint64_t, uint32_t>> MemberAt(
      uint32_t type, const std::vector<uint32_t>& indices) const;
  const TypeDesc* Type(uint32_t id) const {
    auto it = types_.find(id);
    return it == types_.end() ? nullptr : &it->second;
  }
  const Decorations* Deco(uint32_t id) const {
    auto it = decorations_.find(id);
    return it == decorations_.end() ? nullptr : &it->second;
  }
  absl::StatusOr<Shape> ShapeOf(uint32_t type_id) const;
  std::optional<uint64_t> ConstantInt(uint32_t id) const;

  // ---- functions ----
  absl::Status DecodeFunction(const spirv::Function& f, uint32_t index);
  absl::Status Translate(const Instruction& inst);
  absl::Status TranslateExtInst(const Instruction& inst);
  absl::StatusOr<uint32_t> Slot(uint32_t id);
  absl::StatusOr<uint32_t> TypeOfValue(uint32_t id) const;
  absl::StatusOr<uint32_t> AllocSlot(uint64_t bytes);
  absl::StatusOr<uint32_t> ConstSlot(const std::vector<uint8_t>& bytes);
  absl::StatusOr<uint32_t> MakeEdge(uint32_t from_label, uint32_t to_label);
  void Emit(const Inst& inst, const Instruction& origin) {
    prog_.insts.push_back(inst);
    prog_.origins.push_back(
        {origin.opcode(), origin.result_id(), current_function_});
  }
  void EmitTrap(const Instruction& origin, std::string message) {
    Inst t{Op_::kTrapUnsupported};
    t.d = static_cast<uint32_t>(prog_.messages.size());
    prog_.messages.push_back(std::move(message));
    Emit(t, origin);
  }
  absl::Status Unsupported(const Instruction& inst, absl::string_view why) {
    EmitTrap(inst, absl::StrCat(OpName(inst.opcode()), " ", why));
    return absl::OkStatus();
  }
  absl::StatusOr<uint32_t> Id(const Instruction& inst, size_t i) const {
    if (i >= inst.NumOperands() || inst.operand(i).words.empty())
      return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                              ": operand ", i, " missing"));
    return inst.operand(i).words[0];
  }
  absl::StatusOr<uint32_t> ScopeOf(const Instruction& inst, size_t i) const;

  // Translation helpers for families.
  absl::Status IntFamily(const Instruction& inst, Op_ base8, bool binary);
  absl::Status IntCompare(const Instruction& inst, Op_ base8);
  absl::Status FloatFamily(const Instruction& inst, Op_ base16, int arity);
  absl::Status Convert(const Instruction& inst, bool from_signed,
                       bool to_signed, bool saturate);
  absl::Status AccessChain(const Instruction& inst, bool ptr_chain);
  absl::Status Atomic(const Instruction& inst, Op_ op);
  absl::Status Group(const Instruction& inst, GroupOp op, bool has_mode);
  absl::Status IntelSubgroup(const Instruction& inst, GroupOp op);
  absl::Status NonUniform(const Instruction& inst, GroupOp op);
  // Emits the kGroup instruction running `g`, whose result has `shape`.
  absl::Status EmitGroupCall(const Instruction& inst, GroupCall g,
                             const Shape& shape);
  absl::Status AsyncCopy(const Instruction& inst);
  absl::Status WaitEvents(const Instruction& inst);
  // The value `id` occupies at least `bytes` bytes (guards byte copies on
  // modules that skipped validation).
  absl::Status NeedBytes(uint32_t id, uint64_t bytes) const {
    auto t = TypeOfValue(id);
    if (!t.ok()) return t.status();
    auto s = ShapeOf(*t);
    if (!s.ok()) return s.status();
    if (s->bytes < bytes)
      return Bad(absl::StrCat("value %", id, " is smaller than its use"));
    return absl::OkStatus();
  }

  const spirv::Module& m_;
  absl::string_view entry_;
  Program prog_;
  absl::flat_hash_map<uint32_t, TypeDesc> types_;
  absl::flat_hash_map<uint32_t, Decorations> decorations_;
  absl::flat_hash_map<uint32_t, ModValue> values_;
  absl::flat_hash_map<uint32_t, std::string> names_;
  // Module-level values the interpreter cannot compute (why, by id).
  absl::flat_hash_map<uint32_t, std::string> unsupported_values_;
  absl::flat_hash_map<uint32_t, uint32_t> function_index_;
  absl::flat_hash_map<uint32_t, uint32_t> function_type_;
  uint32_t opencl_std_ = 0;
  uint32_t entry_id_ = 0;

  // Per function being decoded.
  uint32_t current_function_ = 0;
  FunctionInfo* fn_ = nullptr;
  absl::flat_hash_map<uint32_t, uint32_t> slots_;
  absl::flat_hash_map<uint32_t, uint32_t> local_types_;
  absl::flat_hash_map<uint32_t, uint32_t> block_index_;
  std::vector<std::vector<const Instruction*>> block_phis_;
  std::vector<uint32_t> block_pc_;
  std::vector<std::pair<uint32_t, uint32_t>> pending_edges_;  // edge, block
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> template_writes_;
  uint32_t current_label_ = 0;
};

absl::Status Decoder::DecodeHeader() {
  if (m_.memory_model.empty() || m_.memory_model[0].NumOperands() < 2)
    return Bad("no OpMemoryModel");
  const uint32_t addressing = m_.memory_model[0].word(0);
  const uint32_t model = m_.memory_model[0].word(1);
  if (addressing != static_cast<uint32_t>(spv::AddressingModel::Physical64))
    return Unimpl(
        "reference interpreter: only the Physical64 addressing model "
        "is supported");
  if (model != static_cast<uint32_t>(spv::MemoryModel::OpenCL))
    return Unimpl(
        "reference interpreter: only the OpenCL memory model is "
        "supported");
  for (const Instruction& inst : m_.ext_inst_imports) {
    if (inst.NumOperands() >= 1 && inst.operand(0).AsString() == "OpenCL.std")
      opencl_std_ = inst.result_id();
  }
  for (const Instruction& inst : m_.debug_names) {
    if (static_cast<Op>(inst.opcode()) == Op::OpName && inst.NumOperands() >= 2)
      names_[inst.word(0)] = inst.operand(1).AsString();
  }
  for (const Instruction& inst : m_.entry_points) {
    if (inst.NumOperands() < 3) continue;
    if (inst.word(0) == static_cast<uint32_t>(spv::ExecutionModel::Kernel) &&
        inst.operand(2).AsString() == entry_) {
      entry_id_ = inst.word(1);
      names_[entry_id_] = std::string(entry_);
    }
  }
  if (entry_id_ == 0)
    return Bad(absl::StrCat("no Kernel entry point named \"", entry_, "\""));
  for (const Instruction& inst : m_.execution_modes) {
    if (inst.NumOperands() >= 5 && inst.word(0) == entry_id_ &&
        inst.word(1) == static_cast<uint32_t>(spv::ExecutionMode::LocalSize)) {
      for (int i = 0; i < 3; ++i) prog_.reqd_local_size[i] = inst.word(2 + i);
    }
  }
  return absl::OkStatus();
}

absl::Status Decoder::DecodeDecorations() {
  absl::flat_hash_map<uint32_t, std::vector<const Instruction*>> groups;
  auto apply = [this](uint32_t target, const Instruction& d) {
    if (d.NumOperands() < 2) return;
    Decorations& out = decorations_[target];
    const auto deco = static_cast<spv::Decoration>(d.word(1));
    const uint32_t arg = d.NumOperands() >= 3 ? d.word(2) : 0;
    switch (deco) {
      case spv::Decoration::SaturatedConversion:
        out.saturated = true;
        break;
      case spv::Decoration::FPRoundingMode:
        out.rounding = static_cast<int>(arg);
        break;
      case spv::Decoration::BuiltIn:
        out.builtin = static_cast<int>(arg);
        break;
      case spv::Decoration::ArrayStride:
        out.array_stride = arg;
        break;
      case spv::Decoration::CPacked:
        out.packed = true;
        break;
      case spv::Decoration::FuncParamAttr:
        if (arg ==
            static_cast<uint32_t>(spv::FunctionParameterAttribute::ByVal))
          out.byval = true;
        break;
      case spv::Decoration::Alignment:
        out.alignment = arg;
        break;
      default:
        break;
    }
  };
  for (const Instruction& inst : m_.annotations) {
    const auto op = static_cast<Op>(inst.opcode());
    if (op == Op::OpDecorate && inst.NumOperands() >= 2) {
      apply(inst.word(0), inst);
      groups[inst.word(0)].push_back(&inst);
    }
  }
  for (const Instruction& inst : m_.annotations) {
    if (static_cast<Op>(inst.opcode()) != Op::OpGroupDecorate ||
        inst.NumOperands() < 1)
      continue;
    auto it = groups.find(inst.word(0));
    if (it == groups.end()) continue;
    for (size_t i = 1; i < inst.NumOperands(); ++i) {
      for (const Instruction* d : it->second) apply(inst.word(i), *d);
    }
  }
  return absl::OkStatus();
}

absl::Status Decoder::DecodeType(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  const uint32_t id = inst.result_id();
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
  switch (op) {
    case Op::OpTypeVoid:
      t.cls = TypeDesc::kVoid;
      break;
    case Op::OpTypeBool:
      t.cls = TypeDesc::kBool;
      t.sized = true;
      t.size = t.align = 1;
      break;
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
      t.cls = op == Op::OpTypeInt ? TypeDesc::kInt : TypeDesc::kFloat;
      t.width = w(0);
      if (op == Op::OpTypeInt
              ? (t.width != 8 && t.width != 16 && t.width != 32 &&
                 t.width != 64)
              : (t.width != 16 && t.width != 32 && t.width != 64)) {
        t.cls = TypeDesc::kOpaque;  // unsupported width: no storage
        break;
      }
      t.sized = true;
      t.size = t.align = t.width / 8;
      break;
    case Op::OpTypeVector: {
      const TypeDesc* e = sized(w(0));
      t.cls = TypeDesc::kVector;
      t.elem = w(0);
      t.lanes = w(1);
      if (e == nullptr ||
          (e->cls != TypeDesc::kInt && e->cls != TypeDesc::kFloat &&
           e->cls != TypeDesc::kBool) ||
          !(t.lanes == 2 || t.lanes == 3 || t.lanes == 4 || t.lanes == 8 ||
            t.lanes == 16)) {
        t.cls = TypeDesc::kOpaque;
        break;
      }
      t.sized = true;
      t.size = t.align = e->size * (t.lanes == 3 ? 4 : t.lanes);
      break;
    }
    case Op::OpTypeArray: {
      const TypeDesc* e = sized(w(0));
      auto len = values_.find(w(1));
      t.cls = TypeDesc::kArray;
      t.elem = w(0);
      if (e == nullptr || len == values_.end()) {
        t.cls = TypeDesc::kOpaque;
        break;
      }
      uint64_t n = 0;
      std::memcpy(&n, len->second.bytes.data(),
                  std::min<size_t>(8, len->second.bytes.size()));
      t.count = n;
      if (n == 0 || (e->size != 0 && n > kMaxObjectBytes / e->size)) {
        t.cls = TypeDesc::kOpaque;
        break;
      }
      t.sized = true;
      t.size = e->size * n;
      t.align = e->align;
      break;
    }
    case Op::OpTypeStruct: {
      t.cls = TypeDesc::kStruct;
      const Decorations* d = Deco(id);
      const bool packed = d && d->packed;
      uint64_t off = 0, align = 1;
      t.sized = true;
      for (size_t i = 0; i < inst.NumOperands(); ++i) {
        const TypeDesc* mt = sized(w(i));
        if (mt == nullptr) {
          t.sized = false;
          break;
        }
        const uint64_t a = packed ? 1 : mt->align;
        off = (off + a - 1) / a * a;
        t.members.push_back(w(i));
        t.offsets.push_back(off);
        off += mt->size;
        align = std::max(align, a);
        if (off > kMaxObjectBytes) {
          t.sized = false;
          break;
        }
      }
      if (!t.sized) {
        t.cls = TypeDesc::kOpaque;
        break;
      }
      t.size = (off + align - 1) / align * align;
      t.align = align;
      break;
    }
    case Op::OpTypePointer:
      t.cls = TypeDesc::kPointer;
      t.storage = w(0);
      t.elem = w(1);
      t.sized = true;
      t.size = t.align = 8;
      if (const Decorations* d = Deco(id)) t.array_stride = d->array_stride;
      break;
    case Op::OpTypeFunction:
      t.cls = TypeDesc::kFunction;
      t.return_type = w(0);
      for (size_t i = 1; i < inst.NumOperands(); ++i) t.params.push_back(w(i));
      break;
    case Op::OpTypeForwardPointer:
      return absl::OkStatus();
    case Op::OpTypeEvent:
      // An event is a 64-bit handle (0: no event; else the async copy's
      // number within the work-group).
      t.cls = TypeDesc::kOpaque;
      t.sized = true;
      t.size = t.align = 8;
      break;
    default:
      t.cls = TypeDesc::kOpaque;  // images, events, ...: no storage
      break;
  }
  types_[id] = std::move(t);
  return absl::OkStatus();
}

absl::StatusOr<Shape> Decoder::ShapeOf(uint32_t type_id) const {
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

std::optional<uint64_t> Decoder::ConstantInt(uint32_t id) const {
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

absl::Status Decoder::DecodeConstant(const Instruction& inst) {
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

// Evaluates OpSpecConstantOp with the specialization constants' defaults
// (a TestCase sets no specialization). Integer, logical, conversion,
// select and composite operations are computed lane by lane; anything else
// makes the id unsupported, reported where it is used.
std::optional<std::pair<uint64_t, uint32_t>> Decoder::MemberAt(
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

std::string Decoder::EvaluateSpecOp(const Instruction& inst,
                                    const Shape& rshape, ModValue* v) {
  const auto sop = static_cast<Op>(inst.word(0));
  auto value = [&](size_t operand) -> const ModValue* {
    if (operand >= inst.NumOperands()) return nullptr;
    auto it = values_.find(inst.word(operand));
    return it == values_.end() ? nullptr : &it->second;
  };
  auto literals = [&](size_t from) {
    std::vector<uint32_t> out;
    for (size_t i = from; i < inst.NumOperands(); ++i)
      out.push_back(inst.word(i));
    return out;
  };
  std::vector<uint8_t>& out = v->bytes;
  switch (sop) {
    case Op::OpCompositeExtract: {
      const ModValue* c = value(1);
      if (c == nullptr) return "composite operand is not known";
      auto at = MemberAt(c->type, literals(2));
      if (!at || at->first + out.size() > c->bytes.size())
        return "CompositeExtract indices do not fit the composite";
      std::memcpy(out.data(), c->bytes.data() + at->first, out.size());
      return "";
    }
    case Op::OpCompositeInsert: {
      const ModValue* obj = value(1);
      const ModValue* c = value(2);
      if (obj == nullptr || c == nullptr) return "operand is not known";
      if (c->bytes.size() != out.size()) return "composite type mismatch";
      out = c->bytes;
      auto at = MemberAt(c->type, literals(3));
      if (!at || at->first + obj->bytes.size() > out.size())
        return "CompositeInsert indices do not fit the composite";
      std::memcpy(out.data() + at->first, obj->bytes.data(), obj->bytes.size());
      return "";
    }
    case Op::OpVectorShuffle: {
      const ModValue* a = value(1);
      const ModValue* b = value(2);
      if (a == nullptr || b == nullptr) return "operand is not known";
      auto sa = ShapeOf(a->type);
      if (!sa.ok() || rshape.k == kAgg) return "operand type";
      const uint32_t lb = KindBytes(rshape.k);
      const std::vector<uint32_t> lanes = literals(3);
      if (lanes.size() != rshape.n) return "component count mismatch";
      for (size_t l = 0; l < lanes.size(); ++l) {
        const uint32_t c = lanes[l];
        if (c == 0xFFFFFFFFu) continue;  // undefined lane: zero
        const ModValue* src = c < sa->n ? a : b;
        const uint64_t at = uint64_t{c < sa->n ? c : c - sa->n} * lb;
        if (at + lb > src->bytes.size()) return "component out of range";
        std::memcpy(out.data() + l * lb, src->bytes.data() + at, lb);
      }
      return "";
    }
    case Op::OpBitcast: {
      const ModValue* a = value(1);
      if (a == nullptr) return "operand is not known";
      auto sa = ShapeOf(a->type);
      if (!sa.ok() || sa->access != rshape.access)
        return "Bitcast between types of different sizes";
      std::memcpy(out.data(), a->bytes.data(), rshape.access);
      return "";
    }
    case Op::OpFConvert:
    case Op::OpConvertFToS:
    case Op::OpConvertFToU:
    case Op::OpConvertSToF:
    case Op::OpConvertUToF: {
      const ModValue* a = value(1);
      if (a == nullptr) return "operand is not known";
      auto sa = ShapeOf(a->type);
      if (!sa.ok() || sa->k == kAgg || sa->n != rshape.n) return "operand type";
      ConvertSpec spec;
      spec.from = sa->k;
      spec.to = rshape.k;
      spec.from_signed = sop == Op::OpConvertSToF;
      spec.to_signed = sop == Op::OpConvertFToS;
      if (const Decorations* d = Deco(inst.result_id())) {
        spec.saturate = d->saturated;
        if (d->rounding >= 0 && d->rounding <= 3) {
          spec.default_rounding = false;
          spec.mode = static_cast<RoundMode>(d->rounding);
        }
      }
      if (ConvertLanes(spec, a->bytes.data(), out.data(), rshape.n, false) >= 0)
        return "float to integer conversion out of range";
      return "";
    }
    case Op::OpFNegate:
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFRem:
    case Op::OpFMod: {
      const ModValue* a = value(1);
      const ModValue* b = sop == Op::OpFNegate ? a : value(2);
      if (a == nullptr || b == nullptr) return "operand is not known";
      if (rshape.k < kF16 || rshape.k > kF64 || a->bytes.size() < out.size() ||
          b->bytes.size() < out.size())
        return "operand type";
      const uint32_t lb = KindBytes(rshape.k);
      for (uint32_t l = 0; l < rshape.n; ++l) {
        // Half and float lanes in float, doubles in double: one rounding to
        // the lane format, as the executor does.
        auto get = [&](const ModValue* m) -> double {
          const uint8_t* p = m->bytes.data() + l * lb;
          if (rshape.k == kF16) {
            uint16_t h;
            std::memcpy(&h, p, 2);
            return HalfToFloat(h);
          }
          if (rshape.k == kF32) {
            float f;
            std::memcpy(&f, p, 4);
            return f;
          }
          double d;
          std::memcpy(&d, p, 8);
          return d;
        };
        auto compute = [&](auto x, auto y) {
          using C = decltype(x);
          switch (sop) {
            case Op::OpFNegate:
              return static_cast<C>(-x);
            case Op::OpFAdd:
              return static_cast<C>(x + y);
            case Op::OpFSub:
              return static_cast<C>(x - y);
            case Op::OpFMul:
              return static_cast<C>(x * y);
            case Op::OpFDiv:
              return static_cast<C>(x / y);
            case Op::OpFRem:
              return static_cast<C>(std::fmod(x, y));
            default: {
              C r = std::fmod(x, y);
              if (r != 0 && std::signbit(r) != std::signbit(y)) r += y;
              return r;
            }
          }
        };
        uint8_t* p = out.data() + l * lb;
        if (rshape.k == kF64) {
          const double r = compute(get(a), get(b));
          std::memcpy(p, &r, 8);
        } else {
          const float r =
              compute(static_cast<float>(get(a)), static_cast<float>(get(b)));
          if (rshape.k == kF32) {
            std::memcpy(p, &r, 4);
          } else {
            uint16_t h = FloatToHalf(r);
            if (sop == Op::OpFNegate) {
              std::memcpy(&h, a->bytes.data() + l * lb, 2);
              h ^= 0x8000u;
            }
            std::memcpy(p, &h, 2);
          }
        }
      }
      return "";
    }
    default:
      return absl::StrCat(OpName(inst.word(0)), " is not evaluated");
  }
}

absl::Status Decoder::DecodeSpecConstantOp(const Instruction& inst) {
  const uint32_t id = inst.result_id();
  auto fail = [&](std::string why) {
    unsupported_values_[id] = absl::StrCat("OpSpecConstantOp %", id, ": ", why);
    return absl::OkStatus();
  };
  if (inst.NumOperands() < 1) return Bad("OpSpecConstantOp without opcode");
  const auto sop = static_cast<Op>(inst.word(0));
  auto rshape = ShapeOf(inst.type_id());
  if (!rshape.ok()) return fail("unsupported result type");
  std::vector<const ModValue*> args;
  for (size_t i = 1; i < inst.NumOperands(); ++i) {
    if (!spirv::IsIdKind(inst.operand(i).kind)) continue;
    auto it = values_.find(inst.word(i));
    if (it == values_.end())
      return fail(absl::StrCat("operand %", inst.word(i), " is not known"));
    args.push_back(&it->second);
  }
  ModValue v;
  v.type = inst.type_id();
  v.bytes.assign(rshape->bytes, 0);
  if (args.empty()) return fail("no operands");
  auto shape0 = ShapeOf(args[0]->type);
  if (!shape0.ok()) return fail("operand type");
  const Kind k = shape0->k;
  const uint32_t eb = KindBytes(k), rb = KindBytes(rshape->k);
  if (sop == Op::OpCompositeExtract || sop == Op::OpCompositeInsert ||
      sop == Op::OpVectorShuffle || sop == Op::OpBitcast || k == kAgg ||
      rshape->k == kAgg || k >= kF16 || rshape->k >= kF16) {
    std::string why = EvaluateSpecOp(inst, *rshape, &v);
    if (!why.empty()) return fail(why);
    values_[id] = std::move(v);
    return absl::OkStatus();
  }
  const int bits = static_cast<int>(eb) * 8;
  auto lane = [&](size_t a, int l, bool sign) -> uint64_t {
    if (a >= args.size()) return 0;
    auto sh = ShapeOf(args[a]->type);
    const uint32_t b = sh.ok() ? KindBytes(sh->k) : 1;
    const int lane_index = sh.ok() && sh->n == 1 ? 0 : l;
    uint64_t x = 0;
    if ((lane_index + 1) * b <= args[a]->bytes.size())
      std::memcpy(&x, args[a]->bytes.data() + lane_index * b, b);
    if (sign && b < 8) {
      const uint64_t sbit = uint64_t{1} << (b * 8 - 1);
      x = (x ^ sbit) - sbit;
    }
    return x;
  };
  for (int l = 0; l < rshape->n; ++l) {
    const uint64_t a = lane(0, l, false), b = lane(1, l, false);
    const int64_t sa = static_cast<int64_t>(lane(0, l, true));
    const int64_t sb = static_cast<int64_t>(lane(1, l, true));
    uint64_t r = 0;
    switch (sop) {
      case Op::OpUConvert:
        r = a;
        break;
      case Op::OpSConvert:
        r = static_cast<uint64_t>(sa);
        break;
      case Op::OpIAdd:
        r = a + b;
        break;
      case Op::OpISub:
        r = a - b;
        break;
      case Op::OpIMul:
        r = a * b;
        break;
      case Op::OpUDiv:
      case Op::OpUMod:
        if (b == 0) return fail("division by zero");
        r = sop == Op::OpUDiv ? a / b : a % b;
        break;
      case Op::OpSDiv:
      case Op::OpSRem:
      case Op::OpSMod: {
        if (sb == 0 || (sb == -1 && bits == 64 &&
                        sa == std::numeric_limits<int64_t>::min()))
          return fail("division by zero or overflow");
        const __int128 q = static_cast<__int128>(sa) / sb;
        __int128 m = static_cast<__int128>(sa) % sb;
        if (sop == Op::OpSMod && m != 0 && ((m < 0) != (sb < 0))) m += sb;
        r = static_cast<uint64_t>(sop == Op::OpSDiv ? q : m);
        break;
      }
      case Op::OpShiftLeftLogical:
      case Op::OpShiftRightLogical:
      case Op::OpShiftRightArithmetic:
        if (b >= static_cast<uint64_t>(bits)) return fail("shift out of range");
        r = sop == Op::OpShiftLeftLogical    ? a << b
            : sop == Op::OpShiftRightLogical ? a >> b
                                             : static_cast<uint64_t>(sa >> b);
        break;
      case Op::OpBitwiseAnd:
        r = a & b;
        break;
      case Op::OpBitwiseOr:
        r = a | b;
        break;
      case Op::OpBitwiseXor:
        r = a ^ b;
        break;
      case Op::OpNot:
        r = ~a;
        break;
      case Op::OpSNegate:
        r = 0 - a;
        break;
      case Op::OpIEqual:
      case Op::OpLogicalEqual:
        r = a == b;
        break;
      case Op::OpINotEqual:
      case Op::OpLogicalNotEqual:
        r = a != b;
        break;
      case Op::OpULessThan:
        r = a < b;
        break;
      case Op::OpSLessThan:
        r = sa < sb;
        break;
      case Op::OpUGreaterThan:
        r = a > b;
        break;
      case Op::OpSGreaterThan:
        r = sa > sb;
        break;
      case Op::OpULessThanEqual:
        r = a <= b;
        break;
      case Op::OpSLessThanEqual:
        r = sa <= sb;
        break;
      case Op::OpUGreaterThanEqual:
        r = a >= b;
        break;
      case Op::OpSGreaterThanEqual:
        r = sa >= sb;
        break;
      case Op::OpLogicalAnd:
        r = (a != 0) && (b != 0);
        break;
      case Op::OpLogicalOr:
        r = (a != 0) || (b != 0);
        break;
      case Op::OpLogicalNot:
        r = a == 0;
        break;
      case Op::OpSelect:
        r = a != 0 ? lane(1, l, false) : lane(2, l, false);
        break;
      default:
        return fail(absl::StrCat(OpName(inst.word(0)), " is not evaluated"));
    }
    std::memcpy(v.bytes.data() + l * rb, &r, rb);
  }
  values_[id] = std::move(v);
  return absl::OkStatus();
}

absl::Status Decoder::DecodeGlobalVariable(const Instruction& inst) {
  const uint32_t id = inst.result_id();
  const TypeDesc* pt = Type(inst.type_id());
  if (pt == nullptr || pt->cls != TypeDesc::kPointer || inst.NumOperands() < 1)
    return Bad(absl::StrCat("global variable %", id, " has no pointer type"));
  const uint32_t sc = inst.word(0);
  StaticAlloc a;
  a.storage_class = sc;
  const Decorations* d = Deco(id);
  if (sc == kScInput) {
    if (d == nullptr || d->builtin < 0)
      return Unimpl(
          absl::StrCat("Input variable %", id, " is not a supported BuiltIn"));
    const TypeDesc* vt = Type(pt->elem);
    const TypeDesc* st =
        vt && vt->cls == TypeDesc::kVector ? Type(vt->elem) : vt;
    // The subgroup masks are uvec4; every other builtin is a 32/64-bit
    // integer or a 3-vector of them.
    const bool mask =
        d->builtin >= static_cast<int>(spv::BuiltIn::SubgroupEqMask) &&
        d->builtin <= static_cast<int>(spv::BuiltIn::SubgroupLtMask);
    if (st == nullptr || st->cls != TypeDesc::kInt ||
        (st->width != 32 && st->width != 64) ||
        (mask &&
         (vt->cls != TypeDesc::kVector || vt->lanes != 4 || st->width != 32)) ||
        (!mask && vt->cls == TypeDesc::kVector && vt->lanes != 3))
      return Unimpl(
          absl::StrCat("BuiltIn variable %", id, " has an unsupported type"));
    static constexpr std::pair<spv::BuiltIn, Builtin> kMap[] = {
        {spv::BuiltIn::GlobalInvocationId, Builtin::kGlobalInvocationId},
        {spv::BuiltIn::LocalInvocationId, Builtin::kLocalInvocationId},
        {spv::BuiltIn::WorkgroupId, Builtin::kWorkgroupId},
        {spv::BuiltIn::NumWorkgroups, Builtin::kNumWorkgroups},
        {spv::BuiltIn::GlobalSize, Builtin::kGlobalSize},
        {spv::BuiltIn::WorkgroupSize, Builtin::kWorkgroupSize},
        {spv::BuiltIn::EnqueuedWorkgroupSize, Builtin::kEnqueuedWorkgroupSize},
        {spv::BuiltIn::GlobalOffset, Builtin::kGlobalOffset},
        {spv::BuiltIn::WorkDim, Builtin::kWorkDim},
        {spv::BuiltIn::GlobalLinearId, Builtin::kGlobalLinearId},
        {spv::BuiltIn::LocalInvocationIndex, Builtin::kLocalInvocationIndex},
        {spv::BuiltIn::SubgroupSize, Builtin::kSubgroupSize},
        {spv::BuiltIn::SubgroupMaxSize, Builtin::kSubgroupMaxSize},
        {spv::BuiltIn::NumSubgroups, Builtin::kNumSubgroups},
        {spv::BuiltIn::NumEnqueuedSubgroups, Builtin::kNumEnqueuedSubgroups},
        {spv::BuiltIn::SubgroupId, Builtin::kSubgroupId},
        {spv::BuiltIn::SubgroupLocalInvocationId,
         Builtin::kSubgroupLocalInvocationId},
        {spv::BuiltIn::SubgroupEqMask, Builtin::kSubgroupEqMask},
        {spv::BuiltIn::SubgroupGeMask, Builtin::kSubgroupGeMask},
        {spv::BuiltIn::SubgroupGtMask, Builtin::kSubgroupGtMask},
        {spv::BuiltIn::SubgroupLeMask, Builtin::kSubgroupLeMask},
        {spv::BuiltIn::SubgroupLtMask, Builtin::kSubgroupLtMask},
    };
    bool found = false;
    for (const auto& [spv_b, b] : kMap) {
      if (static_cast<int>(spv_b) == d->builtin) {
        a.builtin = b;
        found = true;
      }
    }
    if (!found)
      return Unimpl(absl::StrCat(
          "BuiltIn ",
          std::string(spirv::EnumerantName(spirv::OperandKind::kBuiltIn,
                                           static_cast<uint32_t>(d->builtin))),
          " is not supported by the reference interpreter"));
    a.kind = AllocKind::kBuiltin;
    a.read_only = true;
    a.builtin_lanes =
        static_cast<uint8_t>(vt->cls == TypeDesc::kVector ? vt->lanes : 1);
    a.builtin_lane_bytes = static_cast<uint8_t>(st->width / 8);
    a.bytes = vt->size;
    a.builtin_offset = prog_.builtin_block_bytes;
    prog_.builtin_block_bytes += 32;
  } else if (sc == kScUniformConstant || sc == kScCrossWorkgroup ||
             sc == kScWorkgroup) {
    const TypeDesc* vt = Type(pt->elem);
    if (vt == nullptr || !vt->sized)
      return Unimpl(
          absl::StrCat("global variable %", id, " has a type without storage"));
    a.kind = sc == kScWorkgroup ? AllocKind::kWorkgroupVariable
                                : AllocKind::kGlobalVariable;
    a.bytes = vt->size;
    a.read_only = sc == kScUniformConstant;
    if (inst.NumOperands() >= 2) {
      auto init = values_.find(inst.word(1));
      if (init == values_.end())
        return Bad(absl::StrCat("global variable %", id,
                                ": initializer is not a constant"));
      a.init = init->second.bytes;
      a.init.resize(a.bytes, 0);
    }
  } else {
    return Unimpl(absl::StrCat("global variable %", id, " in storage class ",
                               std::string(spirv::EnumerantName(
                                   spirv::OperandKind::kStorageClass, sc)),
                               " is not supported"));
  }
  prog_.static_allocs.push_back(std::move(a));
  ModValue v;
  v.type = inst.type_id();
  v.bytes.resize(8);
  const uint64_t p = uint64_t{static_cast<uint32_t>(prog_.static_allocs.size())}
                     << 32;
  std::memcpy(v.bytes.data(), &p, 8);
  values_[id] = std::move(v);
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> Decoder::AllocSlot(uint64_t bytes) {
  uint64_t off = (uint64_t{fn_->frame_bytes} + 7) & ~uint64_t{7};
  if (off + bytes + 8 > kMaxFrameBytes)
    return Unimpl("a function's values exceed the interpreter's frame limit");
  fn_->frame_bytes = static_cast<uint32_t>(off + std::max<uint64_t>(bytes, 1));
  return static_cast<uint32_t>(off);
}

absl::StatusOr<uint32_t> Decoder::ConstSlot(const std::vector<uint8_t>& bytes) {
  auto slot = AllocSlot(bytes.size());
  if (!slot.ok()) return slot.status();
  template_writes_.push_back({*slot, bytes});
  return *slot;
}

absl::StatusOr<uint32_t> Decoder::Slot(uint32_t id) {
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

absl::StatusOr<uint32_t> Decoder::TypeOfValue(uint32_t id) const {
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

absl::StatusOr<uint32_t> Decoder::ScopeOf(const Instruction& inst,
                                          size_t i) const {
  auto id = Id(inst, i);
  if (!id.ok()) return id.status();
  auto v = ConstantInt(*id);
  if (!v)
    return Bad(
        absl::StrCat(OpName(inst.opcode()), ": scope is not a constant"));
  return static_cast<uint32_t>(*v);
}

absl::StatusOr<uint32_t> Decoder::MakeEdge(uint32_t from_label,
                                           uint32_t to_label) {
  auto bi = block_index_.find(to_label);
  if (bi == block_index_.end())
    return Bad(absl::StrCat("branch to %", to_label,
                            ", which is not a block of the function"));
  Edge e;
  e.moves = static_cast<uint32_t>(prog_.moves.size());
  for (const Instruction* phi : block_phis_[bi->second]) {
    bool found = false;
    for (size_t i = 0; i + 1 < phi->NumOperands(); i += 2) {
      if (phi->word(i + 1) != from_label) continue;
      auto src = Slot(phi->word(i));
      if (!src.ok()) return src.status();
      auto dst = Slot(phi->result_id());
      if (!dst.ok()) return dst.status();
      auto shape = ShapeOf(phi->type_id());
      if (!shape.ok()) return shape.status();
      if (auto s = NeedBytes(phi->word(i), shape->bytes); !s.ok()) return s;
      prog_.moves.push_back({*dst, *src, shape->bytes});
      found = true;
      break;
    }
    if (!found)
      return Bad(absl::StrCat("OpPhi %", phi->result_id(),
                              " has no value for predecessor %", from_label));
  }
  e.nmoves = static_cast<uint32_t>(prog_.moves.size()) - e.moves;
  // A move reading a slot that another move of the same edge writes needs
  // the parallel-copy path.
  for (uint32_t i = 0; i < e.nmoves && !e.parallel; ++i) {
    const PhiMove& a = prog_.moves[e.moves + i];
    for (uint32_t j = 0; j < e.nmoves; ++j) {
      const PhiMove& b = prog_.moves[e.moves + j];
      if (i != j && a.src < b.dst + b.bytes && b.dst < a.src + a.bytes) {
        e.parallel = true;
        break;
      }
    }
  }
  const uint32_t index = static_cast<uint32_t>(prog_.edges.size());
  prog_.edges.push_back(e);
  pending_edges_.push_back({index, bi->second});
  return index;
}

absl::Status Decoder::DecodeFunction(const spirv::Function& f, uint32_t index) {
  current_function_ = index;
  fn_ = &prog_.functions[index];
  slots_.clear();
  local_types_.clear();
  block_index_.clear();
  block_phis_.clear();
  block_pc_.clear();
  pending_edges_.clear();
  template_writes_.clear();

  const TypeDesc* ft = Type(f.def.NumOperands() >= 2 ? f.def.word(1) : 0);
  if (ft == nullptr || ft->cls != TypeDesc::kFunction)
    return Bad(absl::StrCat("function %", f.id(), " has no function type"));
  // Pass 1: a slot for every value the function defines.
  for (const Instruction& p : f.parameters) {
    auto shape = ShapeOf(p.type_id());
    if (!shape.ok()) return shape.status();
    auto slot = AllocSlot(shape->bytes);
    if (!slot.ok()) return slot.status();
    slots_[p.result_id()] = *slot;
    local_types_[p.result_id()] = p.type_id();
    fn_->param_slots.push_back(*slot);
    fn_->param_bytes.push_back(shape->bytes);
  }
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    block_index_[f.blocks[b].id()] = static_cast<uint32_t>(b);
    block_phis_.emplace_back();
    for (const Instruction& inst : f.blocks[b].instructions) {
      if (static_cast<Op>(inst.opcode()) == Op::OpPhi)
        block_phis_[b].push_back(&inst);
      if (inst.result_id() == 0 || inst.type_id() == 0) continue;
      const TypeDesc* t = Type(inst.type_id());
      if (t == nullptr || t->cls == TypeDesc::kVoid) continue;
      local_types_[inst.result_id()] = inst.type_id();
      auto shape = ShapeOf(inst.type_id());
      // Values of types without storage (events, ...) get no slot; any
      // instruction using them traps as unsupported.
      if (!shape.ok()) continue;
      auto slot = AllocSlot(shape->bytes);
      if (!slot.ok()) return slot.status();
      slots_[inst.result_id()] = *slot;
    }
  }
  // Pass 2: translate.
  fn_->entry_pc = static_cast<uint32_t>(prog_.insts.size());
  for (const spirv::BasicBlock& block : f.blocks) {
    current_label_ = block.id();
    block_pc_.push_back(static_cast<uint32_t>(prog_.insts.size()));
    for (const Instruction& inst : block.instructions) {
      if (auto s = Translate(inst); !s.ok()) {
        if (s.code() != absl::StatusCode::kUnimplemented) return s;
        EmitTrap(inst, absl::StrCat(OpName(inst.opcode()), " %",
                                    inst.result_id(), ": ", s.message()));
      }
    }
    if (prog_.insts.size() == block_pc_.back() ||
        !IsTerminator(prog_.insts.back().op)) {
      // A block must end in a terminator; keep the executor from running
      // off the end of a malformed one.
      Inst t{Op_::kUnreachable};
      Emit(t, block.label);
    }
  }
  if (f.blocks.empty()) return Bad("function without blocks");
  for (const auto& [edge, block] : pending_edges_)
    prog_.edges[edge].pc = block_pc_[block];
  // Tail padding: lane operations move at most 16 lanes of 8 bytes, so a
  // lane operand whose type disagrees with the instruction (possible only in
  // modules that skipped validation) still reads and writes inside the frame.
  fn_->frame_bytes = ((fn_->frame_bytes + 15) & ~15u) + 256;
  fn_->frame_template.assign(fn_->frame_bytes, 0);
  for (const auto& [slot, bytes] : template_writes_)
    std::copy(bytes.begin(), bytes.end(), fn_->frame_template.begin() + slot);
  return absl::OkStatus();
}

absl::Status Decoder::IntFamily(const Instruction& inst, Op_ base8,
                                bool binary) {
  auto shape = ShapeOf(inst.type_id());
  if (!shape.ok()) return shape.status();
  if (shape->k < kI8 || shape->k > kI64)
    return Unimpl(
        absl::StrCat(OpName(inst.opcode()), " on a non-integer type"));
  Inst i{static_cast<Op_>(static_cast<int>(base8) + (shape->k - kI8))};
  i.k = shape->k;
  i.n = shape->n;
  auto r = Slot(inst.result_id());
  if (inst.NumOperands() < 1) return Bad("integer operation without operands");
  auto a = Slot(inst.word(0));
  if (!r.ok()) return r.status();
  if (!a.ok()) return a.status();
  i.r = *r;
  i.a = *a;
  {
    auto at = TypeOfValue(inst.word(0));
    if (!at.ok()) return at.status();
    auto as = ShapeOf(*at);
    if (!as.ok()) return as.status();
    if (as->k != shape->k || as->n != shape->n)
      return Unimpl(absl::StrCat(OpName(inst.opcode()),
                                 " with an operand unlike its result"));
  }
  if (binary) {
    auto bid = Id(inst, 1);
    if (!bid.ok()) return bid.status();
    auto b = Slot(*bid);
    if (!b.ok()) return b.status();
    auto bt = TypeOfValue(*bid);
    if (!bt.ok()) return bt.status();
    auto bs = ShapeOf(*bt);
    if (!bs.ok()) return bs.status();
    if (bs->k != shape->k || bs->n != shape->n)
      return Unimpl(absl::StrCat(OpName(inst.opcode()),
                                 " with operands of different widths"));
    i.b = *b;
  }
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status Decoder::IntCompare(const Instruction& inst, Op_ base8) {
  auto aid = Id(inst, 0);
  if (!aid.ok()) return aid.status();
  auto bid = Id(inst, 1);
  if (!bid.ok()) return bid.status();
  auto at = TypeOfValue(*aid);
  if (!at.ok()) return at.status();
  auto s = ShapeOf(*at);
  if (!s.ok()) return s.status();
  if (s->k < kI8 || s->k > kI64)
    return Unimpl(
        absl::StrCat(OpName(inst.opcode()), " on a non-integer type"));
  auto bt = TypeOfValue(*bid);
  if (!bt.ok()) return bt.status();
  auto bs = ShapeOf(*bt);
  if (!bs.ok()) return bs.status();
  if (bs->k != s->k || bs->n != s->n)
    return Unimpl(absl::StrCat(OpName(inst.opcode()),
                               " with operands of different widths"));
  Inst i{static_cast<Op_>(static_cast<int>(base8) + (s->k - kI8))};
  i.k = s->k;
  i.n = s->n;
  auto r = Slot(inst.result_id());
  auto a = Slot(*aid);
  auto b = Slot(*bid);
  if (!r.ok() || !a.ok() || !b.ok()) return Bad("comparison operands");
  i.r = *r;
  i.a = *a;
  i.b = *b;
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status Decoder::FloatFamily(const Instruction& inst, Op_ base16,
                                  int arity) {
  auto aid = Id(inst, 0);
  if (!aid.ok()) return aid.status();
  auto at = TypeOfValue(*aid);
  if (!at.ok()) return at.status();
  auto s = ShapeOf(*at);
  if (!s.ok()) return s.status();
  if (s->k < kF16 || s->k > kF64)
    return Unimpl(absl::StrCat(OpName(inst.opcode()), " on a non-float type"));
  Inst i{static_cast<Op_>(static_cast<int>(base16) + (s->k - kF16))};
  i.k = s->k;
  i.n = s->n;
  auto r = Slot(inst.result_id());
  auto a = Slot(*aid);
  if (!r.ok()) return r.status();
  if (!a.ok()) return a.status();
  i.r = *r;
  i.a = *a;
  if (arity == 2) {
    auto bid = Id(inst, 1);
    if (!bid.ok()) return bid.status();
    auto bt = TypeOfValue(*bid);
    if (!bt.ok()) return bt.status();
    auto bs = ShapeOf(*bt);
    if (!bs.ok()) return bs.status();
    if (bs->k != s->k || bs->n != s->n)
      return Unimpl(absl::StrCat(OpName(inst.opcode()),
                                 " with operands of different types"));
    auto b = Slot(*bid);
    if (!b.ok()) return b.status();
    i.b = *b;
  }
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status Decoder::Convert(const Instruction& inst, bool from_signed,
                              bool to_signed, bool saturate) {
  auto aid = Id(inst, 0);
  if (!aid.ok()) return aid.status();
  auto at = TypeOfValue(*aid);
  if (!at.ok()) return at.status();
  auto from = ShapeOf(*at);
  auto to = ShapeOf(inst.type_id());
  if (!from.ok()) return from.status();
  if (!to.ok()) return to.status();
  if (from->n != to->n || from->k == kAgg || to->k == kAgg)
    return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                            ": operand and result shapes differ"));
  const Decorations* d = Deco(inst.result_id());
  saturate = saturate || (d && d->saturated);
  const bool has_mode = d && d->rounding >= 0 && d->rounding <= 3;
  auto r = Slot(inst.result_id());
  auto a = Slot(*aid);
  if (!r.ok()) return r.status();
  if (!a.ok()) return a.status();
  Inst i{Op_::kConvert};
  const bool int_to_int =
      from->k >= kI8 && from->k <= kI64 && to->k >= kI8 && to->k <= kI64;
  if (int_to_int && !saturate) {
    i.op = from_signed ? Op_::kSConvert : Op_::kUConvert;
    i.c = from->k;
  } else {
    ConvertSpec spec;
    spec.from = from->k;
    spec.to = to->k;
    spec.from_signed = from_signed;
    spec.to_signed = to_signed;
    spec.saturate = saturate;
    spec.default_rounding = !has_mode;
    if (has_mode) spec.mode = static_cast<RoundMode>(d->rounding);
    i.d = static_cast<uint32_t>(prog_.converts.size());
    prog_.converts.push_back(spec);
  }
  i.k = to->k;
  i.n = to->n;
  i.r = *r;
  i.a = *a;
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status Decoder::AccessChain(const Instruction& inst, bool ptr_chain) {
  auto base_id = Id(inst, 0);
  if (!base_id.ok()) return base_id.status();
  auto bt = TypeOfValue(*base_id);
  if (!bt.ok()) return bt.status();
  const TypeDesc* pt = Type(*bt);
  if (pt == nullptr || pt->cls != TypeDesc::kPointer)
    return Bad(absl::StrCat(OpName(inst.opcode()), ": base is not a pointer"));
  // The constant part of the offset, in wrapping (two's complement)
  // arithmetic: hostile indices may overflow, and pointer offsets wrap
  // anyway (memory.h).
  uint64_t constant = 0;
  std::vector<uint32_t> triples;
  uint32_t cur = pt->elem;
  auto add_index = [&](uint32_t index_id, uint64_t stride) -> absl::Status {
    auto value = values_.find(index_id);
    auto it = ConstantInt(index_id);
    if (value != values_.end() && it) {
      const TypeDesc* itd = Type(value->second.type);
      int64_t v = static_cast<int64_t>(*it);
      // Bool constants (width 0, possible only without validation) are
      // used as they are.
      if (itd && itd->width > 0 && itd->width < 64) {
        const int sh = 64 - static_cast<int>(itd->width);
        v = static_cast<int64_t>(static_cast<uint64_t>(v) << sh) >> sh;
      }
      constant += static_cast<uint64_t>(v) * stride;
      return absl::OkStatus();
    }
    auto ty = TypeOfValue(index_id);
    if (!ty.ok()) return ty.status();
    auto s = ShapeOf(*ty);
    if (!s.ok()) return s.status();
    if (s->k < kI8 || s->k > kI64 || s->n != 1)
      return Bad("access chain index is not a scalar integer");
    auto slot = Slot(index_id);
    if (!slot.ok()) return slot.status();
    if (stride > 0xFFFFFFFFu) return Unimpl("access chain stride over 4 GiB");
    triples.push_back(*slot);
    triples.push_back(KindBytes(s->k));
    triples.push_back(static_cast<uint32_t>(stride));
    return absl::OkStatus();
  };
  size_t first = 1;
  if (ptr_chain) {
    auto el = Id(inst, 1);
    if (!el.ok()) return el.status();
    const TypeDesc* pointee = Type(pt->elem);
    uint64_t stride = pt->array_stride;
    if (stride == 0) {
      if (pointee == nullptr || !pointee->sized)
        return Unimpl("OpPtrAccessChain over a pointee without a size");
      stride = pointee->size;
    }
    if (auto s = add_index(*el, stride); !s.ok()) return s;
    first = 2;
  }
  for (size_t i = first; i < inst.NumOperands(); ++i) {
    const TypeDesc* t = Type(cur);
    if (t == nullptr) return Bad("access chain through an unknown type");
    const uint32_t index_id = inst.word(i);
    if (t->cls == TypeDesc::kStruct) {
      auto c = ConstantInt(index_id);
      if (!c || *c >= t->members.size())
        return Bad("struct index is not a constant member number");
      constant += static_cast<uint64_t>(t->offsets[*c]);
      cur = t->members[*c];
    } else if (t->cls == TypeDesc::kArray || t->cls == TypeDesc::kVector) {
      const TypeDesc* e = Type(t->elem);
      if (e == nullptr || !e->sized) return Bad("array of unsized elements");
      if (auto s = add_index(index_id, e->size); !s.ok()) return s;
      cur = t->elem;
    } else {
      return Bad("access chain indexes a non-composite type");
    }
  }
  auto r = Slot(inst.result_id());
  auto a = Slot(*base_id);
  if (!r.ok()) return r.status();
  if (!a.ok()) return a.status();
  Inst i{Op_::kAccessChain};
  i.r = *r;
  i.a = *a;
  i.b = static_cast<uint32_t>(prog_.extra.size());
  i.c = static_cast<uint32_t>(triples.size() / 3);
  prog_.extra.push_back(static_cast<uint32_t>(constant));
  prog_.extra.push_back(static_cast<uint32_t>(constant >> 32));
  prog_.extra.insert(prog_.extra.end(), triples.begin(), triples.end());
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status Decoder::Atomic(const Instruction& inst, Op_ op) {
  // Operand layouts: Load(p, scope, sem); Store(p, scope, sem, v);
  // CompareExchange(p, scope, eq, neq, v, cmp); IIncrement/IDecrement
  // (p, scope, sem); others (p, scope, sem, v).
  auto p = Id(inst, 0);
  if (!p.ok()) return p.status();
  auto pt = TypeOfValue(*p);
  if (!pt.ok()) return pt.status();
  const TypeDesc* ptd = Type(*pt);
  if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
    return Bad("atomic on a non-pointer");
  auto vs = ShapeOf(ptd->elem);
  if (!vs.ok()) return vs.status();
  const bool float_op = op == Op_::kAtomicFAdd || op == Op_::kAtomicFMin ||
                        op == Op_::kAtomicFMax;
  const bool bit_copy = op == Op_::kAtomicLoad || op == Op_::kAtomicStore ||
                        op == Op_::kAtomicExchange;
  Kind k = vs->k;
  if (vs->n != 1) {
    k = kAgg;
  } else if (float_op) {
    if (k != kF16 && k != kF32 && k != kF64) k = kAgg;
  } else if (op == Op_::kAtomicFlagTestAndSet || op == Op_::kAtomicFlagClear) {
    if (k != kI32) k = kAgg;
  } else if (bit_copy && (k == kF32 || k == kF64)) {
    // Load/store/exchange of a float move its bits.
    k = k == kF32 ? kI32 : kI64;
  } else if (k != kI32 && k != kI64) {
    k = kAgg;
  }
  if (k == kAgg)
    return Unimpl(absl::StrCat(OpName(inst.opcode()),
                               float_op ? " on a type other than a float "
                                          "scalar"
                                        : " on a type other than 32/64-bit "
                                          "integer (or float for "
                                          "load/store/exchange)"));
  Inst i{op};
  i.k = k;
  auto a = Slot(*p);
  if (!a.ok()) return a.status();
  i.a = *a;
  if (inst.result_id() != 0) {
    auto r = Slot(inst.result_id());
    if (!r.ok()) return r.status();
    i.r = *r;
  }
  size_t value_index = 0, cmp_index = 0;
  if (op == Op_::kAtomicCompareExchange) {
    value_index = 4;
    cmp_index = 5;
  } else if (op != Op_::kAtomicLoad && op != Op_::kAtomicIIncrement &&
             op != Op_::kAtomicIDecrement && op != Op_::kAtomicFlagTestAndSet &&
             op != Op_::kAtomicFlagClear) {
    value_index = 3;
  }
  if (value_index) {
    auto v = Id(inst, value_index);
    if (!v.ok()) return v.status();
    auto s = Slot(*v);
    if (!s.ok()) return s.status();
    i.b = *s;
  }
  if (cmp_index) {
    auto v = Id(inst, cmp_index);
    if (!v.ok()) return v.status();
    auto s = Slot(*v);
    if (!s.ok()) return s.status();
    i.c = *s;
  }
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status Decoder::Group(const Instruction& inst, GroupOp op,
                            bool has_mode) {
  GroupCall g;
  g.op = op;
  auto scope = ScopeOf(inst, 0);
  if (!scope.ok()) return scope.status();
  if (*scope != 2 && *scope != 3)
    return Unimpl(absl::StrCat(OpName(inst.opcode()),
                               " with a scope other than Workgroup/Subgroup"));
  g.scope = *scope;
  size_t next = 1;
  if (has_mode) {
    if (inst.NumOperands() < 2) return Bad("group operation missing");
    const uint32_t mode = inst.word(1);
    if (mode > 2)
      return Unimpl(absl::StrCat(OpName(inst.opcode()),
                                 " with an unsupported GroupOperation"));
    g.mode = static_cast<GroupMode>(mode);
    next = 2;
  }
  auto v = Id(inst, next);
  if (!v.ok()) return v.status();
  auto vs = Slot(*v);
  if (!vs.ok()) return vs.status();
  g.value = *vs;
  if (op == GroupOp::kBroadcast) {
    auto l = Id(inst, next + 1);
    if (!l.ok()) return l.status();
    auto ls = Slot(*l);
    if (!ls.ok()) return ls.status();
    auto lt = TypeOfValue(*l);
    if (!lt.ok()) return lt.status();
    auto lsh = ShapeOf(*lt);
    if (!lsh.ok()) return lsh.status();
    if (lsh->k < kI8 || lsh->k > kI64) return Bad("broadcast id not integer");
    g.local_id = *ls;
    g.local_id_lanes = lsh->n;
    g.local_id_bytes = KindBytes(lsh->k);
  }
  auto rs = ShapeOf(inst.type_id());
  if (!rs.ok()) return rs.status();
  if (auto s = NeedBytes(*v, rs->bytes); !s.ok()) return s;
  if (rs->n != 1 && op != GroupOp::kBroadcast)
    return Unimpl(absl::StrCat(OpName(inst.opcode()), " on a vector"));
  if (rs->k == kAgg && op != GroupOp::kBroadcast)
    return Unimpl(absl::StrCat(OpName(inst.opcode()), " on a composite"));
  return EmitGroupCall(inst, std::move(g), *rs);
}

absl::Status Decoder::EmitGroupCall(const Instruction& inst, GroupCall g,
                                    const Shape& shape) {
  auto r = Slot(inst.result_id());
  if (!r.ok()) return r.status();
  Inst i{Op_::kGroup};
  i.r = *r;
  i.k = shape.k;
  i.n = shape.n;
  i.d = static_cast<uint32_t>(prog_.groups.size());
  i.c = shape.bytes;
  prog_.groups.push_back(std::move(g));
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status Decoder::IntelSubgroup(const Instruction& inst, GroupOp op) {
  GroupCall g;
  g.op = op;
  g.scope = 3;
  auto slot = [&](size_t i) -> absl::StatusOr<uint32_t> {
    auto id = Id(inst, i);
    if (!id.ok()) return id.status();
    return Slot(*id);
  };
  // The shape the instruction moves: its result, or the written data.
  const bool write = op == GroupOp::kBlockWrite;
  uint32_t shape_type = inst.type_id();
  if (write) {
    auto data = Id(inst, 1);
    if (!data.ok()) return data.status();
    auto t = TypeOfValue(*data);
    if (!t.ok()) return t.status();
    shape_type = *t;
  }
  auto rs = ShapeOf(shape_type);
  if (!rs.ok()) return rs.status();
  if (rs->k == kAgg || rs->k == kBool)
    return Unimpl(absl::StrCat(OpName(inst.opcode()),
                               " on a type other than an integer or float "
                               "scalar or vector"));
  auto v = slot(0);
  if (!v.ok()) return v.status();
  g.value = *v;
  if (op == GroupOp::kBlockRead || op == GroupOp::kBlockWrite) {
    auto pid = Id(inst, 0);
    if (!pid.ok()) return pid.status();
    auto pt = TypeOfValue(*pid);
    if (!pt.ok()) return pt.status();
    const TypeDesc* ptd = Type(*pt);
    if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
      return Bad("subgroup block read/write through a non-pointer");
    if (rs->k >= kF16)
      return Unimpl(absl::StrCat(OpName(inst.opcode()), " of floats"));
    if (write) {
      auto d = slot(1);
      if (!d.ok()) return d.status();
      g.value2 = *d;
    }
  } else {
    const bool two_values =
        op == GroupOp::kShuffleDown || op == GroupOp::kShuffleUp;
    if (auto st = NeedBytes(inst.word(0), rs->bytes); !st.ok()) return st;
    if (two_values) {
      auto v2 = slot(1);
      if (!v2.ok()) return v2.status();
      if (auto st = NeedBytes(inst.word(1), rs->bytes); !st.ok()) return st;
      g.value2 = *v2;
    }
    const size_t index_operand = two_values ? 2 : 1;
    auto ix = slot(index_operand);
    if (!ix.ok()) return ix.status();
    if (auto st = NeedBytes(inst.word(index_operand), 4); !st.ok()) return st;
    g.index = *ix;
  }
  Inst i{Op_::kGroup};
  if (!write) {
    auto r = Slot(inst.result_id());
    if (!r.ok()) return r.status();
    i.r = *r;
  }
  i.k = rs->k;
  i.n = rs->n;
  i.d = static_cast<uint32_t>(prog_.groups.size());
  i.c = rs->bytes;
  prog_.groups.push_back(g);
  Emit(i, inst);
  return absl::OkStatus();
}

// How a shape reads in messages: "uint", "float4", "bool", ...
std::string ShapeName(const Shape& s) {
  static constexpr const char* kNames[] = {
      "bool", "char", "short", "int", "long", "half", "float", "double", ""};
  if (s.k == kAgg) return "a composite";
  return s.n == 1 ? std::string(kNames[s.k]) : absl::StrCat(kNames[s.k], +s.n);
}

// OpGroupNonUniform* (SPIR-V 1.3). The types and scopes are the ones the
// Level Zero SPIR-V programming guide ("Extended Subgroups") requires;
// anything else traps as unsupported when reached.
absl::Status Decoder::NonUniform(const Instruction& inst, GroupOp op) {
  GroupCall g;
  g.op = op;
  g.scope = 3;
  g.non_uniform = true;
  auto scope = ScopeOf(inst, 0);
  if (!scope.ok()) return scope.status();
  if (*scope != 3) {
    const spirv::EnumerantInfo* e =
        spirv::FindEnumerant(spirv::OperandKind::kScope, *scope);
    return Unimpl(absl::StrCat(
        "Execution scope ", e ? std::string(e->name) : absl::StrCat(*scope),
        " is not supported: the Level Zero programming guide allows only "
        "Subgroup for OpGroupNonUniform* instructions"));
  }
  const bool ballot_in =
      op == GroupOp::kInverseBallot || op == GroupOp::kBallotBitExtract ||
      op == GroupOp::kBallotBitCount || op == GroupOp::kBallotFindLSB ||
      op == GroupOp::kBallotFindMSB;
  const bool arithmetic = (op >= GroupOp::kIAdd && op <= GroupOp::kSMax) ||
                          (op >= GroupOp::kIMul && op <= GroupOp::kLogicalXor);
  const bool has_mode = arithmetic || op == GroupOp::kBallotBitCount;
  size_t next = 1;
  if (has_mode) {
    if (inst.NumOperands() < 2)
      return Bad(
          absl::StrCat(OpName(inst.opcode()), ": group operation missing"));
    const uint32_t mode = inst.word(1);
    if (mode > 3 || (mode == 3 && !arithmetic))
      return Unimpl(absl::StrCat("GroupOperation ", mode,
                                 " is not supported (Reduce, InclusiveScan, "
                                 "ExclusiveScan",
                                 arithmetic ? ", ClusteredReduce" : "", ")"));
    g.mode = static_cast<GroupMode>(mode);
    next = 2;
  }
  auto rs = ShapeOf(inst.type_id());
  if (!rs.ok()) return rs.status();
  auto is_num = [](const Shape& s) { return s.k >= kI8 && s.k <= kF64; };
  auto is_int = [](const Shape& s) { return s.k >= kI8 && s.k <= kI64; };
  auto is_uvec4 = [](const Shape& s) { return s.k == kI32 && s.n == 4; };
  auto is_bool = [](const Shape& s) { return s.k == kBool && s.n == 1; };
  auto unsupported_type = [&](const Shape& s, absl::string_view what,
                              absl::string_view allowed) {
    return Unimpl(absl::StrCat(what, " of type ", ShapeName(s),
                               " is not supported (the Level Zero "
                               "programming guide lists ",
                               allowed, ")"));
  };
  // Value operand.
  if (op != GroupOp::kElect) {
    auto v = Id(inst, next);
    if (!v.ok()) return v.status();
    auto vt = TypeOfValue(*v);
    if (!vt.ok()) return vt.status();
    auto vs = ShapeOf(*vt);
    if (!vs.ok()) return vs.status();
    const bool pred_in =
        op == GroupOp::kAll || op == GroupOp::kAny || op == GroupOp::kBallot;
    const bool logical =
        op >= GroupOp::kLogicalAnd && op <= GroupOp::kLogicalXor;
    const bool float_op = op == GroupOp::kFAdd || op == GroupOp::kFMul ||
                          op == GroupOp::kFMin || op == GroupOp::kFMax;
    if (pred_in || logical) {
      if (!is_bool(*vs)) return unsupported_type(*vs, "Value", "bool");
    } else if (ballot_in) {
      if (!is_uvec4(*vs))
        return unsupported_type(*vs, "Value", "a vector of four 32-bit uint");
    } else if (op == GroupOp::kBroadcast) {
      if (!is_num(*vs))
        return unsupported_type(*vs, "Value",
                                "integer and float scalars and vectors");
    } else if (arithmetic && float_op) {
      if (vs->n != 1 || vs->k < kF16 || vs->k > kF64)
        return unsupported_type(*vs, "Value", "float scalars");
    } else if (arithmetic) {
      if (vs->n != 1 || !is_int(*vs))
        return unsupported_type(*vs, "Value", "integer scalars");
    } else if (vs->n != 1 || !is_num(*vs)) {
      return unsupported_type(*vs, "Value", "integer and float scalars");
    }
    auto slot = Slot(*v);
    if (!slot.ok()) return slot.status();
    g.value = *slot;
    g.value_kind = vs->k;
    g.value_lanes = vs->n;
    const bool same_type = !pred_in && !ballot_in && op != GroupOp::kAllEqual;
    if (same_type && (rs->k != vs->k || rs->n != vs->n))
      return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                              ": result type differs from the Value's"));
    ++next;
  }
  // Result type of the operations whose result is not the Value's type.
  switch (op) {
    case GroupOp::kElect:
    case GroupOp::kAll:
    case GroupOp::kAny:
    case GroupOp::kAllEqual:
    case GroupOp::kInverseBallot:
    case GroupOp::kBallotBitExtract:
      if (!is_bool(*rs)) return unsupported_type(*rs, "Result", "bool");
      break;
    case GroupOp::kBallot:
      if (!is_uvec4(*rs))
        return unsupported_type(*rs, "Result", "a vector of four 32-bit uint");
      break;
    case GroupOp::kBallotBitCount:
    case GroupOp::kBallotFindLSB:
    case GroupOp::kBallotFindMSB:
      if (rs->n != 1 || !is_int(*rs))
        return unsupported_type(*rs, "Result", "an integer scalar");
      break;
    default:
      break;
  }
  // Id / Index / Mask / Delta operand: an integer scalar.
  const bool has_index =
      op == GroupOp::kBroadcast || op == GroupOp::kBallotBitExtract ||
      (op >= GroupOp::kNuShuffle && op <= GroupOp::kNuShuffleDown);
  if (has_index) {
    auto ix = Id(inst, next);
    if (!ix.ok()) return ix.status();
    auto it = TypeOfValue(*ix);
    if (!it.ok()) return it.status();
    auto is = ShapeOf(*it);
    if (!is.ok()) return is.status();
    if (is->n != 1 || !is_int(*is))
      return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                              ": the id/index operand is not an integer "
                              "scalar"));
    auto slot = Slot(*ix);
    if (!slot.ok()) return slot.status();
    g.index = *slot;
    g.index_bytes = KindBytes(is->k);
    ++next;
  }
  // ClusterSize: only (and always) with ClusteredReduce.
  const bool has_cluster = inst.NumOperands() > next;
  if (has_mode && g.mode == GroupMode::kClusteredReduce) {
    if (!has_cluster)
      return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                              ": ClusteredReduce without a ClusterSize"));
    auto c = ConstantInt(inst.word(next));
    if (!c) return Unimpl("ClusterSize is not an integer constant");
    g.cluster = *c;
  } else if (has_cluster) {
    return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                            ": too many operands"));
  }
  return EmitGroupCall(inst, std::move(g), *rs);
}

absl::Status Decoder::AsyncCopy(const Instruction& inst) {
  // Operands: Execution, Destination, Source, NumElements, Stride, Event.
  auto scope = ScopeOf(inst, 0);
  if (!scope.ok()) return scope.status();
  if (*scope != 2)
    return Unimpl("OpGroupAsyncCopy with a scope other than Workgroup");
  GroupCall g;
  g.op = GroupOp::kAsyncCopy;
  g.scope = 2;
  auto int_operand = [&](size_t i, uint32_t* slot,
                         uint32_t* bytes) -> absl::Status {
    auto id = Id(inst, i);
    if (!id.ok()) return id.status();
    auto t = TypeOfValue(*id);
    if (!t.ok()) return t.status();
    auto sh = ShapeOf(*t);
    if (!sh.ok()) return sh.status();
    if (sh->k < kI8 || sh->k > kI64 || sh->n != 1)
      return Bad("OpGroupAsyncCopy count/stride is not an integer scalar");
    auto sl = Slot(*id);
    if (!sl.ok()) return sl.status();
    *slot = *sl;
    *bytes = KindBytes(sh->k);
    return absl::OkStatus();
  };
  auto dst = Id(inst, 1);
  if (!dst.ok()) return dst.status();
  auto dt = TypeOfValue(*dst);
  if (!dt.ok()) return dt.status();
  const TypeDesc* dtd = Type(*dt);
  if (dtd == nullptr || dtd->cls != TypeDesc::kPointer)
    return Bad("OpGroupAsyncCopy destination is not a pointer");
  const TypeDesc* et = Type(dtd->elem);
  if (et == nullptr || !et->sized || et->size == 0 || et->size > 256)
    return Unimpl("OpGroupAsyncCopy of an unsized or large element type");
  g.element_bytes = static_cast<uint32_t>(et->size);
  g.gather = dtd->storage == kScWorkgroup;
  auto ds = Slot(*dst);
  if (!ds.ok()) return ds.status();
  g.value = *ds;
  auto src = Id(inst, 2);
  if (!src.ok()) return src.status();
  auto ss = Slot(*src);
  if (!ss.ok()) return ss.status();
  g.value2 = *ss;
  if (auto st = int_operand(3, &g.index, &g.index_bytes); !st.ok()) return st;
  if (auto st = int_operand(4, &g.local_id, &g.stride_bytes); !st.ok())
    return st;
  auto ev = Id(inst, 5);
  if (!ev.ok()) return ev.status();
  if (auto st = NeedBytes(*ev, 8); !st.ok()) return st;
  auto es = Slot(*ev);
  if (!es.ok()) return es.status();
  g.event = *es;
  auto r = Slot(inst.result_id());
  if (!r.ok()) return r.status();
  Inst i{Op_::kGroup};
  i.r = *r;
  i.k = kI64;
  i.c = 8;
  i.d = static_cast<uint32_t>(prog_.groups.size());
  prog_.groups.push_back(g);
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status Decoder::WaitEvents(const Instruction& inst) {
  // Operands: Execution, NumEvents, EventsList.
  auto scope = ScopeOf(inst, 0);
  if (!scope.ok()) return scope.status();
  if (*scope != 2)
    return Unimpl("OpGroupWaitEvents with a scope other than Workgroup");
  GroupCall g;
  g.op = GroupOp::kWaitEvents;
  g.scope = 2;
  auto n = Id(inst, 1);
  if (!n.ok()) return n.status();
  auto nt = TypeOfValue(*n);
  if (!nt.ok()) return nt.status();
  auto ns = ShapeOf(*nt);
  if (!ns.ok()) return ns.status();
  if (ns->k < kI8 || ns->k > kI64 || ns->n != 1)
    return Bad("OpGroupWaitEvents: NumEvents is not an integer scalar");
  auto nslot = Slot(*n);
  if (!nslot.ok()) return nslot.status();
  g.index = *nslot;
  g.index_bytes = KindBytes(ns->k);
  auto list = Id(inst, 2);
  if (!list.ok()) return list.status();
  if (auto st = NeedBytes(*list, 8); !st.ok()) return st;
  auto ls = Slot(*list);
  if (!ls.ok()) return ls.status();
  g.value = *ls;
  Inst i{Op_::kGroup};
  i.k = kI64;
  i.c = 0;
  i.d = static_cast<uint32_t>(prog_.groups.size());
  prog_.groups.push_back(g);
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status Decoder::TranslateExtInst(const Instruction& inst) {
  auto set = Id(inst, 0);
  if (!set.ok()) return set.status();
  if (inst.NumOperands() < 2) return Bad("OpExtInst without a number");
  const uint32_t number = inst.word(1);
  const spirv::ExtInstInfo* info = spirv::FindOpenClStd(number);
  if (*set != opencl_std_ || opencl_std_ == 0)
    return Unimpl(
        "OpExtInst from an extended instruction set other than "
        "OpenCL.std");
  const std::string name =
      absl::StrCat("OpenCL.std ", info ? info->name : std::to_string(number));
  ExtCall call;
  call.number = number;
  const TypeDesc* rt = Type(inst.type_id());
  if (rt != nullptr && rt->cls != TypeDesc::kVoid) {
    auto rs = ShapeOf(inst.type_id());
    if (!rs.ok()) return Unimpl(absl::StrCat(name, ": result type"));
    auto r = Slot(inst.result_id());
    if (!r.ok()) return r.status();
    call.result = *r;
    call.kind = rs->k;
    call.lanes = rs->n;
    call.result_bytes = rs->bytes;
  } else {
    call.result = kNoSlot;
    call.kind = kAgg;
    call.lanes = 1;
    call.result_bytes = 0;
  }
  for (size_t i = 2; i < inst.NumOperands(); ++i) {
    const spirv::Operand& op = inst.operand(i);
    ExtArg arg{};
    if (!op.IsId()) {
      // Literal operands (vloadn's n, vstore_half_r's rounding mode).
      arg.slot = kNoSlot;
      arg.kind = kAgg;
      arg.lanes = 1;
      arg.bytes = op.AsLiteral();
      call.args.push_back(arg);
      continue;
    }
    auto ty = TypeOfValue(op.AsId());
    if (!ty.ok()) return ty.status();
    auto slot = Slot(op.AsId());
    if (!slot.ok()) return slot.status();
    auto s = ShapeOf(*ty);
    if (!s.ok()) return Unimpl(absl::StrCat(name, ": operand type"));
    arg.slot = *slot;
    arg.kind = s->k;
    arg.lanes = s->n;
    arg.bytes = s->bytes;
    const TypeDesc* t = Type(*ty);
    if (t->cls == TypeDesc::kPointer) {
      arg.pointee_type = t->elem;
      const TypeDesc* pe = Type(t->elem);
      arg.pointee_bytes = pe && pe->sized ? static_cast<uint32_t>(pe->size) : 0;
      // Remember the pointee's scalar kind for vload/vstore/printf.
      if (pe) {
        auto ps = ShapeOf(t->elem);
        if (ps.ok()) {
          arg.kind = ps->k;
          arg.lanes = ps->n;
        }
      }
    }
    call.args.push_back(arg);
  }
  std::string why;
  if (!ResolveOpenClStd(&call, &why))
    return Unimpl(absl::StrCat(name, why.empty() ? "" : ": ", why));
  Inst i{Op_::kExtInst};
  i.d = static_cast<uint32_t>(prog_.ext_calls.size());
  prog_.ext_calls.push_back(std::move(call));
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status Decoder::Translate(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  auto slot_of = [this, &inst](size_t i) -> absl::StatusOr<uint32_t> {
    auto id = Id(inst, i);
    if (!id.ok()) return id.status();
    return Slot(*id);
  };
  auto result_shape = [this, &inst]() { return ShapeOf(inst.type_id()); };
#define L0SPV_TRY(var, expr) \
  auto var = (expr);         \
  if (!var.ok()) return var.status()

  switch (op) {
    case Op::OpNop:
    case Op::OpLine:
    case Op::OpNoLine:
    case Op::OpSelectionMerge:
    case Op::OpLoopMerge:
    case Op::OpPhi:
      return absl::OkStatus();
    case Op::OpUndef: {
      // Deterministic: an undefined value reads as zero.
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(s, result_shape());
      Inst i{Op_::kZero};
      i.r = *r;
      i.d = s->bytes;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpLifetimeStart:
    case Op::OpLifetimeStop:
    case Op::OpMemoryBarrier:
      Emit(Inst{Op_::kNop}, inst);
      return absl::OkStatus();

#define L0SPV_INT(spv_name, ours, bin) \
  case Op::spv_name:                   \
    return IntFamily(inst, Op_::k##ours##8, bin);
      L0SPV_INT(OpIAdd, IAdd, true)
      L0SPV_INT(OpISub, ISub, true)
      L0SPV_INT(OpIMul, IMul, true)
      L0SPV_INT(OpUDiv, UDiv, true)
      L0SPV_INT(OpSDiv, SDiv, true)
      L0SPV_INT(OpUMod, UMod, true)
      L0SPV_INT(OpSRem, SRem, true)
      L0SPV_INT(OpSMod, SMod, true)
      L0SPV_INT(OpShiftLeftLogical, Shl, true)
      L0SPV_INT(OpShiftRightLogical, Shr, true)
      L0SPV_INT(OpShiftRightArithmetic, Sar, true)
      L0SPV_INT(OpBitwiseOr, Or, true)
      L0SPV_INT(OpBitwiseXor, Xor, true)
      L0SPV_INT(OpBitwiseAnd, And, true)
      L0SPV_INT(OpSNegate, SNeg, false)
      L0SPV_INT(OpNot, Not, false)
      L0SPV_INT(OpBitReverse, BitReverse, false)
#undef L0SPV_INT
    case Op::OpBitCount: {
      // The result may be narrower or wider than the operand in principle;
      // kernels use the same type.
      L0SPV_TRY(aid, Id(inst, 0));
      L0SPV_TRY(at, TypeOfValue(*aid));
      if (*at != inst.type_id())
        return Unimpl("OpBitCount with a result type unlike its operand");
      return IntFamily(inst, Op_::kBitCount8, false);
    }
#define L0SPV_CMP(spv_name, ours) \
  case Op::spv_name:              \
    return IntCompare(inst, Op_::k##ours##8);
      L0SPV_CMP(OpIEqual, IEq)
      L0SPV_CMP(OpINotEqual, INe)
      L0SPV_CMP(OpUGreaterThan, UGt)
      L0SPV_CMP(OpSGreaterThan, SGt)
      L0SPV_CMP(OpUGreaterThanEqual, UGe)
      L0SPV_CMP(OpSGreaterThanEqual, SGe)
      L0SPV_CMP(OpULessThan, ULt)
      L0SPV_CMP(OpSLessThan, SLt)
      L0SPV_CMP(OpULessThanEqual, ULe)
      L0SPV_CMP(OpSLessThanEqual, SLe)
#undef L0SPV_CMP
#define L0SPV_F(spv_name, ours, arity) \
  case Op::spv_name:                   \
    return FloatFamily(inst, Op_::k##ours##16, arity);
      L0SPV_F(OpFAdd, FAdd, 2)
      L0SPV_F(OpFSub, FSub, 2)
      L0SPV_F(OpFMul, FMul, 2)
      L0SPV_F(OpFDiv, FDiv, 2)
      L0SPV_F(OpFRem, FRem, 2)
      L0SPV_F(OpFMod, FMod, 2)
      L0SPV_F(OpFNegate, FNeg, 1)
      L0SPV_F(OpFOrdEqual, FOrdEq, 2)
      L0SPV_F(OpFUnordEqual, FUnordEq, 2)
      L0SPV_F(OpFOrdNotEqual, FOrdNe, 2)
      L0SPV_F(OpFUnordNotEqual, FUnordNe, 2)
      L0SPV_F(OpFOrdLessThan, FOrdLt, 2)
      L0SPV_F(OpFUnordLessThan, FUnordLt, 2)
      L0SPV_F(OpFOrdGreaterThan, FOrdGt, 2)
      L0SPV_F(OpFUnordGreaterThan, FUnordGt, 2)
      L0SPV_F(OpFOrdLessThanEqual, FOrdLe, 2)
      L0SPV_F(OpFUnordLessThanEqual, FUnordLe, 2)
      L0SPV_F(OpFOrdGreaterThanEqual, FOrdGe, 2)
      L0SPV_F(OpFUnordGreaterThanEqual, FUnordGe, 2)
      L0SPV_F(OpLessOrGreater, LessOrGreater, 2)
      L0SPV_F(OpOrdered, Ordered, 2)
      L0SPV_F(OpUnordered, Unordered, 2)
      L0SPV_F(OpIsNan, IsNan, 1)
      L0SPV_F(OpIsInf, IsInf, 1)
      L0SPV_F(OpIsFinite, IsFinite, 1)
      L0SPV_F(OpIsNormal, IsNormal, 1)
      L0SPV_F(OpSignBitSet, SignBitSet, 1)
#undef L0SPV_F

    case Op::OpLogicalAnd:
    case Op::OpLogicalOr:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
    case Op::OpLogicalNot: {
      L0SPV_TRY(s, result_shape());
      Inst i{op == Op::OpLogicalAnd        ? Op_::kLogicalAnd
             : op == Op::OpLogicalOr       ? Op_::kLogicalOr
             : op == Op::OpLogicalEqual    ? Op_::kLogicalEq
             : op == Op::OpLogicalNotEqual ? Op_::kLogicalNe
                                           : Op_::kLogicalNot};
      i.n = s->n;
      i.k = kBool;
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(a, slot_of(0));
      i.r = *r;
      i.a = *a;
      if (op != Op::OpLogicalNot) {
        L0SPV_TRY(b, slot_of(1));
        i.b = *b;
      }
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpAny:
    case Op::OpAll: {
      L0SPV_TRY(aid, Id(inst, 0));
      L0SPV_TRY(at, TypeOfValue(*aid));
      L0SPV_TRY(s, ShapeOf(*at));
      Inst i{op == Op::OpAny ? Op_::kAny : Op_::kAll};
      i.n = s->n;
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(a, Slot(*aid));
      i.r = *r;
      i.a = *a;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpSelect: {
      L0SPV_TRY(cid, Id(inst, 0));
      L0SPV_TRY(ct, TypeOfValue(*cid));
      L0SPV_TRY(cs, ShapeOf(*ct));
      L0SPV_TRY(s, result_shape());
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(c, Slot(*cid));
      L0SPV_TRY(a, slot_of(1));
      L0SPV_TRY(b, slot_of(2));
      if (auto st = NeedBytes(inst.word(1), s->bytes); !st.ok()) return st;
      if (auto st = NeedBytes(inst.word(2), s->bytes); !st.ok()) return st;
      Inst i{cs->n == 1 ? Op_::kSelectScalar : Op_::kSelectVector};
      if (cs->n != 1 && (cs->n != s->n || s->k == kAgg))
        return Bad("OpSelect condition and result lanes differ");
      i.r = *r;
      i.a = *c;
      i.b = *a;
      i.c = *b;
      i.k = s->k;
      i.n = s->n;
      i.d = s->bytes;
      Emit(i, inst);
      return absl::OkStatus();
    }

    case Op::OpConvertFToU:
      return Convert(inst, true, false, false);
    case Op::OpConvertFToS:
      return Convert(inst, true, true, false);
    case Op::OpConvertSToF:
      return Convert(inst, true, true, false);
    case Op::OpConvertUToF:
      return Convert(inst, false, true, false);
    case Op::OpUConvert:
      return Convert(inst, false, false, false);
    case Op::OpSConvert:
      return Convert(inst, true, true, false);
    case Op::OpFConvert:
      return Convert(inst, true, true, false);
    case Op::OpSatConvertSToU:
      return Convert(inst, true, false, true);
    case Op::OpSatConvertUToS:
      return Convert(inst, false, true, true);
    case Op::OpConvertPtrToU:
    case Op::OpConvertUToPtr: {
      L0SPV_TRY(aid, Id(inst, 0));
      L0SPV_TRY(at, TypeOfValue(*aid));
      L0SPV_TRY(from, ShapeOf(*at));
      L0SPV_TRY(to, result_shape());
      if (from->n != 1 || to->n != 1 || from->k < kI8 || from->k > kI64 ||
          to->k < kI8 || to->k > kI64)
        return Bad("pointer/integer conversion shapes");
      Inst i{Op_::kUConvert};
      i.c = from->k;
      i.k = to->k;
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(a, Slot(*aid));
      i.r = *r;
      i.a = *a;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpBitcast:
    case Op::OpCopyObject:
    case Op::OpPtrCastToGeneric: {
      L0SPV_TRY(aid, Id(inst, 0));
      L0SPV_TRY(at, TypeOfValue(*aid));
      L0SPV_TRY(from, ShapeOf(*at));
      L0SPV_TRY(to, result_shape());
      if (from->access != to->access)
        return Bad(absl::StrCat(OpName(inst.opcode()),
                                ": operand and result sizes differ"));
      Inst i{Op_::kCopy};
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(a, Slot(*aid));
      i.r = *r;
      i.a = *a;
      i.d = std::min(from->bytes, to->bytes);
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpGenericCastToPtr:
    case Op::OpGenericCastToPtrExplicit: {
      const TypeDesc* rt = Type(inst.type_id());
      if (rt == nullptr || rt->cls != TypeDesc::kPointer)
        return Bad("generic cast to a non-pointer");
      Inst i{op == Op::OpGenericCastToPtr ? Op_::kGenericCastToPtr
                                          : Op_::kGenericCastToPtrExplicit};
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(a, slot_of(0));
      i.r = *r;
      i.a = *a;
      i.c = rt->storage;
      Emit(i, inst);
      return absl::OkStatus();
    }

    case Op::OpCompositeConstruct: {
      const TypeDesc* t = Type(inst.type_id());
      L0SPV_TRY(s, result_shape());
      std::vector<uint32_t> triples;
      uint64_t off = 0;
      for (size_t k = 0; k < inst.NumOperands(); ++k) {
        const uint32_t cid = inst.word(k);
        L0SPV_TRY(ct, TypeOfValue(cid));
        L0SPV_TRY(cs, ShapeOf(*ct));
        L0SPV_TRY(src, Slot(cid));
        uint64_t dst;
        uint32_t bytes;
        if (t->cls == TypeDesc::kVector) {
          dst = off;
          bytes = cs->n * KindBytes(cs->k);
          off += bytes;
        } else if (t->cls == TypeDesc::kArray) {
          dst = k * Type(t->elem)->size;
          bytes = cs->bytes;
        } else if (t->cls == TypeDesc::kStruct && k < t->offsets.size()) {
          dst = t->offsets[k];
          bytes = cs->bytes;
        } else {
          return Bad("OpCompositeConstruct of a non-composite");
        }
        if (dst > s->bytes || bytes > s->bytes - dst)
          return Bad("OpCompositeConstruct constituents overflow the result");
        triples.push_back(*src);
        triples.push_back(static_cast<uint32_t>(dst));
        triples.push_back(bytes);
      }
      L0SPV_TRY(r, Slot(inst.result_id()));
      Inst i{Op_::kConstruct};
      i.r = *r;
      i.b = static_cast<uint32_t>(prog_.extra.size());
      i.c = static_cast<uint32_t>(triples.size() / 3);
      i.d = s->bytes;
      prog_.extra.insert(prog_.extra.end(), triples.begin(), triples.end());
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert: {
      const bool insert = op == Op::OpCompositeInsert;
      const size_t comp_index = insert ? 1 : 0;
      L0SPV_TRY(cid, Id(inst, comp_index));
      L0SPV_TRY(ct, TypeOfValue(*cid));
      uint32_t cur = *ct;
      uint64_t off = 0;
      for (size_t k = comp_index + 1; k < inst.NumOperands(); ++k) {
        const TypeDesc* t = Type(cur);
        const uint32_t idx = inst.word(k);
        if (t == nullptr) return Bad("composite index into unknown type");
        if (t->cls == TypeDesc::kVector || t->cls == TypeDesc::kArray) {
          const uint64_t n = t->cls == TypeDesc::kVector ? t->lanes : t->count;
          if (idx >= n) return Bad("composite index out of range");
          off += idx * Type(t->elem)->size;
          cur = t->elem;
        } else if (t->cls == TypeDesc::kStruct) {
          if (idx >= t->members.size()) return Bad("member index out of range");
          off += t->offsets[idx];
          cur = t->members[idx];
        } else {
          return Bad("composite index into a non-composite");
        }
      }
      L0SPV_TRY(part, ShapeOf(cur));
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(c, Slot(*cid));
      if (!insert) {
        Inst i{Op_::kCopy};
        i.r = *r;
        i.a = *c + static_cast<uint32_t>(off);
        i.d = part->bytes;
        Emit(i, inst);
        return absl::OkStatus();
      }
      L0SPV_TRY(s, result_shape());
      L0SPV_TRY(obj, slot_of(0));
      if (auto st = NeedBytes(inst.word(0), part->bytes); !st.ok()) return st;
      Inst i{Op_::kInsert};
      i.r = *r;
      i.a = *c;
      i.b = *obj;
      i.c = static_cast<uint32_t>(prog_.extra.size());
      i.d = s->bytes;
      prog_.extra.push_back(static_cast<uint32_t>(off));
      prog_.extra.push_back(part->bytes);
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpVectorShuffle: {
      L0SPV_TRY(v1, Id(inst, 0));
      L0SPV_TRY(v2, Id(inst, 1));
      L0SPV_TRY(t1, TypeOfValue(*v1));
      L0SPV_TRY(t2, TypeOfValue(*v2));
      L0SPV_TRY(s1, ShapeOf(*t1));
      L0SPV_TRY(s2, ShapeOf(*t2));
      L0SPV_TRY(s, result_shape());
      L0SPV_TRY(a, Slot(*v1));
      L0SPV_TRY(b, Slot(*v2));
      const uint32_t eb = KindBytes(s->k);
      Inst i{Op_::kShuffle};
      i.k = s->k;
      i.n = s->n;
      i.b = static_cast<uint32_t>(prog_.extra.size());
      if (inst.NumOperands() - 2 != s->n) return Bad("shuffle lane count");
      for (size_t k = 2; k < inst.NumOperands(); ++k) {
        const uint32_t lane = inst.word(k);
        if (lane == 0xFFFFFFFFu) {
          prog_.extra.push_back(kNoSlot);
        } else if (lane < s1->n) {
          prog_.extra.push_back(*a + lane * eb);
        } else if (lane - s1->n < s2->n) {
          prog_.extra.push_back(*b + (lane - s1->n) * eb);
        } else {
          return Bad("shuffle component out of range");
        }
      }
      L0SPV_TRY(r, Slot(inst.result_id()));
      i.r = *r;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpVectorExtractDynamic:
    case Op::OpVectorInsertDynamic: {
      const bool ins = op == Op::OpVectorInsertDynamic;
      L0SPV_TRY(vid, Id(inst, 0));
      L0SPV_TRY(vt, TypeOfValue(*vid));
      L0SPV_TRY(vs, ShapeOf(*vt));
      L0SPV_TRY(iid, Id(inst, ins ? 2 : 1));
      L0SPV_TRY(it, TypeOfValue(*iid));
      L0SPV_TRY(is, ShapeOf(*it));
      if (is->k < kI8 || is->k > kI64) return Bad("vector index not integer");
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(v, Slot(*vid));
      L0SPV_TRY(idx, Slot(*iid));
      Inst i{ins ? Op_::kInsertDyn : Op_::kExtractDyn};
      i.k = vs->k;
      i.n = vs->n;
      i.r = *r;
      i.a = *v;
      if (ins) {
        L0SPV_TRY(comp, slot_of(1));
        i.b = *comp;
        i.c = *idx;
        i.d = KindBytes(is->k);
      } else {
        i.b = *idx;
        i.c = KindBytes(is->k);
      }
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpDot:
    case Op::OpVectorTimesScalar: {
      L0SPV_TRY(aid, Id(inst, 0));
      L0SPV_TRY(at, TypeOfValue(*aid));
      L0SPV_TRY(s, ShapeOf(*at));
      if (s->k < kF16 || s->k > kF64) return Bad("OpDot on non-floats");
      Inst i{op == Op::OpDot ? Op_::kDot : Op_::kVecTimesScalar};
      i.k = s->k;
      i.n = s->n;
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(a, Slot(*aid));
      L0SPV_TRY(b, slot_of(1));
      i.r = *r;
      i.a = *a;
      i.b = *b;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpIAddCarry:
    case Op::OpISubBorrow:
    case Op::OpUMulExtended:
    case Op::OpSMulExtended: {
      L0SPV_TRY(aid, Id(inst, 0));
      L0SPV_TRY(at, TypeOfValue(*aid));
      L0SPV_TRY(s, ShapeOf(*at));
      if (s->k < kI8 || s->k > kI64) return Bad("extended arithmetic types");
      const TypeDesc* rt = Type(inst.type_id());
      if (rt == nullptr || rt->cls != TypeDesc::kStruct ||
          rt->offsets.size() != 2)
        return Bad("extended arithmetic result is not a 2-member struct");
      if (rt->offsets[1] + uint64_t{s->n} * KindBytes(s->k) > rt->size)
        return Bad("extended arithmetic result layout");
      Inst i{op == Op::OpIAddCarry      ? Op_::kIAddCarry
             : op == Op::OpISubBorrow   ? Op_::kISubBorrow
             : op == Op::OpUMulExtended ? Op_::kUMulExtended
                                        : Op_::kSMulExtended};
      i.k = s->k;
      i.n = s->n;
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(a, Slot(*aid));
      L0SPV_TRY(b, slot_of(1));
      i.r = *r;
      i.a = *a;
      i.b = *b;
      i.d = static_cast<uint32_t>(rt->offsets[1]);
      Emit(i, inst);
      return absl::OkStatus();
    }

    case Op::OpVariable: {
      const TypeDesc* pt = Type(inst.type_id());
      if (pt == nullptr || pt->cls != TypeDesc::kPointer ||
          inst.NumOperands() < 1)
        return Bad("OpVariable without a pointer type");
      if (inst.word(0) != kScFunction)
        return Bad("OpVariable in a function must be Function storage");
      const TypeDesc* vt = Type(pt->elem);
      if (vt == nullptr || !vt->sized || vt->size > 0xFFFFFFFFu)
        return Unimpl("OpVariable of a type without storage");
      Inst i{Op_::kVariable};
      L0SPV_TRY(r, Slot(inst.result_id()));
      i.r = *r;
      i.d = static_cast<uint32_t>(vt->size);
      i.c = static_cast<uint32_t>(vt->align);
      if (inst.NumOperands() >= 2) {
        L0SPV_TRY(init, slot_of(1));
        if (auto st = NeedBytes(inst.word(1), i.d); !st.ok()) return st;
        i.a = *init;
      }
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpLoad:
    case Op::OpStore: {
      const bool load = op == Op::OpLoad;
      L0SPV_TRY(pid, Id(inst, 0));
      L0SPV_TRY(pt, TypeOfValue(*pid));
      const TypeDesc* ptd = Type(*pt);
      if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
        return Bad("load/store through a non-pointer");
      L0SPV_TRY(s, ShapeOf(ptd->elem));
      const TypeDesc* vt = Type(ptd->elem);
      Inst i{load ? Op_::kLoad : Op_::kStore};
      i.k = s->k;  // kAgg: the uninitialised-read rule for aggregates
      L0SPV_TRY(p, Slot(*pid));
      i.a = *p;
      i.d = s->access;
      i.c = static_cast<uint32_t>(vt->align);
      const size_t mem_index = load ? 1 : 2;
      if (inst.NumOperands() > mem_index) {
        const uint32_t mask = inst.word(mem_index);
        if (mask & static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)) {
          if (inst.NumOperands() <= mem_index + 1)
            return Bad("Aligned memory operand without a value");
          const uint32_t align = inst.word(mem_index + 1);
          if (align == 0 || (align & (align - 1)) != 0)
            return Bad("Aligned memory operand is not a power of two");
          i.c = align;
        }
      }
      if (load) {
        L0SPV_TRY(r, Slot(inst.result_id()));
        L0SPV_TRY(rs, result_shape());
        if (rs->bytes < i.d) return Bad("OpLoad result smaller than pointee");
        i.r = *r;
      } else {
        L0SPV_TRY(v, slot_of(1));
        if (auto st = NeedBytes(inst.word(1), i.d); !st.ok()) return st;
        i.b = *v;
      }
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
      return AccessChain(inst, false);
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
      return AccessChain(inst, true);
    case Op::OpCopyMemory:
    case Op::OpCopyMemorySized: {
      L0SPV_TRY(t, slot_of(0));
      L0SPV_TRY(s, slot_of(1));
      Inst i{op == Op::OpCopyMemory ? Op_::kCopyMemory : Op_::kCopyMemorySized};
      i.a = *t;
      i.b = *s;
      if (op == Op::OpCopyMemory) {
        L0SPV_TRY(pid, Id(inst, 0));
        L0SPV_TRY(pt, TypeOfValue(*pid));
        const TypeDesc* ptd = Type(*pt);
        if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
          return Bad("OpCopyMemory through a non-pointer");
        L0SPV_TRY(vs, ShapeOf(ptd->elem));
        i.c = vs->access;
      } else {
        L0SPV_TRY(sid, Id(inst, 2));
        L0SPV_TRY(st, TypeOfValue(*sid));
        L0SPV_TRY(ss, ShapeOf(*st));
        if (ss->k < kI8 || ss->k > kI64) return Bad("copy size not integer");
        L0SPV_TRY(size, Slot(*sid));
        i.c = *size;
        i.k = ss->k;
      }
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpPtrDiff:
    case Op::OpPtrEqual:
    case Op::OpPtrNotEqual: {
      if (m_.header.version < 0x00010400) return Unimpl("(needs SPIR-V 1.4)");
      L0SPV_TRY(aid, Id(inst, 0));
      L0SPV_TRY(at, TypeOfValue(*aid));
      const TypeDesc* ptd = Type(*at);
      if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
        return Bad("pointer comparison of non-pointers");
      Inst i{op == Op::OpPtrDiff    ? Op_::kPtrDiff
             : op == Op::OpPtrEqual ? Op_::kPtrEqual
                                    : Op_::kPtrNotEqual};
      L0SPV_TRY(r, Slot(inst.result_id()));
      L0SPV_TRY(a, Slot(*aid));
      L0SPV_TRY(b, slot_of(1));
      i.r = *r;
      i.a = *a;
      i.b = *b;
      if (op == Op::OpPtrDiff) {
        const TypeDesc* e = Type(ptd->elem);
        if (e == nullptr || !e->sized || e->size == 0)
          return Unimpl("OpPtrDiff over an unsized pointee");
        i.c = static_cast<uint32_t>(e->size);
        L0SPV_TRY(s, result_shape());
        i.k = s->k;
      }
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpSizeOf: {
      L0SPV_TRY(aid, Id(inst, 0));
      L0SPV_TRY(at, TypeOfValue(*aid));
      const TypeDesc* ptd = Type(*at);
      if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
        return Bad("OpSizeOf of a non-pointer");
      const TypeDesc* e = Type(ptd->elem);
      if (e == nullptr || !e->sized) return Unimpl("of an unsized type");
      L0SPV_TRY(s, result_shape());
      std::vector<uint8_t> bytes(s->bytes, 0);
      const uint64_t size = e->size;
      std::memcpy(bytes.data(), &size, std::min<size_t>(8, bytes.size()));
      L0SPV_TRY(c, ConstSlot(bytes));
      L0SPV_TRY(r, Slot(inst.result_id()));
      Inst i{Op_::kCopy};
      i.r = *r;
      i.a = *c;
      i.d = s->bytes;
      Emit(i, inst);
      return absl::OkStatus();
    }

    case Op::OpAtomicLoad:
      return Atomic(inst, Op_::kAtomicLoad);
    case Op::OpAtomicStore:
      return Atomic(inst, Op_::kAtomicStore);
    case Op::OpAtomicExchange:
      return Atomic(inst, Op_::kAtomicExchange);
    case Op::OpAtomicCompareExchange:
      return Atomic(inst, Op_::kAtomicCompareExchange);
    case Op::OpAtomicIIncrement:
      return Atomic(inst, Op_::kAtomicIIncrement);
    case Op::OpAtomicIDecrement:
      return Atomic(inst, Op_::kAtomicIDecrement);
    case Op::OpAtomicIAdd:
      return Atomic(inst, Op_::kAtomicIAdd);
    case Op::OpAtomicISub:
      return Atomic(inst, Op_::kAtomicISub);
    case Op::OpAtomicSMin:
      return Atomic(inst, Op_::kAtomicSMin);
    case Op::OpAtomicUMin:
      return Atomic(inst, Op_::kAtomicUMin);
    case Op::OpAtomicSMax:
      return Atomic(inst, Op_::kAtomicSMax);
    case Op::OpAtomicUMax:
      return Atomic(inst, Op_::kAtomicUMax);
    case Op::OpAtomicAnd:
      return Atomic(inst, Op_::kAtomicAnd);
    case Op::OpAtomicOr:
      return Atomic(inst, Op_::kAtomicOr);
    case Op::OpAtomicXor:
      return Atomic(inst, Op_::kAtomicXor);
    case Op::OpAtomicFAddEXT:
      return Atomic(inst, Op_::kAtomicFAdd);
    case Op::OpAtomicFMinEXT:
      return Atomic(inst, Op_::kAtomicFMin);
    case Op::OpAtomicFMaxEXT:
      return Atomic(inst, Op_::kAtomicFMax);
    case Op::OpAtomicFlagTestAndSet:
      return Atomic(inst, Op_::kAtomicFlagTestAndSet);
    case Op::OpAtomicFlagClear:
      return Atomic(inst, Op_::kAtomicFlagClear);

    case Op::OpBranch: {
      L0SPV_TRY(target, Id(inst, 0));
      L0SPV_TRY(e, MakeEdge(current_label_, *target));
      Inst i{Op_::kBranch};
      i.a = *e;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpBranchConditional: {
      L0SPV_TRY(c, slot_of(0));
      L0SPV_TRY(t, Id(inst, 1));
      L0SPV_TRY(f, Id(inst, 2));
      L0SPV_TRY(et, MakeEdge(current_label_, *t));
      L0SPV_TRY(ef, MakeEdge(current_label_, *f));
      Inst i{Op_::kBranchCond};
      i.a = *c;
      i.b = *et;
      i.c = *ef;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpSwitch: {
      L0SPV_TRY(sid, Id(inst, 0));
      L0SPV_TRY(st, TypeOfValue(*sid));
      L0SPV_TRY(ss, ShapeOf(*st));
      if (ss->k < kI8 || ss->k > kI64 || ss->n != 1)
        return Bad("OpSwitch selector is not a scalar integer");
      L0SPV_TRY(sel, Slot(*sid));
      L0SPV_TRY(def, Id(inst, 1));
      L0SPV_TRY(edef, MakeEdge(current_label_, *def));
      std::vector<uint32_t> cases;
      for (size_t k = 2; k + 1 < inst.NumOperands(); k += 2) {
        const auto& lit = inst.operand(k).words;
        const uint64_t lo = lit.empty() ? 0 : lit[0];
        const uint64_t hi = lit.size() > 1 ? lit[1] : 0;
        L0SPV_TRY(e, MakeEdge(current_label_, inst.word(k + 1)));
        cases.push_back(static_cast<uint32_t>(lo));
        cases.push_back(static_cast<uint32_t>(hi));
        cases.push_back(*e);
      }
      Inst i{Op_::kSwitch};
      i.k = ss->k;
      i.a = *sel;
      i.b = static_cast<uint32_t>(prog_.extra.size());
      i.c = static_cast<uint32_t>(cases.size() / 3);
      i.d = *edef;
      prog_.extra.insert(prog_.extra.end(), cases.begin(), cases.end());
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpReturn:
      Emit(Inst{Op_::kReturn}, inst);
      return absl::OkStatus();
    case Op::OpReturnValue: {
      L0SPV_TRY(vid, Id(inst, 0));
      L0SPV_TRY(vt, TypeOfValue(*vid));
      L0SPV_TRY(vs, ShapeOf(*vt));
      L0SPV_TRY(v, Slot(*vid));
      if (vs->bytes != fn_->return_bytes)
        return Bad("OpReturnValue of the wrong size");
      Inst i{Op_::kReturnValue};
      i.a = *v;
      i.d = vs->bytes;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpUnreachable:
      Emit(Inst{Op_::kUnreachable}, inst);
      return absl::OkStatus();
    case Op::OpFunctionCall: {
      L0SPV_TRY(callee, Id(inst, 0));
      auto fi = function_index_.find(*callee);
      if (fi == function_index_.end())
        return Unimpl(absl::StrCat("of %", *callee,
                                   ", a function without a body (import)"));
      const FunctionInfo& target = prog_.functions[fi->second];
      if (target.param_bytes.size() + 1 != inst.NumOperands())
        return Bad("OpFunctionCall argument count");
      for (size_t k = 1; k < inst.NumOperands(); ++k) {
        if (auto st = NeedBytes(inst.word(k), target.param_bytes[k - 1]);
            !st.ok())
          return st;
      }
      Inst i{Op_::kCall};
      i.d = fi->second;
      i.b = static_cast<uint32_t>(prog_.extra.size());
      i.c = static_cast<uint32_t>(inst.NumOperands() - 1);
      for (size_t k = 1; k < inst.NumOperands(); ++k) {
        L0SPV_TRY(a, Slot(inst.word(k)));
        prog_.extra.push_back(*a);
      }
      if (inst.type_id() != 0 && Type(inst.type_id()) &&
          Type(inst.type_id())->cls != TypeDesc::kVoid) {
        L0SPV_TRY(r, Slot(inst.result_id()));
        L0SPV_TRY(rs, result_shape());
        if (rs->bytes != target.return_bytes)
          return Bad("OpFunctionCall result type differs from the callee's");
        i.r = *r;
      }
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpControlBarrier: {
      L0SPV_TRY(scope, ScopeOf(inst, 0));
      if (*scope != 2 && *scope != 3)
        return Unimpl(
            "with an execution scope other than Workgroup or "
            "Subgroup");
      Inst i{Op_::kBarrier};
      i.a = *scope;
      // Memory semantics (which storage classes the barrier fences, for
      // race detection); a non-constant value is taken as fencing all.
      i.b = 0x300;
      if (inst.NumOperands() >= 3) {
        if (auto sem = ConstantInt(inst.word(2)))
          i.b = static_cast<uint32_t>(*sem);
      }
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpGroupAll:
      return Group(inst, GroupOp::kAll, false);
    case Op::OpGroupAny:
      return Group(inst, GroupOp::kAny, false);
    case Op::OpGroupBroadcast:
      return Group(inst, GroupOp::kBroadcast, false);
    case Op::OpGroupIAdd:
      return Group(inst, GroupOp::kIAdd, true);
    case Op::OpGroupFAdd:
      return Group(inst, GroupOp::kFAdd, true);
    case Op::OpGroupFMin:
      return Group(inst, GroupOp::kFMin, true);
    case Op::OpGroupUMin:
      return Group(inst, GroupOp::kUMin, true);
    case Op::OpGroupSMin:
      return Group(inst, GroupOp::kSMin, true);
    case Op::OpGroupFMax:
      return Group(inst, GroupOp::kFMax, true);
    case Op::OpGroupUMax:
      return Group(inst, GroupOp::kUMax, true);
    case Op::OpGroupSMax:
      return Group(inst, GroupOp::kSMax, true);
    case Op::OpSubgroupShuffleINTEL:
      return IntelSubgroup(inst, GroupOp::kShuffle);
    case Op::OpSubgroupShuffleDownINTEL:
      return IntelSubgroup(inst, GroupOp::kShuffleDown);
    case Op::OpSubgroupShuffleUpINTEL:
      return IntelSubgroup(inst, GroupOp::kShuffleUp);
    case Op::OpSubgroupShuffleXorINTEL:
      return IntelSubgroup(inst, GroupOp::kShuffleXor);
    case Op::OpSubgroupBlockReadINTEL:
      return IntelSubgroup(inst, GroupOp::kBlockRead);
    case Op::OpSubgroupBlockWriteINTEL:
      return IntelSubgroup(inst, GroupOp::kBlockWrite);
    case Op::OpGroupNonUniformElect:
      return NonUniform(inst, GroupOp::kElect);
    case Op::OpGroupNonUniformAll:
      return NonUniform(inst, GroupOp::kAll);
    case Op::OpGroupNonUniformAny:
      return NonUniform(inst, GroupOp::kAny);
    case Op::OpGroupNonUniformAllEqual:
      return NonUniform(inst, GroupOp::kAllEqual);
    case Op::OpGroupNonUniformBroadcast:
      return NonUniform(inst, GroupOp::kBroadcast);
    case Op::OpGroupNonUniformBroadcastFirst:
      return NonUniform(inst, GroupOp::kBroadcastFirst);
    case Op::OpGroupNonUniformBallot:
      return NonUniform(inst, GroupOp::kBallot);
    case Op::OpGroupNonUniformInverseBallot:
      return NonUniform(inst, GroupOp::kInverseBallot);
    case Op::OpGroupNonUniformBallotBitExtract:
      return NonUniform(inst, GroupOp::kBallotBitExtract);
    case Op::OpGroupNonUniformBallotBitCount:
      return NonUniform(inst, GroupOp::kBallotBitCount);
    case Op::OpGroupNonUniformBallotFindLSB:
      return NonUniform(inst, GroupOp::kBallotFindLSB);
    case Op::OpGroupNonUniformBallotFindMSB:
      return NonUniform(inst, GroupOp::kBallotFindMSB);
    case Op::OpGroupNonUniformShuffle:
      return NonUniform(inst, GroupOp::kNuShuffle);
    case Op::OpGroupNonUniformShuffleXor:
      return NonUniform(inst, GroupOp::kNuShuffleXor);
    case Op::OpGroupNonUniformShuffleUp:
      return NonUniform(inst, GroupOp::kNuShuffleUp);
    case Op::OpGroupNonUniformShuffleDown:
      return NonUniform(inst, GroupOp::kNuShuffleDown);
    case Op::OpGroupNonUniformIAdd:
      return NonUniform(inst, GroupOp::kIAdd);
    case Op::OpGroupNonUniformFAdd:
      return NonUniform(inst, GroupOp::kFAdd);
    case Op::OpGroupNonUniformIMul:
      return NonUniform(inst, GroupOp::kIMul);
    case Op::OpGroupNonUniformFMul:
      return NonUniform(inst, GroupOp::kFMul);
    case Op::OpGroupNonUniformSMin:
      return NonUniform(inst, GroupOp::kSMin);
    case Op::OpGroupNonUniformUMin:
      return NonUniform(inst, GroupOp::kUMin);
    case Op::OpGroupNonUniformFMin:
      return NonUniform(inst, GroupOp::kFMin);
    case Op::OpGroupNonUniformSMax:
      return NonUniform(inst, GroupOp::kSMax);
    case Op::OpGroupNonUniformUMax:
      return NonUniform(inst, GroupOp::kUMax);
    case Op::OpGroupNonUniformFMax:
      return NonUniform(inst, GroupOp::kFMax);
    case Op::OpGroupNonUniformBitwiseAnd:
      return NonUniform(inst, GroupOp::kBitwiseAnd);
    case Op::OpGroupNonUniformBitwiseOr:
      return NonUniform(inst, GroupOp::kBitwiseOr);
    case Op::OpGroupNonUniformBitwiseXor:
      return NonUniform(inst, GroupOp::kBitwiseXor);
    case Op::OpGroupNonUniformLogicalAnd:
      return NonUniform(inst, GroupOp::kLogicalAnd);
    case Op::OpGroupNonUniformLogicalOr:
      return NonUniform(inst, GroupOp::kLogicalOr);
    case Op::OpGroupNonUniformLogicalXor:
      return NonUniform(inst, GroupOp::kLogicalXor);
    case Op::OpGroupAsyncCopy:
      return AsyncCopy(inst);
    case Op::OpGroupWaitEvents:
      return WaitEvents(inst);
    case Op::OpExtInst:
      return TranslateExtInst(inst);
    default:
      return Unsupported(inst,
                         "is not implemented by the reference "
                         "interpreter");
  }
#undef L0SPV_TRY
}

absl::StatusOr<Program> Decoder::Run() {
  if (auto s = DecodeHeader(); !s.ok()) return s;
  if (auto s = DecodeDecorations(); !s.ok()) return s;
  for (const Instruction& inst : m_.types_values) {
    const spirv::OpcodeInfo* info = inst.info();
    if (info == nullptr) continue;
    const auto op = static_cast<Op>(inst.opcode());
    absl::Status s;
    if (absl::string_view(info->instr_class) == "Type-Declaration") {
      s = DecodeType(inst);
    } else if (op == Op::OpVariable) {
      s = DecodeGlobalVariable(inst);
    } else if (inst.result_id() != 0 && inst.type_id() != 0) {
      s = DecodeConstant(inst);
    }
    if (!s.ok()) return s;
  }
  // Function indices first, so calls can be resolved in any order.
  for (const spirv::Function& f : m_.functions) {
    if (f.IsDeclaration()) continue;
    function_index_[f.id()] = static_cast<uint32_t>(prog_.functions.size());
    FunctionInfo info;
    info.id = f.id();
    auto n = names_.find(f.id());
    info.name = n != names_.end() ? n->second : absl::StrCat("%", f.id());
    prog_.functions.push_back(std::move(info));
  }
  auto entry = function_index_.find(entry_id_);
  if (entry == function_index_.end())
    return Bad("the entry point has no function body");
  prog_.entry_function = entry->second;
  // Parameter slots are needed by calls before the callee is decoded.
  for (const spirv::Function& f : m_.functions) {
    if (f.IsDeclaration()) continue;
    FunctionInfo& info = prog_.functions[function_index_[f.id()]];
    for (const Instruction& p : f.parameters) {
      auto s = ShapeOf(p.type_id());
      if (!s.ok()) return s.status();
      info.param_bytes.push_back(s->bytes);
    }
    const TypeDesc* rt = Type(f.def.type_id());
    if (rt != nullptr && rt->cls != TypeDesc::kVoid) {
      auto rs = ShapeOf(f.def.type_id());
      if (!rs.ok()) return rs.status();
      info.return_bytes = rs->bytes;
    }
  }
  for (const spirv::Function& f : m_.functions) {
    if (f.IsDeclaration()) continue;
    const uint32_t index = function_index_[f.id()];
    prog_.functions[index].param_bytes.clear();
    if (auto s = DecodeFunction(f, index); !s.ok()) return s;
  }
  // Kernel parameters.
  const spirv::Function* kernel = m_.FindFunction(entry_id_);
  for (const Instruction& p : kernel->parameters) {
    KernelParam kp;
    const TypeDesc* t = Type(p.type_id());
    if (t == nullptr) return Bad("kernel parameter without a type");
    if (t->cls == TypeDesc::kPointer) {
      kp.storage_class = t->storage;
      const TypeDesc* e = Type(t->elem);
      const Decorations* d = Deco(p.result_id());
      if (t->storage == kScWorkgroup) {
        kp.kind = KernelParam::Kind::kLocal;
      } else if (t->storage == kScFunction || (d && d->byval)) {
        kp.kind = KernelParam::Kind::kByValuePointer;
        if (e == nullptr || !e->sized)
          return Unimpl("by-value kernel parameter of an unsized type");
        kp.bytes = static_cast<uint32_t>(e->size);
      } else if (t->storage == kScCrossWorkgroup ||
                 t->storage == kScUniformConstant || t->storage == kScGeneric) {
        kp.kind = KernelParam::Kind::kBuffer;
      } else {
        return Unimpl("kernel parameter in an unsupported storage class");
      }
      if (kp.kind != KernelParam::Kind::kByValuePointer) {
        StaticAlloc a;
        a.kind = kp.kind == KernelParam::Kind::kLocal ? AllocKind::kLocalArg
                                                      : AllocKind::kBufferArg;
        a.storage_class =
            kp.kind == KernelParam::Kind::kLocal
                ? kScWorkgroup
                : (t->storage == kScGeneric ? kScCrossWorkgroup : t->storage);
        a.read_only = t->storage == kScUniformConstant;
        prog_.static_allocs.push_back(a);
        kp.alloc_id = static_cast<uint32_t>(prog_.static_allocs.size());
      }
    } else {
      kp.kind = KernelParam::Kind::kValue;
      auto s = ShapeOf(p.type_id());
      if (!s.ok()) return s.status();
      kp.bytes = s->bytes;
    }
    prog_.params.push_back(kp);
  }
  prog_.max_call_depth =
      static_cast<uint32_t>(std::min<size_t>(prog_.functions.size() + 1, 256));
  return std::move(prog_);
}

}  // namespace

absl::StatusOr<Program> Decode(const spirv::Module& module,
                               absl::string_view entry_point) {
  Decoder d(module, entry_point);
  return d.Run();
}

}  // namespace l0spv::oracles::reference
