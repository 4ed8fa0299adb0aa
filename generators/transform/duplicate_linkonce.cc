#include "generators/transform/duplicate_linkonce.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

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

using spirv::Function;
using spirv::Instruction;
using spirv::Module;
using spv::Op;
using IdSet = absl::flat_hash_set<uint32_t>;

constexpr uint32_t kImport = static_cast<uint32_t>(spv::LinkageType::Import);
constexpr uint32_t kExport = static_cast<uint32_t>(spv::LinkageType::Export);
constexpr uint32_t kLinkageAttributes =
    static_cast<uint32_t>(spv::Decoration::LinkageAttributes);

bool IsLinkage(const Instruction& a) {
  return spirv::Is(a, Op::OpDecorate) && a.NumOperands() > 1 &&
         a.word(1) == kLinkageAttributes;
}

// Every instruction of a function, its OpFunction and parameters first.
template <typename Fn>
void ForEachOf(const Function& f, Fn fn) {
  fn(f.def);
  for (const Instruction& p : f.parameters) fn(p);
  for (const spirv::BasicBlock& b : f.blocks) {
    fn(b.label);
    for (const Instruction& inst : b.instructions) fn(inst);
  }
}

// The ids a function defines: itself, its parameters, labels and results.
IdSet LocalIds(const Function& f) {
  IdSet ids;
  ForEachOf(f, [&](const Instruction& inst) {
    if (inst.result_id() != 0) ids.insert(inst.result_id());
  });
  return ids;
}

std::vector<uint32_t> Callees(const Function& f) {
  std::vector<uint32_t> out;
  ForEachOf(f, [&](const Instruction& inst) {
    if (spirv::Is(inst, Op::OpFunctionCall) &&
        std::find(out.begin(), out.end(), inst.word(0)) == out.end())
      out.push_back(inst.word(0));
  });
  return out;
}

// Ids the function uses but does not define (types, constants, strings,
// extended-instruction sets), callees left out.
IdSet OuterIds(const Function& f) {
  const IdSet local = LocalIds(f);
  const std::vector<uint32_t> callees = Callees(f);
  IdSet out;
  ForEachOf(f, [&](const Instruction& inst) {
    const auto note = [&](uint32_t id) {
      if (id != 0 && !local.contains(id) &&
          std::find(callees.begin(), callees.end(), id) == callees.end())
        out.insert(id);
    };
    note(inst.type_id());
    for (const spirv::Operand& o : inst.operands())
      if (o.IsId()) note(o.AsId());
  });
  return out;
}

bool ReturnsStruct(const Module& m, const Function& f) {
  for (const Instruction& t : m.types_values)
    if (t.result_id() == f.def.type_id()) return spirv::Is(t, Op::OpTypeStruct);
  return false;
}

IdSet DefinedIds(const Module& m) {
  IdSet ids;
  m.ForEachInstruction([&](const Instruction& inst) {
    if (inst.result_id() != 0) ids.insert(inst.result_id());
  });
  return ids;
}

class Duplicator {
 public:
  Duplicator(std::vector<Module> modules, const DuplicateOptions& options)
      : modules_(std::move(modules)), options_(options) {}

  absl::StatusOr<std::vector<Module>> Run() {
    for (const Module& m : modules_) defined_.push_back(DefinedIds(m));
    for (size_t k = 0; k < modules_.size(); ++k)
      for (const spirv::LinkageSymbol& s : spirv::LinkageSymbols(modules_[k]))
        names_[s.id] = s.name;
    std::vector<uint32_t> candidates;
    std::string why_not;
    for (uint32_t h = 0; h < modules_.size(); ++h) {
      for (const spirv::LinkageSymbol& s : spirv::LinkageSymbols(modules_[h])) {
        const Function* f = modules_[h].FindFunction(s.id);
        if (s.linkage_type != kExport || f == nullptr || f->IsDeclaration() ||
            spirv::IsEntryPoint(modules_[h], s.id))
          continue;
        IdSet importers = Importers(s, h);
        if (importers.empty()) continue;
        if (std::string why = WhyNot(*f, h); !why.empty()) {
          if (why_not.empty()) why_not = absl::StrCat("'", s.name, "' ", why);
          continue;
        }
        candidates.push_back(s.id);
        home_[s.id] = h;
        copies_[s.id] = std::move(importers);
      }
    }
    if (candidates.empty()) {
      return absl::FailedPreconditionError(
          why_not.empty()
              ? std::string("no module imports a function another exports")
              : absl::StrCat("no exported function can get LinkOnceODR "
                             "copies (the first: ",
                             why_not, ")"));
    }
    kernel::Rng rng(options_.seed ^ 0x6c696e6b6f6e6365ULL);
    for (uint32_t f : candidates)
      if (rng.OneIn(2)) chosen_.insert(f);
    if (chosen_.empty())
      chosen_.insert(
          candidates[rng.Below(static_cast<uint32_t>(candidates.size()))]);
    FollowCallees();
    for (uint32_t f : candidates)
      if (chosen_.contains(f)) Apply(f);
    for (Module& m : modules_) {
      std::stable_partition(
          m.functions.begin(), m.functions.end(),
          [](const Function& fn) { return fn.IsDeclaration(); });
    }
    return std::move(modules_);
  }

 private:
  // The other modules that declare `s` (same id) with Import.
  IdSet Importers(const spirv::LinkageSymbol& s, uint32_t home) const {
    IdSet out;
    for (uint32_t j = 0; j < modules_.size(); ++j) {
      if (j == home) continue;
      for (const spirv::LinkageSymbol& t : spirv::LinkageSymbols(modules_[j])) {
        const Function* d = modules_[j].FindFunction(t.id);
        if (t.name == s.name && t.id == s.id && t.linkage_type == kImport &&
            d != nullptr && d->IsDeclaration())
          out.insert(j);
      }
    }
    return out;
  }

  // Why `f` (defined in module `home`) cannot be copied into every other
  // module; "" when it can.
  std::string WhyNot(const Function& f, uint32_t home) const {
    if ((options_.avoid_known_bugs &
         oracles::ConsumersOf(
             oracles::KnownBugId::kOclocLinkLinkonceStructReturn)) != 0 &&
        ReturnsStruct(modules_[home], f))
      return "returns a struct, and ocloc is avoided (known bug "
             "ocloc_link_linkonce_struct_return)";
    for (uint32_t g : Callees(f))
      if (!names_.contains(g)) return "calls a function without a linkage name";
    const IdSet local = LocalIds(f);
    const IdSet outer = OuterIds(f);
    const Module& m = modules_[home];
    for (const Instruction& a : m.annotations)
      if ((spirv::Is(a, Op::OpGroupDecorate) ||
           spirv::Is(a, Op::OpGroupMemberDecorate)) &&
          std::any_of(a.operands().begin() + 1, a.operands().end(),
                      [&](const spirv::Operand& o) {
                        return local.contains(o.AsId());
                      }))
        return "uses a decoration group";
    for (uint32_t j = 0; j < modules_.size(); ++j) {
      if (j == home) continue;
      const Function* decl = modules_[j].FindFunction(f.id());
      IdSet own;  // what a declaration there already defines
      if (decl != nullptr) own = LocalIds(*decl);
      for (uint32_t id : local)
        if (defined_[j].contains(id) && !own.contains(id))
          return absl::StrCat("has an id module ", j, " defines too");
      for (uint32_t id : outer)
        if (!defined_[j].contains(id))
          return absl::StrCat("uses an id module ", j, " lacks");
    }
    return "";
  }

  // A module copying f calls f's callees there: the chosen ones get a copy
  // too (until nothing changes).
  void FollowCallees() {
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t f : chosen_) {
        const Function& body = *modules_[home_.at(f)].FindFunction(f);
        for (uint32_t g : Callees(body)) {
          if (!chosen_.contains(g)) continue;
          for (uint32_t j : IdSet(copies_.at(f)))
            if (j != home_.at(g)) changed |= copies_.at(g).insert(j).second;
        }
      }
    }
  }

  void Apply(uint32_t f) {
    const uint32_t home = home_.at(f);
    const std::string& name = names_.at(f);
    Module& hm = modules_[home];
    for (Instruction& a : hm.annotations)
      if (IsLinkage(a) && a.word(0) == f)
        a = spirv::LinkageDecoration(f, name, spv::LinkageType::LinkOnceODR);
    DeclareExtension(hm);
    const Function body = *hm.FindFunction(f);
    for (uint32_t j : copies_.at(f)) {
      Module& m = modules_[j];
      // The copy keeps its ids (WhyNot: none taken there).
      m.header.bound = std::max(m.header.bound, hm.header.bound);
      CopyFunction(hm, body, m);
      m.annotations.push_back(
          spirv::LinkageDecoration(f, name, spv::LinkageType::LinkOnceODR));
      DeclareExtension(m);
      for (uint32_t g : Callees(body)) {
        if (m.FindFunction(g) != nullptr) continue;
        // Not chosen (or chosen but defined here already): imported.
        const Module& gm = modules_[HomeOf(g)];
        const Function* gf = gm.FindFunction(g);
        if (gf == nullptr) continue;
        m.header.bound = std::max(m.header.bound, gm.header.bound);
        Function decl;
        decl.def = gf->def;
        decl.parameters = gf->parameters;
        decl.end = gf->end;
        CopyFunction(gm, decl, m);
        m.annotations.push_back(spirv::LinkageDecoration(
            g, names_.at(g), spv::LinkageType::Import));
      }
    }
  }

  // Where g has its body (0 when no module defines it: it stays imported).
  uint32_t HomeOf(uint32_t g) const {
    if (auto it = home_.find(g); it != home_.end()) return it->second;
    for (uint32_t k = 0; k < modules_.size(); ++k) {
      const Function* d = modules_[k].FindFunction(g);
      if (d != nullptr && !d->IsDeclaration()) return k;
    }
    return 0;
  }

  // Puts `fn` (from module `from`) into `to` in place of its declaration
  // there, with the names and decorations of its ids (not its linkage).
  static void CopyFunction(const Module& from, const Function& fn, Module& to) {
    const IdSet ids = LocalIds(fn);
    IdSet old_ids;
    if (const Function* old = to.FindFunction(fn.id()))
      old_ids = LocalIds(*old);
    std::erase_if(to.functions,
                  [&](const Function& g) { return g.id() == fn.id(); });
    to.functions.push_back(fn);
    const auto about = [&](const Instruction& inst) {
      const uint32_t t = spirv::AnnotatedId(inst);
      return ids.contains(t) || old_ids.contains(t);
    };
    std::erase_if(to.annotations, about);
    std::erase_if(to.debug_names, about);
    for (const Instruction& a : from.annotations)
      if (ids.contains(spirv::AnnotatedId(a)) && !IsLinkage(a))
        to.annotations.push_back(a);
    for (const Instruction& n : from.debug_names)
      if (ids.contains(spirv::AnnotatedId(n))) to.debug_names.push_back(n);
  }

  static void DeclareExtension(Module& m) {
    const std::string ext = "SPV_KHR_linkonce_odr";
    for (const Instruction& e : m.extensions)
      if (e.operand(0).AsString() == ext) return;
    m.extensions.push_back(Instruction(static_cast<uint32_t>(Op::OpExtension),
                                       0, 0, {spirv::StringOperand(ext)}));
  }

  std::vector<Module> modules_;
  const DuplicateOptions& options_;
  std::vector<IdSet> defined_;
  absl::flat_hash_map<uint32_t, std::string> names_;  // function -> symbol
  absl::flat_hash_map<uint32_t, uint32_t> home_;      // candidate -> module
  absl::flat_hash_map<uint32_t, IdSet> copies_;       // candidate -> modules
  IdSet chosen_;
};

}  // namespace

absl::StatusOr<spirv::TestCase> DuplicateLinkOnce(
    const spirv::TestCase& test_case, const DuplicateOptions& options) {
  if (test_case.linked_modules.empty())
    return absl::InvalidArgumentError(
        "duplicate_linkonce needs a case of several modules (split it "
        "first)");
  std::vector<Module> modules;
  for (size_t i = 0; i <= test_case.linked_modules.size(); ++i) {
    const auto& words =
        i == 0 ? test_case.module_words : test_case.linked_modules[i - 1];
    auto m = spirv::ReadModuleWords(words);
    if (!m.ok())
      return absl::InvalidArgumentError(absl::StrCat(
          i == 0 ? std::string("module.spv") : spirv::LinkedModuleFile(i - 1),
          ": ", m.status().message()));
    modules.push_back(*std::move(m));
  }
  auto out = Duplicator(std::move(modules), options).Run();
  if (!out.ok()) return out.status();
  spirv::TestCase result = test_case;
  result.module_words = spirv::EncodeModule((*out)[0]);
  for (size_t i = 1; i < out->size(); ++i)
    result.linked_modules[i - 1] = spirv::EncodeModule((*out)[i]);
  return result;
}

}  // namespace l0spv::generators::transform
