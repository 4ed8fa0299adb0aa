#include "fuzzers/campaign/findings.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "oracles/execution_json.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/target_kinds.h"
#include "spirv/binary.h"
#include "spirv/hash.h"
#include "spirv/json_reader.h"
#include "spirv/spirv_tools.h"
#include "spirv/text_bytes.h"

namespace l0spv::fuzzers::campaign {

namespace fs = std::filesystem;

namespace {

absl::Status TouchSeed(const std::string& finding_dir, uint64_t seed) {
  std::error_code ec;
  fs::create_directories(finding_dir + "/seeds", ec);
  const std::string path = absl::StrCat(finding_dir, "/seeds/", seed);
  const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    return absl::ResourceExhaustedError(
        absl::StrCat(path, ": cannot create (", std::strerror(err), ")"));
  }
  ::close(fd);
  return absl::OkStatus();
}

std::string Readme(const FindingRecord& r) {
  std::string text = absl::StrFormat(
      "# %s on %s\n\n%s\n\nSignature: `%s`  \nFirst seed: %u\n\n"
      "## Reproduce\n\n```sh\n%s\n```\n\n"
      "`case/` holds the test case (`case.json`, `module.spv`, `argN.bin`; "
      "`module.spvasm` is its disassembly), `outputs/` what each target "
      "produced (JSON, buffers base64), `seeds/` every seed that hit this "
      "signature.\n",
      oracles::VerdictKindName(r.verdict.kind), r.verdict.target,
      r.verdict.explanation, r.verdict.signature, r.seed, r.reproduce);
  return text;
}

}  // namespace

// FNV-1a (stable across builds and platforms) from this seed: the standard
// offset basis short of its last digit, as the first version had it.
// Directory names must not change between versions, so it stays.
constexpr uint64_t kFindingDirHashSeed = 1469598103934665603u;

std::string FindingDirName(const std::string& signature) {
  std::string name = absl::StrReplaceAll(signature, {{":", "."}});
  if (name.size() > 100) name.resize(100);
  return absl::StrFormat(
      "%s-%08x", name,
      static_cast<uint32_t>(spirv::Fnv1a64(signature, kFindingDirHashSeed)));
}

namespace {

// Writes the finding's files into `tmp` (a fresh directory).
absl::Status WriteFindingFiles(const FindingRecord& r, const std::string& tmp) {
  if (auto s = spirv::WriteTestCase(r.test_case, tmp + "/case"); !s.ok())
    return s;
  if (r.original) {
    if (auto s = spirv::WriteTestCase(*r.original, tmp + "/original"); !s.ok())
      return s;
  }
  if (auto text = spirv::Disassemble(r.test_case.module_words); text.ok()) {
    if (auto s = spirv::WriteTextFile(tmp + "/case/module.spvasm", *text);
        !s.ok())
      return s;
  }
  for (const auto& [target, execution] : r.outputs) {
    const std::string file = absl::StrCat(
        tmp, "/outputs/", oracles::TargetFileStem(target), ".json");
    nlohmann::json j = oracles::ExecutionToJson(execution);
    j["target"] = target;
    if (auto s = spirv::WriteJsonFile(file, j); !s.ok()) return s;
  }
  nlohmann::json verdict = r.verdict.ToJson();
  verdict["first_seed"] = r.seed;
  // The consumers' versions next to the signature: a finding must say which
  // version it was seen on (the known-bug registry records the same).
  nlohmann::json versions = nlohmann::json::object();
  for (const auto& [family, version] :
       oracles::ConsumerVersionsOfTarget(r.verdict.target))
    versions[family] = version;
  verdict["consumer_versions"] = std::move(versions);
  verdict["reproduce"] = r.reproduce;
  for (const auto& [path, content] : r.extra_files) {
    const std::string full = absl::StrCat(tmp, "/", path);
    std::error_code ec;
    std::filesystem::create_directories(
        std::filesystem::path(full).parent_path(), ec);
    if (auto s = spirv::WriteTextFile(full, content); !s.ok()) return s;
  }
  if (auto s = spirv::WriteJsonFile(tmp + "/verdict.json", verdict); !s.ok())
    return s;
  if (auto s = spirv::WriteTextFile(tmp + "/README.md",
                                    spirv::EscapeInvalidUtf8(Readme(r)));
      !s.ok())
    return s;
  return TouchSeed(tmp, r.seed);
}

}  // namespace

absl::StatusOr<bool> RecordFinding(const std::string& out_dir,
                                   const FindingRecord& record) {
  FindingRecord r = record;
  const std::string findings = out_dir + "/findings";
  const std::string final_dir =
      findings + "/" + FindingDirName(r.verdict.signature);
  std::error_code ec;
  if (fs::exists(final_dir + "/verdict.json", ec)) {
    if (auto s = TouchSeed(final_dir, r.seed); !s.ok()) return s;
    return false;
  }
  std::error_code abs_ec;
  r.reproduce = absl::StrReplaceAll(
      r.reproduce,
      {{"{case}", spirv::ShellQuote(fs::absolute(final_dir, abs_ec).string() +
                                    "/case")}});
  const std::string tmp =
      absl::StrCat(findings, "/.tmp-", FindingDirName(r.verdict.signature), "-",
                   ::getpid(), "-", r.seed);
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp + "/outputs", ec);
  if (ec) {
    fs::remove_all(tmp, ec);
    return absl::ResourceExhaustedError(
        absl::StrCat(tmp, ": cannot create (", ec.message(), ")"));
  }
  // A write that fails (disk full) leaves no half-written directory.
  if (absl::Status s = WriteFindingFiles(r, tmp); !s.ok()) {
    fs::remove_all(tmp, ec);
    return s;
  }
  if (::rename(tmp.c_str(), final_dir.c_str()) != 0) {
    const int err = errno;
    fs::remove_all(tmp, ec);
    if (err == EEXIST || err == ENOTEMPTY) {
      // Another job recorded the same signature first.
      if (auto s = TouchSeed(final_dir, r.seed); !s.ok()) return s;
      return false;
    }
    return absl::ResourceExhaustedError(absl::StrCat(
        "rename ", tmp, " -> ", final_dir, ": ", std::strerror(err)));
  }
  return true;
}

uint64_t FindingSeedCount(const std::string& finding_dir) {
  std::error_code ec;
  uint64_t n = 0;
  for (const auto& e : fs::directory_iterator(finding_dir + "/seeds", ec)) {
    (void)e;
    ++n;
  }
  return n;
}

void RemoveIncomplete(const std::string& out_dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(out_dir + "/findings", ec)) {
    if (e.path().filename().string().rfind(".tmp-", 0) == 0)
      fs::remove_all(e.path(), ec);
  }
}

}  // namespace l0spv::fuzzers::campaign
