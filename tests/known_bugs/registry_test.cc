// The registry (corpora/known-consumer-bugs/registry.json) as data: it
// parses, every entry has a reproducer that builds, gate ids follow it,
// consumers of entries and targets, malformed registries are errors naming
// the field, and a reproducer's own module is matched back to its entry.
#include "oracles/known_bugs/registry.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/image_format_bugs.h"
#include "oracles/known_bugs/reproduce.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_kinds.h"
#include "reducers/known_match.h"
#include "spirv/image_format.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;

TEST(KnownBugRegistry, EmbeddedRegistryParsesAndEveryReproducerBuilds) {
  const auto& registry = EmbeddedKnownBugs();
  ASSERT_TRUE(registry.ok()) << registry.status();
  ASSERT_EQ(registry->bugs.size(), kKnownBugCount);
  for (const KnownBug& b : registry->bugs) {
    SCOPED_TRACE(b.name);
    EXPECT_FALSE(b.sidecar.empty());
    EXPECT_TRUE(!b.spvasm.empty() || !b.opencl_c.empty());
    EXPECT_NE(b.consumers & b.consumer, 0u);
    if (b.duplicate_of) {
      EXPECT_NE(registry->Find(*b.duplicate_of), nullptr);
    }
    if (!b.spvasm.empty()) {
      auto tc = ReproducerCase(b);
      EXPECT_TRUE(tc.ok()) << tc.status();
    }
  }
}

// A linker bug's reproducer holds several modules; each after the first
// becomes a linked module of the case, and ref links them.
TEST(KnownBugRegistry, ALinkerReproducerHasItsModules) {
  const KnownBug* bug = KnownBugOf(KnownBugId::kOclocLinkShuffleMixedWidths);
  ASSERT_NE(bug, nullptr);
  auto tc = ReproducerCase(*bug);
  ASSERT_TRUE(tc.ok()) << tc.status();
  ASSERT_EQ(tc->linked_modules.size(), 1u);
  auto ref = MakeTarget("ref");
  ASSERT_TRUE(ref.ok());
  TargetRunLimits limits;
  const Execution e = (*ref)->Run(*tc, limits);
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const std::vector<uint8_t> expected = {0,  0, 0, 0, 0,  0, 0, 0,
                                         20, 0, 0, 0, 30, 0, 0, 0};
  ASSERT_EQ(e.buffers.size(), 1u);
  EXPECT_EQ(e.buffers[0], expected);
  // A module that does not assemble is named by its position.
  KnownBug broken = *bug;
  broken.spvasm = std::string(bug->spvasm) + "OpNoSuchThing\n";
  auto bad = ReproducerCase(broken);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("(its module 2)"));
}

TEST(KnownBugRegistry, GateIdsFollowTheRegistry) {
  ASSERT_NE(KnownBugOf(KnownBugId::kPoclTruncNan), nullptr);
  EXPECT_EQ(KnownBugOf(KnownBugId::kPoclTruncNan)->name, "pocl_trunc_nan");
  EXPECT_EQ(KnownBugOf(KnownBugId::kSpirvOptSmodFold)->name,
            "spirv_opt_smod_fold");
  EXPECT_EQ(ConsumersOf(KnownBugId::kPoclTruncNan), kConsumerPocl);
  // also_affects: one reproducer, two consumers.
  EXPECT_EQ(ConsumersOf(KnownBugId::kCopyMemoryTyped),
            kConsumerIgc | kConsumerLlvmSpirv);
  EXPECT_EQ(ConsumersOf({KnownBugId::kPoclHalfMath, KnownBugId::kOclgrindHalf}),
            kConsumerPocl | kConsumerOclgrind);
}

TEST(KnownBugRegistry, ImageFormatsWithFiledBugsOfAvoidedConsumers) {
  namespace co = spirv::channel_order;
  namespace ct = spirv::channel_type;
  EXPECT_EQ(KnownBugOfImageFormat(co::kR, ct::kSignedInt32, kConsumerPocl),
            KnownBugId::kPoclImageRAlpha);
  EXPECT_EQ(KnownBugOfImageFormat(co::kR, ct::kSignedInt32, kConsumerOclgrind),
            std::nullopt);
  EXPECT_EQ(KnownBugOfImageFormat(co::kRGBA, ct::kUnsignedInt16,
                                  ConsumersOfTarget("oclgrind")),
            KnownBugId::kLlvmSpirvImageUnsigned);
  // Several apply: the first in the list.
  EXPECT_EQ(KnownBugOfImageFormat(co::kR, ct::kUnsignedInt8, kAllConsumers),
            KnownBugId::kLlvmSpirvImageUnsigned);
  EXPECT_EQ(KnownBugOfImageFormat(co::kRGBA, ct::kUnormInt8, kAllConsumers),
            std::nullopt);
  EXPECT_EQ(KnownBugOfImageFormat(co::kR, ct::kHalfFloat, 0), std::nullopt);
}

TEST(KnownBugRegistry, TargetsMapToTheConsumersTheyExercise) {
  EXPECT_EQ(ConsumersOfTarget("ref"), 0u);
  EXPECT_EQ(ConsumersOfTarget("ocloc:tgllp"), kConsumerIgc);
  EXPECT_EQ(ConsumersOfTarget("gpu"), kConsumerIgc);
  EXPECT_EQ(ConsumersOfTarget("oclgrind"),
            kConsumerOclgrind | kConsumerLlvmSpirv);
  EXPECT_EQ(ConsumersOfTarget("opencl:Portable Computing Language"),
            kConsumerPocl | kConsumerLlvmSpirv);
  EXPECT_EQ(ConsumersOfTarget("opencl:Intel(R) OpenCL Graphics"), kConsumerIgc);
  EXPECT_EQ(ConsumersOfTarget("spirv-opt:ccp"), kConsumerSpirvOpt);
  EXPECT_EQ(ConsumersOfTarget("something-new"), kAllConsumers);
}

constexpr char kEntry[] = R"({"name": "x", "consumer": "pocl",
  "version": "1", "kind": "crash", "status": "open", "duplicate_of": null,
  "root_cause": "r", "how_found": {"method": "campaign", "seeds": [7],
  "targets": ["opencl"], "date": "2026-11-22"}, "target": "opencl",
  "verdict": "crash", "gates": []})";

std::string Registry(const std::string& entries) {
  return R"({"format": "l0spv-known-bugs/2", "bugs": [)" + entries + "]}";
}

TEST(KnownBugRegistry, AWellFormedDocumentParses) {
  auto r = ParseKnownBugRegistry(Registry(kEntry), "r.json");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->bugs[0].consumer, kConsumerPocl);
  EXPECT_EQ(r->bugs[0].how_found.method, "campaign");
  EXPECT_EQ(r->bugs[0].how_found.seeds, std::vector<int64_t>{7});
  EXPECT_EQ(r->bugs[0].how_found.targets, std::vector<std::string>{"opencl"});
  EXPECT_EQ(r->bugs[0].how_found.date, "2026-11-22");
  EXPECT_EQ(r->bugs[0].how_found.command, "");
}

// Every embedded entry says how to find it again: a method, a target and a
// date, and never a round of work instead.
TEST(KnownBugRegistry, EveryEmbeddedEntryHasHowFound) {
  const auto& r = EmbeddedKnownBugs();
  ASSERT_TRUE(r.ok()) << r.status();
  for (const KnownBug& b : r->bugs) {
    EXPECT_FALSE(b.how_found.method.empty()) << b.name;
    EXPECT_FALSE(b.how_found.targets.empty()) << b.name;
    EXPECT_EQ(b.how_found.date.size(), 10u) << b.name;
    if (!b.how_found.command.empty()) {
      EXPECT_TRUE(absl::StartsWith(b.how_found.command, "l0spv-fuzz "))
          << b.name << ": " << b.how_found.command;
    }
  }
}

struct BadRegistry {
  std::string from, to, fragment;
};
class KnownBugRegistryErrors : public ::testing::TestWithParam<BadRegistry> {};

TEST_P(KnownBugRegistryErrors, NameTheFieldAndTheFile) {
  std::string entry = kEntry;
  const size_t at = entry.find(GetParam().from);
  ASSERT_NE(at, std::string::npos);
  entry.replace(at, GetParam().from.size(), GetParam().to);
  auto r = ParseKnownBugRegistry(Registry(entry), "r.json");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("r.json"));
  EXPECT_THAT(r.status().message(), HasSubstr(GetParam().fragment));
}

INSTANTIATE_TEST_SUITE_P(
    Fields, KnownBugRegistryErrors,
    ::testing::Values(
        BadRegistry{R"("pocl")", R"("intel")", "field 'bugs[0].consumer'"},
        BadRegistry{R"("open")", R"("closed")", "field 'bugs[0].status'"},
        BadRegistry{R"("kind": "crash")", R"("kind": 3)",
                    "field 'bugs[0].kind'"},
        BadRegistry{R"("duplicate_of": null)", R"("duplicate_of": "y")",
                    "duplicate_of \"y\" is not an entry"},
        BadRegistry{R"("verdict": "crash")", R"("verdict": "boom")",
                    "field 'bugs[0].verdict'"},
        BadRegistry{R"("root_cause": "r",)", "", "field 'bugs[0].root_cause'"},
        BadRegistry{R"("how_found": {"method": "campaign",)",
                    R"("found_by": "x", "how_found": {)",
                    "field 'bugs[0].how_found.method'"},
        BadRegistry{R"("how_found": {"method": "campaign", "seeds": [7],
  "targets": ["opencl"], "date": "2026-11-22"})",
                    R"("how_found": "a campaign")",
                    "field 'bugs[0].how_found'"},
        BadRegistry{R"("method": "campaign")", R"("method": "luck")",
                    "field 'bugs[0].how_found.method'"},
        BadRegistry{R"("seeds": [7])", R"("seeds": ["7"])",
                    "field 'bugs[0].how_found.seeds[0]'"},
        BadRegistry{R"("targets": ["opencl"])", R"("targets": [])",
                    "expected at least one target"},
        BadRegistry{R"("date": "2026-11-22")", R"("date": "last week")",
                    "expected a date YYYY-MM-DD"},
        BadRegistry{R"("date": "2026-11-22")", R"("date": "2026-13-01")",
                    "expected a date YYYY-MM-DD"},
        BadRegistry{R"(, "date": "2026-11-22")", "",
                    "field 'bugs[0].how_found.date'"},
        BadRegistry{R"("version": "1",)", R"("version": "1", "not_on": "2",)",
                    "field 'bugs[0].not_on'"},
        BadRegistry{R"("version": "1",)", R"("version": "1", "not_on": [2],)",
                    "field 'bugs[0].not_on[0]'"},
        BadRegistry{R"("version": "1",)", R"("version": "1", "not_on": ["1"],)",
                    "the recorded version cannot be one the bug is not on"},
        BadRegistry{R"("gates": [])", R"("gates": "none")",
                    "field 'bugs[0].gates'"},
        BadRegistry{R"("gates": [])",
                    R"("gates": [], "consumer_env": ["POCL_X=1"])",
                    "field 'bugs[0].consumer_env'"},
        BadRegistry{R"("gates": [])",
                    R"("gates": [], "consumer_env": {"POCL_X": 1})",
                    "field 'bugs[0].consumer_env.POCL_X'"},
        BadRegistry{R"("gates": [])",
                    R"("gates": [], "consumer_env": {"pocl x": "1"})",
                    "expected an environment variable name"}));

TEST(KnownBugRegistry, TwoEntriesWithOneNameAreAnError) {
  auto r = ParseKnownBugRegistry(Registry(std::string(kEntry) + "," + kEntry),
                                 "r.json");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("listed twice"));
}

// The label MatchKnownBug gives a finding on spirv-opt 2023.1's ccp pass
// (the release the spirv-opt entries were recorded on) whose module is
// `entry`'s reproducer: the entry's name when certain, "possibly:NAME"
// when only one of signature and construct held, "" = new.
std::string MatchOnCcp(KnownBugId entry, const std::string& kind) {
  const KnownBug* bug = KnownBugOf(entry);
  if (bug == nullptr) return "no such entry";
  auto tc = ReproducerCase(*bug);
  if (!tc.ok()) return std::string(tc.status().message());
  reducers::Finding f;
  f.kind = kind;
  f.target = "spirv-opt:ccp@2023.1";
  f.signature = kind + ":spirv-opt:ccp:" + (kind == "mismatch" ? "arg0" : "");
  f.test_case = *tc;
  auto match = reducers::MatchKnownBug(f);
  if (!match.ok()) return std::string(match.status().message());
  if (!match->has_value()) return "";
  return (*match)->certain ? (*match)->name : "possibly:" + (*match)->name;
}

// A finding whose module is an entry's reproducer is that entry (by
// signature where the consumer is installed, else by construct).
TEST(KnownBugMatch, AReproducerIsMatchedToItsEntry) {
  EXPECT_EQ(MatchOnCcp(KnownBugId::kSpirvOptSmodFold, "mismatch"),
            "spirv_opt_smod_fold");
}

// spirv-opt 2023.1's ccp miscompiles the smod reproducer whatever the
// finding's module holds: a mismatch of another construct is not that bug
// (a signature alone makes it "possibly known", counted as new).
TEST(KnownBugMatch, AMismatchWithoutTheEntrysConstructIsNew) {
  EXPECT_EQ(MatchOnCcp(KnownBugId::kPoclTruncNan, "mismatch"),
            "possibly:spirv_opt_smod_fold");
}

TEST(KnownBugMatch, AnotherVerdictKindIsNotMatched) {
  EXPECT_EQ(MatchOnCcp(KnownBugId::kSpirvOptSmodFold, "timeout"), "");
}

}  // namespace
}  // namespace l0spv::oracles
