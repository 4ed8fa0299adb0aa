#include "oracles/validity/lint.h"

#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "oracles/validity/rule_context.h"
#include "spirv/binary.h"
#include "spirv/grammar.h"
#include "spirv/link.h"
#include "spirv/spirv_tools.h"

namespace l0spv::oracles {
namespace {

using spirv::Instruction;

bool NeedsRepair(const Instruction& inst) {
  if (inst.info() == nullptr) return true;
  for (const spirv::Operand& op : inst.operands()) {
    if (op.words.empty()) return true;
  }
  return false;
}

// The spirv/ analyses assume what the binary reader guarantees: known
// opcodes and operands of at least one word. A Module built by hand may
// break both, so lint a repaired copy of such a module instead: instructions
// with unknown opcodes dropped, empty operands given one zero word. Modules
// from the reader are linted as they are.
std::optional<spirv::Module> RepairedCopy(const spirv::Module& module) {
  bool needed = false;
  module.ForEachInstruction([&needed](const Instruction& inst) {
    needed = needed || NeedsRepair(inst);
  });
  if (!needed) return std::nullopt;
  spirv::Module copy = module;
  auto unknown = [](const Instruction& inst) { return inst.info() == nullptr; };
  for (spirv::Section s :
       {spirv::Section::kCapability, spirv::Section::kExtension,
        spirv::Section::kExtInstImport, spirv::Section::kMemoryModel,
        spirv::Section::kEntryPoint, spirv::Section::kExecutionMode,
        spirv::Section::kDebugSource, spirv::Section::kDebugName,
        spirv::Section::kDebugModuleProcessed, spirv::Section::kAnnotation,
        spirv::Section::kTypesValues}) {
    std::erase_if(copy.section(s), unknown);
  }
  for (spirv::Function& fn : copy.functions) {
    std::erase_if(fn.parameters, unknown);
    for (spirv::BasicBlock& bb : fn.blocks) {
      std::erase_if(bb.instructions, unknown);
    }
  }
  copy.ForEachInstruction([](Instruction& inst) {
    for (spirv::Operand& op : inst.mutable_operands()) {
      if (op.words.empty()) op.words.push_back(0);
    }
  });
  return copy;
}

std::vector<LintFinding> RunRules(const spirv::Module& module,
                                  const DeviceProfile& profile) {
  validity_internal::RuleContext ctx(module, profile);
  validity_internal::CheckModelRules(ctx);
  validity_internal::CheckTypeRules(ctx);
  validity_internal::CheckKernelRules(ctx);
  validity_internal::CheckImageRules(ctx);
  validity_internal::CheckAtomicRules(ctx);
  validity_internal::CheckScopeRules(ctx);
  validity_internal::CheckCallGraphRules(ctx);
  validity_internal::CheckCapabilityRules(ctx);
  validity_internal::CheckSubgroupRules(ctx);
  return ctx.TakeFindings();
}

// SPIRV-Tools diagnostics are one per line and may quote module strings.
std::string PrintableLines(std::string_view text) {
  std::vector<std::string> lines;
  for (absl::string_view line :
       absl::StrSplit(validity_internal::AbslView(text), '\n')) {
    lines.push_back(validity_internal::PrintableText(
        std::string_view(line.data(), line.size())));
  }
  return absl::StrJoin(lines, "\n");
}

std::string OpcodeName(uint32_t opcode) {
  if (opcode == 0) return "";
  const spirv::OpcodeInfo* info = spirv::FindOpcode(opcode);
  return info ? info->name : absl::StrCat("opcode ", opcode);
}

// spirv-val in the environment for the module's version. For SPIR-V 1.0-1.2
// that is SPIRV-Tools' OpenCL 2.2 environment, whose capability allow-list is
// OpenCL's, not Level Zero's: it rejects Int64Atomics, for one, which Level
// Zero devices with int64 atomics must accept. Whether the device supports a
// capability is L0-CAPABILITY's question, so when the OpenCL environment
// objects to a capability and nothing else can be known from it, the module
// is validated again in the universal environment of the same version.
absl::Status RunSpirvVal(std::span<const uint32_t> words) {
  const uint32_t version = words.size() > 1 ? words[1] : 0;
  const spv_target_env env = spirv::TargetEnvForVersion(version);
  absl::Status status = spirv::Validate(words, env);
  if (status.ok() || env != SPV_ENV_OPENCL_2_2) return status;
  const absl::string_view message = status.message();
  if (!absl::StartsWith(message, "spirv-val") ||
      !absl::StrContains(message, "is not allowed by OpenCL")) {
    return status;
  }
  switch ((version >> 8) & 0xFF) {
    case 0:
      return spirv::Validate(words, SPV_ENV_UNIVERSAL_1_0);
    case 1:
      return spirv::Validate(words, SPV_ENV_UNIVERSAL_1_1);
    default:
      return spirv::Validate(words, SPV_ENV_UNIVERSAL_1_2);
  }
}

}  // namespace

std::vector<LintFinding> CheckLevelZeroRules(const spirv::Module& module,
                                             const DeviceProfile& profile) {
  if (std::optional<spirv::Module> repaired = RepairedCopy(module)) {
    return RunRules(*repaired, profile);
  }
  return RunRules(module, profile);
}

LintReport LintModule(const spirv::Module& module,
                      const DeviceProfile& profile) {
  LintReport report;
  report.profile = profile.name;
  const std::vector<uint32_t> words = spirv::EncodeModule(module);
  if (absl::Status s = RunSpirvVal(words); !s.ok()) {
    report.spirv_val_error = std::string(s.message());
  }
  report.findings = CheckLevelZeroRules(module, profile);
  return report;
}

namespace {

// `from`'s verdicts added to `to`, each message prefixed with `where`.
void AddReport(const LintReport& from, const std::string& where,
               LintReport& to) {
  if (!from.spirv_val_error.empty() && to.spirv_val_error.empty())
    to.spirv_val_error = absl::StrCat(where, ": ", from.spirv_val_error);
  for (LintFinding f : from.findings) {
    f.message = absl::StrCat(where, ": ", f.message);
    to.findings.push_back(std::move(f));
  }
}

}  // namespace

LintReport LintCase(const spirv::TestCase& test_case,
                    const DeviceProfile& profile) {
  LintReport report;
  report.profile = profile.name;
  const size_t n = 1 + test_case.linked_modules.size();
  for (size_t i = 0; i < n; ++i) {
    const std::string file =
        i == 0 ? "module.spv" : spirv::LinkedModuleFile(i - 1);
    auto m = spirv::ReadModuleWords(i == 0 ? test_case.module_words
                                           : test_case.linked_modules[i - 1]);
    if (!m.ok()) {
      if (report.spirv_val_error.empty())
        report.spirv_val_error = absl::StrCat(file, ": ", m.status().message());
      continue;
    }
    const LintReport one = LintModule(*m, profile);
    if (n == 1) return one;
    AddReport(one, file, report);
  }
  if (!report.ok()) return report;
  auto linked = spirv::LinkTestCase(test_case);
  if (!linked.ok()) return report;
  if (auto strict =
          spirv::LinkTestCase(test_case, {.equivalent_linkonce = true});
      !strict.ok()) {
    report.link_error = std::string(strict.status().message());
    return report;
  }
  auto program = spirv::ReadModuleWords(linked->module_words);
  if (program.ok())
    AddReport(LintModule(*program, profile), "linked program", report);
  return report;
}

absl::StatusOr<LintReport> LintBinary(std::span<const uint8_t> bytes,
                                      const DeviceProfile& profile) {
  absl::StatusOr<spirv::Module> module = spirv::ReadModule(bytes);
  if (!module.ok()) return module.status();
  return LintModule(*module, profile);
}

std::string LintReport::ToText() const {
  std::string out;
  if (spirv_val_error.empty()) {
    absl::StrAppend(&out, "spirv-val: passed\n");
  } else {
    absl::StrAppend(&out, "spirv-val: failed: ", spirv_val_error, "\n");
  }
  if (!link_error.empty())
    absl::StrAppend(&out, "link: failed: ", link_error, "\n");
  for (const LintFinding& f : findings) {
    absl::StrAppend(&out, f.rule_id, ": ");
    if (f.instruction_index != kModuleLevel) {
      absl::StrAppend(&out, "[instruction ", f.instruction_index, "] ");
    }
    absl::StrAppend(&out, f.message, "\n");
  }
  absl::StrAppend(
      &out, findings.size(), " Level Zero finding",
      findings.size() == 1 ? "" : "s",
      profile.empty() ? "" : absl::StrCat(" (profile '", profile, "')"),
      ok() ? "; OK\n" : "; NOT OK\n");
  return out;
}

nlohmann::json LintReport::ToJson() const {
  nlohmann::json j;
  j["ok"] = ok();
  j["profile"] = validity_internal::PrintableText(profile);
  j["spirv_val"] = {{"passed", spirv_val_error.empty()},
                    {"error", PrintableLines(spirv_val_error)}};
  nlohmann::json list = nlohmann::json::array();
  for (const LintFinding& f : findings) {
    nlohmann::json item = {
        {"rule_id", f.rule_id},
        {"message", validity_internal::PrintableText(f.message)},
        {"opcode", f.opcode},
        {"opcode_name", OpcodeName(f.opcode)},
        {"result_id", f.result_id}};
    if (f.instruction_index == kModuleLevel) {
      item["instruction_index"] = nullptr;
    } else {
      item["instruction_index"] = f.instruction_index;
    }
    list.push_back(std::move(item));
  }
  j["findings"] = std::move(list);
  return j;
}

}  // namespace l0spv::oracles
