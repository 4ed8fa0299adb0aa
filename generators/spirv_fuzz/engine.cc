#include "generators/spirv_fuzz/engine.h"

#include "absl/container/flat_hash_map.h"
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

uint32_t AvoidKnownBugs(spirv::Module& module, uint32_t avoid_known_bugs) {
  uint32_t changed = 0;
  if ((avoid_known_bugs &
       oracles::ConsumersOf(
           oracles::KnownBugId::kLlvmSpirvScalarConstantNull)) == 0)
    return changed;
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
      const bool wide = type->second->word(0) > 32;
      spirv::Operand zero = spirv::LiteralOperand(0);
      zero.kind = spirv::OperandKind::kLiteralContextDependentNumber;
      if (wide) zero.words.push_back(0);
      inst = spirv::Instruction(static_cast<uint32_t>(spv::Op::OpConstant),
                                inst.type_id(), inst.result_id(), {zero});
    }
    ++changed;
  }
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
