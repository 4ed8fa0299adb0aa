#include "reducers/collapse_passes.h"

#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "generators/transform/engine.h"
#include "reducers/chunks.h"
#include "reducers/module_edit.h"
#include "spirv/binary.h"
#include "spirv/builder.h"
#include "spirv/def_use.h"
#include "spirv/grammar.h"
#include "spirv/opcode_traits.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::reducers {
namespace {

using spirv::Instruction;
using spirv::Module;
using spirv::TestCase;
using spv::Op;

using spirv::OpOf;

// The definitions (spirv::DefUse) and the vector/composite questions the
// passes ask of them. Holds pointers into the module it was built on.
class Defs {
 public:
  explicit Defs(const Module& m) : def_use_(m) {}
  const Instruction* Get(uint32_t id) const { return def_use_.Def(id); }
  // The vector type instruction of a value, or nullptr when it is no vector.
  const Instruction* VectorTypeOf(uint32_t value) const {
    const Instruction* v = Get(value);
    if (v == nullptr || v->type_id() == 0) return nullptr;
    const Instruction* t = Get(v->type_id());
    return t != nullptr && OpOf(*t) == Op::OpTypeVector ? t : nullptr;
  }
  // Number of components of a vector or struct type, or 0.
  uint32_t ComponentCount(uint32_t type_id) const {
    const Instruction* t = Get(type_id);
    if (t == nullptr) return 0;
    if (OpOf(*t) == Op::OpTypeVector) return t->word(1);
    if (OpOf(*t) == Op::OpTypeStruct)
      return static_cast<uint32_t>(t->NumOperands());
    return 0;
  }

 private:
  spirv::DefUse def_use_;
};

// --- fold-lane-accesses -------------------------------------------------

// The component `index` of composite value `id` as an existing id, or 0.
uint32_t KnownComponent(const Defs& defs, uint32_t id, uint32_t index) {
  const Instruction* c = defs.Get(id);
  if (c == nullptr) return 0;
  switch (OpOf(*c)) {
    case Op::OpCompositeConstruct:
    case Op::OpConstantComposite:
    case Op::OpSpecConstantComposite:
      // A vector built from smaller vectors has fewer operands than lanes.
      if (c->NumOperands() != defs.ComponentCount(c->type_id())) return 0;
      return index < c->NumOperands() ? c->word(index) : 0;
    case Op::OpCompositeInsert:
      if (c->NumOperands() == 3 && c->word(2) == index) return c->word(0);
      return 0;
    default:
      return 0;
  }
}

bool IsSingleIndexExtract(const Instruction& inst) {
  return OpOf(inst) == Op::OpCompositeExtract && inst.NumOperands() == 2;
}

std::vector<uint64_t> LaneAccessSites(const TestCase& tc) {
  std::vector<uint64_t> sites;
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return sites;
  const Defs defs(*m);
  ForEachBodyInstruction(*m, [&](const Instruction& inst) {
    if (!IsSingleIndexExtract(inst)) return;
    const Instruction* src = defs.Get(inst.word(0));
    if (src == nullptr) return;
    if (KnownComponent(defs, inst.word(0), inst.word(1)) != 0 ||
        OpOf(*src) == Op::OpVectorShuffle ||
        (OpOf(*src) == Op::OpCompositeInsert && src->NumOperands() == 3))
      sites.push_back(inst.result_id());
  });
  return sites;
}

std::optional<TestCase> FoldLaneAccesses(const TestCase& tc,
                                         std::span<const uint64_t> sites) {
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return std::nullopt;
  const absl::flat_hash_set<uint64_t> chosen(sites.begin(), sites.end());
  absl::flat_hash_map<uint32_t, uint32_t> replace;
  bool changed = false;
  {
    const Defs defs(*m);
    for (spirv::Function& f : m->functions)
      for (spirv::BasicBlock& b : f.blocks)
        for (Instruction& inst : b.instructions) {
          if (!IsSingleIndexExtract(inst) || !chosen.contains(inst.result_id()))
            continue;
          const uint32_t known =
              KnownComponent(defs, inst.word(0), inst.word(1));
          if (known != 0) {
            replace[inst.result_id()] = known;  // the extract stays, dead
            continue;
          }
          const Instruction* src = defs.Get(inst.word(0));
          const uint32_t lane = inst.word(1);
          if (OpOf(*src) == Op::OpCompositeInsert) {
            // Another component than the inserted one: read the base.
            inst.mutable_operands()[0] = spirv::IdOperand(src->word(1));
            changed = true;
          } else if (OpOf(*src) == Op::OpVectorShuffle &&
                     lane + 2 < src->NumOperands()) {
            const uint32_t pick = src->word(lane + 2);
            const Instruction* first = defs.VectorTypeOf(src->word(0));
            if (first == nullptr || pick == 0xFFFFFFFFu) continue;
            const uint32_t n = first->word(1);
            inst.mutable_operands()[0] =
                spirv::IdOperand(pick < n ? src->word(0) : src->word(1));
            inst.mutable_operands()[1] =
                spirv::LiteralOperand(pick < n ? pick : pick - n);
            changed = true;
          }
        }
  }
  if (replace.empty() && !changed) return std::nullopt;
  spirv::ReplaceUsesInBodies(*m, replace);
  return WithModule(tc, *m);
}

// --- vectors-to-scalars -------------------------------------------------

// OpenCL.std instructions that do not work lane by lane (geometric
// functions, vector loads/stores, shuffles, printf); those with pointer
// operands (frexp, modf, sincos, ...) are excluded by their operand types.
bool IsElementWiseExtInst(uint32_t number) {
  const spirv::ExtInstInfo* info = spirv::FindOpenClStd(number);
  if (info == nullptr) return false;
  const std::string_view name = info->name;
  static constexpr std::string_view kNotLaneWise[] = {
      "dot",       "cross",       "length",        "distance",
      "normalize", "fast_length", "fast_distance", "fast_normalize",
      "shuffle",   "shuffle2",    "printf",        "prefetch"};
  for (std::string_view n : kNotLaneWise)
    if (name == n) return false;
  return name.rfind("vload", 0) != 0 && name.rfind("vstore", 0) != 0;
}

// First operand that is a value for the lane rewrite (after the set and the
// instruction number of an OpExtInst).
size_t FirstValueOperand(const Instruction& inst) {
  return OpOf(inst) == Op::OpExtInst ? 2 : 0;
}

bool IsLaneWise(const Instruction& inst, const Module& m, const Defs& defs) {
  const Op op = OpOf(inst);
  if (op == Op::OpExtInst) {
    if (inst.NumOperands() < 3 || inst.word(0) != m.OpenClStdImportId() ||
        !IsElementWiseExtInst(inst.word(1)))
      return false;
  } else if (!spirv::IsComponentWise(inst.opcode())) {
    return false;
  }
  for (size_t i = FirstValueOperand(inst); i < inst.NumOperands(); ++i) {
    const Instruction* v = defs.Get(inst.word(i));
    if (v == nullptr || v->type_id() == 0) return false;
    const Instruction* t = defs.Get(v->type_id());
    if (t == nullptr || OpOf(*t) == Op::OpTypePointer) return false;
    // An OpUndef lane would need a new OpUndef: the oracle limits those.
    if (OpOf(*v) == Op::OpUndef && OpOf(*t) == Op::OpTypeVector) return false;
  }
  return true;
}

// Body values read only as one lane: id -> lane. Values used anywhere else
// (stores, calls, phis, entry points, other extracts) are absent.
absl::flat_hash_map<uint32_t, uint32_t> SingleLaneValues(const Module& m) {
  const auto uses = CountUses(m);
  absl::flat_hash_map<uint32_t, uint32_t> extract_uses;
  absl::flat_hash_map<uint32_t, uint32_t> lane;
  absl::flat_hash_set<uint32_t> mixed;
  ForEachBodyInstruction(m, [&](const Instruction& inst) {
    if (!IsSingleIndexExtract(inst)) return;
    const uint32_t v = inst.word(0);
    ++extract_uses[v];
    auto [it, fresh] = lane.try_emplace(v, inst.word(1));
    if (!fresh && it->second != inst.word(1)) mixed.insert(v);
  });
  absl::flat_hash_map<uint32_t, uint32_t> out;
  for (const auto& [v, n] : extract_uses) {
    auto u = uses.find(v);
    if (mixed.contains(v) || u == uses.end() || u->second != n) continue;
    out[v] = lane[v];
  }
  return out;
}

std::vector<uint64_t> VectorSites(const TestCase& tc) {
  std::vector<uint64_t> sites;
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return sites;
  const Defs defs(*m);
  const auto single_lane = SingleLaneValues(*m);
  ForEachBodyInstruction(*m, [&](const Instruction& inst) {
    if (inst.result_id() != 0 && single_lane.contains(inst.result_id()) &&
        defs.VectorTypeOf(inst.result_id()) != nullptr &&
        IsLaneWise(inst, *m, defs))
      sites.push_back(inst.result_id());
  });
  return sites;
}

std::optional<TestCase> VectorsToScalars(const TestCase& tc,
                                         std::span<const uint64_t> sites) {
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return std::nullopt;
  const absl::flat_hash_set<uint64_t> chosen(sites.begin(), sites.end());
  const auto single_lane = SingleLaneValues(*m);
  // Lane k of each narrowed value is the narrowed value itself.
  absl::flat_hash_map<uint32_t, uint32_t> replace;
  absl::flat_hash_set<uint32_t> narrowed;
  // Definitions are read from an untouched copy: the loop below rebuilds
  // the blocks and the builder appends constants.
  const Module original = *m;
  const Defs defs(original);

  spirv::ModuleBuilder builder(*m);
  for (spirv::Function& f : m->functions) {
    for (spirv::BasicBlock& b : f.blocks) {
      std::vector<Instruction> out;
      out.reserve(b.instructions.size());
      for (Instruction& inst : b.instructions) {
        const uint32_t id = inst.result_id();
        const Instruction* vec_type = id == 0 ? nullptr : defs.VectorTypeOf(id);
        if (id == 0 || !chosen.contains(id) || !single_lane.contains(id) ||
            vec_type == nullptr || !IsLaneWise(inst, *m, defs)) {
          out.push_back(std::move(inst));
          continue;
        }
        const uint32_t lane = single_lane.at(id);
        Instruction scalar = inst;
        scalar.set_type_id(vec_type->word(0));
        if (OpOf(inst) == Op::OpVectorTimesScalar)
          scalar.set_opcode(static_cast<uint32_t>(Op::OpFMul));
        for (size_t i = FirstValueOperand(inst); i < inst.NumOperands(); ++i) {
          const uint32_t operand = inst.word(i);
          const Instruction* ot = defs.VectorTypeOf(operand);
          if (ot == nullptr) continue;  // a scalar operand stays
          uint32_t component = KnownComponent(defs, operand, lane);
          const Instruction* od = defs.Get(operand);
          if (component == 0 && od != nullptr &&
              OpOf(*od) == Op::OpConstantNull)
            component = builder.ZeroConstant(ot->word(0));
          if (component == 0) {
            component = builder.TakeNextId();
            out.push_back(Instruction(
                static_cast<uint32_t>(Op::OpCompositeExtract), ot->word(0),
                component,
                {spirv::IdOperand(operand), spirv::LiteralOperand(lane)}));
          }
          scalar.mutable_operands()[i] = spirv::IdOperand(component);
        }
        narrowed.insert(id);
        out.push_back(std::move(scalar));
      }
      b.instructions = std::move(out);
    }
  }
  if (narrowed.empty()) return std::nullopt;
  // The lane extracts of narrowed values go; their readers read the value.
  absl::flat_hash_set<uint32_t> removed;
  for (spirv::Function& f : m->functions)
    for (spirv::BasicBlock& b : f.blocks)
      std::erase_if(b.instructions, [&](const Instruction& inst) {
        if (!IsSingleIndexExtract(inst) || !narrowed.contains(inst.word(0)))
          return false;
        replace[inst.result_id()] = inst.word(0);
        removed.insert(inst.result_id());
        return true;
      });
  spirv::ReplaceUsesInBodies(*m, replace);
  ForgetIds(*m, removed);
  RemoveUnusedGlobals(*m);
  return WithModule(tc, *m);
}

// --- inline-single-calls --------------------------------------------------

std::vector<uint64_t> SingleCallSites(const TestCase& tc) {
  std::vector<uint64_t> sites;
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return sites;
  absl::flat_hash_map<uint32_t, uint32_t> calls;
  ForEachBodyInstruction(*m, [&](const Instruction& inst) {
    if (OpOf(inst) == Op::OpFunctionCall) ++calls[inst.word(0)];
  });
  ForEachBodyInstruction(*m, [&](const Instruction& inst) {
    if (OpOf(inst) == Op::OpFunctionCall && calls[inst.word(0)] == 1)
      sites.push_back(inst.result_id());
  });
  return sites;
}

std::optional<TestCase> InlineCalls(const TestCase& tc,
                                    std::span<const uint64_t> sites) {
  std::vector<nlohmann::json> records;
  for (uint64_t site : sites)
    records.push_back({{"kind", "inline_call"}, {"call", site}});
  generators::transform::ReplayOptions options;
  options.skip_inapplicable = true;
  auto replayed = generators::transform::Replay(
      tc, generators::transform::MakeLog(tc.module_words, std::move(records)),
      options);
  if (!replayed.ok() || replayed->skipped.size() == sites.size())
    return std::nullopt;
  TestCase out = std::move(replayed->test_case);
  // The case's own log still describes its provenance, not this edit.
  out.transformation_log = tc.transformation_log;
  return out;
}

}  // namespace

std::unique_ptr<Stage> MakeFoldLaneAccessesStage() {
  return MakeChunkStage("fold-lane-accesses", LaneAccessSites,
                        FoldLaneAccesses);
}
std::unique_ptr<Stage> MakeVectorsToScalarsStage() {
  return MakeChunkStage("vectors-to-scalars", VectorSites, VectorsToScalars);
}
std::unique_ptr<Stage> MakeInlineSingleCallsStage() {
  return MakeChunkStage("inline-single-calls", SingleCallSites, InlineCalls);
}

}  // namespace l0spv::reducers
