// The transformation engine: determinism, replay, and every error path
// (invalid input, unknown kinds, logs for another module, tampered or
// shrunken logs); the registry: unique kind names, enablers that name kinds.
#include "generators/transform/engine.h"

#include <set>

#include "generators/kernel/generator.h"
#include "generators/kernel/random.h"
#include "generators/transform/registry.h"
#include "generators/transform/semantics_check.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/consumers.h"

namespace l0spv::generators::transform {
namespace {

spirv::TestCase Generated(uint64_t seed) {
  generators::kernel::GeneratorOptions g;
  g.seed = seed;
  auto tc = generators::kernel::GenerateTestCase(g);
  EXPECT_TRUE(tc.ok()) << tc.status();
  return *tc;
}

TransformResult Transformed(const spirv::TestCase& tc, uint64_t seed,
                            uint32_t count = 100) {
  TransformOptions o;
  o.seed = seed;
  o.count = count;
  auto r = Transform(tc, o);
  EXPECT_TRUE(r.ok()) << r.status();
  return *r;
}

TEST(TransformEngine, SameSeedSameResult) {
  const spirv::TestCase tc = Generated(1);
  EXPECT_EQ(Transformed(tc, 7).test_case.module_words,
            Transformed(tc, 7).test_case.module_words);
  EXPECT_NE(Transformed(tc, 7).test_case.module_words,
            Transformed(tc, 8).test_case.module_words);
}

TEST(TransformEngine, ReplayIsByteIdenticalAndLogIsInTheCase) {
  const spirv::TestCase tc = Generated(2);
  const TransformResult r = Transformed(tc, 3);
  ASSERT_TRUE(r.test_case.transformation_log.has_value());
  EXPECT_GT(r.log["records"].size(), 0u);
  auto again = Replay(tc, *r.test_case.transformation_log);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->test_case.module_words, r.test_case.module_words);
  EXPECT_TRUE(again->skipped.empty());
}

TEST(TransformEngine, RejectsInvalidModule) {
  spirv::TestCase tc = Generated(3);
  tc.module_words.resize(tc.module_words.size() - 3);
  auto r = Transform(tc, {});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(r.status())) << r.status();
}

TEST(TransformEngine, RejectsMissingEntryPoint) {
  spirv::TestCase tc = Generated(3);
  tc.entry_point = "no_such_kernel";
  auto r = Transform(tc, {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no_such_kernel"), std::string::npos);
}

TEST(TransformEngine, RejectsUnknownKind) {
  TransformOptions o;
  o.kinds = {"frobnicate"};
  auto r = Transform(Generated(4), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("frobnicate"), std::string::npos);
  EXPECT_NE(r.status().message().find("split_block"), std::string::npos)
      << "the error lists the kinds";
}

// A kind whose known bug a target of the case has is refused; the same kind
// is fine when the entry is open on none of the case's releases (a
// campaign's CaseRoute::allowed_bugs), as the generator's gates are.
TEST(TransformEngine, AKindGatedByAnEntryIsAllowedWhereTheEntryIsNotOpen) {
  TransformOptions o;
  o.seed = 3;
  o.count = 20;
  o.kinds = {"add_composite_self_copy"};
  o.avoid_known_bugs = oracles::kConsumerIgc;
  auto refused = Transform(Generated(4), o);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("known bug"), std::string::npos)
      << refused.status();
  o.allowed_bugs = {oracles::KnownBugId::kIgcVolatileWholeComposite};
  auto allowed = Transform(Generated(4), o);
  EXPECT_TRUE(allowed.ok()) << allowed.status();
  // Another family's entry in `allowed_bugs` does not lift IGC's.
  o.allowed_bugs = {oracles::KnownBugId::kPoclPowNan};
  EXPECT_FALSE(Transform(Generated(4), o).ok());
}

TEST(TransformEngine, RefusesLogOfAnotherModule) {
  const spirv::TestCase a = Generated(5), b = Generated(6);
  const TransformResult r = Transformed(a, 1);
  auto replay = Replay(b, r.log);
  ASSERT_FALSE(replay.ok());
  EXPECT_NE(replay.status().message().find("another module"),
            std::string::npos);
}

TEST(TransformEngine, RejectsNonLogs) {
  const spirv::TestCase tc = Generated(5);
  for (const char* text :
       {"[]", "{}", R"({"format":"l0spv-transform-log/1"})",
        R"({"format":"l0spv-transform-log/1","records":[3]})",
        R"({"format":"other","records":[]})"}) {
    auto replay = Replay(tc, nlohmann::json::parse(text));
    EXPECT_FALSE(replay.ok()) << text;
    EXPECT_TRUE(absl::IsInvalidArgument(replay.status())) << replay.status();
  }
}

TEST(TransformEngine, UnknownKindInLogIsAnError) {
  const spirv::TestCase tc = Generated(5);
  nlohmann::json log = MakeLog(tc.module_words, {{{"kind", "frobnicate"}}});
  auto replay = Replay(tc, log);
  ASSERT_FALSE(replay.ok());
  EXPECT_NE(replay.status().message().find("frobnicate"), std::string::npos);
}

TEST(TransformEngine, TamperedRecordsAreErrorsNotCrashes) {
  const spirv::TestCase tc = Generated(7);
  const TransformResult r = Transformed(tc, 2, 60);
  auto records = LogRecords(r.log);
  ASSERT_TRUE(records.ok());
  // Damage every field of every record in turn: a wrong type, an id the
  // module does not define, a huge number. None may crash; each either
  // fails cleanly or (when the field does not matter) still applies.
  for (size_t i = 0; i < records->size(); ++i) {
    for (auto& [field, value] : (*records)[i].items()) {
      if (field == "kind") continue;
      for (const nlohmann::json& bad :
           {nlohmann::json("text"), nlohmann::json(999999u),
            nlohmann::json::array(), nlohmann::json(-1)}) {
        std::vector<nlohmann::json> damaged = *records;
        damaged[i][field] = bad;
        auto replay = Replay(tc, MakeLog(tc.module_words, damaged));
        if (replay.ok()) {
          EXPECT_TRUE(CheckTransformed(tc, replay->test_case).ok())
              << "record " << i << " field " << field;
        }
        auto lenient = Replay(tc, MakeLog(tc.module_words, damaged),
                              {.skip_inapplicable = true});
        if (lenient.ok()) {
          EXPECT_TRUE(CheckTransformed(tc, lenient->test_case).ok())
              << "record " << i << " field " << field;
        }
      }
      break;  // one field per record keeps the test fast
    }
  }
}

TEST(TransformEngine, FreshIdAlreadyDefinedIsRefused) {
  const spirv::TestCase tc = Generated(8);
  const TransformResult r = Transformed(tc, 4, 30);
  auto records = LogRecords(r.log);
  ASSERT_TRUE(records.ok());
  for (size_t i = 0; i < records->size(); ++i) {
    if ((*records)[i]["fresh_ids"].empty()) continue;
    (*records)[i]["fresh_ids"][0] = 1;  // id 1 is always defined
    auto replay = Replay(tc, MakeLog(tc.module_words, *records));
    ASSERT_FALSE(replay.ok());
    EXPECT_NE(replay.status().message().find("already defined"),
              std::string::npos)
        << replay.status();
    return;
  }
  GTEST_SKIP() << "no record with fresh ids";
}

// The reducer shrinks logs: any subset of a log, replayed leniently, must
// still give a valid module with the original's results.
TEST(TransformEngine, SubsetsOfALogStillPreserveSemantics) {
  for (uint64_t seed = 0; seed < 12; ++seed) {
    SCOPED_TRACE(seed);
    const spirv::TestCase tc = Generated(100 + seed);
    const TransformResult r = Transformed(tc, seed, 120);
    auto records = LogRecords(r.log);
    ASSERT_TRUE(records.ok());
    generators::kernel::Rng rng(seed);
    for (int round = 0; round < 3; ++round) {
      std::vector<nlohmann::json> kept;
      for (const nlohmann::json& rec : *records)
        if (rng.OneIn(2)) kept.push_back(rec);
      auto replay = Replay(tc, MakeLog(tc.module_words, kept),
                           {.skip_inapplicable = true});
      ASSERT_TRUE(replay.ok()) << replay.status();
      const absl::Status s = CheckTransformed(tc, replay->test_case);
      EXPECT_TRUE(s.ok()) << s << " (round " << round << ", "
                          << replay->skipped.size() << " skipped)";
    }
  }
}

// Facts declared on the kinds name real kinds: an enabler that is renamed
// or removed would otherwise silently stop enabling anything.
TEST(TransformRegistry, EveryEnablerIsARegisteredKind) {
  size_t declared = 0;
  for (const Transformation* t : AllTransformations()) {
    std::set<std::string_view> seen;
    for (std::string_view e : t->enablers()) {
      EXPECT_NE(FindTransformation(e), nullptr)
          << t->kind() << " names the unknown enabler " << e;
      EXPECT_NE(e, t->kind()) << t->kind() << " enables itself";
      EXPECT_TRUE(seen.insert(e).second)
          << t->kind() << " names " << e << " twice";
      ++declared;
    }
  }
  EXPECT_GT(declared, 0u);
}

TEST(TransformRegistry, KindNamesAreUnique) {
  std::set<std::string_view> names;
  for (const Transformation* t : AllTransformations())
    EXPECT_TRUE(names.insert(t->kind()).second) << t->kind() << " twice";
}

TEST(TransformRegistry, KindAndEnablers) {
  const std::vector<std::string> kinds = KindAndEnablers("add_dead_store");
  ASSERT_FALSE(kinds.empty());
  EXPECT_EQ(kinds[0], "add_dead_store");
  EXPECT_EQ(kinds.size(),
            1 + FindTransformation("add_dead_store")->enablers().size());
  EXPECT_EQ(KindAndEnablers("split_block"),
            std::vector<std::string>{"split_block"});
  EXPECT_TRUE(KindAndEnablers("frobnicate").empty());
}

}  // namespace
}  // namespace l0spv::generators::transform
