// spirv/module.h — a SPIR-V module in the logical layout of the specification.
//
// Contract: a Module is a plain value. Instructions are grouped into the
// sections of the spec's logical layout (§2.4) in their original order, and
// functions into blocks, so that writing a module read from a binary
// reproduces that binary word for word (and byte for byte in the original
// endianness). Analyses (def-use, types) hold pointers into a Module and must
// be rebuilt after any structural change to it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/instruction.h"

namespace l0spv::spirv {

inline constexpr uint32_t kMagicNumber = 0x07230203;

enum class Endianness : uint8_t { kLittle, kBig };

struct Header {
  uint32_t magic = kMagicNumber;
  uint32_t version = 0x00010200;  // SPIR-V 1.2
  uint32_t generator = 0;
  uint32_t bound = 1;
  uint32_t schema = 0;
};

struct BasicBlock {
  Instruction label;
  // Every instruction after the label, the terminator last.
  std::vector<Instruction> instructions;

  uint32_t id() const { return label.result_id(); }
  const Instruction* terminator() const {
    return instructions.empty() ? nullptr : &instructions.back();
  }
};

struct Function {
  Instruction def;  // OpFunction
  std::vector<Instruction> parameters;
  std::vector<BasicBlock> blocks;  // empty for a declaration
  Instruction end;                 // OpFunctionEnd

  uint32_t id() const { return def.result_id(); }
  bool IsDeclaration() const { return blocks.empty(); }
};

// The sections of the logical layout, in order.
enum class Section : uint8_t {
  kCapability,
  kExtension,
  kExtInstImport,
  kMemoryModel,
  kEntryPoint,
  kExecutionMode,
  kDebugSource,  // OpString, OpSource*, OpSourceExtension
  kDebugName,    // OpName, OpMemberName
  kDebugModuleProcessed,
  kAnnotation,
  kTypesValues,  // types, constants, global variables, OpUndef, OpLine
  kFunction,
};

const char* SectionName(Section section);

struct Module {
  Header header;
  Endianness endianness = Endianness::kLittle;

  std::vector<Instruction> capabilities;
  std::vector<Instruction> extensions;
  std::vector<Instruction> ext_inst_imports;
  std::vector<Instruction> memory_model;  // exactly one in a valid module
  std::vector<Instruction> entry_points;
  std::vector<Instruction> execution_modes;
  std::vector<Instruction> debug_source;
  std::vector<Instruction> debug_names;
  std::vector<Instruction> debug_module_processed;
  std::vector<Instruction> annotations;
  std::vector<Instruction> types_values;
  std::vector<Function> functions;

  // The instruction list of a non-function section.
  std::vector<Instruction>& section(Section s);
  const std::vector<Instruction>& section(Section s) const;

  // Visits every instruction in binary order (functions: OpFunction, params,
  // labels and bodies, OpFunctionEnd).
  void ForEachInstruction(
      const std::function<void(const Instruction&)>& f) const;
  void ForEachInstruction(const std::function<void(Instruction&)>& f);

  size_t InstructionCount() const;
  // Largest id defined or used, plus one: the tightest valid header bound.
  uint32_t ComputeTightBound() const;

  Function* FindFunction(uint32_t id);
  const Function* FindFunction(uint32_t id) const;

  // The OpExtInstImport id of "OpenCL.std", or 0.
  uint32_t OpenClStdImportId() const;

  // The function id of the Kernel entry point named `name`, or 0.
  uint32_t KernelEntryPointId(std::string_view name) const;
  // Names of every Kernel entry point, in module order.
  std::vector<std::string> KernelNames() const;
  // Names of the functions declared without a body (imports), in module
  // order: the OpName of each, else its LinkageAttributes name, else "%id".
  std::vector<std::string> DeclaredFunctionNames() const;
};

// The section an instruction of this opcode belongs to (OpVariable with a
// non-Function storage class, OpUndef, OpLine and OpNoLine go to
// kTypesValues; the reader places those inside functions itself).
Section SectionOfOpcode(uint32_t opcode);

// The id a decoration (OpDecorate, OpMemberDecorate, OpDecorateId,
// OpDecorateString, OpMemberDecorateString) or a debug name (OpName,
// OpMemberName) is about; 0 for any other instruction.
uint32_t AnnotatedId(const Instruction& inst);

// The ids decorated BuiltIn (OpDecorate %id BuiltIn B), each with its B.
std::map<uint32_t, uint32_t> BuiltInDecorations(const Module& module);

// The functions with a body that `function_id` is or calls, directly or
// through calls (each once, `function_id` first when it has a body).
std::vector<const Function*> FunctionsReachedFrom(const Module& module,
                                                  uint32_t function_id);

}  // namespace l0spv::spirv
