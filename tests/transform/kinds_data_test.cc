// The data, memory and decoration kinds: each applies on
// generated cases, keeps them valid with identical `ref` results, replays
// byte-identically, and refuses records whose precondition fails.
#include <map>
#include <string>
#include <vector>

#include "generators/kernel/generator.h"
#include "generators/transform/engine.h"
#include "generators/transform/registry.h"
#include "generators/transform/semantics_check.h"
#include "gtest/gtest.h"

namespace l0spv::generators::transform {
namespace {

spirv::TestCase Generated(uint64_t seed) {
  generators::kernel::GeneratorOptions g;
  g.seed = seed;
  auto tc = generators::kernel::GenerateTestCase(g);
  EXPECT_TRUE(tc.ok()) << tc.status();
  return *tc;
}

// The kinds under test; each runs with its enablers() (the kinds that
// create what it needs: variables, synonyms).
const char* const kKinds[] = {
    "obfuscate_constant_load",
    "obfuscate_constant_compute",
    "add_local_variable",
    "add_dead_store",
    "add_irrelevant_load",
    "phi_to_variable",
    "mirror_comparison",
    "invert_comparison",
    "add_fp_fast_math_none",
    "add_memory_operand",
    "access_chain_to_ptr_access_chain",
    "vectorize_scalars",
    "constant_to_spec_constant",
    "move_instruction",
    "load_via_copy_memory",
    "variable_to_phi",
    "pointer_round_trip_via_integer",
    "route_pointer_through_generic",
    "scalarize_vector_op",
    "add_alignment_decoration",
};

class DataKind : public testing::TestWithParam<const char*> {};

// Transforms seeds 100.. with the kind, its enablers and the synonym user;
// every result must pass CheckTransformed and replay byte-identically.
// Returns the logs.
std::vector<std::pair<spirv::TestCase, nlohmann::json>> ApplyOverSeeds(
    const std::string& kind, uint64_t seeds, uint64_t* applied) {
  std::vector<std::pair<spirv::TestCase, nlohmann::json>> logs;
  for (uint64_t seed = 100; seed < 100 + seeds; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    const spirv::TestCase original = Generated(seed);
    TransformOptions o;
    o.seed = seed;
    o.count = 20;
    o.kinds = KindAndEnablers(kind);
    EXPECT_FALSE(o.kinds.empty()) << kind << " is not registered";
    // Puts the synonym facts the kind adds to use: a false synonym then
    // changes the results.
    if (kind != "replace_id_with_synonym")
      o.kinds.push_back("replace_id_with_synonym");
    auto result = Transform(original, o);
    EXPECT_TRUE(result.ok()) << result.status();
    if (!result.ok()) continue;
    *applied += result->applied[kind];
    const absl::Status s = CheckTransformed(original, result->test_case);
    EXPECT_TRUE(s.ok()) << s << "\n" << result->log.dump();
    auto again = Replay(original, result->log);
    EXPECT_TRUE(again.ok()) << again.status();
    if (again.ok()) {
      EXPECT_EQ(again->test_case.module_words, result->test_case.module_words);
    }
    logs.emplace_back(original, result->log);
  }
  return logs;
}

TEST_P(DataKind, AppliesKeepsResultsAndReplays) {
  uint64_t applied = 0;
  ApplyOverSeeds(GetParam(), 8, &applied);
  EXPECT_GT(applied, 0u) << GetParam() << " never applied";
}

// A record of the kind replayed on another module (hash check off) either
// applies cleanly or fails its precondition: never a crash, never an
// invalid module.
TEST_P(DataKind, RecordsOnAnotherModuleFailCleanly) {
  uint64_t applied = 0;
  auto logs = ApplyOverSeeds(GetParam(), 3, &applied);
  ASSERT_FALSE(logs.empty());
  const spirv::TestCase other = Generated(9999);
  ReplayOptions ro;
  ro.check_module_hash = false;
  for (const auto& [original, log] : logs) {
    auto r = Replay(other, log, ro);
    if (!r.ok()) {
      EXPECT_TRUE(absl::IsFailedPrecondition(r.status()) ||
                  absl::IsInvalidArgument(r.status()))
          << r.status();
      continue;
    }
    const absl::Status s = CheckTransformed(other, r->test_case);
    EXPECT_TRUE(s.ok()) << s;
  }
}

std::string Name(const testing::TestParamInfo<const char*>& info) {
  return info.param;
}

INSTANTIATE_TEST_SUITE_P(Kinds, DataKind, testing::ValuesIn(kKinds), Name);

// The first applied record of `kind` over seeds 100.., with its case.
std::pair<spirv::TestCase, nlohmann::json> FirstRecord(
    const std::string& kind) {
  for (uint64_t seed = 100; seed < 140; ++seed) {
    const spirv::TestCase original = Generated(seed);
    TransformOptions o;
    o.seed = seed;
    o.count = 1;
    o.kinds = {kind};
    auto result = Transform(original, o);
    if (!result.ok()) continue;
    for (const nlohmann::json& r : result->log["records"])
      if (r["kind"] == kind) return {original, r};
  }
  ADD_FAILURE() << "no record of " << kind;
  return {};
}

// Replays one (edited) record on `original`; its status.
absl::Status ReplayOne(const spirv::TestCase& original, nlohmann::json r) {
  r.erase("fresh_ids");
  auto result = Replay(original, MakeLog(original.module_words, {r}));
  return result.status();
}

void ExpectFailedPrecondition(const spirv::TestCase& original,
                              const nlohmann::json& r) {
  const absl::Status s = ReplayOne(original, r);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s << "\n" << r.dump();
}

// Replay reports a record that does not apply as FailedPrecondition, with
// the kind's own reason in the message.
void ExpectRefused(const spirv::TestCase& original, const nlohmann::json& r,
                   const std::string& why) {
  const absl::Status s = ReplayOne(original, r);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s << "\n" << r.dump();
  EXPECT_NE(std::string(s.message()).find(why), std::string::npos)
      << s << " does not say '" << why << "'";
}

TEST(DataKindRecords, UnchangedRecordsReplay) {
  for (const char* kind : kKinds) {
    // FirstRecord runs the kind alone: one that needs enablers may not
    // apply.
    const Transformation* t = FindTransformation(kind);
    ASSERT_NE(t, nullptr) << kind;
    if (!t->enablers().empty()) continue;
    SCOPED_TRACE(kind);
    auto [original, r] = FirstRecord(kind);
    EXPECT_TRUE(ReplayOne(original, r).ok()) << r.dump();
  }
}

TEST(DataKindRecords, ConstantUsesThatAreNotConstants) {
  for (const char* kind :
       {"obfuscate_constant_load", "obfuscate_constant_compute"}) {
    SCOPED_TRACE(kind);
    auto [original, r] = FirstRecord(kind);
    // Operand 0 of the use: either not an integer constant or a different
    // one; a far-away operand index does not exist.
    nlohmann::json bad = r;
    bad["operand"] = 57;
    ExpectFailedPrecondition(original, bad);
    bad = r;
    bad["use"]["skip"] = 4000;
    ExpectFailedPrecondition(original, bad);
  }
}

TEST(DataKindRecords, LoadedConstantNeedsTheRightWord) {
  auto [original, r] = FirstRecord("obfuscate_constant_load");
  nlohmann::json bad = r;
  if (r["source"]["source"] == "buffer") {
    // Word past the end of the buffer.
    bad["source"]["word"] = 1u << 28;
    ExpectFailedPrecondition(original, bad);
  }
  bad = r;
  bad["source"]["param"] = 1;  // not a kernel argument
  ExpectFailedPrecondition(original, bad);
  bad = r;
  bad["source"] = {{"source", "constant"}};
  ExpectRefused(original, bad, "must be a buffer word or an argument");
}

TEST(DataKindRecords, ComputedConstantRejectsBadFields) {
  auto [original, r] = FirstRecord("obfuscate_constant_compute");
  nlohmann::json bad = r;
  bad["op"] = "mul";
  ExpectRefused(original, bad, "unknown operation 'mul'");
  bad = r;
  bad["op"] = 3;  // malformed
  ExpectRefused(original, bad, "malformed record");
  bad = r;
  bad["left"] = {{"source", "scalar"}, {"param", 1}};
  ExpectFailedPrecondition(original, bad);
}

TEST(DataKindRecords, LocalVariableNeedsAFunctionAndAConstant) {
  auto [original, r] = FirstRecord("add_local_variable");
  nlohmann::json bad = r;
  bad["function"] = 1;
  ExpectFailedPrecondition(original, bad);
  bad = r;
  bad["initializer"] = r["function"];  // a function is no initializer
  ExpectFailedPrecondition(original, bad);
}

TEST(DataKindRecords, StoresAndLoadsNeedAnIrrelevantVariable) {
  // Without the add_local_variable record before it, the variable does
  // not exist: the record fails cleanly.
  const spirv::TestCase original = Generated(100);
  TransformOptions o;
  o.seed = 1;
  o.count = 30;
  o.kinds = {"add_local_variable", "add_dead_store", "add_irrelevant_load"};
  auto result = Transform(original, o);
  ASSERT_TRUE(result.ok()) << result.status();
  int checked = 0;
  for (const nlohmann::json& r : result->log["records"]) {
    if (!r.contains("pointer")) continue;
    ExpectFailedPrecondition(original, r);
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(DataKindRecords, PhiToVariableNeedsAPhi) {
  auto [original, r] = FirstRecord("phi_to_variable");
  nlohmann::json bad = r;
  bad["phi"] = 1;
  ExpectFailedPrecondition(original, bad);
}

TEST(DataKindRecords, InstructionKindsNeedTheirOpcode) {
  for (const char* kind :
       {"mirror_comparison", "invert_comparison", "add_memory_operand",
        "access_chain_to_ptr_access_chain"}) {
    SCOPED_TRACE(kind);
    auto [original, r] = FirstRecord(kind);
    nlohmann::json bad = r;
    bad["instruction"]["opcode"] = 248;  // OpLabel never matches
    ExpectFailedPrecondition(original, bad);
  }
}

TEST(DataKindRecords, MemoryOperandAndAccessChainRefuseWrongVariants) {
  auto [original, r] = FirstRecord("add_memory_operand");
  nlohmann::json bad = r;
  bad["operand"] = "nontemporal";
  ExpectFailedPrecondition(original, bad);
  // Applying the same operand twice: the second record fails.
  nlohmann::json twice = r;
  twice.erase("fresh_ids");
  auto result =
      Replay(original, MakeLog(original.module_words, {twice, twice}));
  EXPECT_TRUE(absl::IsFailedPrecondition(result.status())) << result.status();

  auto [o2, chain] = FirstRecord("access_chain_to_ptr_access_chain");
  chain["in_bounds"] = true;
  chain.erase("fresh_ids");
  // A plain access chain cannot become in-bounds; an in-bounds one may.
  const absl::Status s = ReplayOne(o2, chain);
  EXPECT_TRUE(s.ok() || absl::IsFailedPrecondition(s)) << s;
}

TEST(DataKindRecords, FastMathModeOnlyOnce) {
  auto [original, r] = FirstRecord("add_fp_fast_math_none");
  r.erase("fresh_ids");
  auto result = Replay(original, MakeLog(original.module_words, {r, r}));
  EXPECT_TRUE(absl::IsFailedPrecondition(result.status())) << result.status();
  nlohmann::json bad = r;
  bad["target"] = 1;
  ExpectFailedPrecondition(original, bad);
}

TEST(DataKindRecords, VectorizeNeedsTwoToFourScalarsOfOneType) {
  const spirv::TestCase original = Generated(100);
  TransformOptions o;
  o.seed = 3;
  o.count = 5;
  o.kinds = {"vectorize_scalars"};
  auto result = Transform(original, o);
  ASSERT_TRUE(result.ok());
  ASSERT_FALSE(result->log["records"].empty());
  nlohmann::json r = result->log["records"][0];
  r.erase("fresh_ids");
  nlohmann::json bad = r;
  bad["ids"] =
      nlohmann::json::array({r["ids"][0]});  // not {x}: a copy under clang
  ExpectRefused(original, bad, "2 to 4 scalars");
  bad = r;
  bad["ids"][1] = 1;  // not a value
  ExpectFailedPrecondition(original, bad);
}

}  // namespace
}  // namespace l0spv::generators::transform
