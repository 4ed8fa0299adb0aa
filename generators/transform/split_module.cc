#include "generators/transform/split_module.h"

#include <algorithm>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "generators/kernel/random.h"
#include "oracles/known_bugs/registry.h"
#include "spirv/binary.h"
#include "spirv/ir_edit.h"
#include "spirv/link.h"
#include "spirv/opcode_traits.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::generators::transform {
namespace {

using spirv::Instruction;
using spirv::Module;
using spv::Op;

using IdSet = absl::flat_hash_set<uint32_t>;

std::string SymbolName(uint32_t function_id) {
  return absl::StrCat("l0spv_fn_", function_id);
}
std::string VariableSymbolName(uint32_t variable_id) {
  return absl::StrCat("l0spv_var_", variable_id);
}

bool IsSpecConstant(const Instruction& inst) {
  switch (spirv::OpOf(inst)) {
    case Op::OpSpecConstant:
    case Op::OpSpecConstantTrue:
    case Op::OpSpecConstantFalse:
    case Op::OpSpecConstantComposite:
    case Op::OpSpecConstantOp:
      return true;
    default:
      return false;
  }
}

class Splitter {
 public:
  Splitter(const Module& m, const SplitOptions& options)
      : m_(m), options_(options) {}

  absl::StatusOr<std::vector<Module>> Run() {
    FindCopyableGlobals();
    std::vector<uint32_t> movable;
    std::string why_not;
    for (const spirv::Function& f : m_.functions) {
      if (spirv::IsEntryPoint(m_, f.id())) continue;  // kernels stay
      if (absl::Status s = Movable(f); s.ok()) {
        movable.push_back(f.id());
      } else if (why_not.empty()) {
        why_not = std::string(s.message());
      }
    }
    if (movable.empty())
      return absl::FailedPreconditionError(
          why_not.empty()
              ? std::string("the module has no function besides its kernels")
              : absl::StrCat("no function can move to another module (the "
                             "first: ",
                             why_not, ")"));
    kernel::Rng rng(options_.seed);
    const uint32_t wanted =
        options_.modules != 0 ? options_.modules : rng.Range(2, 4);
    const uint32_t further =
        std::min<uint32_t>(wanted - 1, static_cast<uint32_t>(movable.size()));
    // Each further module gets one function for sure, then every movable
    // function picks a home (0 = stays).
    for (size_t i = movable.size(); i > 1; --i)
      std::swap(movable[i - 1], movable[rng.Below(static_cast<uint32_t>(i))]);
    for (size_t i = 0; i < movable.size(); ++i) {
      home_[movable[i]] =
          i < further ? static_cast<uint32_t>(i + 1) : rng.Below(further + 1);
    }
    // A variable goes where its first user (in module order) goes.
    for (uint32_t v : linkable_) {
      auto it = users_.find(v);
      if (it != users_.end()) var_home_[v] = HomeOf(it->second.front());
    }
    modules_ = further + 1;
    std::vector<Module> out;
    for (uint32_t j = 0; j <= further; ++j) out.push_back(Build(j));
    return out;
  }

 private:
  // Types and constants a further module can copy: everything of the
  // types/values section but variables, specialization constants and what
  // is built from them.
  void FindCopyableGlobals() {
    IdSet built_ins;
    for (const Instruction& a : m_.annotations)
      if (spirv::Is(a, Op::OpDecorate) && a.NumOperands() > 1 &&
          a.word(1) == static_cast<uint32_t>(spv::Decoration::BuiltIn))
        built_ins.insert(a.word(0));
    for (const Instruction& inst : m_.types_values) {
      if (inst.result_id() == 0) continue;
      globals_.insert(inst.result_id());
      if (spirv::Is(inst, Op::OpVariable)) {
        bool ok = true;
        inst.ForEachInId(
            [&](uint32_t id) { ok = ok && copyable_.contains(id); });
        const uint32_t storage = inst.word(0);
        // A built-in is the environment's: each module declares its own.
        if (ok && built_ins.contains(inst.result_id()) &&
            storage == static_cast<uint32_t>(spv::StorageClass::Input))
          copyable_.insert(inst.result_id());
        // Program-scope constants and globals link by name: one module
        // defines them (Export), the others declare them (Import).
        else if (ok && !built_ins.contains(inst.result_id()) &&
                 (storage == static_cast<uint32_t>(
                                 spv::StorageClass::UniformConstant) ||
                  storage ==
                      static_cast<uint32_t>(spv::StorageClass::CrossWorkgroup)))
          linkable_.insert(inst.result_id());
        continue;
      }
      if (IsSpecConstant(inst) || spirv::Is(inst, Op::OpExtInst)) continue;
      bool ok = true;
      inst.ForEachInId([&](uint32_t id) { ok = ok && copyable_.contains(id); });
      if (ok) copyable_.insert(inst.result_id());
    }
    for (const spirv::Function& f : m_.functions) {
      defined_in_[f.id()] = f.id();
      for (const Instruction& p : f.parameters)
        defined_in_[p.result_id()] = f.id();
      for (const spirv::BasicBlock& bb : f.blocks) {
        defined_in_[bb.id()] = f.id();
        for (const Instruction& inst : bb.instructions)
          if (inst.result_id() != 0) defined_in_[inst.result_id()] = f.id();
      }
    }
    for (const spirv::Function& f : m_.functions)
      for (const spirv::BasicBlock& bb : f.blocks)
        for (const Instruction& inst : bb.instructions)
          inst.ForEachInId([&](uint32_t id) {
            if (linkable_.contains(id)) users_[id].push_back(f.id());
          });
    for (const Instruction& e : m_.entry_points)
      for (size_t i = 2; i < e.NumOperands(); ++i)
        if (linkable_.contains(e.word(i))) interface_.insert(e.word(i));
    // Function ids used other than as a call's callee (names, decorations
    // and entry points aside: they are about the function, not uses).
    m_.ForEachInstruction([&](const Instruction& inst) {
      if (spirv::AnnotatedId(inst) != 0 || spirv::Is(inst, Op::OpEntryPoint))
        return;
      const bool call = spirv::Is(inst, Op::OpFunctionCall);
      size_t operand = 0;
      for (const spirv::Operand& op : inst.operands()) {
        if (spirv::IsIdKind(op.kind) && !(call && operand == 0) &&
            m_.FindFunction(op.AsId()) != nullptr)
          escaping_.insert(op.AsId());
        ++operand;
      }
    });
  }

  absl::Status Movable(const spirv::Function& f) const {
    if (f.IsDeclaration()) return absl::FailedPreconditionError("no body");
    if (spirv::IsEntryPoint(m_, f.id()))
      return absl::FailedPreconditionError("an entry point");
    if (escaping_.contains(f.id()))
      return absl::FailedPreconditionError("used other than as a callee");
    for (const Instruction& a : m_.annotations)
      if (spirv::AnnotatedId(a) == f.id() && a.NumOperands() > 1 &&
          a.word(1) ==
              static_cast<uint32_t>(spv::Decoration::LinkageAttributes))
        return absl::FailedPreconditionError("already has linkage");
    for (const spirv::BasicBlock& bb : f.blocks) {
      for (const Instruction& inst : bb.instructions) {
        if (spirv::Is(inst, Op::OpFunctionCall)) {
          const spirv::Function* callee = m_.FindFunction(inst.word(0));
          if (callee == nullptr || callee->IsDeclaration())
            return absl::FailedPreconditionError(
                "calls a function without a body");
        }
        absl::Status s = absl::OkStatus();
        inst.ForEachInId([&](uint32_t id) {
          if (s.ok() && globals_.contains(id) && !copyable_.contains(id) &&
              !linkable_.contains(id))
            s = absl::FailedPreconditionError(
                "uses a module-scope variable (Workgroup) or specialization "
                "constant");
        });
        if (!s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }

  uint32_t HomeOf(uint32_t function_id) const {
    auto it = home_.find(function_id);
    return it == home_.end() ? 0 : it->second;
  }
  bool Defines(uint32_t function_id, uint32_t j) const {
    return HomeOf(function_id) == j;
  }
  uint32_t VarHome(uint32_t v) const {
    auto it = var_home_.find(v);
    return it == var_home_.end() ? 0 : it->second;
  }
  // Whether module j reads variable v: a function it defines uses it, or
  // (module.spv) an entry point lists it.
  bool UsesVar(uint32_t v, uint32_t j) const {
    if (j == 0 && interface_.contains(v)) return true;
    auto it = users_.find(v);
    if (it == users_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(),
                       [&](uint32_t f) { return HomeOf(f) == j; });
  }

  Module Build(uint32_t j) const {
    Module out;
    out.header = m_.header;
    out.endianness = m_.endianness;
    out.capabilities = m_.capabilities;
    const bool has_linkage = std::any_of(
        m_.capabilities.begin(), m_.capabilities.end(), [](const auto& c) {
          return c.word(0) == static_cast<uint32_t>(spv::Capability::Linkage);
        });
    if (!has_linkage)
      out.capabilities.push_back(
          Instruction(static_cast<uint32_t>(Op::OpCapability), 0, 0,
                      {spirv::EnumOperand(
                          spirv::OperandKind::kCapability,
                          static_cast<uint32_t>(spv::Capability::Linkage))}));
    out.extensions = m_.extensions;
    out.ext_inst_imports = m_.ext_inst_imports;
    out.memory_model = m_.memory_model;
    if (j == 0) {
      out.entry_points = m_.entry_points;
      out.execution_modes = m_.execution_modes;
      out.debug_source = m_.debug_source;
      out.debug_module_processed = m_.debug_module_processed;
    } else {
      // The OpStrings OpLine names (anywhere in a moved body).
      for (const Instruction& inst : m_.debug_source)
        if (spirv::Is(inst, Op::OpString)) out.debug_source.push_back(inst);
    }
    // Linked variables: defined at home, declared (no initializer) where
    // read elsewhere, exported when read elsewhere.
    IdSet vars_here, var_imports, var_exports;
    for (uint32_t v : linkable_) {
      const bool home = VarHome(v) == j;
      if (home && (j == 0 || users_.contains(v))) vars_here.insert(v);
      if (!home && UsesVar(v, j)) {
        vars_here.insert(v);
        var_imports.insert(v);
      }
      if (home)
        for (uint32_t k = 0; k < modules_; ++k)
          if (k != j && VarHome(v) != k && UsesVar(v, k)) var_exports.insert(v);
    }
    for (const Instruction& inst : m_.types_values) {
      const uint32_t id = inst.result_id();
      if (linkable_.contains(id)) {
        if (!vars_here.contains(id)) continue;
        Instruction var = inst;
        if (var_imports.contains(id))
          var.mutable_operands().resize(1);  // the storage class only
        out.types_values.push_back(std::move(var));
        continue;
      }
      if (j == 0 || copyable_.contains(id)) out.types_values.push_back(inst);
    }
    // Functions this module defines, and those it calls elsewhere.
    IdSet defines, declares, exports;
    for (const spirv::Function& f : m_.functions) {
      if (!Defines(f.id(), j)) continue;
      defines.insert(f.id());
      for (const spirv::BasicBlock& bb : f.blocks)
        for (const Instruction& inst : bb.instructions)
          if (spirv::Is(inst, Op::OpFunctionCall) && !Defines(inst.word(0), j))
            declares.insert(inst.word(0));
    }
    // What another module calls from here (and does not define itself).
    for (uint32_t k = 0; k < modules_; ++k) {
      if (k == j) continue;
      for (const spirv::Function& f : m_.functions) {
        if (!Defines(f.id(), k)) continue;
        for (const spirv::BasicBlock& bb : f.blocks)
          for (const Instruction& inst : bb.instructions)
            if (spirv::Is(inst, Op::OpFunctionCall) &&
                defines.contains(inst.word(0)) && !Defines(inst.word(0), k))
              exports.insert(inst.word(0));
      }
    }
    for (const spirv::Function& f : m_.functions) {
      if (!declares.contains(f.id())) continue;
      spirv::Function decl;
      decl.def = f.def;
      decl.parameters = f.parameters;
      decl.end = f.end;
      out.functions.push_back(std::move(decl));
    }
    for (const spirv::Function& f : m_.functions)
      if (defines.contains(f.id())) out.functions.push_back(f);
    // An id belongs here when a global this module has, or when defined in
    // a function this module defines, or it is a declared function or one
    // of its parameters.
    const auto belongs = [&](uint32_t id) {
      if (linkable_.contains(id)) return vars_here.contains(id);
      auto it = defined_in_.find(id);
      if (it == defined_in_.end())
        return j == 0 ? true : copyable_.contains(id);
      const uint32_t fn = it->second;
      if (defines.contains(fn)) return true;
      if (!declares.contains(fn)) return false;
      // A declaration keeps its function id and parameters only.
      if (id == fn) return true;
      const spirv::Function* f = m_.FindFunction(fn);
      return std::any_of(
          f->parameters.begin(), f->parameters.end(),
          [&](const Instruction& p) { return p.result_id() == id; });
    };
    for (const Instruction& n : m_.debug_names)
      if (belongs(spirv::AnnotatedId(n))) out.debug_names.push_back(n);
    // Decoration groups: OpGroupDecorate / OpGroupMemberDecorate keep the
    // targets that belong here; a group (its OpDecorationGroup and the
    // decorations of the group) comes along when something here uses it.
    IdSet groups, used_groups;
    for (const Instruction& a : m_.annotations)
      if (spirv::Is(a, Op::OpDecorationGroup)) groups.insert(a.result_id());
    std::vector<Instruction> kept;
    for (const Instruction& a : m_.annotations) {
      if (spirv::Is(a, Op::OpGroupDecorate) ||
          spirv::Is(a, Op::OpGroupMemberDecorate)) {
        // Operand 0 is the group; then targets (with a member each for
        // OpGroupMemberDecorate).
        const size_t step = spirv::Is(a, Op::OpGroupMemberDecorate) ? 2 : 1;
        Instruction g(a.opcode(), 0, 0, {a.operand(0)});
        for (size_t i = 1; i + step - 1 < a.NumOperands(); i += step)
          if (belongs(a.word(i)))
            for (size_t k = 0; k < step; ++k) g.AddOperand(a.operand(i + k));
        if (g.NumOperands() > 1) {
          used_groups.insert(a.word(0));
          kept.push_back(std::move(g));
        }
        continue;
      }
      kept.push_back(a);
    }
    for (const Instruction& a : kept) {
      if (spirv::Is(a, Op::OpDecorationGroup)) {
        if (j == 0 || used_groups.contains(a.result_id()))
          out.annotations.push_back(a);
        continue;
      }
      const uint32_t target = spirv::AnnotatedId(a);
      if (groups.contains(target)) {  // a decoration of a group
        if (j == 0 || used_groups.contains(target))
          out.annotations.push_back(a);
        continue;
      }
      if (target == 0 ? true : belongs(target)) out.annotations.push_back(a);
    }
    for (const Instruction& inst : m_.types_values) {
      const uint32_t v = inst.result_id();
      if (var_exports.contains(v))
        out.annotations.push_back(spirv::LinkageDecoration(
            v, VariableSymbolName(v), spv::LinkageType::Export));
      if (var_imports.contains(v))
        out.annotations.push_back(spirv::LinkageDecoration(
            v, VariableSymbolName(v), spv::LinkageType::Import));
    }
    for (const spirv::Function& f : m_.functions) {
      if (exports.contains(f.id()))
        out.annotations.push_back(spirv::LinkageDecoration(
            f.id(), SymbolName(f.id()), spv::LinkageType::Export));
      if (declares.contains(f.id()))
        out.annotations.push_back(spirv::LinkageDecoration(
            f.id(), SymbolName(f.id()), spv::LinkageType::Import));
    }
    return out;
  }

  const Module& m_;
  const SplitOptions& options_;
  IdSet globals_, copyable_, escaping_;
  // UniformConstant and CrossWorkgroup variables: the functions reading
  // them, those an entry point lists, and the module each goes to.
  IdSet linkable_, interface_;
  absl::flat_hash_map<uint32_t, std::vector<uint32_t>> users_;
  absl::flat_hash_map<uint32_t, uint32_t> var_home_;
  absl::flat_hash_map<uint32_t, uint32_t> defined_in_;  // id -> function
  absl::flat_hash_map<uint32_t, uint32_t> home_;        // function -> module
  uint32_t modules_ = 0;
};

}  // namespace

namespace {

// Whether an OpVectorShuffle of the module takes two vectors of different
// component counts (valid; ocloc link writes unreadable bitcode for it).
bool HasShuffleOfTwoWidths(const Module& m) {
  absl::flat_hash_map<uint32_t, uint32_t> width;  // vector type -> count
  absl::flat_hash_map<uint32_t, uint32_t> type_of;
  m.ForEachInstruction([&](const Instruction& inst) {
    if (spirv::Is(inst, Op::OpTypeVector))
      width[inst.result_id()] = inst.word(1);
    if (inst.result_id() != 0 && inst.type_id() != 0)
      type_of[inst.result_id()] = inst.type_id();
  });
  bool found = false;
  m.ForEachInstruction([&](const Instruction& inst) {
    if (!spirv::Is(inst, Op::OpVectorShuffle) || inst.NumOperands() < 2) return;
    found |= width[type_of[inst.word(0)]] != width[type_of[inst.word(1)]];
  });
  return found;
}

// Whether a function builds a struct (OpCompositeConstruct) from one of its
// array-typed parameters (valid; ocloc link writes unreadable bitcode).
bool HasStructOfArrayParam(const Module& m) {
  IdSet arrays, structs, array_params;
  for (const Instruction& t : m.types_values) {
    if (spirv::Is(t, Op::OpTypeArray)) arrays.insert(t.result_id());
    if (spirv::Is(t, Op::OpTypeStruct)) structs.insert(t.result_id());
  }
  for (const spirv::Function& f : m.functions)
    for (const Instruction& p : f.parameters)
      if (arrays.contains(p.type_id())) array_params.insert(p.result_id());
  if (array_params.empty()) return false;
  bool found = false;
  m.ForEachInstruction([&](const Instruction& inst) {
    if (!spirv::Is(inst, Op::OpCompositeConstruct) ||
        !structs.contains(inst.type_id()))
      return;
    for (const spirv::Operand& o : inst.operands())
      found |= array_params.contains(o.AsId());
  });
  return found;
}

}  // namespace

absl::StatusOr<SplitResult> SplitModule(const spirv::TestCase& test_case,
                                        const SplitOptions& options) {
  if (!test_case.linked_modules.empty())
    return absl::InvalidArgumentError(
        "the case already has several modules (split a one-module case)");
  if (options.modules == 1 || options.modules > 16)
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot split into ", options.modules, " modules (2..16)"));
  auto m = spirv::ReadModuleWords(test_case.module_words);
  if (!m.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("module.spv: ", m.status().message()));
  if ((options.avoid_known_bugs &
       oracles::ConsumersOf(
           oracles::KnownBugId::kOclocLinkShuffleMixedWidths)) &&
      HasShuffleOfTwoWidths(*m)) {
    return absl::FailedPreconditionError(
        "an OpVectorShuffle takes vectors of two widths, and ocloc is "
        "avoided (known bug ocloc_link_shuffle_mixed_widths)");
  }
  if ((options.avoid_known_bugs &
       oracles::ConsumersOf(
           oracles::KnownBugId::kOclocLinkStructOfArrayParam)) &&
      HasStructOfArrayParam(*m)) {
    return absl::FailedPreconditionError(
        "a function builds a struct from an array parameter, and ocloc is "
        "avoided (known bug ocloc_link_struct_of_array_param)");
  }
  auto modules = Splitter(*m, options).Run();
  if (!modules.ok()) return modules.status();
  SplitResult result;
  result.test_case = test_case;
  result.test_case.linked_modules.clear();
  for (size_t i = 0; i < modules->size(); ++i) {
    const Module& part = (*modules)[i];
    uint32_t defined = 0;
    for (const spirv::Function& f : part.functions)
      defined += !f.IsDeclaration();
    result.functions_per_module.push_back(defined);
    std::vector<uint32_t> words = spirv::EncodeModule(part);
    if (i == 0) {
      result.test_case.module_words = std::move(words);
    } else {
      result.test_case.linked_modules.push_back(std::move(words));
    }
  }
  return result;
}

}  // namespace l0spv::generators::transform
