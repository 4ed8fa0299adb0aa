// spirv/launch_spec.h — building TestCase arguments from human-written
// launch descriptions: the `--arg=SPEC` strings of `l0spv-fuzz run` and the
// corpus sidecar JSON files (corpora/README.md documents the format).
//
// Contract: deterministic (the "random" init uses std::mt19937_64, which the
// C++ standard fully specifies, so every platform gets the same bytes); every
// malformed spec yields InvalidArgument naming the spec/field and the fix.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "spirv/test_case.h"

namespace l0spv::spirv {

// One `--arg` value: buf:BYTES (zero-filled) | buf:@FILE | local:BYTES |
// i8/i16/i32/i64/u8/u16/u32/u64/f16/f32/f64:VALUE. Buffers are results.
absl::StatusOr<KernelArg> ParseArgSpec(absl::string_view spec);

// A scalar's little-endian bytes from its type name and decimal/hex value.
absl::StatusOr<std::vector<uint8_t>> ScalarBytes(absl::string_view type,
                                                 absl::string_view value);

// A corpus sidecar ({"kernel", "global", "local", "args": [...]}) plus the
// module's words → a TestCase. `where` names the sidecar in error messages.
absl::StatusOr<TestCase> TestCaseFromSidecar(const nlohmann::json& sidecar,
                                             std::vector<uint32_t> module_words,
                                             const std::string& where);
// Reads FILE.spv and its sidecar JSON file.
absl::StatusOr<TestCase> LoadSidecarCase(const std::string& spv_path,
                                         const std::string& sidecar_path);

// One line "name<TAB>module.spv<TAB>sidecar.json" of the corpus manifest the
// corpora/ build writes (build/*/corpora/corpus_manifest.txt).
struct CorpusEntry {
  std::string name;
  std::string spv_path;
  std::string json_path;
};
absl::StatusOr<std::vector<CorpusEntry>> ReadCorpusManifest(
    const std::string& path);

}  // namespace l0spv::spirv
