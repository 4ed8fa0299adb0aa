#include "spirv/link.h"

#include <algorithm>
#include <map>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "spirv/binary.h"
#include "spirv/entry_interface.h"
#include "spirv/ir_edit.h"
#include "spirv/opcode_traits.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {

namespace {

using spv::Op;

constexpr uint32_t kLinkageAttributes =
    static_cast<uint32_t>(spv::Decoration::LinkageAttributes);
constexpr uint32_t kExport = static_cast<uint32_t>(spv::LinkageType::Export);
constexpr uint32_t kImport = static_cast<uint32_t>(spv::LinkageType::Import);

std::vector<uint32_t> Words(const Instruction& inst) {
  std::vector<uint32_t> words;
  inst.Encode(words);
  return words;
}

// Types (but forward pointers) and constants (but specialization
// constants): what UnifyTypes merges.
bool Unifiable(const Instruction& inst) {
  switch (static_cast<Op>(inst.opcode())) {
    case Op::OpTypeForwardPointer:
      return false;
    case Op::OpConstant:
    case Op::OpConstantTrue:
    case Op::OpConstantFalse:
    case Op::OpConstantComposite:
    case Op::OpConstantNull:
    case Op::OpConstantSampler:
      return true;
    default:
      return OpcodeClass(inst.opcode()) == "Type-Declaration";
  }
}

// Appends `from`'s instructions to `to`, dropping those whose encoding is
// already there (capabilities, extensions).
void AppendUnique(std::vector<Instruction>& to,
                  const std::vector<Instruction>& from) {
  for (const Instruction& inst : from) {
    const std::vector<uint32_t> words = Words(inst);
    const bool seen = std::any_of(
        to.begin(), to.end(), [&](const auto& i) { return Words(i) == words; });
    if (!seen) to.push_back(inst);
  }
}

// Which input an id of the merged module came from.
struct Origins {
  std::vector<uint32_t> first_ids;  // per input, its first renumbered id
  std::vector<std::string> names;
  const std::string& Of(uint32_t id) const {
    size_t k = 0;
    while (k + 1 < first_ids.size() && id >= first_ids[k + 1]) ++k;
    return names[k];
  }
};

class Linker {
 public:
  Linker(std::span<const LinkInput> inputs, const LinkOptions& options)
      : inputs_(inputs), options_(options) {}

  absl::StatusOr<Module> Run() {
    if (inputs_.empty())
      return absl::InvalidArgumentError("link: no modules given");
    if (absl::Status s = Merge(); !s.ok()) return s;
    UnifyTypes();  // and constants
    if (absl::Status s = ResolveLinkage(); !s.ok()) return s;
    DropDanglingAnnotations();
    std::stable_partition(out_.functions.begin(), out_.functions.end(),
                          [](const Function& f) { return f.IsDeclaration(); });
    CompleteEntryPointInterfaces(out_);
    out_.header.bound = out_.ComputeTightBound();
    return std::move(out_);
  }

 private:
  // Renumbers every input past the previous ones and concatenates them.
  absl::Status Merge() {
    uint32_t offset = 0;
    absl::flat_hash_map<std::string, uint32_t> ext_imports;  // name -> id
    absl::flat_hash_map<std::string, std::string> kernels;   // name -> input
    for (const LinkInput& input : inputs_) {
      if (input.module == nullptr)
        return absl::InvalidArgumentError(
            absl::StrCat("link: ", input.name, ": no module"));
      Module m = *input.module;
      origins_.first_ids.push_back(offset + 1);
      origins_.names.push_back(input.name);
      IdMap shift;
      for (uint32_t id = 1; id < m.header.bound; ++id) shift[id] = id + offset;
      m.ForEachInstruction([&](Instruction& inst) { RemapIds(inst, shift); });
      offset += m.header.bound;

      if (&input == &inputs_.front()) {
        out_.header = m.header;
        out_.endianness = m.endianness;
        out_.memory_model = m.memory_model;
      } else {
        out_.header.version = std::max(out_.header.version, m.header.version);
        if (m.memory_model.size() != out_.memory_model.size() ||
            (!m.memory_model.empty() &&
             m.memory_model[0].operands() != out_.memory_model[0].operands()))
          return absl::InvalidArgumentError(absl::StrCat(
              "link: ", input.name, ": its OpMemoryModel differs from ",
              inputs_.front().name, "'s"));
      }
      AppendUnique(out_.capabilities, m.capabilities);
      AppendUnique(out_.extensions, m.extensions);
      for (const Instruction& imp : m.ext_inst_imports) {
        const std::string set = imp.operand(0).AsString();
        auto [it, fresh] = ext_imports.try_emplace(set, imp.result_id());
        if (fresh) {
          out_.ext_inst_imports.push_back(imp);
        } else {
          alias_[imp.result_id()] = it->second;
        }
      }
      for (const Instruction& ep : m.entry_points) {
        const std::string name = ep.operand(2).AsString();
        auto [it, fresh] = kernels.try_emplace(name, input.name);
        if (!fresh)
          return absl::InvalidArgumentError(
              absl::StrCat("link: entry point '", name, "' is defined in ",
                           it->second, " and in ", input.name));
        out_.entry_points.push_back(ep);
      }
      for (Section s : {Section::kExecutionMode, Section::kDebugSource,
                        Section::kDebugName, Section::kDebugModuleProcessed,
                        Section::kAnnotation, Section::kTypesValues}) {
        auto& to = out_.section(s);
        const auto& from = m.section(s);
        to.insert(to.end(), from.begin(), from.end());
      }
      for (Function& f : m.functions) out_.functions.push_back(std::move(f));
    }
    return absl::OkStatus();
  }

  // One id per structurally identical type or constant: one equal to an
  // earlier one in opcode, result type and operands (after unification) and
  // decorations is dropped and its uses go to the earlier one. Constants
  // count because types depend on them (an array's length); specialization
  // constants and OpUndef stay apart.
  void UnifyTypes() {
    std::map<uint32_t, std::vector<std::vector<uint32_t>>> decorations;
    for (const Instruction& a : out_.annotations) {
      if (const uint32_t target = AnnotatedId(a)) {
        std::vector<uint32_t> words = Words(a);
        words.erase(words.begin() + 1);  // the target
        decorations[target].push_back(std::move(words));
      }
    }
    for (auto& [id, list] : decorations) std::sort(list.begin(), list.end());
    std::map<std::vector<uint32_t>, uint32_t> seen;
    std::vector<Instruction> kept;
    for (Instruction& inst : out_.types_values) {
      RemapIds(inst, alias_);
      if (Unifiable(inst) && inst.result_id() != 0) {
        std::vector<uint32_t> key = {inst.opcode(), inst.type_id()};
        for (const Operand& op : inst.operands())
          key.insert(key.end(), op.words.begin(), op.words.end());
        for (const auto& d : decorations[inst.result_id()]) {
          key.push_back(0xffffffffu);  // separator
          key.insert(key.end(), d.begin(), d.end());
        }
        auto [it, fresh] = seen.try_emplace(std::move(key), inst.result_id());
        if (!fresh) {
          alias_[inst.result_id()] = it->second;
          continue;
        }
      }
      kept.push_back(std::move(inst));
    }
    out_.types_values = std::move(kept);
    // Annotations and names of the dropped types go with them.
    for (Section s : {Section::kAnnotation, Section::kDebugName}) {
      auto& list = out_.section(s);
      std::erase_if(list, [&](const Instruction& inst) {
        return alias_.contains(AnnotatedId(inst));
      });
    }
    RemapEverywhere(alias_);
  }

  void RemapEverywhere(const IdMap& map) {
    if (map.empty()) return;
    out_.ForEachInstruction([&](Instruction& inst) { RemapIds(inst, map); });
  }

  // The type a symbol must agree on: a function's OpTypeFunction, a
  // variable's pointer type; 0 if `id` defines neither.
  uint32_t SymbolType(uint32_t id, bool* has_body) const {
    if (const Function* f = out_.FindFunction(id)) {
      *has_body = !f->IsDeclaration();
      return f->def.NumOperands() > 1 ? f->def.word(1) : 0;
    }
    for (const Instruction& inst : out_.types_values) {
      if (Is(inst, Op::OpVariable) && inst.result_id() == id) {
        *has_body = inst.NumOperands() > 1;  // an initializer
        return inst.type_id();
      }
    }
    return 0;
  }

  // A function's instructions with its own ids numbered in order, callees
  // with a linkage name by that name (each copy calls its own module's
  // declaration), OpLine left out; types and constants are unified by then,
  // so their ids compare as they are.
  static std::vector<uint64_t> Canonical(
      const Function& f,
      const absl::flat_hash_map<uint32_t, std::string>& names) {
    absl::flat_hash_map<uint32_t, uint64_t> local;
    const auto define = [&](const Instruction& inst) {
      if (inst.result_id() != 0)
        local.emplace(inst.result_id(), local.size() + 1);
    };
    define(f.def);
    for (const Instruction& p : f.parameters) define(p);
    for (const BasicBlock& b : f.blocks) {
      define(b.label);
      for (const Instruction& inst : b.instructions) define(inst);
    }
    const auto map = [&](uint32_t id) -> uint64_t {
      if (auto it = local.find(id); it != local.end())
        return (uint64_t{1} << 62) | it->second;
      if (auto it = names.find(id); it != names.end())
        return (uint64_t{1} << 61) | std::hash<std::string>()(it->second) >> 4;
      return id;
    };
    std::vector<uint64_t> out;
    const auto add = [&](const Instruction& inst) {
      if (Is(inst, Op::OpLine) || Is(inst, Op::OpNoLine)) return;
      out.push_back(inst.opcode());
      out.push_back(map(inst.type_id()));
      out.push_back(map(inst.result_id()));
      for (const Operand& o : inst.operands())
        for (uint32_t w : o.words) out.push_back(o.IsId() ? map(w) : w);
    };
    add(f.def);
    for (const Instruction& p : f.parameters) add(p);
    for (const BasicBlock& b : f.blocks) {
      add(b.label);
      for (const Instruction& inst : b.instructions) add(inst);
    }
    return out;
  }

  absl::Status ResolveLinkage() {
    for (const Instruction& a : out_.annotations) {
      if (Is(a, Op::OpGroupDecorate) || Is(a, Op::OpDecorationGroup)) {
        for (const Instruction& d : out_.annotations)
          if (Is(d, Op::OpDecorate) && d.NumOperands() > 1 &&
              d.word(1) == kLinkageAttributes &&
              std::any_of(out_.annotations.begin(), out_.annotations.end(),
                          [&](const Instruction& g) {
                            return Is(g, Op::OpDecorationGroup) &&
                                   g.result_id() == d.word(0);
                          }))
            return absl::InvalidArgumentError(
                "link: LinkageAttributes through a decoration group is not "
                "supported");
        break;
      }
    }
    struct Symbol {
      std::vector<LinkageSymbol> imports, exports, linkonce;
    };
    // An imported built-in variable is defined by the environment, not by
    // another module (llvm-spirv gives the built-ins of a module with the
    // Linkage capability Import linkage; spirv-link skips them too).
    const std::map<uint32_t, uint32_t> built_ins = BuiltInDecorations(out_);
    std::map<std::string, Symbol> symbols;
    absl::flat_hash_map<uint32_t, std::string> function_names;
    for (LinkageSymbol& s : LinkageSymbols(out_)) {
      function_names[s.id] = s.name;
      if (s.linkage_type == kImport && built_ins.count(s.id) != 0) continue;
      Symbol& sym = symbols[s.name];
      if (s.linkage_type == kImport) {
        sym.imports.push_back(s);
      } else if (s.linkage_type == kExport) {
        sym.exports.push_back(s);
      } else {
        sym.linkonce.push_back(s);
      }
    }
    IdMap replace;
    absl::flat_hash_set<uint32_t> removed;
    for (const auto& entry : symbols) {
      // Not a structured binding: the lambda below captures the name.
      const std::string& name = entry.first;
      const Symbol& sym = entry.second;
      if (sym.exports.size() > 1)
        return absl::InvalidArgumentError(absl::StrCat(
            "link: '", name, "' is defined twice (Export) in ",
            origins_.Of(sym.exports[0].id), " and in ",
            origins_.Of(sym.exports[1].id),
            ": give one of them LinkOnceODR linkage or another name"));
      const LinkageSymbol* chosen = !sym.exports.empty()    ? &sym.exports[0]
                                    : !sym.linkonce.empty() ? &sym.linkonce[0]
                                                            : nullptr;
      if (chosen == nullptr && options_.partial) {
        // Stays an import (one declaration for every input's), to be bound
        // by a later link.
        chosen = &sym.imports[0];
      }
      if (chosen == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat(
            "link: ", origins_.Of(sym.imports[0].id), " imports '", name,
            "', which no module exports: add the module that defines it"));
      }
      bool chosen_body = false;
      const uint32_t type = SymbolType(chosen->id, &chosen_body);
      if (type == 0)
        return absl::InvalidArgumentError(absl::StrCat(
            "link: ", origins_.Of(chosen->id), ": '", name,
            "' decorates neither a function nor a module-scope variable"));
      const auto check = [&](const LinkageSymbol& other) -> absl::Status {
        bool body = false;
        if (SymbolType(other.id, &body) != type)
          return absl::InvalidArgumentError(absl::StrCat(
              "link: '", name, "' has one type in ", origins_.Of(chosen->id),
              " and another in ", origins_.Of(other.id)));
        // The definitions a LinkOnceODR merge picks among are required to
        // be equivalent (SPV_KHR_linkonce_odr); differing ones make the
        // program depend on the linker's pick.
        const Function* a = out_.FindFunction(chosen->id);
        const Function* b = out_.FindFunction(other.id);
        if (options_.equivalent_linkonce && other.linkage_type != kImport &&
            a != nullptr && b != nullptr && !a->IsDeclaration() &&
            !b->IsDeclaration() &&
            Canonical(*a, function_names) != Canonical(*b, function_names))
          return absl::InvalidArgumentError(absl::StrCat(
              "link: the definitions of '", name, "' in ",
              origins_.Of(chosen->id), " and in ", origins_.Of(other.id),
              " differ: LinkOnceODR copies must be equivalent (the linker "
              "keeps one of them)"));
        return absl::OkStatus();
      };
      for (const auto* list : {&sym.imports, &sym.linkonce}) {
        for (const LinkageSymbol& other : *list) {
          if (other.id == chosen->id) continue;
          if (absl::Status s = check(other); !s.ok()) return s;
          replace[other.id] = chosen->id;
          removed.insert(other.id);
        }
      }
    }
    if (removed.empty()) return absl::OkStatus();
    std::erase_if(out_.functions,
                  [&](const Function& f) { return removed.contains(f.id()); });
    std::erase_if(out_.types_values, [&](const Instruction& inst) {
      return Is(inst, Op::OpVariable) && removed.contains(inst.result_id());
    });
    // Their decorations (the Import itself) and names go before the uses
    // are rewritten, or they would land on the chosen definition.
    for (Section s : {Section::kAnnotation, Section::kDebugName}) {
      std::erase_if(out_.section(s), [&](const Instruction& inst) {
        return removed.contains(AnnotatedId(inst));
      });
    }
    RemapEverywhere(replace);
    return absl::OkStatus();
  }

  // Annotations and names about ids no longer defined (deleted imports and
  // LinkOnceODR copies, their parameters and bodies).
  void DropDanglingAnnotations() {
    absl::flat_hash_set<uint32_t> defined;
    out_.ForEachInstruction([&](const Instruction& inst) {
      if (inst.result_id() != 0) defined.insert(inst.result_id());
    });
    for (Section s : {Section::kAnnotation, Section::kDebugName}) {
      std::erase_if(out_.section(s), [&](const Instruction& inst) {
        const uint32_t target = AnnotatedId(inst);
        return target != 0 && !defined.contains(target);
      });
    }
    std::erase_if(out_.annotations, [&](const Instruction& inst) {
      if (!Is(inst, Op::OpGroupDecorate)) return false;
      auto& ops = inst.operands();
      return std::none_of(ops.begin() + 1, ops.end(), [&](const Operand& o) {
        return defined.contains(o.AsId());
      });
    });
  }

  std::span<const LinkInput> inputs_;
  const LinkOptions& options_;
  Module out_;
  Origins origins_;
  IdMap alias_;  // dropped id -> the one kept (types, extended-inst imports)
};

}  // namespace

std::vector<LinkageSymbol> LinkageSymbols(const Module& module) {
  std::vector<LinkageSymbol> out;
  for (const Instruction& a : module.annotations) {
    if (!Is(a, Op::OpDecorate) || a.NumOperands() < 4 ||
        a.word(1) != kLinkageAttributes)
      continue;
    out.push_back({a.operand(2).AsString(), a.word(3), a.word(0)});
  }
  return out;
}

Instruction LinkageDecoration(uint32_t id, const std::string& name,
                              spv::LinkageType type) {
  return Instruction(
      static_cast<uint32_t>(Op::OpDecorate), 0, 0,
      {IdOperand(id), EnumOperand(OperandKind::kDecoration, kLinkageAttributes),
       StringOperand(name),
       EnumOperand(OperandKind::kLinkageType, static_cast<uint32_t>(type))});
}

absl::StatusOr<Module> LinkModules(std::span<const LinkInput> inputs,
                                   const LinkOptions& options) {
  return Linker(inputs, options).Run();
}

bool HasImports(std::span<const uint32_t> words) {
  std::vector<uint32_t> imported, built_ins;
  const bool well_formed = ScanInstructions(
      words, [&](uint32_t opcode, std::span<const uint32_t> in) {
        // Annotations come before types and functions: stop there.
        if (opcode == static_cast<uint32_t>(Op::OpFunction)) return false;
        if (opcode == static_cast<uint32_t>(Op::OpDecorate) && in.size() >= 3) {
          // OpDecorate %target LinkageAttributes "name..." Import: the
          // linkage type is the last word.
          if (in.size() >= 5 && in[2] == kLinkageAttributes &&
              in.back() == kImport)
            imported.push_back(in[1]);
          if (in[2] == static_cast<uint32_t>(spv::Decoration::BuiltIn))
            built_ins.push_back(in[1]);
        }
        return true;
      });
  if (!well_formed) return false;
  // An imported built-in is the environment's (the linker binds it to
  // nothing), so it alone needs no link.
  return std::any_of(imported.begin(), imported.end(), [&](uint32_t id) {
    return std::find(built_ins.begin(), built_ins.end(), id) == built_ins.end();
  });
}

absl::Status CheckCaseRunnable(const TestCase& tc, const std::string& where) {
  auto module = ReadModuleWords(tc.module_words);
  if (!module.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": ", module.status().message()));
  }
  const uint32_t id = module->KernelEntryPointId(tc.entry_point);
  if (id == 0) {
    const std::vector<std::string> names = module->KernelNames();
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": the module has no kernel named '", tc.entry_point, "' (",
        names.empty() ? std::string("it has no Kernel entry point")
                      : absl::StrCat("kernels: ", absl::StrJoin(names, ", ")),
        "); case.json and the module do not belong together"));
  }
  const Function* fn = module->FindFunction(id);
  if (fn != nullptr && fn->parameters.size() != tc.args.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": kernel '", tc.entry_point, "' takes ", fn->parameters.size(),
        " argument(s), the case gives ", tc.args.size(),
        "; case.json and the module do not belong together"));
  }
  // Several modules must link (imports resolved, types agreeing).
  if (auto linked = LinkTestCase(tc); !linked.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": ", linked.status().message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<TestCase> LinkTestCase(const TestCase& test_case,
                                      const LinkOptions& options) {
  if (test_case.linked_modules.empty()) return test_case;
  std::vector<Module> modules;
  std::vector<LinkInput> inputs;
  const size_t n = test_case.linked_modules.size() + 1;
  modules.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const std::string name = i == 0 ? "module.spv" : LinkedModuleFile(i - 1);
    auto m = ReadModuleWords(i == 0 ? test_case.module_words
                                    : test_case.linked_modules[i - 1]);
    if (!m.ok())
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": ", m.status().message()));
    modules.push_back(*std::move(m));
    inputs.push_back({name, &modules.back()});
  }
  auto linked = LinkModules(inputs, options);
  if (!linked.ok()) return linked.status();
  TestCase out = test_case;
  out.linked_modules.clear();
  out.module_words = EncodeModule(*linked);
  return out;
}

}  // namespace l0spv::spirv
