// spirv/grammar_tables.h — declarations of the generated tables (internal).
// Only spirv/grammar.cc and the generated source include this.
#pragma once

#include "spirv/grammar.h"

namespace l0spv::spirv::generated {
extern const uint32_t kGrammarVersion;
extern const OperandKindInfo kOperandKinds[];
extern const size_t kOperandKindsSize;
extern const OpcodeInfo kOpcodes[];
extern const size_t kOpcodesSize;
extern const ExtInstInfo kOpenClStd[];
extern const size_t kOpenClStdSize;
}  // namespace l0spv::spirv::generated
