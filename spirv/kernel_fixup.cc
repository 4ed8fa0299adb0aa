#include "spirv/kernel_fixup.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "spirv/builder.h"
#include "spirv/ir_edit.h"

namespace l0spv::spirv {
namespace {

// Types the spec forbids declaring twice with the same operands (§2.8):
// every type but the aggregates, pointers and named opaque types.
bool MustBeUnique(const Instruction& inst) {
  switch (OpOf(inst)) {
    case spv::Op::OpTypeVoid:
    case spv::Op::OpTypeBool:
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat:
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeMatrix:
    case spv::Op::OpTypeImage:
    case spv::Op::OpTypeSampler:
    case spv::Op::OpTypeSampledImage:
    case spv::Op::OpTypeFunction:
    case spv::Op::OpTypeEvent:
    case spv::Op::OpTypeDeviceEvent:
    case spv::Op::OpTypeReserveId:
    case spv::Op::OpTypeQueue:
    case spv::Op::OpTypePipe:
      return true;
    default:
      return false;
  }
}

// Drops every annotation and debug name about an id in `gone`.
void DropAnnotationsOf(Module& module,
                       const absl::flat_hash_set<uint32_t>& gone) {
  for (auto* section : {&module.annotations, &module.debug_names}) {
    std::erase_if(*section, [&](const Instruction& inst) {
      return gone.contains(AnnotatedId(inst));
    });
  }
}

void MakeIntsUnsigned(Module& module, KernelFixups& fixes) {
  for (Instruction& inst : module.types_values) {
    if (Is(inst, spv::Op::OpTypeInt) && inst.NumOperands() == 2 &&
        inst.word(1) != 0) {
      inst.mutable_operands()[1] = LiteralOperand(0);
      ++fixes.signed_int_types;
    }
  }
}

// Merges duplicate unique types into their first declaration, repeatedly:
// merging two ints can make two vectors of them duplicates.
void MergeDuplicateTypes(Module& module, KernelFixups& fixes) {
  for (;;) {
    std::map<std::pair<uint32_t, std::vector<uint32_t>>, uint32_t> first;
    IdMap merged;
    for (const Instruction& inst : module.types_values) {
      if (!MustBeUnique(inst)) continue;
      std::vector<uint32_t> words;
      for (const Operand& op : inst.operands())
        words.insert(words.end(), op.words.begin(), op.words.end());
      auto [it, fresh] = first.try_emplace({inst.opcode(), std::move(words)},
                                           inst.result_id());
      if (!fresh) merged[inst.result_id()] = it->second;
    }
    if (merged.empty()) return;
    fixes.merged_types += merged.size();
    absl::flat_hash_set<uint32_t> gone;
    for (const auto& [from, to] : merged) gone.insert(from);
    std::erase_if(module.types_values, [&](const Instruction& inst) {
      return gone.contains(inst.result_id());
    });
    DropAnnotationsOf(module, gone);
    ReplaceAllUses(module, merged);
  }
}

// The decoration operand of an annotation instruction, or nullptr.
const Operand* DecorationOperand(const Instruction& inst) {
  switch (OpOf(inst)) {
    case spv::Op::OpDecorate:
    case spv::Op::OpDecorateId:
    case spv::Op::OpDecorateString:
      return inst.NumOperands() > 1 ? &inst.operand(1) : nullptr;
    case spv::Op::OpMemberDecorate:
    case spv::Op::OpMemberDecorateString:
      return inst.NumOperands() > 2 ? &inst.operand(2) : nullptr;
    default:
      return nullptr;
  }
}

bool Declares(const Module& module, spv::Capability capability) {
  for (const Instruction& inst : module.capabilities)
    if (inst.word(0) == static_cast<uint32_t>(capability)) return true;
  return false;
}

bool NeedsShader(const EnumerantInfo& e) {
  return !e.capabilities.empty() &&
         std::ranges::all_of(e.capabilities, [](uint32_t c) {
           return c == static_cast<uint32_t>(spv::Capability::Shader);
         });
}

void DropShaderDecorations(Module& module, KernelFixups& fixes) {
  if (Declares(module, spv::Capability::Shader)) return;
  fixes.shader_decorations +=
      std::erase_if(module.annotations, [](const Instruction& inst) {
        const Operand* d = DecorationOperand(inst);
        if (d == nullptr) return false;
        const EnumerantInfo* e =
            FindEnumerant(OperandKind::kDecoration, d->AsLiteral());
        return e != nullptr && NeedsShader(*e);
      });
}

void WidenOneWordConstants(Module& module, KernelFixups& fixes) {
  absl::flat_hash_map<uint32_t, uint32_t> width;  // scalar type -> bits
  for (Instruction& inst : module.types_values) {
    if (Is(inst, spv::Op::OpTypeInt) || Is(inst, spv::Op::OpTypeFloat)) {
      width[inst.result_id()] = inst.word(0);
      continue;
    }
    if (!Is(inst, spv::Op::OpConstant) && !Is(inst, spv::Op::OpSpecConstant))
      continue;
    auto w = width.find(inst.type_id());
    if (w == width.end() || w->second != 64 || inst.NumOperands() != 1 ||
        inst.operand(0).words.size() != 1)
      continue;
    inst.mutable_operands()[0].words.push_back(0);
    ++fixes.widened_constants;
  }
}

bool IsPrivatePointerType(const Instruction& inst) {
  return Is(inst, spv::Op::OpTypePointer) &&
         inst.word(0) == static_cast<uint32_t>(spv::StorageClass::Private);
}

bool IsPrivateVariable(const Instruction& inst) {
  return Is(inst, spv::Op::OpVariable) &&
         inst.word(0) == static_cast<uint32_t>(spv::StorageClass::Private);
}

// Private variable `var` (whose users are functions `users`) becomes a
// Function variable of the one Kernel entry point, passed as a new last
// pointer parameter to every function that uses it or calls one that does
// (transitively): the same storage for the whole invocation, as Private.
absl::Status ThreadThroughCalls(
    Module& module, ModuleBuilder& builder, const Instruction& var,
    const std::vector<size_t>& users,
    const absl::flat_hash_map<uint32_t, uint32_t>& function_pointer,
    KernelFixups& fixes) {
  if (module.entry_points.size() != 1)
    return absl::FailedPreconditionError(
        absl::StrCat("Private variable %", var.result_id(),
                     " carries a value between functions of a module with ",
                     module.entry_points.size(), " entry points"));
  const uint32_t kernel_id = module.entry_points.front().word(1);
  absl::flat_hash_map<uint32_t, size_t> index;  // function id -> index
  for (size_t f = 0; f < module.functions.size(); ++f)
    index[module.functions[f].id()] = f;
  if (!index.contains(kernel_id))
    return absl::FailedPreconditionError("the entry point has no function");
  const size_t kernel = index.at(kernel_id);
  absl::flat_hash_map<size_t, std::vector<size_t>> callers;
  for (size_t g = 0; g < module.functions.size(); ++g)
    for (const BasicBlock& b : module.functions[g].blocks)
      for (const Instruction& inst : b.instructions)
        if (Is(inst, spv::Op::OpFunctionCall) && index.contains(inst.word(0)))
          callers[index.at(inst.word(0))].push_back(g);
  // Users and their callers, transitively.
  absl::flat_hash_set<size_t> reach(users.begin(), users.end());
  std::vector<size_t> work(users.begin(), users.end());
  while (!work.empty()) {
    const size_t f = work.back();
    work.pop_back();
    for (size_t g : callers[f])
      if (reach.insert(g).second) work.push_back(g);
  }
  const uint32_t pointer = function_pointer.at(var.type_id());
  absl::flat_hash_map<size_t, uint32_t> param;  // function -> its parameter
  for (size_t f : reach) {
    if (f == kernel) continue;
    Function& fn = module.functions[f];
    if (fn.blocks.empty())
      return absl::FailedPreconditionError("a declaration uses a variable");
    param[f] = builder.TakeNextId();
    fn.parameters.push_back(
        Instruction(static_cast<uint32_t>(spv::Op::OpFunctionParameter),
                    pointer, param[f], {}));
    std::vector<uint32_t> types;
    for (const Instruction& p : fn.parameters) types.push_back(p.type_id());
    const uint32_t type = builder.FunctionType(fn.def.type_id(), types);
    module.functions[f].def.mutable_operands()[1] = IdOperand(type);
  }
  // Every call to a function that now takes the variable passes it on.
  for (size_t g : reach) {
    const uint32_t passed = g == kernel ? var.result_id() : param.at(g);
    for (BasicBlock& b : module.functions[g].blocks)
      for (Instruction& inst : b.instructions)
        if (Is(inst, spv::Op::OpFunctionCall) && index.contains(inst.word(0)) &&
            param.contains(index.at(inst.word(0))))
          inst.AddOperand(IdOperand(passed));
  }
  for (const auto& [f, id] : param) {
    const IdMap to_param{{var.result_id(), id}};
    for (BasicBlock& b : module.functions[f].blocks)
      for (Instruction& inst : b.instructions) RemapIds(inst, to_param);
  }
  Instruction local = var;
  local.set_type_id(pointer);
  local.mutable_operands()[0] =
      EnumOperand(OperandKind::kStorageClass,
                  static_cast<uint32_t>(spv::StorageClass::Function));
  auto& first = module.functions[kernel].blocks.front().instructions;
  first.insert(first.begin(), std::move(local));
  ++fixes.private_variables_threaded;
  return absl::OkStatus();
}

absl::Status MovePrivateVariables(Module& module, KernelFixups& fixes) {
  absl::flat_hash_map<uint32_t, uint32_t> private_pointee;  // pointer type
  std::vector<uint32_t> private_types;  // in declaration order: stable ids
  absl::flat_hash_set<uint32_t> variables;
  for (const Instruction& inst : module.types_values) {
    if (IsPrivatePointerType(inst)) {
      private_pointee[inst.result_id()] = inst.word(1);
      private_types.push_back(inst.result_id());
    }
    if (IsPrivateVariable(inst)) variables.insert(inst.result_id());
  }
  if (private_pointee.empty()) return absl::OkStatus();
  // A Private pointer type in a type, a parameter or the types section's
  // values (other than its variables) cannot become a Function one here.
  for (const Instruction& inst : module.types_values) {
    if (IsPrivateVariable(inst)) continue;
    absl::Status bad = absl::OkStatus();
    inst.ForEachInId([&](uint32_t id) {
      if (bad.ok() && (private_pointee.contains(id) || variables.contains(id)))
        bad = absl::FailedPreconditionError(absl::StrCat(
            "a Private pointer is used by %", inst.result_id(), " (",
            std::string(inst.name()), ") outside a function"));
    });
    if (!bad.ok()) return bad;
  }
  // The functions using each variable, in module order, and which of them
  // may read or write it.
  absl::flat_hash_map<uint32_t, std::vector<size_t>> users;
  absl::flat_hash_map<uint32_t, absl::flat_hash_set<size_t>> readers, writers;
  for (size_t f = 0; f < module.functions.size(); ++f) {
    const Function& fn = module.functions[f];
    for (const Instruction& p : fn.parameters) {
      if (private_pointee.contains(p.type_id()))
        return absl::FailedPreconditionError(
            absl::StrCat("function %", fn.id(), " takes a Private pointer"));
    }
    if (private_pointee.contains(fn.def.type_id()))
      return absl::FailedPreconditionError(
          absl::StrCat("function %", fn.id(), " returns a Private pointer"));
    for (const BasicBlock& b : fn.blocks) {
      for (const Instruction& inst : b.instructions) {
        const bool store = Is(inst, spv::Op::OpStore);
        inst.ForEachInId([&](uint32_t id) {
          if (!variables.contains(id)) return;
          std::vector<size_t>& u = users[id];
          if (u.empty() || u.back() != f) u.push_back(f);
          // Any use but a plain store's pointer may read the value.
          if (store && inst.word(0) == id) {
            writers[id].insert(f);
          } else {
            readers[id].insert(f);
          }
        });
      }
    }
  }
  // A value one function stores and another reads (spirv-fuzz's
  // replaceParameterWithGlobal passes arguments so) cannot be split into
  // per-function copies: such a variable is threaded instead.
  absl::flat_hash_set<uint32_t> threaded;
  for (const auto& [id, fns] : readers) {
    for (size_t f : fns) {
      for (size_t g : writers[id])
        if (g != f) threaded.insert(id);
    }
  }
  // Interfaces list Private variables from SPIR-V 1.4 on; a Function
  // variable must not be listed.
  for (Instruction& ep : module.entry_points) {
    auto& ops = ep.mutable_operands();
    std::erase_if(ops, [&](const Operand& op) {
      return op.kind == OperandKind::kIdRef && variables.contains(op.AsId());
    });
  }
  // Move (or remove) the variables, in declaration order.
  std::vector<Instruction> moved;
  absl::flat_hash_set<uint32_t> removed;
  std::erase_if(module.types_values, [&](const Instruction& inst) {
    if (!IsPrivateVariable(inst)) return false;
    if (users.contains(inst.result_id())) {
      moved.push_back(inst);
    } else {
      removed.insert(inst.result_id());
    }
    return true;
  });
  DropAnnotationsOf(module, removed);
  fixes.unused_private_variables += removed.size();
  ModuleBuilder builder(module);
  absl::flat_hash_map<uint32_t, uint32_t> function_pointer;  // by Private one
  for (uint32_t type : private_types)
    function_pointer[type] = builder.PointerType(spv::StorageClass::Function,
                                                 private_pointee.at(type));
  // A variable several functions use gets a copy in each (fresh ids after
  // the first) when none of them reads what another wrote; otherwise it
  // lives in the kernel and reaches its users as a pointer parameter.
  for (auto it = moved.rbegin(); it != moved.rend(); ++it) {
    if (threaded.contains(it->result_id())) {
      if (absl::Status s = ThreadThroughCalls(module, builder, *it,
                                              users.at(it->result_id()),
                                              function_pointer, fixes);
          !s.ok())
        return s;
      continue;
    }
    const std::vector<size_t>& fns = users.at(it->result_id());
    for (size_t k = 0; k < fns.size(); ++k) {
      Instruction var = *it;
      var.set_type_id(function_pointer.at(var.type_id()));
      var.mutable_operands()[0] =
          EnumOperand(OperandKind::kStorageClass,
                      static_cast<uint32_t>(spv::StorageClass::Function));
      Function& fn = module.functions[fns[k]];
      if (k > 0) {
        const IdMap copy{{var.result_id(), builder.TakeNextId()}};
        for (BasicBlock& b : fn.blocks)
          for (Instruction& inst : b.instructions) RemapIds(inst, copy);
        var.set_result_id(copy.begin()->second);
        ++fixes.private_variable_copies;
      }
      auto& first = fn.blocks.front().instructions;
      first.insert(first.begin(), std::move(var));
    }
    ++fixes.private_variables;
  }
  // Values of Private pointer types (access chains, copies) follow their
  // variable into Function storage.
  for (Function& fn : module.functions) {
    for (BasicBlock& b : fn.blocks) {
      for (Instruction& inst : b.instructions) {
        if (auto p = function_pointer.find(inst.type_id());
            p != function_pointer.end())
          inst.set_type_id(p->second);
      }
    }
  }
  // The Private pointer types are now unused; anything still naming one is
  // a form this pass does not handle.
  const absl::flat_hash_set<uint32_t> types(private_types.begin(),
                                            private_types.end());
  absl::Status still = absl::OkStatus();
  module.ForEachInstruction([&](const Instruction& inst) {
    if (types.contains(inst.result_id()) || AnnotatedId(inst) != 0) return;
    inst.ForEachInId([&](uint32_t id) {
      if (still.ok() && types.contains(id))
        still = absl::FailedPreconditionError(
            absl::StrCat("a Private pointer type is still used by ",
                         std::string(inst.name())));
    });
  });
  if (!still.ok()) return still;
  std::erase_if(module.types_values, [&](const Instruction& inst) {
    return types.contains(inst.result_id());
  });
  DropAnnotationsOf(module, types);
  return absl::OkStatus();
}

absl::Status RemoveMatrixTypes(Module& module, KernelFixups& fixes) {
  absl::flat_hash_set<uint32_t> matrices;
  for (const Instruction& inst : module.types_values)
    if (Is(inst, spv::Op::OpTypeMatrix)) matrices.insert(inst.result_id());
  if (matrices.empty()) return absl::OkStatus();
  absl::Status used = absl::OkStatus();
  module.ForEachInstruction([&](const Instruction& inst) {
    if (AnnotatedId(inst) != 0) return;
    inst.ForEachInId([&](uint32_t id) {
      if (used.ok() && matrices.contains(id))
        used = absl::FailedPreconditionError(absl::StrCat(
            "a matrix type (no Matrix capability in a Kernel) is used by ",
            std::string(inst.name())));
    });
  });
  if (!used.ok()) return used;
  fixes.matrix_types +=
      std::erase_if(module.types_values, [&](const Instruction& inst) {
        return matrices.contains(inst.result_id());
      });
  DropAnnotationsOf(module, matrices);
  return absl::OkStatus();
}

void PlainLoadsForOddAtomics(Module& module, KernelFixups& fixes) {
  absl::flat_hash_set<uint32_t> atomic_scalars;  // 32/64-bit int and float
  for (const Instruction& inst : module.types_values) {
    if ((Is(inst, spv::Op::OpTypeInt) || Is(inst, spv::Op::OpTypeFloat)) &&
        (inst.word(0) == 32 || inst.word(0) == 64))
      atomic_scalars.insert(inst.result_id());
  }
  for (Function& fn : module.functions) {
    for (BasicBlock& b : fn.blocks) {
      for (Instruction& inst : b.instructions) {
        if (!Is(inst, spv::Op::OpAtomicLoad) ||
            atomic_scalars.contains(inst.type_id()))
          continue;
        inst =
            Instruction(static_cast<uint32_t>(spv::Op::OpLoad), inst.type_id(),
                        inst.result_id(), {IdOperand(inst.word(0))});
        ++fixes.atomic_loads;
      }
    }
  }
}

}  // namespace

uint32_t WidenOneWordConstants(std::vector<uint32_t>& words) {
  constexpr size_t kHeader = 5;
  absl::flat_hash_map<uint32_t, uint32_t> width;  // scalar type -> bits
  uint32_t widened = 0;
  for (size_t at = kHeader; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    const auto op = static_cast<spv::Op>(words[at] & 0xFFFF);
    if (count == 0 || at + count > words.size()) break;
    if ((op == spv::Op::OpTypeInt || op == spv::Op::OpTypeFloat) && count >= 3)
      width[words[at + 1]] = words[at + 2];
    if ((op == spv::Op::OpConstant || op == spv::Op::OpSpecConstant) &&
        count == 4) {
      auto w = width.find(words[at + 1]);
      if (w != width.end() && w->second == 64) {
        words[at] = (5u << 16) | (words[at] & 0xFFFF);
        words.insert(words.begin() + static_cast<ptrdiff_t>(at + 4), 0u);
        ++widened;
        at += 5;
        continue;
      }
    }
    at += count;
  }
  return widened;
}

nlohmann::json KernelFixups::ToJson() const {
  return {{"signed_int_types", signed_int_types},
          {"merged_types", merged_types},
          {"shader_decorations", shader_decorations},
          {"widened_constants", widened_constants},
          {"private_variables", private_variables},
          {"private_variable_copies", private_variable_copies},
          {"private_variables_threaded", private_variables_threaded},
          {"unused_private_variables", unused_private_variables},
          {"matrix_types", matrix_types},
          {"atomic_loads", atomic_loads}};
}

absl::StatusOr<KernelFixups> FixUpKernelModule(Module& module) {
  KernelFixups fixes;
  WidenOneWordConstants(module, fixes);
  MakeIntsUnsigned(module, fixes);
  MergeDuplicateTypes(module, fixes);
  DropShaderDecorations(module, fixes);
  if (absl::Status s = MovePrivateVariables(module, fixes); !s.ok()) return s;
  if (absl::Status s = RemoveMatrixTypes(module, fixes); !s.ok()) return s;
  PlainLoadsForOddAtomics(module, fixes);
  module.header.bound = module.ComputeTightBound();
  return fixes;
}

}  // namespace l0spv::spirv
