#include "generators/spirv_fuzz/engine.h"

#include <map>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "oracles/known_bugs/registry.h"
#include "oracles/targets/adapter_util.h"
#include "oracles/targets/scratch_dir.h"
#include "oracles/targets/spirv_fuzz_adapter.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"

namespace l0spv::generators::spirv_fuzz {
namespace {

size_t CountTransformations(const std::string& json_text) {
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.contains("transformation") ||
      !j["transformation"].is_array())
    return 0;
  return j["transformation"].size();
}

}  // namespace

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kMutated:
      return "mutated";
    case Outcome::kToolCrashed:
      return "tool-crashed";
    case Outcome::kToolTimedOut:
      return "tool-timed-out";
    case Outcome::kToolFailed:
      return "tool-failed";
    case Outcome::kFixupRefused:
      return "fixup-refused";
    case Outcome::kInvalid:
      return "invalid";
    case Outcome::kNotApplicable:
      return "not-applicable";
  }
  return "?";
}

namespace {

bool Avoided(uint32_t avoid_known_bugs, oracles::KnownBugId id) {
  return (avoid_known_bugs & oracles::ConsumersOf(id)) != 0;
}

// llvm_spirv_scalar_constant_null: a scalar OpConstantNull becomes the zero
// OpConstant (OpConstantFalse) of its type, same id.
uint32_t ScalarNullsToZeros(spirv::Module& module) {
  uint32_t changed = 0;
  absl::flat_hash_map<uint32_t, const spirv::Instruction*> scalar;
  for (const spirv::Instruction& inst : module.types_values) {
    if (spirv::Is(inst, spv::Op::OpTypeInt) ||
        spirv::Is(inst, spv::Op::OpTypeFloat) ||
        spirv::Is(inst, spv::Op::OpTypeBool))
      scalar[inst.result_id()] = &inst;
  }
  for (spirv::Instruction& inst : module.types_values) {
    if (!spirv::Is(inst, spv::Op::OpConstantNull)) continue;
    auto type = scalar.find(inst.type_id());
    if (type == scalar.end()) continue;
    if (spirv::Is(*type->second, spv::Op::OpTypeBool)) {
      inst = spirv::Instruction(static_cast<uint32_t>(spv::Op::OpConstantFalse),
                                inst.type_id(), inst.result_id(), {});
    } else {
      spirv::Operand zero = spirv::LiteralOperand(0);
      zero.kind = spirv::OperandKind::kLiteralContextDependentNumber;
      if (type->second->word(0) > 32) zero.words.push_back(0);
      inst = spirv::Instruction(static_cast<uint32_t>(spv::Op::OpConstant),
                                inst.type_id(), inst.result_id(), {zero});
    }
    ++changed;
  }
  return changed;
}

// function_variable_initializer: a Function variable's initializer becomes
// an OpStore right after the function's variables (what the initializer
// means: the value at every entry to the function).
uint32_t InitializersToStores(spirv::Module& module) {
  uint32_t changed = 0;
  for (spirv::Function& fn : module.functions) {
    if (fn.blocks.empty()) continue;
    auto& entry = fn.blocks.front().instructions;
    std::vector<spirv::Instruction> stores;
    size_t after_variables = 0;
    for (size_t i = 0; i < entry.size(); ++i) {
      spirv::Instruction& inst = entry[i];
      if (!spirv::Is(inst, spv::Op::OpVariable)) continue;
      after_variables = i + 1;
      if (inst.NumOperands() < 2) continue;
      stores.push_back(
          spirv::Instruction(static_cast<uint32_t>(spv::Op::OpStore), 0, 0,
                             {spirv::IdOperand(inst.result_id()),
                              spirv::IdOperand(inst.word(1))}));
      inst.mutable_operands().resize(1);
      ++changed;
    }
    entry.insert(entry.begin() + static_cast<ptrdiff_t>(after_variables),
                 stores.begin(), stores.end());
  }
  return changed;
}

// vector_shuffle_mixed: an OpVectorShuffle of vectors of two lengths
// becomes an OpCompositeInsert chain on OpUndef of the result type, one
// OpCompositeExtract per component (an undefined component, 0xFFFFFFFF,
// stays undefined).
uint32_t MixedShufflesToInserts(spirv::Module& module) {
  absl::flat_hash_map<uint32_t, uint32_t> type_of, lanes, component;
  for (const spirv::Instruction& inst : module.types_values) {
    if (spirv::Is(inst, spv::Op::OpTypeVector)) {
      lanes[inst.result_id()] = inst.word(1);
      component[inst.result_id()] = inst.word(0);
    }
    if (inst.result_id() != 0 && inst.type_id() != 0)
      type_of[inst.result_id()] = inst.type_id();
  }
  uint32_t changed = 0;
  for (spirv::Function& fn : module.functions) {
    for (const spirv::Instruction& p : fn.parameters)
      type_of[p.result_id()] = p.type_id();
    for (spirv::BasicBlock& b : fn.blocks) {
      for (const spirv::Instruction& inst : b.instructions)
        if (inst.result_id() != 0 && inst.type_id() != 0)
          type_of[inst.result_id()] = inst.type_id();
      std::vector<spirv::Instruction> out;
      for (spirv::Instruction& inst : b.instructions) {
        if (!spirv::Is(inst, spv::Op::OpVectorShuffle) ||
            type_of[inst.word(0)] == type_of[inst.word(1)]) {
          out.push_back(std::move(inst));
          continue;
        }
        const uint32_t a = inst.word(0), bvec = inst.word(1);
        const uint32_t a_lanes = lanes[type_of[a]];
        const uint32_t elem = component[inst.type_id()];
        uint32_t acc = module.header.bound++;
        out.push_back(spirv::Instruction(
            static_cast<uint32_t>(spv::Op::OpUndef), inst.type_id(), acc, {}));
        for (size_t i = 2; i < inst.NumOperands(); ++i) {
          const uint32_t sel = inst.word(i);
          if (sel == 0xFFFFFFFFu) continue;
          const uint32_t x = module.header.bound++;
          out.push_back(spirv::Instruction(
              static_cast<uint32_t>(spv::Op::OpCompositeExtract), elem, x,
              {spirv::IdOperand(sel < a_lanes ? a : bvec),
               spirv::LiteralOperand(sel < a_lanes ? sel : sel - a_lanes)}));
          const bool last = i + 1 == inst.NumOperands();
          const uint32_t next = last ? inst.result_id() : module.header.bound++;
          out.push_back(spirv::Instruction(
              static_cast<uint32_t>(spv::Op::OpCompositeInsert), inst.type_id(),
              next,
              {spirv::IdOperand(x), spirv::IdOperand(acc),
               spirv::LiteralOperand(static_cast<uint32_t>(i - 2))}));
          acc = next;
        }
        if (acc != inst.result_id())  // trailing undefined components
          out.push_back(spirv::Instruction(
              static_cast<uint32_t>(spv::Op::OpCopyObject), inst.type_id(),
              inst.result_id(), {spirv::IdOperand(acc)}));
        ++changed;
      }
      b.instructions = std::move(out);
    }
  }
  return changed;
}

// llvm_spirv_builtin_access_chain: an access chain into a built-in
// variable whose result nothing uses is removed (with its names).
uint32_t UnusedBuiltInChainsRemoved(spirv::Module& module) {
  const std::map<uint32_t, uint32_t> builtins =
      spirv::BuiltInDecorations(module);
  absl::flat_hash_set<uint32_t> used;
  module.ForEachInstruction([&](const spirv::Instruction& inst) {
    if (spirv::AnnotatedId(inst) != 0) return;
    inst.ForEachInId([&](uint32_t id) { used.insert(id); });
  });
  absl::flat_hash_set<uint32_t> gone;
  for (spirv::Function& fn : module.functions) {
    for (spirv::BasicBlock& b : fn.blocks) {
      std::erase_if(b.instructions, [&](const spirv::Instruction& inst) {
        const bool chain = spirv::Is(inst, spv::Op::OpAccessChain) ||
                           spirv::Is(inst, spv::Op::OpInBoundsAccessChain);
        if (!chain || !builtins.contains(inst.word(0)) ||
            used.contains(inst.result_id()))
          return false;
        gone.insert(inst.result_id());
        return true;
      });
    }
  }
  for (auto* section : {&module.annotations, &module.debug_names})
    std::erase_if(*section, [&](const spirv::Instruction& inst) {
      return gone.contains(spirv::AnnotatedId(inst));
    });
  return static_cast<uint32_t>(gone.size());
}

}  // namespace

uint32_t AvoidKnownBugs(spirv::Module& module, uint32_t avoid_known_bugs) {
  using oracles::KnownBugId;
  uint32_t changed = 0;
  if (Avoided(avoid_known_bugs, KnownBugId::kLlvmSpirvScalarConstantNull))
    changed += ScalarNullsToZeros(module);
  if (Avoided(avoid_known_bugs, KnownBugId::kFunctionVariableInitializer))
    changed += InitializersToStores(module);
  if (Avoided(avoid_known_bugs, KnownBugId::kVectorShuffleMixed))
    changed += MixedShufflesToInserts(module);
  if (Avoided(avoid_known_bugs, KnownBugId::kLlvmSpirvBuiltinAccessChain))
    changed += UnusedBuiltInChainsRemoved(module);
  return changed;
}

Mutation FixUpOutput(const spirv::TestCase& test_case,
                     std::vector<uint32_t> raw_words,
                     uint32_t avoid_known_bugs) {
  Mutation m;
  m.raw_words = std::move(raw_words);
  std::vector<uint32_t> words = m.raw_words;
  const uint32_t widened = spirv::WidenOneWordConstants(words);
  auto module = spirv::ReadModuleWords(words);
  if (!module.ok()) {
    m.outcome = Outcome::kInvalid;
    m.detail = absl::StrCat("unreadable: ", module.status().message());
    return m;
  }
  auto fixed = spirv::FixUpKernelModule(*module);
  if (!fixed.ok()) {
    m.outcome = Outcome::kFixupRefused;
    m.detail = std::string(fixed.status().message());
    return m;
  }
  m.fixups = *fixed;
  m.fixups.widened_constants += widened;
  m.known_bugs_avoided = AvoidKnownBugs(*module, avoid_known_bugs);
  static const auto* profile = [] {
    auto p = oracles::FindDeviceProfile("full");
    return new oracles::DeviceProfile(p.ok() ? *p : oracles::DeviceProfile{});
  }();
  const oracles::LintReport lint = oracles::LintModule(*module, *profile);
  if (!lint.ok()) {
    m.outcome = Outcome::kInvalid;
    m.detail = !lint.spirv_val_error.empty()
                   ? oracles::NormalizedFirstError(lint.spirv_val_error)
                   : absl::StrCat(lint.findings.front().rule_id, ": ",
                                  lint.findings.front().message);
    return m;
  }
  m.outcome = Outcome::kMutated;
  m.test_case = test_case;
  m.test_case.module_words = spirv::EncodeModule(*module);
  m.test_case.transformation_log.reset();
  return m;
}

absl::StatusOr<Mutation> MutateWithSpirvFuzz(const spirv::TestCase& test_case,
                                             uint64_t seed,
                                             const EngineOptions& options) {
  if (!test_case.linked_modules.empty()) {
    Mutation m;
    m.detail = "spirv-fuzz takes one module; this case has several";
    return m;
  }
  if (test_case.module_words.size() > 1 &&
      test_case.module_words[1] > kNewestSpirvVersion) {
    Mutation m;
    m.detail = "spirv-fuzz 2023.1 reads SPIR-V up to 1.3";
    return m;
  }
  auto dir = oracles::ScratchDir::Make(options.scratch_dir, "l0spv-sfuzz-");
  if (!dir.ok()) return dir.status();
  oracles::ChildLimits limits;
  limits.wall_time = options.wall_time;
  auto run = oracles::RunSpirvFuzz(options.program, test_case.module_words,
                                   seed, dir->path(), limits);
  if (!run.ok()) return run.status();
  const oracles::ChildResult& child = run->child;
  if (child.ending != oracles::ChildResult::Ending::kExited ||
      child.exit_code != 0 || run->words.empty()) {
    Mutation m;
    m.outcome = child.ending == oracles::ChildResult::Ending::kSignaled
                    ? Outcome::kToolCrashed
                : child.ending == oracles::ChildResult::Ending::kTimedOut
                    ? Outcome::kToolTimedOut
                    : Outcome::kToolFailed;
    m.detail = absl::StrCat(
        "spirv-fuzz ", child.Describe(),
        child.stderr_text.empty()
            ? ""
            : absl::StrCat(": ", oracles::LastLines(child.stderr_text, 1)));
    return m;
  }
  Mutation m =
      FixUpOutput(test_case, std::move(run->words), options.avoid_known_bugs);
  m.transformations = std::move(run->transformations);
  m.transformations_json = std::move(run->transformations_json);
  m.transformation_count = CountTransformations(m.transformations_json);
  return m;
}

}  // namespace l0spv::generators::spirv_fuzz
