#include "spirv/module.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {

const char* SectionName(Section section) {
  switch (section) {
    case Section::kCapability:
      return "capabilities";
    case Section::kExtension:
      return "extensions";
    case Section::kExtInstImport:
      return "extended instruction imports";
    case Section::kMemoryModel:
      return "memory model";
    case Section::kEntryPoint:
      return "entry points";
    case Section::kExecutionMode:
      return "execution modes";
    case Section::kDebugSource:
      return "debug source";
    case Section::kDebugName:
      return "debug names";
    case Section::kDebugModuleProcessed:
      return "OpModuleProcessed";
    case Section::kAnnotation:
      return "annotations";
    case Section::kTypesValues:
      return "types, constants and globals";
    case Section::kFunction:
      return "functions";
  }
  return "?";
}

std::vector<Instruction>& Module::section(Section s) {
  switch (s) {
    case Section::kCapability:
      return capabilities;
    case Section::kExtension:
      return extensions;
    case Section::kExtInstImport:
      return ext_inst_imports;
    case Section::kMemoryModel:
      return memory_model;
    case Section::kEntryPoint:
      return entry_points;
    case Section::kExecutionMode:
      return execution_modes;
    case Section::kDebugSource:
      return debug_source;
    case Section::kDebugName:
      return debug_names;
    case Section::kDebugModuleProcessed:
      return debug_module_processed;
    case Section::kAnnotation:
      return annotations;
    case Section::kTypesValues:
    case Section::kFunction:
      break;
  }
  return types_values;
}

const std::vector<Instruction>& Module::section(Section s) const {
  return const_cast<Module*>(this)->section(s);
}

namespace {
constexpr Section kInstructionSections[] = {
    Section::kCapability,  Section::kExtension,  Section::kExtInstImport,
    Section::kMemoryModel, Section::kEntryPoint, Section::kExecutionMode,
    Section::kDebugSource, Section::kDebugName,  Section::kDebugModuleProcessed,
    Section::kAnnotation,  Section::kTypesValues};

template <typename M, typename F>
void VisitAll(M& module, F&& f) {
  for (Section s : kInstructionSections) {
    for (auto& inst : module.section(s)) f(inst);
  }
  for (auto& fn : module.functions) {
    f(fn.def);
    for (auto& p : fn.parameters) f(p);
    for (auto& bb : fn.blocks) {
      f(bb.label);
      for (auto& inst : bb.instructions) f(inst);
    }
    f(fn.end);
  }
}
}  // namespace

void Module::ForEachInstruction(
    const std::function<void(const Instruction&)>& f) const {
  VisitAll(*this, f);
}

void Module::ForEachInstruction(const std::function<void(Instruction&)>& f) {
  VisitAll(*this, f);
}

size_t Module::InstructionCount() const {
  size_t count = 0;
  for (Section s : kInstructionSections) count += section(s).size();
  for (const Function& fn : functions) {
    count += 2 + fn.parameters.size();
    for (const BasicBlock& bb : fn.blocks) count += 1 + bb.instructions.size();
  }
  return count;
}

uint32_t Module::ComputeTightBound() const {
  uint32_t max_id = 0;
  VisitAll(*this, [&max_id](const Instruction& inst) {
    max_id = std::max(max_id, inst.result_id());
    inst.ForEachInId([&max_id](uint32_t id) { max_id = std::max(max_id, id); });
  });
  return max_id + 1;
}

Function* Module::FindFunction(uint32_t id) {
  for (Function& fn : functions) {
    if (fn.id() == id) return &fn;
  }
  return nullptr;
}

const Function* Module::FindFunction(uint32_t id) const {
  return const_cast<Module*>(this)->FindFunction(id);
}

uint32_t Module::OpenClStdImportId() const {
  for (const Instruction& inst : ext_inst_imports) {
    if (!inst.operands().empty() &&
        inst.operand(0).AsString() == "OpenCL.std") {
      return inst.result_id();
    }
  }
  return 0;
}

uint32_t Module::KernelEntryPointId(std::string_view name) const {
  for (const Instruction& ep : entry_points) {
    if (ep.NumOperands() >= 3 &&
        ep.word(0) == static_cast<uint32_t>(spv::ExecutionModel::Kernel) &&
        ep.operand(2).AsString() == name)
      return ep.word(1);
  }
  return 0;
}

std::vector<std::string> Module::KernelNames() const {
  std::vector<std::string> names;
  for (const Instruction& ep : entry_points) {
    if (ep.NumOperands() >= 3 &&
        ep.word(0) == static_cast<uint32_t>(spv::ExecutionModel::Kernel))
      names.push_back(ep.operand(2).AsString());
  }
  return names;
}

std::vector<std::string> Module::DeclaredFunctionNames() const {
  std::vector<std::string> names;
  for (const Function& f : functions) {
    if (!f.IsDeclaration()) continue;
    std::string name;
    for (const Instruction& n : debug_names) {
      if (static_cast<spv::Op>(n.opcode()) == spv::Op::OpName &&
          n.NumOperands() >= 2 && n.word(0) == f.id())
        name = n.operand(1).AsString();
    }
    for (const Instruction& a : annotations) {
      if (!name.empty()) break;
      if (static_cast<spv::Op>(a.opcode()) == spv::Op::OpDecorate &&
          a.NumOperands() >= 3 && a.word(0) == f.id() &&
          a.word(1) ==
              static_cast<uint32_t>(spv::Decoration::LinkageAttributes))
        name = a.operand(2).AsString();
    }
    names.push_back(name.empty() ? absl::StrCat("%", f.id()) : name);
  }
  return names;
}

Section SectionOfOpcode(uint32_t opcode) {
  using spv::Op;
  switch (static_cast<Op>(opcode)) {
    case Op::OpCapability:
      return Section::kCapability;
    case Op::OpExtension:
      return Section::kExtension;
    case Op::OpExtInstImport:
      return Section::kExtInstImport;
    case Op::OpMemoryModel:
      return Section::kMemoryModel;
    case Op::OpEntryPoint:
      return Section::kEntryPoint;
    case Op::OpExecutionMode:
    case Op::OpExecutionModeId:
      return Section::kExecutionMode;
    case Op::OpString:
    case Op::OpSource:
    case Op::OpSourceContinued:
    case Op::OpSourceExtension:
      return Section::kDebugSource;
    case Op::OpName:
    case Op::OpMemberName:
      return Section::kDebugName;
    case Op::OpModuleProcessed:
      return Section::kDebugModuleProcessed;
    case Op::OpVariable:
    case Op::OpUndef:
    case Op::OpLine:
    case Op::OpNoLine:
    case Op::OpExtInst:
      return Section::kTypesValues;
    default:
      break;
  }
  const OpcodeInfo* info = FindOpcode(opcode);
  if (info != nullptr) {
    if (std::strcmp(info->instr_class, "Annotation") == 0)
      return Section::kAnnotation;
    if (std::strcmp(info->instr_class, "Type-Declaration") == 0 ||
        std::strcmp(info->instr_class, "Constant-Creation") == 0)
      return Section::kTypesValues;
  }
  return Section::kFunction;
}

std::map<uint32_t, uint32_t> BuiltInDecorations(const Module& module) {
  std::map<uint32_t, uint32_t> built_ins;
  for (const Instruction& a : module.annotations) {
    if (Is(a, spv::Op::OpDecorate) && a.NumOperands() > 2 &&
        a.operand(1).AsLiteral() ==
            static_cast<uint32_t>(spv::Decoration::BuiltIn))
      built_ins[a.operand(0).AsId()] = a.operand(2).AsLiteral();
  }
  return built_ins;
}

std::vector<const Function*> FunctionsReachedFrom(const Module& module,
                                                  uint32_t function_id) {
  std::vector<const Function*> reached;
  std::vector<uint32_t> todo = {function_id};
  std::set<uint32_t> seen = {function_id};
  while (!todo.empty()) {
    const Function* f = module.FindFunction(todo.back());
    todo.pop_back();
    if (f == nullptr || f->IsDeclaration()) continue;
    reached.push_back(f);
    for (const BasicBlock& b : f->blocks)
      for (const Instruction& inst : b.instructions)
        if (Is(inst, spv::Op::OpFunctionCall) && inst.NumOperands() > 0 &&
            seen.insert(inst.operand(0).AsId()).second)
          todo.push_back(inst.operand(0).AsId());
  }
  return reached;
}

uint32_t AnnotatedId(const Instruction& inst) {
  switch (static_cast<spv::Op>(inst.opcode())) {
    case spv::Op::OpDecorate:
    case spv::Op::OpMemberDecorate:
    case spv::Op::OpDecorateId:
    case spv::Op::OpDecorateString:
    case spv::Op::OpMemberDecorateString:
    case spv::Op::OpName:
    case spv::Op::OpMemberName:
      return inst.NumOperands() > 0 ? inst.word(0) : 0;
    default:
      return 0;
  }
}

}  // namespace l0spv::spirv
