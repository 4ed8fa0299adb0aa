// Golden tests of every transformation kind, in the manner of spirv-fuzz's
// transformation_*_test.cpp: one explicit record of the kind applied to a
// small hand-written kernel must give exactly the expected disassembly, a
// valid module and unchanged `ref` results; modules where the kind has
// nothing to do must stay untouched by it; tampered records must be refused.
// The data lives in tests/transform/golden/ (README.md there documents the
// layout and L0SPV_UPDATE_GOLDEN=1, which rewrites the expected files).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "generators/transform/engine.h"
#include "generators/transform/registry.h"
#include "generators/transform/semantics_check.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "spirv/file_io.h"
#include "spirv/json_reader.h"
#include "spirv/launch_spec.h"
#include "spirv/spirv_tools.h"

namespace l0spv::generators::transform {
namespace {

namespace fs = std::filesystem;

const std::string kGoldenDir = L0SPV_GOLDEN_DIR;

// L0SPV_UPDATE_GOLDEN=1 rewrites after.spvasm (and record.json/setup.json
// when missing or no longer applicable); =all also draws new records.
enum class Update { kNo, kExpected, kAll };
Update UpdateMode() {
  const char* v = std::getenv("L0SPV_UPDATE_GOLDEN");
  if (v == nullptr || std::string(v).empty() || std::string(v) == "0")
    return Update::kNo;
  return std::string(v) == "all" ? Update::kAll : Update::kExpected;
}

std::string KindDir(const std::string& kind) {
  return absl::StrCat(kGoldenDir, "/", kind);
}

// modules/<name>.spvasm assembled with its ids kept, launched as
// modules/<name>.json (the corpus sidecar format) says.
absl::StatusOr<spirv::TestCase> LoadModule(const std::string& name) {
  const std::string base = absl::StrCat(kGoldenDir, "/modules/", name);
  auto text = spirv::ReadTextFile(base + ".spvasm");
  if (!text.ok()) return text.status();
  auto words = spirv::Assemble(*text, SPV_ENV_UNIVERSAL_1_2);
  if (!words.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(base, ".spvasm: ", words.status().message()));
  auto sidecar = spirv::ReadJsonFile(base + ".json");
  if (!sidecar.ok()) return sidecar.status();
  return spirv::TestCaseFromSidecar(*sidecar, *std::move(words),
                                    base + ".json");
}

absl::StatusOr<std::string> Text(const spirv::TestCase& tc) {
  return spirv::Disassemble(tc.module_words, /*friendly_names=*/false);
}

// The disassembly without its "; Bound:" header line.
std::string WithoutBound(const std::string& text) {
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  std::erase_if(lines,
                [](const std::string& l) { return l.starts_with("; Bound:"); });
  return absl::StrJoin(lines, "\n");
}

// A line diff (longest common subsequence; the modules are small) of
// `expected` against `actual`, with two lines of context around changes.
std::string LineDiff(const std::string& expected, const std::string& actual,
                     const std::string& expected_name = "after.spvasm") {
  const std::vector<std::string> a = absl::StrSplit(expected, '\n');
  const std::vector<std::string> b = absl::StrSplit(actual, '\n');
  std::vector<std::vector<uint32_t>> lcs(a.size() + 1,
                                         std::vector<uint32_t>(b.size() + 1));
  for (size_t i = a.size(); i-- > 0;)
    for (size_t j = b.size(); j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1
                               : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  // Each line tagged ' ', '-' (expected only) or '+' (actual only).
  std::vector<std::pair<char, std::string>> lines;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      lines.emplace_back(' ', a[i++]);
      ++j;
    } else if (i < a.size() &&
               (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
      lines.emplace_back('-', a[i++]);
    } else {
      lines.emplace_back('+', b[j++]);
    }
  }
  std::string out = absl::StrCat("--- ", expected_name, "\n+++ actual\n");
  size_t printed = 0;  // one past the last line printed
  for (size_t k = 0; k < lines.size(); ++k) {
    bool near = false;
    for (size_t d = (k < 2 ? 0 : k - 2); d <= k + 2 && d < lines.size(); ++d)
      near = near || lines[d].first != ' ';
    if (!near) continue;
    if (k > printed) out += "...\n";
    absl::StrAppend(&out, std::string(1, lines[k].first), lines[k].second,
                    "\n");
    printed = k + 1;
  }
  return out;
}

// The golden data of one kind, as read from its directory.
struct Golden {
  nlohmann::json manifest;  // golden.json
  spirv::TestCase before;
  std::vector<nlohmann::json> setup;  // setup.json, or empty
  nlohmann::json record;              // record.json
};

// golden.json's shape: a misspelt key would silently drop a check.
absl::Status CheckManifest(const nlohmann::json& m, const std::string& where) {
  auto bad = [&](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": ", what));
  };
  if (!m.is_object()) return bad("expected an object");
  auto strings = [](const nlohmann::json& v) {
    if (!v.is_array()) return false;
    for (const nlohmann::json& e : v)
      if (!e.is_string()) return false;
    return true;
  };
  for (auto it = m.begin(); it != m.end(); ++it) {
    const std::string& key = it.key();
    const nlohmann::json& v = it.value();
    if (key == "before" || key == "applies_everywhere") {
      if (!v.is_string())
        return bad(absl::StrCat("\"", key, "\" must be a string"));
    } else if (key == "enablers" || key == "not_applicable") {
      if (!strings(v))
        return bad(absl::StrCat("\"", key, "\" must be an array of names"));
    } else if (key == "seed") {
      if (!v.is_number_unsigned())
        return bad("\"seed\" must be an unsigned integer");
    } else if (key == "refused") {
      if (!v.is_array()) return bad("\"refused\" must be an array");
      for (const nlohmann::json& t : v)
        if (!t.is_object() || !t.contains("patch") || !t["patch"].is_object() ||
            !t.contains("says") || !t["says"].is_string() || t.size() != 2)
          return bad(
              "each \"refused\" entry is {\"patch\": {...}, \"says\": "
              "\"...\"}");
    } else {
      return bad(
          absl::StrCat("unknown key \"", key, "\" (README.md lists the keys)"));
    }
  }
  if (!m.contains("before")) return bad("\"before\" must name a module");
  return absl::OkStatus();
}

absl::StatusOr<Golden> LoadGolden(const std::string& kind) {
  const std::string dir = KindDir(kind);
  Golden g;
  auto manifest = spirv::ReadJsonFile(dir + "/golden.json");
  if (!manifest.ok()) return manifest.status();
  g.manifest = *manifest;
  if (absl::Status s = CheckManifest(g.manifest, dir + "/golden.json"); !s.ok())
    return s;
  auto before = LoadModule(g.manifest["before"].get<std::string>());
  if (!before.ok()) return before.status();
  g.before = *std::move(before);
  if (fs::exists(dir + "/setup.json")) {
    auto setup = spirv::ReadJsonFile(dir + "/setup.json");
    if (!setup.ok()) return setup.status();
    if (!setup->is_array())
      return absl::InvalidArgumentError(
          absl::StrCat(dir, "/setup.json: expected an array of records"));
    g.setup = setup->get<std::vector<nlohmann::json>>();
  }
  if (fs::exists(dir + "/record.json")) {
    auto record = spirv::ReadJsonFile(dir + "/record.json");
    if (!record.ok()) return record.status();
    g.record = *record;
  }
  return g;
}

std::vector<std::string> Enablers(const Golden& g) {
  if (!g.manifest.contains("enablers")) return {};
  return g.manifest["enablers"].get<std::vector<std::string>>();
}

// Replays `setup` then `extra` (if not null) on the golden's module.
absl::StatusOr<spirv::TestCase> ReplayOn(const Golden& g,
                                         const nlohmann::json& extra) {
  std::vector<nlohmann::json> records = g.setup;
  if (!extra.is_null()) records.push_back(extra);
  auto r = Replay(g.before, MakeLog(g.before.module_words, records));
  if (!r.ok()) return r.status();
  return r->test_case;
}

// Draws a record of `kind` on the golden's module (after its enablers' own
// records, when it has enablers), and keeps only the setup records the
// kind's record needs.
absl::Status DrawRecord(const std::string& kind, Golden* g) {
  const std::vector<std::string> enablers = Enablers(*g);
  const uint64_t first_seed = g->manifest.value("seed", uint64_t{0});
  for (uint64_t seed = first_seed; seed < first_seed + 200; ++seed) {
    TransformOptions o;
    o.seed = seed;
    o.count = enablers.empty() ? 1 : 6;
    o.kinds = enablers;
    o.kinds.push_back(kind);
    auto result = Transform(g->before, o);
    if (!result.ok()) return result.status();
    std::vector<nlohmann::json> setup;
    for (const nlohmann::json& r : result->log["records"]) {
      if (r["kind"] != kind) {
        setup.push_back(r);
        continue;
      }
      g->record = r;
      g->setup = setup;
      // Greedy shrink: a setup record whose removal keeps the replay
      // working is not needed.
      for (size_t i = g->setup.size(); i-- > 0;) {
        Golden without = *g;
        without.setup.erase(without.setup.begin() + i);
        if (ReplayOn(without, g->record).ok()) g->setup = without.setup;
      }
      return absl::OkStatus();
    }
  }
  return absl::NotFoundError(absl::StrCat(kind, " proposed nothing on module ",
                                          g->manifest["before"].dump(),
                                          " in 200 seeds"));
}

absl::Status WriteGolden(const std::string& kind, const Golden& g,
                         const std::string& after) {
  const std::string dir = KindDir(kind);
  if (absl::Status s = spirv::WriteJsonFile(dir + "/record.json", g.record);
      !s.ok())
    return s;
  if (g.setup.empty()) {
    fs::remove(dir + "/setup.json");
  } else if (absl::Status s = spirv::WriteJsonFile(dir + "/setup.json",
                                                   nlohmann::json(g.setup));
             !s.ok()) {
    return s;
  }
  return spirv::WriteTextFile(dir + "/after.spvasm", after);
}

class GoldenKind : public testing::TestWithParam<std::string> {};

TEST_P(GoldenKind, RecordGivesExactlyTheExpectedModule) {
  const std::string kind = GetParam();
  const std::string dir = KindDir(kind);
  ASSERT_TRUE(fs::exists(dir + "/golden.json"))
      << kind << " has no golden test: create " << dir
      << "/golden.json (see tests/transform/golden/README.md)";
  auto golden = LoadGolden(kind);
  ASSERT_TRUE(golden.ok()) << golden.status();
  Golden& g = *golden;
  const Update update = UpdateMode();
  if (update != Update::kNo && (update == Update::kAll || g.record.is_null() ||
                                !ReplayOn(g, g.record).ok())) {
    const absl::Status drawn = DrawRecord(kind, &g);
    ASSERT_TRUE(drawn.ok()) << drawn;
  }
  ASSERT_FALSE(g.record.is_null())
      << dir << "/record.json is missing (L0SPV_UPDATE_GOLDEN=1 draws one)";
  ASSERT_EQ(g.record.value("kind", ""), kind)
      << "record.json is of another kind";
  ASSERT_TRUE(g.record.contains("fresh_ids") &&
              g.record["fresh_ids"].is_array())
      << "record.json must list its fresh_ids (the ids are part of the golden)";
  const std::vector<std::string> enablers = Enablers(g);
  for (const nlohmann::json& r : g.setup)
    ASSERT_TRUE(std::find(enablers.begin(), enablers.end(),
                          r.value("kind", "")) != enablers.end())
        << "setup.json holds a record of a kind golden.json does not list "
           "in \"enablers\": "
        << r.dump();

  auto before = ReplayOn(g, nullptr);
  ASSERT_TRUE(before.ok()) << "setup.json does not replay: " << before.status();
  auto after = ReplayOn(g, g.record);
  ASSERT_TRUE(after.ok()) << "record.json does not replay: " << after.status();
  auto before_text = Text(*before);
  auto after_text = Text(*after);
  ASSERT_TRUE(before_text.ok() && after_text.ok());

  if (update != Update::kNo) {
    ASSERT_TRUE(WriteGolden(kind, g, *after_text).ok());
    // Printed so the person updating reviews what the kind did.
    std::cout << "[golden] " << kind << " (before -> after):\n"
              << LineDiff(*before_text, *after_text, "before");
  }
  auto expected = spirv::ReadTextFile(dir + "/after.spvasm");
  ASSERT_TRUE(expected.ok()) << expected.status();
  // EXPECT_TRUE, not EXPECT_EQ: the line diff below is the readable report.
  EXPECT_TRUE(*expected == *after_text)
      << kind << ": the record no longer gives after.spvasm:\n"
      << LineDiff(*expected, *after_text)
      << "(if the change is intended, rerun with L0SPV_UPDATE_GOLDEN=1 and "
         "review the diff)";
  // Fresh ids alone raise the bound: a record must change an instruction.
  EXPECT_TRUE(WithoutBound(*before_text) != WithoutBound(*after_text))
      << kind << ": the record changed no instruction of the module";

  const absl::Status valid = spirv::Validate(after->module_words);
  EXPECT_TRUE(valid.ok()) << valid;
  const absl::Status same = CheckTransformed(g.before, *after);
  EXPECT_TRUE(same.ok()) << same;
}

// Transform with only this kind finds nothing to do on these modules.
TEST_P(GoldenKind, DoesNotApplyWhereItMustNot) {
  const std::string kind = GetParam();
  auto golden = LoadGolden(kind);
  ASSERT_TRUE(golden.ok()) << golden.status();
  const nlohmann::json& m = golden->manifest;
  const nlohmann::json modules =
      m.value("not_applicable", nlohmann::json::array());
  if (modules.empty()) {
    ASSERT_TRUE(m.contains("applies_everywhere"))
        << "golden.json needs a \"not_applicable\" module, or an "
           "\"applies_everywhere\" reason";
    // The claim is checked: the kind finds work even in the empty kernel.
    auto tc = LoadModule("empty");
    ASSERT_TRUE(tc.ok()) << tc.status();
    TransformOptions o;
    o.count = 1;
    o.kinds = {kind};
    auto result = Transform(*tc, o);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->applied[kind], 1u)
        << kind << " is said to apply everywhere (" << m["applies_everywhere"]
        << ") but did not apply on module empty";
    return;
  }
  for (const nlohmann::json& name : modules) {
    auto tc = LoadModule(name.get<std::string>());
    ASSERT_TRUE(tc.ok()) << tc.status();
    for (uint64_t seed = 0; seed < 20; ++seed) {
      TransformOptions o;
      o.seed = seed;
      o.count = 3;
      o.kinds = {kind};
      auto result = Transform(*tc, o);
      ASSERT_TRUE(result.ok()) << result.status();
      EXPECT_EQ(result->applied[kind], 0u)
          << kind << " applied on module " << name << " (seed " << seed
          << "): " << result->log["records"].dump();
    }
  }
}

// Each "refused" entry of golden.json is a JSON merge patch of record.json
// that the kind's Check must reject, saying why.
TEST_P(GoldenKind, RefusesTamperedRecords) {
  const std::string kind = GetParam();
  auto golden = LoadGolden(kind);
  ASSERT_TRUE(golden.ok()) << golden.status();
  const nlohmann::json refused =
      golden->manifest.value("refused", nlohmann::json::array());
  ASSERT_FALSE(refused.empty())
      << "golden.json of " << kind
      << " needs a \"refused\" entry: a patch of record.json that breaks its "
         "precondition";
  ASSERT_FALSE(golden->record.is_null());
  for (const nlohmann::json& t : refused) {
    nlohmann::json bad = golden->record;
    bad.merge_patch(t.at("patch"));
    auto r = ReplayOn(*golden, bad);
    ASSERT_FALSE(r.ok()) << "tampered record applied: " << bad.dump();
    EXPECT_TRUE(absl::IsFailedPrecondition(r.status()) ||
                absl::IsInvalidArgument(r.status()))
        << r.status();
    const std::string says = t.at("says").get<std::string>();
    EXPECT_NE(std::string(r.status().message()).find(says), std::string::npos)
        << r.status() << "\ndoes not say '" << says << "'";
  }
}

std::vector<std::string> KindNames() {
  std::vector<std::string> names;
  for (const Transformation* t : AllTransformations())
    names.emplace_back(t->kind());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Kinds, GoldenKind, testing::ValuesIn(KindNames()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

// A new kind cannot skip its golden, and a golden cannot outlive its kind.
TEST(GoldenDirectory, EveryKindHasOneAndEveryOneNamesAKind) {
  std::set<std::string> dirs;
  for (const fs::directory_entry& e : fs::directory_iterator(kGoldenDir))
    if (e.is_directory() && e.path().filename() != "modules")
      dirs.insert(e.path().filename().string());
  for (const std::string& kind : KindNames())
    EXPECT_TRUE(dirs.count(kind))
        << "kind " << kind << " has no directory " << KindDir(kind);
  for (const std::string& dir : dirs)
    EXPECT_NE(FindTransformation(dir), nullptr)
        << KindDir(dir) << " names no transformation kind";
}

// SPIR-V keeps an OpSampledImage in the block of its uses (cfg_util.h,
// SeparatesSampledImage). On modules/image, %29 = OpSampledImage is used by
// %30 = OpImageSampleExplicitLod: split_block's golden refuses a split
// before %30, and here a run-moving kind refuses a run starting at %30;
// records drawn from many seeds apply elsewhere and keep the module valid
// (spirv-val checks the same-block rule).
TEST(GoldenSampledImage, BlockCuttingKindsKeepItInTheBlockOfItsUse) {
  auto tc = LoadModule("image");
  ASSERT_TRUE(tc.ok()) << tc.status();
  for (const char* kind : {"split_block", "wrap_region_in_loop"}) {
    uint32_t applied = 0;
    nlohmann::json drawn;
    for (uint64_t seed = 0; seed < 20; ++seed) {
      TransformOptions o;
      o.seed = seed;
      o.count = 3;
      o.kinds = {kind};
      auto result = Transform(*tc, o);
      ASSERT_TRUE(result.ok()) << result.status();
      applied += result->applied[kind];
      if (drawn.is_null() && !result->log["records"].empty())
        drawn = result->log["records"][0];
      const absl::Status valid =
          spirv::Validate(result->test_case.module_words);
      EXPECT_TRUE(valid.ok())
          << kind << " seed " << seed << ": " << valid << "\n"
          << result->log["records"].dump();
    }
    EXPECT_GT(applied, 0u) << kind << " found nothing to do on module image";
    if (std::string(kind) != "wrap_region_in_loop") continue;
    ASSERT_FALSE(drawn.is_null());
    drawn["first"] =
        nlohmann::json::object({{"base", 30u}, {"opcode", 88u}, {"skip", 0u}});
    drawn["count"] = 1u;
    auto r = Replay(*tc, MakeLog(tc->module_words, {drawn}));
    ASSERT_FALSE(r.ok()) << "a run starting at the sample applied";
    EXPECT_TRUE(absl::IsFailedPrecondition(r.status())) << r.status();
    EXPECT_NE(
        r.status().message().find("separates an OpSampledImage from its use"),
        std::string::npos)
        << r.status();
  }
}

TEST(GoldenManifest, RefusesMisspeltOrMistypedKeys) {
  EXPECT_TRUE(CheckManifest({{"before", "arith"}}, "m").ok());
  for (const nlohmann::json& m : {
           nlohmann::json{{"before", "arith"}, {"not_aplicable", {"empty"}}},
           nlohmann::json{{"not_applicable", {"empty"}}},
           nlohmann::json{{"before", 3}},
           nlohmann::json{{"before", "arith"}, {"seed", -1}},
           nlohmann::json{{"before", "arith"},
                          {"enablers", "add_local_variable"}},
           nlohmann::json{{"before", "arith"},
                          {"refused", {{{"patch", {{"id", 1}}}}}}},
       }) {
    const absl::Status s = CheckManifest(m, "m");
    EXPECT_TRUE(absl::IsInvalidArgument(s)) << m.dump() << ": " << s;
  }
}

TEST(GoldenDiff, ShowsChangedLinesWithContextOnly) {
  const std::string d =
      LineDiff("a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nd\ne\nf\nx\n");
  EXPECT_NE(d.find(" e\n f\n-g\n+x\n"), std::string::npos) << d;
  // Lines far from the change are elided.
  EXPECT_EQ(d.find(" a\n"), std::string::npos) << d;
  EXPECT_NE(d.find("...\n"), std::string::npos) << d;
  EXPECT_EQ(LineDiff("a\n", "a\n").find('-', 4), std::string::npos);
}

}  // namespace
}  // namespace l0spv::generators::transform
