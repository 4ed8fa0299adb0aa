// tests/reference/corpus_loader.h — reads corpora/ sidecar JSON launch
// descriptions into TestCases (corpora/README.md describes the format).
// Lives with the reference tests for now; it will move when other rooms
// need it.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "spirv/test_case.h"

namespace l0spv::oracles::reference::test {

struct CorpusEntry {
  std::string name;
  std::string spv_path;
  std::string json_path;
};

// Lines "name<TAB>spv<TAB>json" of corpus_manifest.txt.
absl::StatusOr<std::vector<CorpusEntry>> ReadManifest(const std::string& path);
// The module and its sidecar as a TestCase ("random" buffers are filled
// from a splitmix64 stream seeded with the sidecar's seed).
absl::StatusOr<spirv::TestCase> LoadCorpusCase(const CorpusEntry& entry);

}  // namespace l0spv::oracles::reference::test
