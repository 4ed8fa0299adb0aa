#include "spirv/grammar.h"

#include <algorithm>
#include <array>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "spirv/grammar_tables.h"

namespace l0spv::spirv {
namespace {

using generated::kOpcodes;
using generated::kOpcodesSize;

// Core opcodes are dense below this bound; the hot path (the binary reader)
// indexes a flat array for them and binary-searches only vendor opcodes.
constexpr uint32_t kDenseOpcodeLimit = 1024;

struct OpcodeIndex {
  std::array<const OpcodeInfo*, kDenseOpcodeLimit> dense{};
  absl::flat_hash_map<std::string_view, const OpcodeInfo*> by_name;
  OpcodeIndex() {
    for (size_t i = 0; i < kOpcodesSize; ++i) {
      const OpcodeInfo& info = kOpcodes[i];
      if (info.opcode < kDenseOpcodeLimit) dense[info.opcode] = &info;
      by_name.emplace(info.name, &info);
    }
  }
};

const OpcodeIndex& Index() {
  static const OpcodeIndex* index = new OpcodeIndex();
  return *index;
}

}  // namespace

const OpcodeInfo* FindOpcode(uint32_t opcode) {
  if (opcode < kDenseOpcodeLimit) return Index().dense[opcode];
  const OpcodeInfo* end = kOpcodes + kOpcodesSize;
  const OpcodeInfo* it = std::lower_bound(
      kOpcodes, end, opcode,
      [](const OpcodeInfo& info, uint32_t op) { return info.opcode < op; });
  return (it != end && it->opcode == opcode) ? it : nullptr;
}

const OpcodeInfo* FindOpcodeByName(std::string_view name) {
  const auto& by_name = Index().by_name;
  auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

std::span<const OpcodeInfo> AllOpcodes() { return {kOpcodes, kOpcodesSize}; }

const OperandKindInfo& GetOperandKind(OperandKind kind) {
  return generated::kOperandKinds[static_cast<size_t>(kind)];
}

const EnumerantInfo* FindEnumerant(OperandKind kind, uint32_t value) {
  std::span<const EnumerantInfo> all = GetOperandKind(kind).enumerants;
  auto it = std::lower_bound(
      all.begin(), all.end(), value,
      [](const EnumerantInfo& e, uint32_t v) { return e.value < v; });
  return (it != all.end() && it->value == value) ? &*it : nullptr;
}

const EnumerantInfo* FindEnumerantByName(OperandKind kind,
                                         std::string_view name) {
  for (const EnumerantInfo& e : GetOperandKind(kind).enumerants) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

std::string_view EnumerantName(OperandKind kind, uint32_t value) {
  const EnumerantInfo* e = FindEnumerant(kind, value);
  return e ? std::string_view(e->name) : std::string_view("<unknown>");
}

const ExtInstInfo* FindOpenClStd(uint32_t number) {
  const ExtInstInfo* begin = generated::kOpenClStd;
  const ExtInstInfo* end = begin + generated::kOpenClStdSize;
  auto it = std::lower_bound(
      begin, end, number,
      [](const ExtInstInfo& e, uint32_t n) { return e.number < n; });
  return (it != end && it->number == number) ? it : nullptr;
}

const ExtInstInfo* FindOpenClStdByName(std::string_view name) {
  for (const ExtInstInfo& e : AllOpenClStd()) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

std::span<const ExtInstInfo> AllOpenClStd() {
  return {generated::kOpenClStd, generated::kOpenClStdSize};
}

uint32_t GrammarVersion() { return generated::kGrammarVersion; }

}  // namespace l0spv::spirv
