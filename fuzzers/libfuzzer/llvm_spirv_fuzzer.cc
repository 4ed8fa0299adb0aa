// libFuzzer target for SPIRV-LLVM-Translator (Debian's libLLVMSPIRVLib 14,
// the library behind llvm-spirv-14), as a differential test: the input
// drives the kernel generator (generator_input.h); the generated module is
// translated to LLVM IR and back in process (the `llvm-spirv` target's round
// trip: readSpirv, then writeSpirv with the input's SPIR-V version as the
// maximum), the result validated, and both modules run on the reference
// interpreter, judged by oracles::Judge. A crash, a valid module the
// translator rejects, an invalid module it writes or a different result is
// a finding: the target aborts (see consumer_finding.h for CI's report-only
// mode) with the verdict and a reproduce command.
// The generator always avoids the constructs of filed llvm-spirv bugs
// (registry entries of consumer llvm-spirv).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "LLVMSPIRVLib/LLVMSPIRVLib.h"
#include "fuzzers/libfuzzer/consumer_finding.h"
#include "fuzzers/libfuzzer/generator_input.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/reference/interpreter.h"
#include "oracles/verdict/verdict.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"

namespace {

namespace oracles = l0spv::oracles;

// Reports the finding (fuzzers/libfuzzer/consumer_finding.h); the caller
// returns its value from LLVMFuzzerTestOneInput.
int Finding(const std::string& what) {
  l0spv::fuzzers::ConsumerFinding(
      "l0spv_llvm_spirv_fuzzer: llvm-spirv round trip: " + what +
      "\nreproduce: l0spv_fuzz_seed_gen --decode=INPUT --avoid=llvm-spirv "
      "--out=CASE && l0spv-fuzz check CASE --target=llvm-spirv\n"
      "reduce: add --save_finding=OUT to that check, then l0spv-fuzz reduce "
      "OUT/findings/*\n");
  return 0;
}

// The extensions the input module declares: the translator may use them on
// the way back (as the llvm-spirv target passes --spirv-ext), and no other.
SPIRV::TranslatorOpts::ExtensionsStatusMap DeclaredExtensions(
    const std::vector<uint32_t>& words) {
  SPIRV::TranslatorOpts::ExtensionsStatusMap allowed;
  auto m = l0spv::spirv::ReadModuleWords(words);
  if (!m.ok()) return allowed;
  for (const l0spv::spirv::Instruction& e : m->extensions) {
    if (e.NumOperands() == 0) continue;
    const std::string name = e.operand(0).AsString();
#define EXT(X) \
  if (name == #X) allowed[SPIRV::ExtensionID::X] = true;
#include "LLVMSPIRVLib/LLVMSPIRVExtensions.inc"
#undef EXT
  }
  return allowed;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The translator linked in (the llvm-spirv family).
  const uint32_t bugs = l0spv::oracles::kConsumerLlvmSpirv;
  l0spv::generators::kernel::GeneratorOptions options =
      l0spv::fuzzers::GeneratorOptionsFromInput({data, size}, bugs);
  options.avoid_known_bugs |= bugs;  // never the filed ones
  auto tc = l0spv::generators::kernel::GenerateTestCase(options);
  if (!tc.ok()) return 0;  // the generator fuzzer's business

  const oracles::reference::ReferenceOptions ref;
  const oracles::Execution before = oracles::reference::RunReference(*tc, ref);
  if (before.status != oracles::ExecutionStatus::kOk) return 0;

  const uint32_t version = tc->module_words[1];
  const SPIRV::TranslatorOpts opts(static_cast<SPIRV::VersionNumber>(version),
                                   DeclaredExtensions(tc->module_words));
  llvm::LLVMContext context;
  std::string words(reinterpret_cast<const char*>(tc->module_words.data()),
                    tc->module_words.size() * 4);
  std::istringstream in(words);
  llvm::Module* raw = nullptr;
  std::string error;
  if (!llvm::readSpirv(context, opts, in, raw, error))
    return Finding("SPIR-V -> LLVM rejected a valid module: " + error);
  const std::unique_ptr<llvm::Module> module(raw);
  std::ostringstream out;
  if (!llvm::writeSpirv(module.get(), opts, out, error))
    return Finding("LLVM -> SPIR-V failed: " + error);
  const std::string back = out.str();
  if (back.size() % 4 != 0)
    return Finding("wrote a module of " + std::to_string(back.size()) +
                   " bytes");
  l0spv::spirv::TestCase after_case = *tc;
  after_case.module_words.assign(back.size() / 4, 0);
  std::memcpy(after_case.module_words.data(), back.data(), back.size());
  const spv_target_env env = l0spv::spirv::UniversalEnvForVersion(version);
  if (auto s = l0spv::spirv::Validate(after_case.module_words, env); !s.ok()) {
    return Finding("produced a module that fails validation: " +
                   std::string(s.message()));
  }
  const oracles::Execution after =
      oracles::reference::RunReference(after_case, ref);
  const oracles::Verdict verdict =
      oracles::Judge(*tc, before, "llvm-spirv", true, after);
  if (verdict.IsFinding())
    return Finding(verdict.signature + ": " + verdict.explanation);
  return 0;
}
