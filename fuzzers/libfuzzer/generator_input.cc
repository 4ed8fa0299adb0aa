#include "fuzzers/libfuzzer/generator_input.h"

#include "absl/strings/str_cat.h"
#include "oracles/validity/device_profile.h"

namespace l0spv::fuzzers {

namespace {

const std::vector<std::string>& ProfileNames() {
  static const auto* names =
      new std::vector<std::string>(oracles::DeviceProfileNames());
  return *names;
}

}  // namespace

generators::kernel::GeneratorOptions GeneratorOptionsFromInput(
    std::span<const uint8_t> input, uint32_t avoid_known_bugs) {
  auto byte = [&](size_t i) -> uint8_t {
    return i < input.size() ? input[i] : 0;
  };
  generators::kernel::GeneratorOptions options;
  const auto& names = ProfileNames();
  if (!names.empty()) options.profile = names[byte(0) % names.size()];
  options.max_statements = 1 + byte(1) % 64;
  options.avoid_known_bugs =
      (byte(2) & kFlagAllowKnownBugs) != 0 ? 0 : avoid_known_bugs;
  options.allow_non_uniform = (byte(2) & kFlagNonUniform) != 0;
  using generators::kernel::PrintfMode;
  options.printf = (byte(2) & kFlagPrintfOn) != 0      ? PrintfMode::kOn
                   : (byte(2) & kFlagPrintfSwarm) != 0 ? PrintfMode::kSwarm
                                                       : PrintfMode::kOff;
  options.seed = input.size();
  if (input.size() > kGeneratorHeaderBytes)
    options.decisions = input.subspan(kGeneratorHeaderBytes);
  return options;
}

absl::StatusOr<std::vector<uint8_t>> RecordGeneratorInput(
    const generators::kernel::GeneratorOptions& options) {
  if (options.max_statements < 1 || options.max_statements > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("max_statements=", options.max_statements,
                     ": a fuzzer input can only say 1..64"));
  }
  const auto& names = ProfileNames();
  size_t index = 0;
  while (index < names.size() && names[index] != options.profile) ++index;
  if (index == names.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown device profile '", options.profile, "'"));
  }
  std::vector<uint8_t> input = {
      static_cast<uint8_t>(index),
      static_cast<uint8_t>(options.max_statements - 1),
      static_cast<uint8_t>(
          (options.avoid_known_bugs == 0 ? kFlagAllowKnownBugs : 0) |
          (options.allow_non_uniform ? kFlagNonUniform : 0) |
          (options.printf == generators::kernel::PrintfMode::kSwarm
               ? kFlagPrintfSwarm
               : 0) |
          (options.printf == generators::kernel::PrintfMode::kOn ? kFlagPrintfOn
                                                                 : 0))};
  std::vector<uint8_t> decisions;
  generators::kernel::GeneratorOptions recorded = options;
  recorded.decisions = {};
  recorded.record_decisions = &decisions;
  auto tc = generators::kernel::GenerateTestCase(recorded);
  if (!tc.ok()) return tc.status();
  input.insert(input.end(), decisions.begin(), decisions.end());
  return input;
}

}  // namespace l0spv::fuzzers
