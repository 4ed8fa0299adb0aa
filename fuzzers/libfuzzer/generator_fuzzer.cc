// libFuzzer target for the kernel generator: the input bytes are the
// generator's decisions (generator_input.h), so coverage guidance steers
// generation toward generator and interpreter paths random seeds miss.
// The generator's contract is checked on every case: the module passes
// spirv-val and every Level Zero rule of its profile (lint), and the
// reference interpreter runs it with every check on (bounds, division,
// shifts, conversions, barrier divergence, data races, uninitialised reads)
// without finding undefined behaviour or failing otherwise. Any violation
// is a generator bug: the target aborts, and libFuzzer keeps the input.
// Reproduce a crash input as a case directory:
//   l0spv_fuzz_seed_gen --decode=crash-... --out=DIR   (then `l0spv-fuzz run
//   DIR`)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "fuzzers/libfuzzer/generator_input.h"
#include "oracles/reference/interpreter.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"

namespace {

// printf lines as a sorted list: work-items may print in any order (each
// line carries its work-item's id), so two schedules agree when their
// outputs hold the same lines.
std::vector<std::string> SortedLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

[[noreturn]] void GeneratorBug(const std::string& what) {
  std::fprintf(stderr, "l0spv_generator_fuzzer: generator bug: %s\n",
               what.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace oracles = l0spv::oracles;
  const std::span<const uint8_t> input(data, size);
  const l0spv::generators::kernel::GeneratorOptions options =
      l0spv::fuzzers::GeneratorOptionsFromInput(input,
                                                l0spv::oracles::kAllConsumers);
  auto tc = l0spv::generators::kernel::GenerateTestCase(options);
  if (!tc.ok()) GeneratorBug("GenerateTestCase: " + tc.status().ToString());

  auto module = l0spv::spirv::ReadModuleWords(tc->module_words);
  if (!module.ok())
    GeneratorBug("unreadable module: " + module.status().ToString());
  auto profile = oracles::FindDeviceProfile(options.profile);
  if (!profile.ok()) GeneratorBug("profile: " + profile.status().ToString());
  const oracles::LintReport report = oracles::LintModule(*module, *profile);
  if (!report.ok())
    GeneratorBug("lint (profile " + options.profile + "):\n" + report.ToText());

  oracles::reference::ReferenceOptions ref;
  ref.check_races = true;
  ref.check_uninitialized = true;
  const oracles::Execution e = oracles::reference::RunReference(*tc, ref);
  if (e.status != oracles::ExecutionStatus::kOk) {
    GeneratorBug(std::string("reference: ") +
                 oracles::ExecutionStatusName(e.status) + ": " + e.message);
  }
  // On half of the inputs, once more under another work-item order: a
  // defined kernel's results cannot depend on it (a difference is a race
  // or a missing barrier the detector did not see). printf lines may come
  // in another order (compared as a multiset, as oracles/compare does).
  if ((size & 1) != 0) {
    ref.schedule_seed = size;
    const oracles::Execution again = oracles::reference::RunReference(*tc, ref);
    if (again.status != oracles::ExecutionStatus::kOk)
      GeneratorBug(std::string("reference, schedule ") + std::to_string(size) +
                   ": " + again.message);
    if (again.buffers != e.buffers ||
        SortedLines(again.printf_output) != SortedLines(e.printf_output))
      GeneratorBug("results depend on the work-item schedule (seed " +
                   std::to_string(size) + ")");
  }
  return 0;
}
