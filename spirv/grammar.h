// spirv/grammar.h — SPIR-V grammar tables, generated at build time.
//
// Contract: every lookup here is answered from tables that
// `spirv/grammar_gen/generate_grammar.cc` generates from the installed
// SPIRV-Headers JSON grammars (core unified1 grammar and OpenCL.std 100). The
// tables are immutable, process-lifetime static data; lookups are thread-safe
// and never allocate. A lookup that finds nothing returns nullptr.
//
// Versions are encoded as SPIR-V header version words (0x00MMmm00).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "spirv/operand_kind.h"  // generated: enum class OperandKind

namespace l0spv::spirv {

enum class OperandCategory : uint8_t {
  kBitEnum,
  kValueEnum,
  kId,
  kLiteral,
  kComposite
};

enum class Quantifier : uint8_t { kOne, kOptional, kVariadic };

struct OperandSpec {
  OperandKind kind;
  Quantifier quantifier;
  const char* name;  // e.g. "Pointer"; empty when the grammar has none
};

struct EnumerantInfo {
  uint32_t value;
  const char* name;
  std::span<const OperandKind> parameters;
  std::span<const uint32_t> capabilities;  // any one of them enables it
  std::span<const char* const> extensions;
  uint32_t min_version;   // 0 = any
  uint32_t last_version;  // 0xFFFFFFFF = still current
};

struct OperandKindInfo {
  OperandKind kind;
  const char* name;
  OperandCategory category;
  std::span<const EnumerantInfo> enumerants;  // sorted by value
  std::span<const OperandKind> bases;         // Composite kinds only
};

struct OpcodeInfo {
  uint32_t opcode;
  const char* name;         // "OpIAdd"
  const char* instr_class;  // grammar class, e.g. "Arithmetic"
  std::span<const OperandSpec> operands;
  bool has_result_type;
  bool has_result;
  std::span<const uint32_t> capabilities;  // any one of them enables it
  std::span<const char* const> extensions;
  uint32_t min_version;
  uint32_t last_version;
};

struct ExtInstInfo {
  uint32_t number;
  const char* name;  // "fma"
  std::span<const OperandSpec> operands;
};

// Opcode table entry, or nullptr for an opcode the grammar does not define.
const OpcodeInfo* FindOpcode(uint32_t opcode);
// Opcode by name ("OpIAdd"), or nullptr.
const OpcodeInfo* FindOpcodeByName(std::string_view name);
// All opcodes, sorted by opcode.
std::span<const OpcodeInfo> AllOpcodes();

const OperandKindInfo& GetOperandKind(OperandKind kind);
// Enumerant of a BitEnum/ValueEnum kind with exactly this value, or nullptr.
// For a BitEnum, pass a single bit (or 0 for "None").
const EnumerantInfo* FindEnumerant(OperandKind kind, uint32_t value);
const EnumerantInfo* FindEnumerantByName(OperandKind kind,
                                         std::string_view name);
// Name of an enumerant value, or "<unknown>" when the grammar has none.
std::string_view EnumerantName(OperandKind kind, uint32_t value);

// OpenCL.std extended instruction by number / name, or nullptr.
const ExtInstInfo* FindOpenClStd(uint32_t number);
const ExtInstInfo* FindOpenClStdByName(std::string_view name);
std::span<const ExtInstInfo> AllOpenClStd();

// Version of the SPIR-V grammar the tables were generated from.
uint32_t GrammarVersion();

}  // namespace l0spv::spirv
