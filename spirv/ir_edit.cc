#include "spirv/ir_edit.h"

#include <algorithm>
#include <iterator>

#include "absl/container/flat_hash_set.h"
#include "spirv/cfg.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {
namespace {

using spv::Op;

void Replace(Instruction& inst, uint32_t from, uint32_t to) {
  inst.ForEachInId([&](uint32_t& id) {
    if (id == from) id = to;
  });
}

}  // namespace

void RetargetPhis(BasicBlock& block, uint32_t from, uint32_t to) {
  for (Instruction& inst : block.instructions) {
    if (inst.opcode() != static_cast<uint32_t>(Op::OpPhi)) continue;
    // Operands are (value, parent) pairs: parents at odd indices.
    for (size_t i = 1; i < inst.NumOperands(); i += 2)
      if (inst.word(i) == from) inst.mutable_operands()[i].words[0] = to;
  }
}

void RemovePhiEntries(BasicBlock& block,
                      absl::FunctionRef<bool(uint32_t parent)> drop) {
  for (Instruction& inst : block.instructions) {
    if (inst.opcode() != static_cast<uint32_t>(Op::OpPhi)) continue;
    auto& ops = inst.mutable_operands();
    std::vector<Operand> kept;
    // A trailing unpaired operand (a broken phi) goes too.
    for (size_t i = 0; i + 1 < ops.size(); i += 2) {
      if (drop(ops[i + 1].AsId())) continue;
      kept.push_back(ops[i]);
      kept.push_back(ops[i + 1]);
    }
    ops = std::move(kept);
  }
}

void RetargetSuccessorPhis(Function& function, const BasicBlock& block,
                           uint32_t from, uint32_t to) {
  const std::vector<uint32_t> succs = Successors(block);
  for (BasicBlock& s : function.blocks)
    if (std::find(succs.begin(), succs.end(), s.id()) != succs.end())
      RetargetPhis(s, from, to);
}

void SplitBlockBefore(Function& fn, size_t block, size_t index,
                      uint32_t new_label) {
  const uint32_t old_label = fn.blocks[block].id();
  BasicBlock tail;
  tail.label =
      Instruction(static_cast<uint32_t>(Op::OpLabel), 0, new_label, {});
  auto& insts = fn.blocks[block].instructions;
  tail.instructions.assign(
      std::make_move_iterator(insts.begin() + static_cast<ptrdiff_t>(index)),
      std::make_move_iterator(insts.end()));
  insts.erase(insts.begin() + static_cast<ptrdiff_t>(index), insts.end());
  fn.blocks.insert(fn.blocks.begin() + static_cast<ptrdiff_t>(block) + 1,
                   std::move(tail));
  RetargetSuccessorPhis(fn, fn.blocks[block + 1], old_label, new_label);
}

void MapFreshIds(std::span<const Instruction> instructions,
                 const FreshIdFn& fresh, IdMap& map) {
  for (const Instruction& inst : instructions)
    if (inst.result_id() != 0) map[inst.result_id()] = fresh();
}

void MapFreshIds(std::span<const BasicBlock> blocks, const FreshIdFn& fresh,
                 IdMap& map) {
  for (const BasicBlock& bb : blocks) {
    map[bb.id()] = fresh();
    MapFreshIds(bb.instructions, fresh, map);
  }
}

void RemapIds(Instruction& inst, const IdMap& map) {
  inst.ForEachInId([&](uint32_t& id) {
    auto it = map.find(id);
    if (it != map.end()) id = it->second;
  });
  if (auto it = map.find(inst.result_id());
      inst.result_id() != 0 && it != map.end())
    inst.set_result_id(it->second);
}

void RemapIds(BasicBlock& block, const IdMap& map) {
  RemapIds(block.label, map);
  for (Instruction& inst : block.instructions) RemapIds(inst, map);
}

std::vector<BasicBlock> CloneBlocks(std::span<const BasicBlock> blocks,
                                    const FreshIdFn& fresh, IdMap& map) {
  MapFreshIds(blocks, fresh, map);
  std::vector<BasicBlock> out(blocks.begin(), blocks.end());
  for (BasicBlock& bb : out) RemapIds(bb, map);
  return out;
}

Function CloneFunction(const Function& function, const FreshIdFn& fresh,
                       IdMap& map) {
  Function copy = function;
  map[copy.id()] = fresh();
  MapFreshIds(copy.parameters, fresh, map);
  MapFreshIds(copy.blocks, fresh, map);
  RemapIds(copy.def, map);
  for (Instruction& p : copy.parameters) RemapIds(p, map);
  for (BasicBlock& bb : copy.blocks) RemapIds(bb, map);
  return copy;
}

void ReplaceUsesInBodies(Module& module, const IdMap& map) {
  for (Function& f : module.functions)
    for (BasicBlock& b : f.blocks)
      for (Instruction& inst : b.instructions) {
        inst.ForEachInId([&](uint32_t& id) {
          auto it = map.find(id);
          if (it != map.end()) id = it->second;
        });
      }
}

void ReplaceAllUses(Module& module, uint32_t from, uint32_t to) {
  module.ForEachInstruction(
      [&](Instruction& inst) { Replace(inst, from, to); });
}

void ReplaceAllUses(Module& module, const IdMap& map) {
  if (map.empty()) return;
  module.ForEachInstruction([&](Instruction& inst) {
    inst.ForEachInId([&](uint32_t& id) {
      if (auto it = map.find(id); it != map.end()) id = it->second;
    });
  });
}

Function* FindEntryFunction(Module& module, std::string_view name) {
  const uint32_t id = module.KernelEntryPointId(name);
  return id == 0 ? nullptr : module.FindFunction(id);
}

const Function* FindEntryFunction(const Module& module, std::string_view name) {
  const uint32_t id = module.KernelEntryPointId(name);
  return id == 0 ? nullptr : module.FindFunction(id);
}

int32_t EntryFunctionIndex(const Module& module, std::string_view name) {
  const uint32_t id = module.KernelEntryPointId(name);
  if (id == 0) return -1;
  for (size_t i = 0; i < module.functions.size(); ++i)
    if (module.functions[i].id() == id) return static_cast<int32_t>(i);
  return -1;
}

bool IsEntryPoint(const Module& module, uint32_t function_id) {
  for (const Instruction& ep : module.entry_points)
    if (ep.NumOperands() > 1 && ep.word(1) == function_id) return true;
  return false;
}

void HoistDecorationGroups(Module& module) {
  absl::flat_hash_set<uint32_t> groups;
  for (const Instruction& a : module.annotations)
    if (a.opcode() == static_cast<uint32_t>(spv::Op::OpDecorationGroup))
      groups.insert(a.result_id());
  if (groups.empty()) return;
  std::stable_partition(module.annotations.begin(), module.annotations.end(),
                        [&](const Instruction& a) {
                          switch (static_cast<spv::Op>(a.opcode())) {
                            case spv::Op::OpDecorationGroup:
                            case spv::Op::OpGroupDecorate:
                            case spv::Op::OpGroupMemberDecorate:
                              return true;
                            default:
                              return groups.contains(AnnotatedId(a));
                          }
                        });
}

}  // namespace l0spv::spirv
