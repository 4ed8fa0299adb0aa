// fuzzers/libfuzzer/generator_input.h — how a libFuzzer input drives the
// kernel generator, shared by the generator-driven fuzz targets and the
// tool that writes their seed corpora.
//
// Contract: an input is [profile][size][flags] followed by decision bytes
// (generators/kernel/random.h). profile picks a device profile by index
// (modulo the embedded profiles), size gives max_statements = 1 + size % 64,
// flags bit 0 emits constructs with known consumer bugs (only for fuzzers
// whose consumer is the reference), bit 1 allows non-uniform ND-ranges,
// bit 2 draws printf calls as a swarm feature and bit 3 in every case
// (generators::kernel::PrintfMode).
// Missing header bytes read as 0; the seeded stream behind the decisions is
// seeded with the input's length, so every input decodes deterministically.
// RecordGeneratorInput writes the input that replays a seed-generated case
// exactly: seed corpora start from the cases campaigns generate.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "generators/kernel/generator.h"

namespace l0spv::fuzzers {

inline constexpr size_t kGeneratorHeaderBytes = 3;
inline constexpr uint8_t kFlagAllowKnownBugs = 1u << 0;
inline constexpr uint8_t kFlagNonUniform = 1u << 1;
inline constexpr uint8_t kFlagPrintfSwarm = 1u << 2;
inline constexpr uint8_t kFlagPrintfOn = 1u << 3;

// The generator options an input stands for. `avoid_known_bugs` is the mask
// used unless the input's flags allow known bugs (then 0). The returned
// decisions point into `input`.
generators::kernel::GeneratorOptions GeneratorOptionsFromInput(
    std::span<const uint8_t> input, uint32_t avoid_known_bugs);

// The input that makes GeneratorOptionsFromInput + GenerateTestCase give
// exactly the case GenerateTestCase(options) gives (options.seed drives it).
// Errors: the generator's (unknown profile: InvalidArgument); a
// max_statements outside 1..64 is InvalidArgument (the header cannot say it).
absl::StatusOr<std::vector<uint8_t>> RecordGeneratorInput(
    const generators::kernel::GeneratorOptions& options);

}  // namespace l0spv::fuzzers
