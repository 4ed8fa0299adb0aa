#include "reducers/module_edit.h"

#include <algorithm>
#include <string_view>

#include "spirv/binary.h"
#include "spirv/builder.h"
#include "spirv/cfg.h"
#include "spirv/grammar.h"
#include "spirv/ir_edit.h"
#include "spirv/opcode_traits.h"
#include "spirv/type_table.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::reducers {
namespace {

using spirv::Instruction;
using spv::Op;

using spirv::Is;

// Removing this instruction removes nothing but its result value.
bool IsPure(const Instruction& inst, const spirv::Module& module,
            uint32_t void_type) {
  if (inst.result_id() == 0) return false;
  if (!Is(inst, Op::OpExtInst))
    return spirv::IsSafeToDeleteWhenUnused(inst.opcode());
  // An extended instruction is judged by what it is: OpenCL.std functions
  // return their effect, except the void ones and printf.
  if (inst.type_id() == void_type) return false;  // vstore*, prefetch
  if (inst.NumOperands() < 2 || inst.word(0) != module.OpenClStdImportId())
    return false;
  const spirv::ExtInstInfo* info = spirv::FindOpenClStd(inst.word(1));
  return info != nullptr && std::string_view(info->name) != "printf";
}

uint32_t VoidTypeId(const spirv::Module& module) {
  for (const Instruction& inst : module.types_values)
    if (Is(inst, Op::OpTypeVoid)) return inst.result_id();
  return 0;
}

}  // namespace

bool IsRemovableWhenUnused(const spirv::Instruction& inst,
                           const spirv::Module& module) {
  return IsPure(inst, module, VoidTypeId(module));
}

size_t FunctionBodyInstructionCount(const spirv::Module& module) {
  size_t n = 0;
  for (const spirv::Function& f : module.functions)
    for (const spirv::BasicBlock& b : f.blocks) n += 1 + b.instructions.size();
  return n;
}

size_t FunctionBodyInstructionCount(const std::vector<uint32_t>& words) {
  auto module = spirv::ReadModuleWords(words);
  return module.ok() ? FunctionBodyInstructionCount(*module) : 0;
}

size_t FunctionBodyInstructionCount(const spirv::TestCase& test_case) {
  size_t n = FunctionBodyInstructionCount(test_case.module_words);
  for (const auto& words : test_case.linked_modules)
    n += FunctionBodyInstructionCount(words);
  return n;
}

size_t WordCount(const spirv::TestCase& test_case) {
  size_t n = test_case.module_words.size();
  for (const auto& words : test_case.linked_modules) n += words.size();
  return n;
}

absl::flat_hash_map<uint32_t, uint32_t> CountUses(const spirv::Module& module) {
  absl::flat_hash_map<uint32_t, uint32_t> uses;
  auto count = [&](const Instruction& inst) {
    inst.ForEachInId([&](uint32_t id) { ++uses[id]; });
  };
  for (const Instruction& inst : module.entry_points) count(inst);
  for (const Instruction& inst : module.execution_modes) count(inst);
  for (const Instruction& inst : module.types_values) count(inst);
  for (const spirv::Function& f : module.functions) {
    count(f.def);
    for (const Instruction& p : f.parameters) count(p);
    for (const spirv::BasicBlock& b : f.blocks)
      for (const Instruction& inst : b.instructions) count(inst);
  }
  return uses;
}

void ForgetIds(spirv::Module& module,
               const absl::flat_hash_set<uint32_t>& ids) {
  if (ids.empty()) return;
  auto targets_removed = [&](const Instruction& inst) {
    return inst.NumOperands() > 0 && ids.contains(inst.word(0));
  };
  std::erase_if(module.debug_names, targets_removed);
  std::erase_if(module.annotations, [&](const Instruction& inst) {
    if (Is(inst, Op::OpGroupDecorate) || Is(inst, Op::OpGroupMemberDecorate))
      return false;
    return targets_removed(inst);
  });
  for (Instruction& inst : module.annotations) {
    if (!Is(inst, Op::OpGroupDecorate)) continue;
    auto& ops = inst.mutable_operands();
    ops.erase(std::remove_if(ops.begin() + 1, ops.end(),
                             [&](const spirv::Operand& o) {
                               return ids.contains(o.AsId());
                             }),
              ops.end());
  }
}

void RemoveDeadCode(spirv::Module& module) {
  const uint32_t void_type = VoidTypeId(module);
  for (;;) {
    const auto uses = CountUses(module);
    absl::flat_hash_set<uint32_t> removed;
    for (spirv::Function& f : module.functions) {
      for (spirv::BasicBlock& b : f.blocks) {
        std::erase_if(b.instructions, [&](const Instruction& inst) {
          if (!IsPure(inst, module, void_type) ||
              uses.contains(inst.result_id()))
            return false;
          removed.insert(inst.result_id());
          return true;
        });
      }
    }
    if (removed.empty()) break;
    ForgetIds(module, removed);
  }
  RemoveUnusedGlobals(module);
}

void RemoveUnusedGlobals(spirv::Module& module) {
  for (;;) {
    const auto uses = CountUses(module);
    absl::flat_hash_set<uint32_t> removed;
    std::erase_if(module.types_values, [&](const Instruction& inst) {
      if (inst.result_id() == 0 || uses.contains(inst.result_id()))
        return false;
      removed.insert(inst.result_id());
      return true;
    });
    if (removed.empty()) return;
    ForgetIds(module, removed);
  }
}

void RemoveUnreachableBlocks(spirv::Module& module) {
  absl::flat_hash_set<uint32_t> removed_ids;
  for (spirv::Function& f : module.functions) {
    const absl::flat_hash_set<uint32_t> gone =
        spirv::RemoveUnreachableBlocks(f);
    removed_ids.insert(gone.begin(), gone.end());
  }
  ForgetIds(module, removed_ids);
}

namespace {

// A constant of `type_id` with every bit pattern unlike zero, or 0 for a
// type without constants (pointers, opaque types).
uint32_t PatternConstant(spirv::ModuleBuilder& b, const spirv::TypeTable& types,
                         uint32_t type_id, int depth = 0) {
  const spirv::TypeInfo* t = types.Get(type_id);
  if (t == nullptr || depth > 8) return 0;
  switch (t->op) {
    case Op::OpTypeBool:
      return b.BoolConstant(true);
    case Op::OpTypeInt:
      return b.IntConstant(type_id, ~uint64_t{0});
    case Op::OpTypeFloat:
      return b.FloatConstantBits(type_id, 0xA5A5A5A5A5A5A5A5ull);
    case Op::OpTypeVector:
    case Op::OpTypeArray:
    case Op::OpTypeStruct: {
      std::vector<uint32_t> parts;
      const size_t n = t->op == Op::OpTypeStruct ? t->members.size() : t->count;
      if (n == 0 || n > 4096) return 0;
      for (size_t i = 0; i < n; ++i) {
        const uint32_t member =
            t->op == Op::OpTypeStruct ? t->members[i] : t->element;
        const uint32_t c = PatternConstant(b, types, member, depth + 1);
        if (c == 0) return 0;
        parts.push_back(c);
      }
      return b.CompositeConstant(type_id, parts);
    }
    default:
      return 0;
  }
}

}  // namespace

std::optional<std::vector<uint32_t>> WithUndefsDefined(
    const std::vector<uint32_t>& words) {
  auto m = spirv::ReadModuleWords(words);
  if (!m.ok()) return std::nullopt;
  return WithUndefsDefined(*std::move(m));
}

std::optional<std::vector<uint32_t>> WithUndefsDefined(spirv::Module m) {
  std::vector<std::pair<uint32_t, uint32_t>> undefs;  // id, type
  m.ForEachInstruction([&](const Instruction& inst) {
    if (Is(inst, Op::OpUndef))
      undefs.emplace_back(inst.result_id(), inst.type_id());
  });
  if (undefs.empty()) return std::nullopt;
  const spirv::TypeTable types(m);
  absl::flat_hash_map<uint32_t, uint32_t> map;
  {
    spirv::ModuleBuilder builder(m);
    for (const auto& [id, type] : undefs)
      if (const uint32_t c = PatternConstant(builder, types, type); c != 0)
        map[id] = c;
  }
  if (map.empty()) return std::nullopt;
  // Body uses only: a module-scope user (a constant composite) would have
  // to move below the new constant.
  spirv::ReplaceUsesInBodies(m, map);
  return spirv::EncodeModule(m);
}

spirv::TestCase WithModule(const spirv::TestCase& base,
                           const spirv::Module& module) {
  spirv::TestCase c = base;
  c.module_words = spirv::EncodeModule(module);
  return c;
}

bool SameCase(const spirv::TestCase& a, const spirv::TestCase& b) {
  if (a.module_words != b.module_words) return false;
  if (a.linked_modules != b.linked_modules) return false;
  if (a.args.size() != b.args.size()) return false;
  for (size_t i = 0; i < a.args.size(); ++i) {
    if (a.args[i].bytes != b.args[i].bytes ||
        a.args[i].local_bytes != b.args[i].local_bytes)
      return false;
  }
  const auto& x = a.nd_range;
  const auto& y = b.nd_range;
  return x.dims == y.dims && x.global == y.global && x.local == y.local &&
         x.offset == y.offset;
}

}  // namespace l0spv::reducers
