#include "spirv/def_use.h"

namespace l0spv::spirv {

DefUse::DefUse(const Module& module) {
  auto record = [this](const Instruction& inst, const Function* fn,
                       const BasicBlock* bb) {
    if (inst.result_id() != 0) {
      defs_[inst.result_id()] = &inst;
      if (fn) function_of_[inst.result_id()] = fn;
      if (bb) block_of_[inst.result_id()] = bb;
    }
    if (inst.type_id() != 0) uses_[inst.type_id()].push_back({&inst, ~0u});
    for (uint32_t i = 0; i < inst.NumOperands(); ++i) {
      const Operand& op = inst.operand(i);
      if (op.IsId()) uses_[op.AsId()].push_back({&inst, i});
    }
  };
  for (Section s :
       {Section::kCapability, Section::kExtension, Section::kExtInstImport,
        Section::kMemoryModel, Section::kEntryPoint, Section::kExecutionMode,
        Section::kDebugSource, Section::kDebugName,
        Section::kDebugModuleProcessed, Section::kAnnotation,
        Section::kTypesValues}) {
    for (const Instruction& inst : module.section(s))
      record(inst, nullptr, nullptr);
  }
  for (const Function& fn : module.functions) {
    record(fn.def, nullptr, nullptr);
    for (const Instruction& p : fn.parameters) record(p, &fn, nullptr);
    for (const BasicBlock& bb : fn.blocks) {
      record(bb.label, &fn, &bb);
      for (const Instruction& inst : bb.instructions) record(inst, &fn, &bb);
    }
  }
}

const Instruction* DefUse::Def(uint32_t id) const {
  auto it = defs_.find(id);
  return it == defs_.end() ? nullptr : it->second;
}

std::span<const Use> DefUse::Uses(uint32_t id) const {
  auto it = uses_.find(id);
  if (it == uses_.end()) return {};
  return it->second;
}

const Function* DefUse::FunctionOf(uint32_t id) const {
  auto it = function_of_.find(id);
  return it == function_of_.end() ? nullptr : it->second;
}

const BasicBlock* DefUse::BlockOf(uint32_t id) const {
  auto it = block_of_.find(id);
  return it == block_of_.end() ? nullptr : it->second;
}

}  // namespace l0spv::spirv
