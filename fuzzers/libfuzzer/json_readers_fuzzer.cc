// libFuzzer target for every reader of the project's on-disk JSON documents:
// the first input byte picks the document, the rest is its text.
//   0: case.json (spirv::ReadTestCase, with a generated case's module and
//      buffers beside it)
//   1: a corpus sidecar (spirv::TestCaseFromSidecar)
//   2: a transformation log (generators::transform::Replay on a generated case)
//   3: a campaign stats.json / job state's "stats" (CampaignStats::FromJson)
//   4: a finding's verdict.json (reducers::ReadFinding)
// Contract checked: no crash, no uncaught exception, no sanitizer report,
// and every rejection is an InvalidArgument / FailedPrecondition / NotFound
// status whose message names the document (a file path, or "record N").
// Anything else aborts.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "absl/strings/match.h"
#include "fuzzers/campaign/stats.h"
#include "generators/kernel/generator.h"
#include "generators/transform/engine.h"
#include "reducers/finding.h"
#include "spirv/binary.h"
#include "spirv/json_reader.h"
#include "spirv/launch_spec.h"
#include "spirv/test_case.h"

namespace {

using namespace l0spv;

struct Fixture {
  std::string dir;      // a case directory whose case.json is replaced
  std::string finding;  // a finding directory whose verdict.json is replaced
  spirv::TestCase base;
};

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "l0spv_json_readers_fuzzer: %s: %s\n", what,
               detail.c_str());
  std::abort();
}

const Fixture& GetFixture() {
  static const Fixture* fixture = [] {
    auto* f = new Fixture;
    generators::kernel::GeneratorOptions g;
    g.seed = 1;
    g.max_statements = 20;
    auto tc = generators::kernel::GenerateTestCase(g);
    if (!tc.ok()) Fail("fixture", std::string(tc.status().message()));
    f->base = *tc;
    char templ[] = "/tmp/l0spv-json-fuzz-XXXXXX";
    if (::mkdtemp(templ) == nullptr) Fail("fixture", "mkdtemp");
    f->dir = std::string(templ) + "/case";
    f->finding = std::string(templ) + "/finding";
    if (!spirv::WriteTestCase(*tc, f->dir).ok() ||
        !spirv::WriteTestCase(*tc, f->finding + "/case").ok())
      Fail("fixture", "cannot write the case");
    return f;
  }();
  return *fixture;
}

void ExpectNamed(const absl::Status& s, const std::string& name) {
  if (s.ok()) return;
  const bool kind_ok = absl::IsInvalidArgument(s) ||
                       absl::IsFailedPrecondition(s) || absl::IsNotFound(s) ||
                       absl::IsResourceExhausted(s);
  if (!kind_ok) Fail("unexpected status code", s.ToString());
  if (!absl::StrContains(s.message(), name))
    Fail("error does not name the document", s.ToString());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const Fixture& f = GetFixture();
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 5) {
    case 0: {
      if (!spirv::WriteTextFile(f.dir + "/case.json", text).ok())
        Fail("fixture", "cannot write case.json");
      auto tc = spirv::ReadTestCase(f.dir);
      ExpectNamed(tc.status(), "case.json");
      break;
    }
    case 1: {
      auto j = spirv::ParseJson(text, "sidecar.json");
      if (!j.ok()) break;
      // Buffers are allocated and filled as the sidecar says (up to 1 GiB,
      // a legal size): this target is about parsing, not about memset.
      if (j->is_object() && j->contains("args") && (*j)["args"].is_array()) {
        for (const auto& a : (*j)["args"])
          if (a.is_object() && a.contains("bytes") &&
              a["bytes"].is_number_unsigned() &&
              a["bytes"].get<uint64_t>() > (uint64_t{1} << 20))
            return 0;
      }
      auto tc =
          spirv::TestCaseFromSidecar(*j, f.base.module_words, "sidecar.json");
      ExpectNamed(tc.status(), "sidecar.json");
      break;
    }
    case 2: {
      auto j = spirv::ParseJson(text, "log.json");
      if (!j.ok()) break;
      auto r = generators::transform::Replay(f.base, *j);
      if (!r.ok() && !absl::IsInvalidArgument(r.status()) &&
          !absl::IsFailedPrecondition(r.status()))
        Fail("replay", r.status().ToString());
      break;
    }
    case 3: {
      auto j = spirv::ParseJson(text, "stats.json");
      if (!j.ok()) break;
      auto s = fuzzers::campaign::CampaignStats::FromJson(*j, "stats.json");
      ExpectNamed(s.status(), "stats.json");
      break;
    }
    case 4: {
      if (!spirv::WriteTextFile(f.finding + "/verdict.json", text).ok())
        Fail("fixture", "cannot write verdict.json");
      auto finding = reducers::ReadFinding(f.finding);
      ExpectNamed(finding.status(), "verdict.json");
      break;
    }
  }
  return 0;
}
