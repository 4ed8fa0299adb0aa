#include "spirv/entry_interface.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "spirv/instruction.h"

namespace l0spv::spirv {

void CompleteEntryPointInterfaces(Module& module) {
  const bool every_variable = module.header.version >= 0x00010400;
  // Module-scope variables the interface lists, in definition order.
  std::vector<uint32_t> globals;
  absl::flat_hash_set<uint32_t> is_global;
  for (const Instruction& inst : module.types_values) {
    if (Is(inst, spv::Op::OpVariable) && inst.NumOperands() > 0 &&
        (every_variable ||
         inst.word(0) == static_cast<uint32_t>(spv::StorageClass::Input) ||
         inst.word(0) == static_cast<uint32_t>(spv::StorageClass::Output))) {
      globals.push_back(inst.result_id());
      is_global.insert(inst.result_id());
    }
  }
  if (globals.empty()) return;
  // Per function: the globals it references and the functions it calls.
  struct Uses {
    absl::flat_hash_set<uint32_t> globals;
    std::vector<uint32_t> callees;
  };
  absl::flat_hash_map<uint32_t, Uses> uses;
  for (const Function& fn : module.functions) {
    Uses& u = uses[fn.id()];
    for (const BasicBlock& bb : fn.blocks) {
      for (const Instruction& inst : bb.instructions) {
        if (Is(inst, spv::Op::OpFunctionCall) && inst.NumOperands() > 0)
          u.callees.push_back(inst.word(0));
        inst.ForEachInId([&](uint32_t id) {
          if (is_global.contains(id)) u.globals.insert(id);
        });
      }
    }
  }
  for (Instruction& entry : module.entry_points) {
    if (entry.NumOperands() < 3) continue;
    const uint32_t root = entry.word(1);
    if (!uses.contains(root)) continue;
    // The call tree's references.
    absl::flat_hash_set<uint32_t> seen{root}, referenced;
    std::vector<uint32_t> work{root};
    while (!work.empty()) {
      const uint32_t f = work.back();
      work.pop_back();
      auto it = uses.find(f);
      if (it == uses.end()) continue;
      referenced.insert(it->second.globals.begin(), it->second.globals.end());
      for (uint32_t callee : it->second.callees)
        if (seen.insert(callee).second) work.push_back(callee);
    }
    absl::flat_hash_set<uint32_t> listed;
    for (size_t i = 3; i < entry.NumOperands(); ++i)
      listed.insert(entry.word(i));
    for (uint32_t g : globals)
      if (referenced.contains(g) && !listed.contains(g))
        entry.AddOperand(IdOperand(g));
  }
}

}  // namespace l0spv::spirv
