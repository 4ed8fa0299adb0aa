// Binary → Module. Operands are decoded with the generated grammar tables,
// the way SPIRV-Tools' binary parser does: quantifiers, enumerant parameters,
// context-dependent literal widths (OpConstant, OpSwitch) and the operands of
// OpenCL.std extended instructions.
#include <bit>
#include <cstring>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "spirv/binary.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {
namespace {

using spv::Op;

uint32_t ByteSwap(uint32_t w) { return __builtin_bswap32(w); }

absl::Status ErrorAt(size_t word_offset, std::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrFormat("SPIR-V binary, word %d (byte 0x%x): %s", word_offset,
                      word_offset * 4, message));
}

class Reader {
 public:
  explicit Reader(std::span<const uint32_t> words) : words_(words) {}

  absl::StatusOr<Module> Read() {
    if (words_.empty()) {
      return Error(0,
                   "the input is empty (expected a module starting with "
                   "the magic number 0x07230203)");
    }
    if (words_[0] != kMagicNumber) {
      return Error(
          0, absl::StrFormat("bad magic number 0x%08x (expected 0x%08x in host "
                             "byte order); this is not a SPIR-V module",
                             words_[0], kMagicNumber));
    }
    if (words_.size() < 5) {
      return Error(words_.size(),
                   absl::StrCat("a SPIR-V module needs a 5-word (20-byte) "
                                "header, got ",
                                words_.size(), " words"));
    }
    Module m;
    m.header = {words_[0], words_[1], words_[2], words_[3], words_[4]};
    if (m.header.bound == 0) {
      return Error(3, "id bound is 0; it must exceed every id in the module");
    }
    if (m.header.bound > kMaxIdBound) {
      return Error(3, absl::StrCat("id bound ", m.header.bound,
                                   " exceeds the SPIR-V universal limit of ",
                                   kMaxIdBound));
    }
    bound_ = m.header.bound;
    size_t offset = 5;
    Section current = Section::kCapability;
    Function* fn = nullptr;
    enum class FnState { kNone, kParams, kBody } fn_state = FnState::kNone;
    while (offset < words_.size()) {
      const uint32_t first = words_[offset];
      const uint32_t count = first >> 16;
      const uint32_t opcode = first & 0xFFFF;
      if (count == 0) {
        return Error(offset, "instruction word count is 0");
      }
      if (offset + count > words_.size()) {
        return Error(offset,
                     absl::StrCat("instruction word count ", count,
                                  " runs past the end of the module (",
                                  words_.size() - offset, " words left)"));
      }
      const OpcodeInfo* info = FindOpcode(opcode);
      if (info == nullptr) {
        return Error(offset, absl::StrCat("unknown opcode ", opcode));
      }
      auto inst = ParseInstruction(*info, offset, count);
      if (!inst.ok()) return inst.status();
      NoteImport(*inst);
      const Op op = static_cast<Op>(opcode);

      // Place the instruction in the logical layout.
      if (fn_state != FnState::kNone) {
        if (op == Op::OpFunctionEnd) {
          fn->end = std::move(*inst);
          fn_state = FnState::kNone;
          fn = nullptr;
        } else if (op == Op::OpFunctionParameter) {
          if (fn_state != FnState::kParams) {
            return Error(offset,
                         "OpFunctionParameter after the function's first "
                         "block");
          }
          fn->parameters.push_back(std::move(*inst));
        } else if (op == Op::OpLabel) {
          fn_state = FnState::kBody;
          fn->blocks.push_back(BasicBlock{std::move(*inst), {}});
        } else if (op == Op::OpFunction) {
          return Error(offset,
                       "OpFunction inside a function (missing "
                       "OpFunctionEnd)");
        } else if (fn_state != FnState::kBody) {
          return Error(offset, absl::StrCat(info->name,
                                            " before the function's first "
                                            "OpLabel"));
        } else {
          fn->blocks.back().instructions.push_back(std::move(*inst));
        }
      } else {
        Section s = SectionOfOpcode(opcode);
        if (op == Op::OpLine || op == Op::OpNoLine) {
          // Allowed anywhere from the types section on.
          if (current == Section::kFunction) {
            // Valid SPIR-V, but a Module keeps no instructions between
            // functions; filing it elsewhere would reorder the binary.
            return Error(offset, absl::StrCat(info->name,
                                              " between functions is not "
                                              "supported (the module model "
                                              "keeps debug lines only in the "
                                              "types section and in function "
                                              "bodies)"));
          }
          if (current < Section::kTypesValues) current = Section::kTypesValues;
          s = current;
        } else if (op == Op::OpFunction) {
          s = Section::kFunction;
        } else if (s == Section::kFunction) {
          return Error(offset,
                       absl::StrCat(info->name, " outside a function body"));
        }
        if (s < current) {
          return Error(
              offset,
              absl::StrCat(info->name, " belongs to the ", SectionName(s),
                           " section but follows the ", SectionName(current),
                           " section (logical layout order, spec "
                           "§2.4)"));
        }
        current = s;
        if (op == Op::OpFunction) {
          m.functions.push_back(Function{});
          fn = &m.functions.back();
          fn->def = std::move(*inst);
          fn_state = FnState::kParams;
        } else {
          m.section(s).push_back(std::move(*inst));
        }
      }
      offset += count;
    }
    if (fn != nullptr) {
      return Error(words_.size(),
                   "module ends inside a function (missing "
                   "OpFunctionEnd)");
    }
    return m;
  }

 private:
  absl::Status Error(size_t word_offset, std::string_view message) const {
    return ErrorAt(word_offset, message);
  }

  absl::StatusOr<Instruction> ParseInstruction(const OpcodeInfo& info,
                                               size_t offset, uint32_t count) {
    inst_offset_ = offset;
    pos_ = offset + 1;
    end_ = offset + count;
    Instruction inst;
    inst.set_opcode(info.opcode);
    opcode_ = &info;
    std::vector<Operand> operands;
    for (const OperandSpec& spec : info.operands) {
      if (spec.quantifier == Quantifier::kOne) {
        if (pos_ >= end_) {
          return Error(
              offset,
              absl::StrCat(
                  info.name, " is missing its operand '",
                  spec.name[0] ? spec.name : GetOperandKind(spec.kind).name,
                  "' (word count ", count, ")"));
        }
        if (auto s = ParseOperand(spec.kind, inst, operands); !s.ok()) return s;
      } else if (spec.quantifier == Quantifier::kOptional) {
        if (pos_ < end_) {
          if (auto s = ParseOperand(spec.kind, inst, operands); !s.ok())
            return s;
        }
      } else {
        while (pos_ < end_) {
          if (auto s = ParseOperand(spec.kind, inst, operands); !s.ok())
            return s;
        }
      }
    }
    if (pos_ < end_) {
      return Error(offset, absl::StrCat(info.name, " has ", end_ - pos_,
                                        " word(s) beyond its operands"));
    }
    inst.mutable_operands() = std::move(operands);
    if (inst.result_id() != 0) {
      if (!defined_.insert(inst.result_id()).second) {
        return Error(offset, absl::StrCat(info.name, " redefines id %",
                                          inst.result_id()));
      }
      if (inst.type_id() != 0) value_types_[inst.result_id()] = inst.type_id();
      RecordType(inst);
    }
    return inst;
  }

  // Remembers scalar widths so later context-dependent literals can be sized.
  void RecordType(const Instruction& inst) {
    const Op op = static_cast<Op>(inst.opcode());
    if ((op == Op::OpTypeInt || op == Op::OpTypeFloat) &&
        !inst.operands().empty()) {
      scalar_widths_[inst.result_id()] = inst.word(0);
    }
  }

  absl::StatusOr<uint32_t> TakeId(const char* what) {
    const uint32_t id = words_[pos_];
    if (id == 0 || id >= bound_) {
      return Error(pos_,
                   absl::StrCat(opcode_->name, ": ", what, " %", id,
                                id == 0 ? " is not a valid id"
                                        : absl::StrCat(" is not below the id "
                                                       "bound ",
                                                       bound_)));
    }
    ++pos_;
    return id;
  }

  absl::Status ParseOperand(OperandKind kind, Instruction& inst,
                            std::vector<Operand>& out) {
    if (pos_ >= end_) {
      return Error(inst_offset_,
                   absl::StrCat(opcode_->name, " is missing a ",
                                GetOperandKind(kind).name,
                                " operand required by a preceding operand"));
    }
    switch (kind) {
      case OperandKind::kIdResultType: {
        auto id = TakeId("result type");
        if (!id.ok()) return id.status();
        inst.set_type_id(*id);
        return absl::OkStatus();
      }
      case OperandKind::kIdResult: {
        auto id = TakeId("result id");
        if (!id.ok()) return id.status();
        inst.set_result_id(*id);
        return absl::OkStatus();
      }
      case OperandKind::kIdRef:
      case OperandKind::kIdScope:
      case OperandKind::kIdMemorySemantics: {
        auto id = TakeId("operand");
        if (!id.ok()) return id.status();
        out.push_back(Operand{kind, {*id}});
        return absl::OkStatus();
      }
      case OperandKind::kLiteralInteger:
      case OperandKind::kLiteralSpecConstantOpInteger:
        out.push_back(Operand{kind, {words_[pos_++]}});
        if (kind == OperandKind::kLiteralSpecConstantOpInteger)
          return ParseSpecConstantOpOperands(out.back().words[0], inst, out);
        return absl::OkStatus();
      case OperandKind::kLiteralExtInstInteger:
        out.push_back(Operand{kind, {words_[pos_++]}});
        return ParseExtInstOperands(inst, out);
      case OperandKind::kLiteralString:
        return ParseString(out);
      case OperandKind::kLiteralContextDependentNumber:
        return ParseContextDependentNumber(inst, out);
      default:
        break;
    }
    const OperandKindInfo& kind_info = GetOperandKind(kind);
    switch (kind_info.category) {
      case OperandCategory::kComposite:
        // The grammar spells OpSwitch targets "LiteralInteger, IdRef", but a
        // case literal is as wide as the selector (two words for a 64-bit
        // selector), like SPIRV-Tools' parser treats it.
        if (kind == OperandKind::kPairLiteralIntegerIdRef &&
            static_cast<Op>(opcode_->opcode) == Op::OpSwitch) {
          if (auto s = ParseContextDependentNumber(inst, out); !s.ok())
            return s;
          return ParseOperand(OperandKind::kIdRef, inst, out);
        }
        for (OperandKind base : kind_info.bases) {
          if (auto s = ParseOperand(base, inst, out); !s.ok()) return s;
        }
        return absl::OkStatus();
      case OperandCategory::kValueEnum: {
        const uint32_t value = words_[pos_];
        const EnumerantInfo* e = FindEnumerant(kind, value);
        if (e == nullptr) {
          return Error(pos_, absl::StrCat(opcode_->name, ": ", value,
                                          " is not a valid ", kind_info.name));
        }
        out.push_back(Operand{kind, {words_[pos_++]}});
        for (OperandKind param : e->parameters) {
          if (auto s = ParseOperand(param, inst, out); !s.ok()) return s;
        }
        return absl::OkStatus();
      }
      case OperandCategory::kBitEnum: {
        const uint32_t mask = words_[pos_];
        const size_t mask_pos = pos_;
        out.push_back(Operand{kind, {words_[pos_++]}});
        // Parameters follow in increasing bit order (spec §2.2.2).
        for (uint32_t bit = 0; bit < 32; ++bit) {
          const uint32_t flag = 1u << bit;
          if ((mask & flag) == 0) continue;
          const EnumerantInfo* e = FindEnumerant(kind, flag);
          if (e == nullptr) {
            return Error(mask_pos,
                         absl::StrFormat("%s: bit 0x%x is not a valid %s",
                                         opcode_->name, flag, kind_info.name));
          }
          for (OperandKind param : e->parameters) {
            if (auto s = ParseOperand(param, inst, out); !s.ok()) return s;
          }
        }
        return absl::OkStatus();
      }
      default:
        return Error(
            pos_, absl::StrCat("cannot decode operand kind ", kind_info.name));
    }
  }

  absl::Status ParseString(std::vector<Operand>& out) {
    Operand op{OperandKind::kLiteralString, {}};
    while (pos_ < end_) {
      const uint32_t w = words_[pos_++];
      op.words.push_back(w);
      if ((w & 0xFF) == 0 || (w & 0xFF00) == 0 || (w & 0xFF0000) == 0 ||
          (w & 0xFF000000) == 0) {
        out.push_back(std::move(op));
        return absl::OkStatus();
      }
    }
    return Error(inst_offset_, absl::StrCat(opcode_->name,
                                            ": string literal is not "
                                            "nul-terminated within the "
                                            "instruction (truncated)"));
  }

  absl::StatusOr<uint32_t> ScalarWidthOfType(uint32_t type_id) {
    auto it = scalar_widths_.find(type_id);
    if (it == scalar_widths_.end()) {
      return Error(inst_offset_,
                   absl::StrCat(opcode_->name, ": type %", type_id,
                                " of a numeric literal is not a previously "
                                "declared OpTypeInt or OpTypeFloat"));
    }
    return it->second;
  }

  absl::Status ParseContextDependentNumber(const Instruction& inst,
                                           std::vector<Operand>& out) {
    // OpConstant/OpSpecConstant: sized by the result type. OpSwitch case
    // literals: sized by the selector's type (the first operand).
    uint32_t type_id = inst.type_id();
    if (static_cast<Op>(opcode_->opcode) == Op::OpSwitch) {
      type_id = 0;
      if (!out.empty()) {
        auto it = value_types_.find(out[0].AsId());
        if (it != value_types_.end()) type_id = it->second;
      }
    }
    auto width = ScalarWidthOfType(type_id);
    if (!width.ok()) return width.status();
    // 64-bit arithmetic: a hostile width near 2^32 must not wrap to 0 words.
    const size_t words =
        *width > 32 ? static_cast<size_t>((uint64_t{*width} + 31) / 32) : 1;
    if (pos_ + words > end_) {
      return Error(
          inst_offset_,
          absl::StrCat(opcode_->name, ": a ", *width, "-bit literal needs ",
                       words, " words but the instruction ends"));
    }
    Operand op{OperandKind::kLiteralContextDependentNumber, {}};
    for (size_t i = 0; i < words; ++i) op.words.push_back(words_[pos_++]);
    out.push_back(std::move(op));
    return absl::OkStatus();
  }

  absl::Status ParseExtInstOperands(Instruction& inst,
                                    std::vector<Operand>& out) {
    // out = [set id, instruction number]; the remaining words are operands of
    // the extended instruction. Only OpenCL.std is decoded by grammar; other
    // sets take the core grammar's "IdRef *" tail.
    const uint32_t set = out[0].AsId();
    const uint32_t number = out[1].words[0];
    auto it = import_names_.find(set);
    if (it == import_names_.end() || it->second != "OpenCL.std") {
      return absl::OkStatus();
    }
    const ExtInstInfo* ext = FindOpenClStd(number);
    if (ext == nullptr) {
      return Error(inst_offset_, absl::StrCat("OpExtInst: ", number,
                                              " is not an OpenCL.std "
                                              "instruction"));
    }
    for (const OperandSpec& spec : ext->operands) {
      if (spec.quantifier == Quantifier::kOne && pos_ >= end_) {
        return Error(inst_offset_,
                     absl::StrCat("OpExtInst OpenCL.std ", ext->name,
                                  " is missing operand '", spec.name, "'"));
      }
      if (spec.quantifier == Quantifier::kVariadic) {
        while (pos_ < end_) {
          if (auto s = ParseOperand(spec.kind, inst, out); !s.ok()) return s;
        }
      } else if (pos_ < end_) {
        if (auto s = ParseOperand(spec.kind, inst, out); !s.ok()) return s;
      }
    }
    if (pos_ < end_) {
      return Error(inst_offset_,
                   absl::StrCat("OpExtInst OpenCL.std ", ext->name, " has ",
                                end_ - pos_, " word(s) beyond its operands"));
    }
    return absl::OkStatus();
  }

  absl::Status ParseSpecConstantOpOperands(uint32_t opcode, Instruction& inst,
                                           std::vector<Operand>& out) {
    const OpcodeInfo* info = FindOpcode(opcode);
    if (info == nullptr) {
      return Error(inst_offset_, absl::StrCat("OpSpecConstantOp: unknown "
                                              "opcode ",
                                              opcode));
    }
    // Every operation OpSpecConstantOp may compute yields a typed value, and
    // none is itself OpSpecConstantOp. Refusing the nesting also bounds the
    // recursion: each level would consume only one word.
    if (!info->has_result_type ||
        static_cast<Op>(opcode) == Op::OpSpecConstantOp) {
      return Error(
          inst_offset_,
          absl::StrCat("OpSpecConstantOp: opcode ", opcode, " (", info->name,
                       ") cannot be computed by OpSpecConstantOp"));
    }
    for (const OperandSpec& spec : info->operands) {
      if (spec.kind == OperandKind::kIdResultType ||
          spec.kind == OperandKind::kIdResult)
        continue;
      if (spec.quantifier == Quantifier::kVariadic) {
        while (pos_ < end_) {
          if (auto s = ParseOperand(spec.kind, inst, out); !s.ok()) return s;
        }
      } else if (pos_ < end_) {
        if (auto s = ParseOperand(spec.kind, inst, out); !s.ok()) return s;
      } else if (spec.quantifier == Quantifier::kOne) {
        return Error(inst_offset_, absl::StrCat("OpSpecConstantOp ", info->name,
                                                " is missing an operand"));
      }
    }
    return absl::OkStatus();
  }

 public:
  // OpExtInstImport names must be known before OpExtInst is decoded; they
  // precede it in any module that passes the layout check.
  void NoteImport(const Instruction& inst) {
    if (static_cast<Op>(inst.opcode()) == Op::OpExtInstImport &&
        !inst.operands().empty()) {
      import_names_[inst.result_id()] = inst.operand(0).AsString();
    }
  }

 private:
  std::span<const uint32_t> words_;
  uint32_t bound_ = 0;
  size_t inst_offset_ = 0, pos_ = 0, end_ = 0;
  const OpcodeInfo* opcode_ = nullptr;
  absl::flat_hash_set<uint32_t> defined_;
  absl::flat_hash_map<uint32_t, uint32_t> value_types_;
  absl::flat_hash_map<uint32_t, uint32_t> scalar_widths_;
  absl::flat_hash_map<uint32_t, std::string> import_names_;
};

}  // namespace

absl::StatusOr<Module> ReadModuleWords(std::span<const uint32_t> words) {
  Reader reader(words);
  return reader.Read();
}

absl::StatusOr<Module> ReadModule(std::span<const uint8_t> bytes) {
  // Errors name a word offset like every other reader error, so a user can
  // find the spot with a hex dump.
  if (bytes.empty()) {
    return ErrorAt(0,
                   "the input is empty (expected a module starting with "
                   "the magic number 0x07230203)");
  }
  if (bytes.size() % 4 != 0) {
    return ErrorAt(bytes.size() / 4,
                   absl::StrFormat("size %d bytes is not a multiple of 4 (a "
                                   "module is a stream of 32-bit words; the "
                                   "file may be truncated)",
                                   bytes.size()));
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  Endianness endianness;
  if (words[0] == kMagicNumber) {
    endianness = std::endian::native == std::endian::little
                     ? Endianness::kLittle
                     : Endianness::kBig;
  } else if (ByteSwap(words[0]) == kMagicNumber) {
    endianness = std::endian::native == std::endian::little
                     ? Endianness::kBig
                     : Endianness::kLittle;
    for (uint32_t& w : words) w = ByteSwap(w);
  } else {
    return ErrorAt(0, absl::StrFormat("bad magic number 0x%08x (expected "
                                      "0x%08x in either byte order); this is "
                                      "not a SPIR-V module",
                                      words[0], kMagicNumber));
  }
  auto module = ReadModuleWords(words);
  if (module.ok()) module->endianness = endianness;
  return module;
}

bool DeclaresFunctions(std::span<const uint32_t> words) {
  using spv::Op;
  bool in_header = false;  // after OpFunction, before a label or its end
  bool declares = false;
  const bool well_formed =
      ScanInstructions(words, [&](uint32_t opcode, std::span<const uint32_t>) {
        switch (static_cast<Op>(opcode)) {
          case Op::OpFunction:
            in_header = true;
            break;
          case Op::OpFunctionParameter:
            break;
          case Op::OpFunctionEnd:
            declares = in_header;
            in_header = false;
            break;
          default:
            in_header = false;
        }
        return !declares;
      });
  return well_formed && declares;
}

}  // namespace l0spv::spirv
