#include "reducers/kernel_passes.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "reducers/chunks.h"
#include "reducers/module_edit.h"
#include "spirv/binary.h"
#include "spirv/builder.h"
#include "spirv/cfg.h"
#include "spirv/grammar.h"
#include "spirv/ir_edit.h"
#include "spirv/numeric_bits.h"
#include "spirv/type_table.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::reducers {
namespace {

using spirv::Instruction;
using spirv::Module;
using spirv::TestCase;
using spv::Op;

using spirv::Is;

bool IsNumeric(const spirv::TypeTable& types, uint32_t type_id) {
  auto scalar = [&](uint32_t id) {
    const spirv::TypeInfo* t = types.Get(id);
    return t != nullptr &&
           (t->op == Op::OpTypeInt || t->op == Op::OpTypeFloat ||
            t->op == Op::OpTypeBool);
  };
  const spirv::TypeInfo* t = types.Get(type_id);
  // Components are scalars (a hostile self-referencing vector is not).
  return scalar(type_id) ||
         (t != nullptr && t->op == Op::OpTypeVector && scalar(t->element));
}

// --- values to constants
// -------------------------------------------------------

std::vector<uint64_t> ValueSites(const TestCase& tc, bool ext_inst_only) {
  std::vector<uint64_t> sites;
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return sites;
  const spirv::TypeTable types(*m);
  const auto uses = CountUses(*m);
  const uint32_t ocl = m->OpenClStdImportId();
  ForEachBodyInstruction(*m, [&](const Instruction& inst) {
    if (inst.result_id() == 0 || !uses.contains(inst.result_id())) return;
    if (!IsNumeric(types, inst.type_id())) return;
    if (ext_inst_only &&
        !(Is(inst, Op::OpExtInst) && ocl != 0 && inst.word(0) == ocl))
      return;
    sites.push_back(inst.result_id());
  });
  return sites;
}

std::optional<TestCase> ValuesToNull(const TestCase& tc,
                                     std::span<const uint64_t> sites) {
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return std::nullopt;
  absl::flat_hash_map<uint32_t, uint32_t> type_of;
  ForEachBodyInstruction(*m, [&](const Instruction& inst) {
    if (inst.result_id() != 0) type_of[inst.result_id()] = inst.type_id();
  });
  spirv::ModuleBuilder builder(*m);
  absl::flat_hash_map<uint32_t, uint32_t> map;
  for (uint64_t site : sites) {
    auto it = type_of.find(static_cast<uint32_t>(site));
    if (it == type_of.end()) continue;
    map[it->first] = builder.ZeroConstant(it->second);
  }
  if (map.empty()) return std::nullopt;
  // The replaced instructions stay (dead) for remove-unused: a crash may
  // hinge on an instruction whose result nobody reads.
  spirv::ReplaceUsesInBodies(*m, map);
  return WithModule(tc, *m);
}

// --- statements
// ------------------------------------------------------------------

bool IsStatement(const Instruction& inst, const Module& m,
                 const absl::flat_hash_map<uint32_t, uint32_t>& uses) {
  if (inst.result_id() != 0 && uses.contains(inst.result_id())) return false;
  const std::string_view name = inst.name();
  if (name.rfind("OpAtomic", 0) == 0) return true;
  switch (static_cast<Op>(inst.opcode())) {
    case Op::OpStore:
    case Op::OpCopyMemory:
    case Op::OpCopyMemorySized:
    case Op::OpControlBarrier:
    case Op::OpMemoryBarrier:
    case Op::OpFunctionCall:
    case Op::OpGroupWaitEvents:
    case Op::OpLifetimeStart:
    case Op::OpLifetimeStop:
    case Op::OpNop:
    case Op::OpLine:
    case Op::OpNoLine:
    case Op::OpSubgroupBlockWriteINTEL:
      return true;
    case Op::OpExtInst:
      return inst.NumOperands() >= 2 && inst.word(0) == m.OpenClStdImportId();
    default:
      return false;
  }
}

std::vector<uint64_t> StatementSites(const TestCase& tc) {
  std::vector<uint64_t> sites;
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return sites;
  const auto uses = CountUses(*m);
  uint64_t ordinal = 0;
  ForEachBodyInstruction(*m, [&](const Instruction& inst) {
    if (IsStatement(inst, *m, uses)) sites.push_back(ordinal);
    ++ordinal;
  });
  return sites;
}

std::optional<TestCase> RemoveStatements(const TestCase& tc,
                                         std::span<const uint64_t> sites) {
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return std::nullopt;
  const absl::flat_hash_set<uint64_t> drop(sites.begin(), sites.end());
  uint64_t ordinal = 0;
  absl::flat_hash_set<uint32_t> removed;
  for (spirv::Function& f : m->functions) {
    for (spirv::BasicBlock& b : f.blocks) {
      std::erase_if(b.instructions, [&](const Instruction& inst) {
        const bool d = drop.contains(ordinal++);
        if (d && inst.result_id() != 0) removed.insert(inst.result_id());
        return d;
      });
    }
  }
  ForgetIds(*m, removed);
  return WithModule(tc, *m);
}

// --- unused instructions and functions ---------------------------------------

// A site that names no instruction (no id reaches it): only the unused
// types, constants and module-scope variables go. A linked module whose
// bodies keep every instruction still loses what it no longer uses.
constexpr uint64_t kUnusedGlobalsSite = 0xffffffff;

std::vector<uint64_t> UnusedSites(const TestCase& tc) {
  std::vector<uint64_t> sites;
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return sites;
  const auto uses = CountUses(*m);
  ForEachBodyInstruction(*m, [&](const Instruction& inst) {
    if (inst.result_id() != 0 && !uses.contains(inst.result_id()) &&
        IsRemovableWhenUnused(inst, *m))
      sites.push_back(inst.result_id());
  });
  for (const Instruction& inst : m->types_values) {
    if (inst.result_id() != 0 && !uses.contains(inst.result_id())) {
      sites.push_back(kUnusedGlobalsSite);
      break;
    }
  }
  return sites;
}

std::optional<TestCase> RemoveUnused(const TestCase& tc,
                                     std::span<const uint64_t> sites) {
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return std::nullopt;
  const absl::flat_hash_set<uint32_t> drop(sites.begin(), sites.end());
  for (spirv::Function& f : m->functions)
    for (spirv::BasicBlock& b : f.blocks)
      std::erase_if(b.instructions, [&](const Instruction& inst) {
        return drop.contains(inst.result_id());
      });
  ForgetIds(*m, drop);
  RemoveUnusedGlobals(*m);
  return WithModule(tc, *m);
}

std::vector<uint64_t> FunctionSites(const TestCase& tc) {
  std::vector<uint64_t> sites;
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return sites;
  const auto uses = CountUses(*m);  // calls and entry points use the id
  for (const spirv::Function& f : m->functions)
    if (!uses.contains(f.id())) sites.push_back(f.id());
  return sites;
}

std::optional<TestCase> RemoveFunctions(const TestCase& tc,
                                        std::span<const uint64_t> sites) {
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return std::nullopt;
  const absl::flat_hash_set<uint64_t> drop(sites.begin(), sites.end());
  absl::flat_hash_set<uint32_t> removed;
  std::erase_if(m->functions, [&](const spirv::Function& f) {
    if (!drop.contains(f.id())) return false;
    removed.insert(f.id());
    for (const Instruction& p : f.parameters) removed.insert(p.result_id());
    for (const spirv::BasicBlock& b : f.blocks) {
      removed.insert(b.id());
      for (const Instruction& i : b.instructions)
        if (i.result_id() != 0) removed.insert(i.result_id());
    }
    return true;
  });
  ForgetIds(*m, removed);
  RemoveUnusedGlobals(*m);
  return WithModule(tc, *m);
}

// --- branches
// --------------------------------------------------------------------

// Successor labels of a conditional terminator, in choice order (repeats
// kept: a choice is an operand).
std::vector<uint32_t> Choices(const Instruction& term) {
  if (Is(term, Op::OpBranch)) return {};
  std::vector<uint32_t> out = spirv::BranchTargets(term);
  if (out.size() > 64) out.resize(64);
  return out;
}

std::vector<uint64_t> BranchSites(const TestCase& tc) {
  std::vector<uint64_t> sites;
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return sites;
  for (const spirv::Function& f : m->functions) {
    for (const spirv::BasicBlock& b : f.blocks) {
      if (b.terminator() == nullptr) continue;
      const std::vector<uint32_t> c = Choices(*b.terminator());
      for (size_t i = 0; i < c.size(); ++i)
        sites.push_back((uint64_t{b.id()} << 8) | i);
    }
  }
  return sites;
}

std::optional<TestCase> SimplifyBranches(const TestCase& tc,
                                         std::span<const uint64_t> sites) {
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return std::nullopt;
  absl::flat_hash_map<uint32_t, size_t> choice;
  for (uint64_t s : sites)
    choice.try_emplace(static_cast<uint32_t>(s >> 8), s & 0xff);
  for (spirv::Function& f : m->functions) {
    absl::flat_hash_map<uint32_t, spirv::BasicBlock*> blocks;
    for (spirv::BasicBlock& b : f.blocks) blocks[b.id()] = &b;
    for (spirv::BasicBlock& b : f.blocks) {
      auto it = choice.find(b.id());
      if (it == choice.end() || b.terminator() == nullptr) continue;
      const std::vector<uint32_t> c = Choices(*b.terminator());
      if (it->second >= c.size()) continue;
      const uint32_t target = c[it->second];
      for (uint32_t other : c) {
        if (other == target || !blocks.contains(other)) continue;
        spirv::RemovePhiEntries(
            *blocks[other], [&](uint32_t parent) { return parent == b.id(); });
      }
      b.instructions.back() = Instruction(static_cast<uint32_t>(Op::OpBranch),
                                          0, 0, {spirv::IdOperand(target)});
      if (b.instructions.size() >= 2 &&
          Is(b.instructions[b.instructions.size() - 2], Op::OpSelectionMerge))
        b.instructions.erase(b.instructions.end() - 2);
    }
  }
  RemoveUnreachableBlocks(*m);
  return WithModule(tc, *m);
}

// --- constants
// -------------------------------------------------------------------

struct ScalarType {
  bool is_float = false;
  bool is_signed = false;
  uint32_t width = 0;
};

std::optional<ScalarType> ScalarOf(const spirv::TypeTable& types,
                                   uint32_t type_id) {
  const spirv::TypeInfo* t = types.Get(type_id);
  if (t == nullptr) return std::nullopt;
  if (t->op == Op::OpTypeInt)
    return ScalarType{false, t->signedness != 0, t->width};
  if (t->op == Op::OpTypeFloat) return ScalarType{true, false, t->width};
  return std::nullopt;
}

uint64_t ConstantBits(const Instruction& c) {
  uint64_t v = c.word(0);
  if (c.operand(0).words.size() > 1) v |= uint64_t{c.operand(0).words[1]} << 32;
  return v;
}

uint64_t Mask(uint32_t width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// Candidate bit pattern of mode 0 (zero), 1 (one), 2 (half), if it differs.
std::optional<uint64_t> ShrunkBits(const ScalarType& t, uint64_t bits,
                                   int mode) {
  uint64_t out = 0;
  // Only ever toward 0 < 1 < anything else, so no two steps can undo each
  // other (each kept step must strictly shrink the constant).
  if ((bits & Mask(t.width)) == 0) return std::nullopt;
  if (mode == 0) {
    out = 0;
  } else if (mode == 1) {
    out = t.is_float ? spirv::EncodeFloat(1.0, t.width) : 1;
  } else if (t.is_float) {
    if (t.width == 16) return std::nullopt;
    const double v = spirv::DecodeFloat(bits, t.width);
    if (!(std::abs(v) > 2.0)) return std::nullopt;  // also NaN
    out = spirv::EncodeFloat(std::trunc(v / 2), t.width);
  } else {
    const uint64_t m = Mask(t.width);
    const uint64_t v = bits & m;
    if (t.is_signed && t.width < 64 && (v >> (t.width - 1)) != 0) {
      const int64_t s = static_cast<int64_t>(v | ~m);  // sign-extend
      out = static_cast<uint64_t>(s / 2) & m;
    } else if (t.is_signed && t.width == 64) {
      out = static_cast<uint64_t>(static_cast<int64_t>(v) / 2);
    } else {
      out = v / 2;
    }
    if (out <= 1) return std::nullopt;  // modes 0 and 1 cover it
  }
  if ((out & Mask(t.width)) == (bits & Mask(t.width))) return std::nullopt;
  return out & Mask(t.width);
}

std::vector<uint64_t> ConstantSites(const TestCase& tc) {
  std::vector<uint64_t> sites;
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return sites;
  const spirv::TypeTable types(*m);
  const auto uses = CountUses(*m);
  for (int mode = 0; mode < 3; ++mode) {
    for (const Instruction& c : m->types_values) {
      if (!Is(c, Op::OpConstant) || c.NumOperands() < 1 ||
          !uses.contains(c.result_id()))
        continue;
      auto t = ScalarOf(types, c.type_id());
      if (!t) continue;
      if (ShrunkBits(*t, ConstantBits(c), mode))
        sites.push_back((uint64_t{c.result_id()} << 2) | mode);
    }
  }
  return sites;
}

std::optional<TestCase> ShrinkConstants(const TestCase& tc,
                                        std::span<const uint64_t> sites) {
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return std::nullopt;
  absl::flat_hash_map<uint32_t, int> mode_of;
  for (uint64_t s : sites)
    mode_of.try_emplace(static_cast<uint32_t>(s >> 2), static_cast<int>(s & 3));
  const spirv::TypeTable types(*m);
  absl::flat_hash_map<uint32_t, uint64_t> new_bits;
  for (const Instruction& c : m->types_values) {
    auto it = mode_of.find(c.result_id());
    if (it == mode_of.end() || !Is(c, Op::OpConstant)) continue;
    auto t = ScalarOf(types, c.type_id());
    if (!t) continue;
    if (auto b = ShrunkBits(*t, ConstantBits(c), it->second))
      new_bits[c.result_id()] = *b;
  }
  if (new_bits.empty()) return std::nullopt;
  for (Instruction& c : m->types_values) {
    auto it = new_bits.find(c.result_id());
    if (it == new_bits.end()) continue;
    auto& words = c.mutable_operands()[0].words;
    uint64_t value = it->second;
    // Narrow signed integers are stored sign-extended to 32 bits.
    if (auto t = ScalarOf(types, c.type_id()); t && !t->is_float &&
                                               t->is_signed && t->width < 32 &&
                                               (value >> (t->width - 1)) & 1)
      value |= ~Mask(t->width);
    words[0] = static_cast<uint32_t>(value);
    if (words.size() > 1) words[1] = static_cast<uint32_t>(value >> 32);
  }
  return WithModule(tc, *m);
}

// --- kernel arguments
// ------------------------------------------------------------

std::vector<uint64_t> UnusedArgSites(const TestCase& tc) {
  std::vector<uint64_t> sites;
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return sites;
  spirv::Function* f = spirv::FindEntryFunction(*m, tc.entry_point);
  if (f == nullptr || f->parameters.size() != tc.args.size()) return sites;
  bool called = false;
  ForEachBodyInstruction(*m, [&](const Instruction& inst) {
    if (Is(inst, Op::OpFunctionCall) && inst.word(0) == f->id()) called = true;
  });
  if (called) return sites;
  const auto uses = CountUses(*m);
  for (size_t i = 0; i < f->parameters.size(); ++i)
    if (!uses.contains(f->parameters[i].result_id())) sites.push_back(i);
  return sites;
}

std::optional<TestCase> DropArgs(const TestCase& tc,
                                 std::span<const uint64_t> sites) {
  auto m = spirv::ReadModuleWords(tc.module_words);
  if (!m.ok()) return std::nullopt;
  spirv::Function* f = spirv::FindEntryFunction(*m, tc.entry_point);
  if (f == nullptr || f->parameters.size() != tc.args.size())
    return std::nullopt;
  const absl::flat_hash_set<uint64_t> drop(sites.begin(), sites.end());
  TestCase out = tc;
  out.args.clear();
  std::vector<Instruction> params;
  std::vector<uint32_t> param_types;
  absl::flat_hash_set<uint32_t> removed;
  std::vector<int64_t> new_index(tc.args.size(), -1);
  for (size_t i = 0; i < tc.args.size(); ++i) {
    if (drop.contains(i)) {
      removed.insert(f->parameters[i].result_id());
      continue;
    }
    new_index[i] = static_cast<int64_t>(out.args.size());
    out.args.push_back(tc.args[i]);
    params.push_back(f->parameters[i]);
    param_types.push_back(f->parameters[i].type_id());
  }
  if (removed.empty()) return std::nullopt;
  spirv::ModuleBuilder builder(*m);
  const uint32_t fn_type = builder.FunctionType(f->def.type_id(), param_types);
  f = spirv::FindEntryFunction(
      *m, tc.entry_point);  // the builder may have grown types
  f->parameters = std::move(params);
  f->def.mutable_operands()[1] = spirv::IdOperand(fn_type);
  ForgetIds(*m, removed);
  out.module_words = spirv::EncodeModule(*m);
  out.tolerances.clear();
  for (spirv::ResultTolerance t : tc.tolerances) {
    if (t.arg >= new_index.size() || new_index[t.arg] < 0) continue;
    t.arg = static_cast<uint32_t>(new_index[t.arg]);
    out.tolerances.push_back(std::move(t));
  }
  return out;
}

// --- ND-range and buffers
// ----------------------------------------------------------

void FixLocal(spirv::NdRange& r) {
  if (!r.local) return;
  for (int d = 0; d < 3; ++d)
    (*r.local)[d] = std::gcd((*r.local)[d], r.global[d]);
}

class NdRangeStage : public Stage {
 public:
  std::string name() const override { return "nd-range"; }
  bool Run(ReductionContext& ctx) override {
    bool progress = false;
    for (bool changed = true; changed && !ctx.Expired();) {
      changed = false;
      for (const TestCase& c : Candidates(ctx.current())) {
        if (ctx.Expired()) break;
        if (!SameCase(c, ctx.current()) && ctx.Try(c)) {
          changed = progress = true;
          break;
        }
      }
    }
    return progress;
  }

 private:
  static std::vector<TestCase> Candidates(const TestCase& tc) {
    std::vector<TestCase> out;
    auto add = [&](spirv::NdRange r) {
      FixLocal(r);
      if (!spirv::ValidateNdRange(r).ok()) return;
      TestCase c = tc;
      c.nd_range = r;
      out.push_back(std::move(c));
    };
    const spirv::NdRange& r = tc.nd_range;
    {
      spirv::NdRange one = r;
      one.dims = 1;
      one.global = {1, 1, 1};
      one.offset = {0, 0, 0};
      add(one);
    }
    for (uint32_t d = 0; d < r.dims; ++d) {
      if (r.global[d] > 1) {
        spirv::NdRange x = r;
        x.global[d] = 1;
        add(x);
        x.global[d] = r.global[d] / 2;
        add(x);
        x.global[d] = r.global[d] - 1;
        add(x);
      }
    }
    if (r.offset != std::array<uint64_t, 3>{0, 0, 0}) {
      spirv::NdRange x = r;
      x.offset = {0, 0, 0};
      add(x);
    }
    if (r.dims > 1 && r.global[r.dims - 1] == 1) {
      spirv::NdRange x = r;
      --x.dims;
      add(x);
    }
    return out;
  }
};

class BufferStage : public Stage {
 public:
  std::string name() const override { return "buffers"; }
  bool Run(ReductionContext& ctx) override {
    bool progress = false;
    for (size_t i = 0; i < ctx.current().args.size() && !ctx.Expired(); ++i) {
      const spirv::KernelArg a = ctx.current().args[i];
      if (a.kind != spirv::KernelArg::Kind::kLocal &&
          std::any_of(a.bytes.begin(), a.bytes.end(),
                      [](uint8_t b) { return b != 0; })) {
        TestCase c = ctx.current();
        std::fill(c.args[i].bytes.begin(), c.args[i].bytes.end(), 0);
        progress = ctx.Try(c) || progress;
      }
      // Halve buffers (and __local sizes) while the case stays interesting.
      while (!ctx.Expired()) {
        TestCase c = ctx.current();
        spirv::KernelArg& arg = c.args[i];
        if (arg.kind == spirv::KernelArg::Kind::kBuffer) {
          if (arg.bytes.size() <= 1) break;
          size_t n = arg.bytes.size() / 2;
          if (n >= 16) n -= n % 16;
          arg.bytes.resize(n);
        } else if (arg.kind == spirv::KernelArg::Kind::kLocal) {
          if (arg.local_bytes <= 1) break;
          arg.local_bytes /= 2;
        } else {
          break;
        }
        if (!ctx.Try(c)) break;
        progress = true;
      }
    }
    return progress;
  }
};

}  // namespace

std::unique_ptr<Stage> MakeNdRangeStage() {
  return std::make_unique<NdRangeStage>();
}
std::unique_ptr<Stage> MakeBufferStage() {
  return std::make_unique<BufferStage>();
}
std::unique_ptr<Stage> MakeExtInstToConstantStage() {
  return MakeChunkStage(
      "ext-inst-to-constant",
      [](const TestCase& tc) { return ValueSites(tc, true); }, ValuesToNull);
}
std::unique_ptr<Stage> MakeValueToConstantStage() {
  return MakeChunkStage(
      "value-to-constant",
      [](const TestCase& tc) { return ValueSites(tc, false); }, ValuesToNull);
}
std::unique_ptr<Stage> MakeRemoveStatementsStage() {
  return MakeChunkStage("remove-statements", StatementSites, RemoveStatements);
}
std::unique_ptr<Stage> MakeRemoveUnusedStage() {
  return MakeChunkStage("remove-unused", UnusedSites, RemoveUnused);
}
std::unique_ptr<Stage> MakeRemoveFunctionsStage() {
  return MakeChunkStage("remove-functions", FunctionSites, RemoveFunctions);
}
std::unique_ptr<Stage> MakeSimplifyBranchesStage() {
  return MakeChunkStage("simplify-branches", BranchSites, SimplifyBranches);
}
std::unique_ptr<Stage> MakeShrinkConstantsStage() {
  return MakeChunkStage("shrink-constants", ConstantSites, ShrinkConstants);
}
std::unique_ptr<Stage> MakeDropUnusedArgsStage() {
  return MakeChunkStage("drop-unused-args", UnusedArgSites, DropArgs);
}

}  // namespace l0spv::reducers
