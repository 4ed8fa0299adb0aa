#include "oracles/known_bugs/reproduce.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/adapter_util.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_kinds.h"
#include "oracles/targets/target_registry.h"
#include "spirv/binary.h"
#include "spirv/json_reader.h"
#include "spirv/launch_spec.h"
#include "spirv/spirv_tools.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles {
namespace {

namespace fs = std::filesystem;

// "; Version: 1.N" in the header comment (spirv-as ignores it).
spv_target_env AssemblyEnv(const std::string& text) {
  const size_t at = text.find("; Version: 1.");
  const uint32_t minor = at == std::string::npos || !std::isdigit(text[at + 13])
                             ? 2
                             : static_cast<uint32_t>(text[at + 13] - '0');
  return spirv::UniversalEnvForVersion((1u << 16) | (minor << 8));
}

// OpenCL C -> SPIR-V the way corpora/CMakeLists.txt builds the corpus.
absl::StatusOr<std::vector<uint32_t>> CompileOpenClC(const KnownBug& bug) {
  auto scratch = ScratchDir::Make("", "l0spv-kcb-");
  if (!scratch.ok()) return scratch.status();
  const fs::path dir = scratch->path();
  const std::string cl = (dir / "k.cl").string(), bc = (dir / "k.bc").string(),
                    spv = (dir / "k.spv").string();
  if (auto s = spirv::WriteTextFile(cl, bug.opencl_c); !s.ok()) return s;
  ChildLimits limits;
  limits.wall_time = std::chrono::seconds(60);
  auto clang = RunCommand(
      {"clang-14", "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0",
       "-finclude-default-header", "-ffp-contract=off", "-emit-llvm-bc", "-O0",
       "-x", "cl", cl, "-o", bc},
      limits);
  if (!clang.ok() || !clang->Succeeded()) {
    return absl::FailedPreconditionError(
        "clang-14 is not installed or failed (the reproducer is OpenCL C)");
  }
  auto translate = RunCommand(
      {"llvm-spirv-14", "--spirv-max-version=1.2", bc, "-o", spv}, limits);
  if (!translate.ok() || !translate->Succeeded()) {
    return absl::FailedPreconditionError(
        "llvm-spirv-14 is not installed or failed");
  }
  auto module = spirv::ReadModuleFile(spv);
  if (!module.ok()) return module.status();
  return spirv::EncodeModule(*module);
}

}  // namespace

const char* OutcomeName(KnownBugRun::Outcome outcome) {
  switch (outcome) {
    case KnownBugRun::Outcome::kReproduces:
      return "reproduces";
    case KnownBugRun::Outcome::kDoesNotReproduce:
      return "does not reproduce";
    case KnownBugRun::Outcome::kNotInstalled:
      return "consumer not installed";
  }
  return "?";
}

absl::StatusOr<spirv::TestCase> ReproducerCase(const KnownBug& bug) {
  std::vector<uint32_t> words;
  std::vector<std::vector<uint32_t>> linked;
  if (!bug.spvasm.empty()) {
    // A linker bug needs several modules: the text of each further module
    // starts at a line beginning with kNextModuleMarker.
    std::vector<std::string> texts = {""};
    for (absl::string_view line : absl::StrSplit(bug.spvasm, '\n')) {
      if (absl::StartsWith(line, kNextModuleMarker)) texts.emplace_back();
      absl::StrAppend(&texts.back(), line, "\n");
    }
    for (size_t i = 0; i < texts.size(); ++i) {
      auto assembled = spirv::Assemble(texts[i], AssemblyEnv(texts[i]));
      if (!assembled.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(
            bug.name, ".spvasm does not assemble",
            i == 0 ? "" : absl::StrCat(" (its module ", i + 1, ")"), ": ",
            assembled.status().message()));
      }
      if (i == 0) {
        words = std::move(*assembled);
      } else {
        linked.push_back(std::move(*assembled));
      }
    }
  } else if (!bug.opencl_c.empty()) {
    auto compiled = CompileOpenClC(bug);
    if (!compiled.ok()) return compiled.status();
    words = std::move(*compiled);
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(bug.name, ": the registry has no reproducer text for it"));
  }
  auto sidecar = spirv::ParseJson(bug.sidecar, bug.name + ".json");
  if (!sidecar.ok()) return sidecar.status();
  auto tc = spirv::TestCaseFromSidecar(*sidecar, std::move(words),
                                       bug.name + ".json");
  if (tc.ok()) tc->linked_modules = std::move(linked);
  return tc;
}

absl::StatusOr<spirv::TestCase> RenameKernel(spirv::TestCase tc,
                                             const std::string& name) {
  auto module = spirv::ReadModuleWords(tc.module_words);
  if (!module.ok()) return module.status();
  const uint32_t id = module->KernelEntryPointId(tc.entry_point);
  if (id == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("no kernel named '", tc.entry_point, "' to rename"));
  }
  for (spirv::Instruction& ep : module->entry_points) {
    if (ep.NumOperands() >= 3 && ep.word(1) == id)
      ep.mutable_operands()[2] = spirv::StringOperand(name);
  }
  for (spirv::Instruction& n : module->debug_names) {
    if (n.opcode() == static_cast<uint32_t>(spv::Op::OpName) &&
        n.NumOperands() >= 2 && n.word(0) == id)
      n.mutable_operands()[1] = spirv::StringOperand(name);
  }
  tc.module_words = spirv::EncodeModule(*module);
  tc.entry_point = name;
  return tc;
}

absl::StatusOr<KnownBugRun> RunKnownBug(const KnownBug& bug,
                                        const std::string& target_name,
                                        std::chrono::seconds timeout,
                                        const std::string& kernel_name) {
  KnownBugRun run;
  // An entry's own check runs on the release it was seen on (a newer one
  // beside it must not make it look fixed: `known-bugs --check` says so per
  // release).
  run.target = target_name.empty() ? TargetAtVersion(bug.target, bug.version)
                                   : target_name;
  run.installed_version = ConsumerVersionOfTarget(run.target, bug.consumer);
  auto info = DescribeTarget(run.target);
  if (!info.ok()) return info.status();
  if (!info->available) {
    run.outcome = KnownBugRun::Outcome::kNotInstalled;
    run.detail = info->reason;
    return run;
  }
  auto tc = ReproducerCase(bug);
  if (tc.ok() && !kernel_name.empty() && kernel_name != tc->entry_point)
    tc = RenameKernel(std::move(*tc), kernel_name);
  if (!tc.ok()) {
    if (absl::IsFailedPrecondition(tc.status())) {
      run.outcome = KnownBugRun::Outcome::kNotInstalled;
      run.detail = std::string(tc.status().message());
      return run;
    }
    return tc.status();
  }
  TargetRunLimits limits;
  limits.wall_time = timeout;
  if (bug.spvasm.empty() && bug.kind == "emits-invalid") {
    // A producer bug: what it produced is the finding.
    const absl::Status valid = spirv::Validate(tc->module_words);
    run.outcome = valid.ok() ? KnownBugRun::Outcome::kDoesNotReproduce
                             : KnownBugRun::Outcome::kReproduces;
    run.verdict.kind =
        valid.ok() ? VerdictKind::kOk : VerdictKind::kRejectedValid;
    run.verdict.target = "clang-14 + llvm-spirv-14";
    run.detail = valid.ok() ? "the produced module validates"
                            : std::string(valid.message());
    return run;
  }
  auto ref = MakeTarget("ref", TargetOptions{});
  if (!ref.ok()) return ref.status();
  // The consumer's environment, for this run only (its worker processes
  // inherit it).
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
  for (const auto& [var, value] : bug.consumer_env) {
    const char* old = std::getenv(var.c_str());
    saved.emplace_back(var,
                       old ? std::optional<std::string>(old) : std::nullopt);
    setenv(var.c_str(), value.c_str(), 1);
  }
  absl::Cleanup restore = [&saved] {
    for (const auto& [var, old] : saved) {
      if (old) {
        setenv(var.c_str(), old->c_str(), 1);
      } else {
        unsetenv(var.c_str());
      }
    }
  };
  auto target = MakeTarget(run.target, TargetOptions{});
  if (!target.ok()) {
    run.outcome = KnownBugRun::Outcome::kNotInstalled;
    run.detail = std::string(target.status().message());
    return run;
  }
  const Execution reference = (*ref)->Run(*tc, limits);
  if (reference.status != ExecutionStatus::kOk) {
    return absl::InternalError(absl::StrCat(
        bug.name, ": the reference interpreter does not run the reproducer (",
        ExecutionStatusName(reference.status), ": ", reference.message,
        "): the reproducer is broken"));
  }
  const Execution e = (*target)->Run(*tc, limits);
  run.verdict =
      Judge(*tc, reference, (*target)->name(), (*target)->executes(), e);
  run.outcome = VerdictKindName(run.verdict.kind) == bug.verdict
                    ? KnownBugRun::Outcome::kReproduces
                    : KnownBugRun::Outcome::kDoesNotReproduce;
  run.detail = run.verdict.IsFinding() ? run.verdict.explanation
                                       : std::string("the target is ok");
  return run;
}

}  // namespace l0spv::oracles
