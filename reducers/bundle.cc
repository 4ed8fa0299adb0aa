#include "reducers/bundle.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "oracles/execution_json.h"
#include "spirv/binary.h"
#include "spirv/file_io.h"
#include "spirv/spirv_tools.h"
#include "spirv/text_bytes.h"

namespace l0spv::reducers {

namespace fs = std::filesystem;

namespace {

// "u32 results" -> 4, "f64 results" -> 8; 1 when the type names no width.
size_t ElementBytes(const std::string& type) {
  const std::string first = std::string(*absl::StrSplit(type, ' ').begin());
  if (first.size() < 2) return 1;
  uint32_t bits = 0;
  if (!absl::SimpleAtoi(first.substr(1), &bits) || bits % 8 != 0 || bits == 0 ||
      bits > 64)
    return 1;
  return bits / 8;
}

std::string Hex(const std::vector<uint8_t>& b, size_t at, size_t n) {
  std::string s = "0x";
  for (size_t i = n; i-- > 0;)  // little-endian element, most significant first
    s += absl::StrFormat("%02x", at + i < b.size() ? b[at + i] : 0);
  return s;
}

absl::Status RenameInto(const std::string& tmp, const std::string& final_dir) {
  std::error_code ec;
  const std::string old = absl::StrCat(final_dir, ".old-", ::getpid());
  if (fs::exists(final_dir, ec)) {
    fs::remove_all(old, ec);
    if (::rename(final_dir.c_str(), old.c_str()) != 0) {
      return absl::InternalError(
          absl::StrCat("rename ", final_dir, ": ", std::strerror(errno)));
    }
  }
  if (::rename(tmp.c_str(), final_dir.c_str()) != 0) {
    return absl::InternalError(absl::StrCat("rename ", tmp, " -> ", final_dir,
                                            ": ", std::strerror(errno)));
  }
  fs::remove_all(old, ec);
  return absl::OkStatus();
}

}  // namespace

nlohmann::json BufferDifferences(const spirv::TestCase& tc,
                                 const oracles::Execution& expected,
                                 const oracles::Execution& actual,
                                 size_t limit) {
  nlohmann::json out = nlohmann::json::array();
  for (size_t a = 0; a < tc.args.size(); ++a) {
    if (!tc.args[a].is_result || a >= expected.buffers.size() ||
        a >= actual.buffers.size())
      continue;
    const auto& e = expected.buffers[a];
    const auto& x = actual.buffers[a];
    const size_t w = ElementBytes(tc.args[a].type);
    const size_t n = std::max(e.size(), x.size());
    for (size_t at = 0; at < n && out.size() < limit; at += w) {
      bool differs = false;
      for (size_t i = at; i < at + w && i < n; ++i) {
        if (i >= e.size() || i >= x.size() || e[i] != x[i]) differs = true;
      }
      if (!differs) continue;
      out.push_back({{"arg", a},
                     {"type", tc.args[a].type},
                     {"element", at / w},
                     {"byte_offset", at},
                     {"expected", Hex(e, at, w)},
                     {"actual", Hex(x, at, w)}});
    }
  }
  return out;
}

absl::Status WriteReducedBundle(const Finding& finding,
                                const ReducedBundle& b) {
  const std::string final_dir = finding.dir + "/reduced";
  const std::string tmp =
      absl::StrCat(finding.dir, "/.reduced-tmp-", ::getpid());
  std::error_code ec;
  fs::remove_all(tmp, ec);
  if (auto s = spirv::WriteTestCase(b.test_case, tmp); !s.ok()) return s;
  fs::create_directories(tmp + "/outputs", ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat(tmp, "/outputs: cannot create (", ec.message(), ")"));
  }
  std::string disassembly;
  if (auto text = spirv::Disassemble(b.test_case.module_words); text.ok()) {
    disassembly = *text;
    if (auto s = spirv::WriteTextFile(tmp + "/module.spvasm", disassembly);
        !s.ok())
      return s;
  }
  for (const auto& [target, execution] : b.executions) {
    nlohmann::json j = oracles::ExecutionToJson(execution);
    j["target"] = target;
    const std::string file = absl::StrCat(
        tmp, "/outputs/", oracles::TargetFileStem(target), ".json");
    if (auto s = spirv::WriteTextFile(file, spirv::DumpJson(j, 2) + "\n");
        !s.ok())
      return s;
  }
  nlohmann::json verdict = b.verdict.ToJson();
  if (b.verdict.kind == oracles::VerdictKind::kMismatch) {
    auto ref = b.executions.find("ref");
    auto act = b.executions.find(b.verdict.target);
    if (ref != b.executions.end() && act != b.executions.end()) {
      const nlohmann::json diff =
          BufferDifferences(b.test_case, ref->second, act->second);
      if (auto s = spirv::WriteTextFile(tmp + "/differences.json",
                                        spirv::DumpJson(diff, 2) + "\n");
          !s.ok())
        return s;
    }
  }
  if (auto s = spirv::WriteTextFile(tmp + "/verdict.json",
                                    spirv::DumpJson(verdict, 2) + "\n");
      !s.ok())
    return s;
  if (auto s = spirv::WriteTextFile(tmp + "/reduction.json",
                                    spirv::DumpJson(b.report, 2) + "\n");
      !s.ok())
    return s;
  const std::string repro = absl::StrCat(
      "#!/bin/sh\n# exit 1 = the finding reproduces\n", b.repro_command, "\n");
  if (auto s = spirv::WriteTextFile(tmp + "/repro.sh", repro); !s.ok())
    return s;
  ::chmod((tmp + "/repro.sh").c_str(), 0755);
  if (auto s = RenameInto(tmp, final_dir); !s.ok()) return s;

  // README: the reduced case first, the campaign's text after it.
  const std::string campaign_readme = finding.dir + "/README.campaign.md";
  if (!fs::exists(campaign_readme, ec) &&
      fs::exists(finding.dir + "/README.md", ec)) {
    fs::copy_file(finding.dir + "/README.md", campaign_readme, ec);
  }
  std::string original;
  if (auto bytes = spirv::ReadFileBytes(campaign_readme); bytes.ok())
    original.assign(bytes->begin(), bytes->end());
  std::string text = absl::StrFormat(
      "# %s on %s (reduced)\n\n%s\n\nSignature: `%s`  \nReduced from %u to "
      "%u function-body instructions; %u work-item(s). Seeds: %u.\n\n"
      "## Reproduce\n\n```sh\nsh reduced/repro.sh   # exit 1 = reproduces\n"
      "%s\n```\n\n"
      "`reduced/` holds the reduced case (`case.json`, `module.spv`, "
      "`argN.bin`, `module.spvasm`), `outputs/` what each target produced, "
      "`differences.json` (mismatches) the differing elements only, and "
      "`reduction.json` the reduction's figures.\n",
      oracles::VerdictKindName(b.verdict.kind), b.verdict.target,
      b.verdict.explanation.substr(0, 2000), b.verdict.signature,
      b.instructions_before, b.instructions_after,
      spirv::GlobalWorkItems(b.test_case.nd_range), finding.seeds.size(),
      b.repro_command);
  if (!disassembly.empty() &&
      std::count(disassembly.begin(), disassembly.end(), '\n') < 400) {
    absl::StrAppend(&text, "\n## Reduced kernel\n\n```\n", disassembly,
                    "```\n");
  }
  if (!original.empty())
    absl::StrAppend(&text, "\n---\n\n## The campaign's finding\n\n", original);
  const std::string readme_tmp =
      absl::StrCat(finding.dir, "/.README.md.tmp-", ::getpid());
  if (auto s = spirv::WriteTextFile(readme_tmp, text); !s.ok()) return s;
  if (::rename(readme_tmp.c_str(), (finding.dir + "/README.md").c_str()) != 0)
    return absl::InternalError(
        absl::StrCat("rename ", readme_tmp, ": ", std::strerror(errno)));
  return absl::OkStatus();
}

}  // namespace l0spv::reducers
