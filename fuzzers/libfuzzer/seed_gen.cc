// Build-time tool for the generator-driven fuzz targets: writes seed
// corpora (inputs that replay seed-generated cases, generator_input.h) and
// decodes an input (a crash reproducer) into a case directory that
// `l0spv-fuzz run DIR --target=...` runs.
//
//   l0spv_fuzz_seed_gen --out=DIR [--first=0] [--count=64] [--prefix=N]
//                       [--avoid=all|spirv-opt|none] [--profile=full]
//   l0spv_fuzz_seed_gen --modules --out=DIR [--first=0] [--count=64]
//   l0spv_fuzz_seed_gen --decode=INPUT --out=CASE_DIR [--prefix=N]
//   [--avoid=...]
//
// --modules writes the generated modules themselves (gen_seed_N.spv), seeds
// for the fuzz targets that read SPIR-V binaries.
// --prefix=N: the target reads N bytes of its own before the generator's
// input (l0spv_spirv_opt_fuzzer: 4, its pass choice); seeds then get N
// bytes that vary with the seed. --avoid: the known-bug mask the target
// passes (all for the generator fuzzer, spirv-opt / llvm-spirv for those),
// so a recorded seed replays exactly.
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "fuzzers/libfuzzer/generator_input.h"
#include "generators/transform/engine.h"
#include "spirv/binary.h"
#include "spirv/test_case.h"

ABSL_FLAG(std::string, out, "",
          "corpus directory, or case directory with --decode");
ABSL_FLAG(uint64_t, first, 0, "first generator seed");
ABSL_FLAG(uint64_t, count, 64, "number of seeds");
ABSL_FLAG(uint32_t, prefix, 0,
          "bytes the fuzz target reads before the generator input");
ABSL_FLAG(std::string, avoid, "all",
          "known-bug mask of the target: all, spirv-opt, llvm-spirv, none");
ABSL_FLAG(std::string, profile, "full", "device profile of the seeds");
ABSL_FLAG(uint32_t, max_statements, 60, "generator size knob (1..64)");
ABSL_FLAG(bool, modules, false,
          "write module binaries instead of generator inputs");
ABSL_FLAG(bool, transform_inputs, false, "write l0spv_transform_fuzzer inputs");
ABSL_FLAG(bool, json_inputs, false,
          "write l0spv_json_readers_fuzzer inputs (one selector byte + a "
          "valid document of each kind)");
ABSL_FLAG(std::string, decode, "", "an input to turn into a case directory");

namespace {

using l0spv::generators::kernel::GeneratorOptions;

int Fail(const std::string& message) {
  std::cerr << "l0spv_fuzz_seed_gen: " << message << "\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1)
    return Fail(absl::StrCat("unexpected argument ", rest[1]));
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty()) return Fail("--out is required");
  const std::string avoid = absl::GetFlag(FLAGS_avoid);
  uint32_t mask = 0;
  if (avoid == "all") {
    mask = l0spv::oracles::kAllConsumers;
  } else if (avoid == "spirv-opt") {
    mask = l0spv::oracles::kConsumerSpirvOpt;
  } else if (avoid == "llvm-spirv") {
    mask = l0spv::oracles::kConsumerLlvmSpirv;
  } else if (avoid != "none") {
    return Fail("--avoid=" + avoid +
                ": expected all, spirv-opt, llvm-spirv or none");
  }
  const uint32_t prefix = absl::GetFlag(FLAGS_prefix);

  if (const std::string decode = absl::GetFlag(FLAGS_decode); !decode.empty()) {
    auto bytes = l0spv::spirv::ReadFileBytes(decode);
    if (!bytes.ok()) return Fail(std::string(bytes.status().message()));
    const std::span<const uint8_t> all(*bytes);
    const auto input = all.subspan(std::min<size_t>(prefix, all.size()));
    const GeneratorOptions options =
        l0spv::fuzzers::GeneratorOptionsFromInput(input, mask);
    auto tc = l0spv::generators::kernel::GenerateTestCase(options);
    if (!tc.ok()) return Fail(std::string(tc.status().message()));
    if (auto s = l0spv::spirv::WriteTestCase(*tc, out); !s.ok())
      return Fail(std::string(s.message()));
    std::cout << "case (profile " << options.profile << ", max_statements "
              << options.max_statements << ") written to " << out << "\n";
    return 0;
  }

  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) return Fail(out + ": cannot create (" + ec.message() + ")");
  GeneratorOptions options;
  options.profile = absl::GetFlag(FLAGS_profile);
  options.max_statements = absl::GetFlag(FLAGS_max_statements);
  options.avoid_known_bugs = mask;
  if (absl::GetFlag(FLAGS_json_inputs)) {
    // One valid document per reader; libFuzzer mutates from there.
    auto write = [&](const std::string& name, uint8_t selector,
                     const std::string& text) -> bool {
      std::string bytes(1, static_cast<char>(selector));
      bytes += text;
      return l0spv::spirv::WriteTextFile(absl::StrCat(out, "/", name), bytes)
          .ok();
    };
    for (uint64_t seed = 0; seed < absl::GetFlag(FLAGS_count); ++seed) {
      options.seed = seed;
      options.max_statements = 20;
      auto tc = l0spv::generators::kernel::GenerateTestCase(options);
      if (!tc.ok()) return Fail(std::string(tc.status().message()));
      bool ok = write(absl::StrCat("case_", seed), 0,
                      l0spv::spirv::TestCaseToJson(*tc).dump(2));
      // Logs replay on the fuzzer's fixture: generator seed 1, 20 statements.
      options.seed = 1;
      auto fixture = l0spv::generators::kernel::GenerateTestCase(options);
      if (!fixture.ok()) return Fail(std::string(fixture.status().message()));
      l0spv::generators::transform::TransformOptions to;
      to.seed = seed;
      to.count = 1 + seed % 20;
      auto t = l0spv::generators::transform::Transform(*fixture, to);
      if (t.ok()) ok &= write(absl::StrCat("log_", seed), 2, t->log.dump(2));
      if (!ok) return Fail("cannot write the seeds in " + out);
    }
    const bool ok =
        write("sidecar", 1,
              R"({"kernel": "k", "global": [64, 2], "local": [8, 1],)"
              R"( "offset": [0, 1], "args": [)"
              R"({"kind": "buffer", "bytes": 256, "init": "random", "seed": 3,)"
              R"( "result": true}, {"kind": "scalar", "type": "i32",)"
              R"( "value": "-7"}, {"kind": "struct", "bytes_hex": "0a0b"},)"
              R"( {"kind": "local", "bytes": 64}]})") &&
        write("stats", 3,
              R"({"cases": 10, "generator_errors": 0, "new_findings": 1,)"
              R"( "duplicate_hits": 2, "case_nanos": 1000,)"
              R"( "harness_nanos": 10, "targets": {"ref": {"runs": 10,)"
              R"( "nanos": 5, "verdicts": {"ok": 9, "crash": 1}}}})") &&
        write("verdict", 4,
              R"({"kind": "mismatch", "target": "spirv-opt",)"
              R"( "signature": "mismatch:spirv-opt:arg2",)"
              R"( "explanation": "x", "first_seed": 4, "reproduce": "r"})");
    return ok ? 0 : Fail("cannot write the seeds in " + out);
  }
  const uint64_t first = absl::GetFlag(FLAGS_first);
  for (uint64_t seed = first; seed < first + absl::GetFlag(FLAGS_count);
       ++seed) {
    options.seed = seed;
    if (absl::GetFlag(FLAGS_transform_inputs)) {
      std::vector<uint8_t> bytes;
      const uint64_t mask = seed % 2 == 0 ? 0 : uint64_t{1} << (seed / 2 % 64);
      for (const uint64_t field : {seed, seed * 37 + 11, mask})
        for (int i = 0; i < 8; ++i)
          bytes.push_back(static_cast<uint8_t>(field >> (8 * i)));
      bytes.push_back(static_cast<uint8_t>(seed * 53 % 200));
      const std::string path = absl::StrCat(out, "/transform_seed_", seed);
      if (auto s = l0spv::spirv::WriteFileBytes(path, bytes); !s.ok())
        return Fail(std::string(s.message()));
      continue;
    }
    if (absl::GetFlag(FLAGS_modules)) {
      auto tc = l0spv::generators::kernel::GenerateTestCase(options);
      if (!tc.ok()) return Fail(std::string(tc.status().message()));
      const std::string path = absl::StrCat(out, "/gen_seed_", seed, ".spv");
      if (auto s = l0spv::spirv::WriteFileBytes(
              path, l0spv::spirv::WordsToBytes(
                        tc->module_words, l0spv::spirv::Endianness::kLittle));
          !s.ok())
        return Fail(std::string(s.message()));
      continue;
    }
    auto input = l0spv::fuzzers::RecordGeneratorInput(options);
    if (!input.ok()) return Fail(std::string(input.status().message()));
    std::vector<uint8_t> bytes;
    for (uint32_t i = 0; i < prefix; ++i)
      bytes.push_back(static_cast<uint8_t>(seed * (2 * i + 1) + i));
    bytes.insert(bytes.end(), input->begin(), input->end());
    const std::string path = absl::StrCat(out, "/gen_seed_", seed);
    if (auto s = l0spv::spirv::WriteFileBytes(path, bytes); !s.ok())
      return Fail(std::string(s.message()));
  }
  return 0;
}
