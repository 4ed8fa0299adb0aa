// The control-flow and function transformation kinds: each applies on
// generated cases, keeps them valid and ref-identical, replays byte for
// byte, and refuses records whose precondition fails.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "generators/kernel/generator.h"
#include "generators/transform/engine.h"
#include "generators/transform/registry.h"
#include "generators/transform/semantics_check.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/binary.h"
#include "spirv/ir_edit.h"
#include "spirv/spirv_tools.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::generators::transform {
namespace {

spirv::TestCase Generate(uint64_t seed) {
  generators::kernel::GeneratorOptions options;
  options.seed = seed;
  options.max_statements = 30;
  auto tc = generators::kernel::GenerateTestCase(options);
  EXPECT_TRUE(tc.ok()) << tc.status();
  return tc.ok() ? *tc : spirv::TestCase{};
}

// Each kind runs with its enablers() (e.g. dead blocks for calls from dead
// code).
class CfgKindTest : public ::testing::TestWithParam<const char*> {};

TEST_P(CfgKindTest, AppliesPreservesAndReplays) {
  const std::string kind = GetParam();
  uint32_t applied = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const spirv::TestCase original = Generate(seed);
    TransformOptions options;
    options.seed = seed;
    options.count = 20;
    options.kinds = KindAndEnablers(kind);
    ASSERT_FALSE(options.kinds.empty()) << kind << " is not registered";
    auto result = Transform(original, options);
    ASSERT_TRUE(result.ok()) << result.status();
    auto it = result->applied.find(kind);
    if (it == result->applied.end()) continue;
    applied += it->second;
    EXPECT_TRUE(CheckTransformed(original, result->test_case).ok())
        << kind << " seed " << seed << ": "
        << CheckTransformed(original, result->test_case);
    auto again = Replay(original, result->log);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(again->test_case.module_words, result->test_case.module_words)
        << kind << " seed " << seed << " does not replay byte-identically";
  }
  EXPECT_GT(applied, 0u) << kind << " never applied on 10 generated cases";
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, CfgKindTest,
    ::testing::Values("invert_branch_condition", "merge_blocks",
                      "reorder_blocks", "select_to_branch", "split_switch",
                      "permute_switch_cases", "wrap_region_in_loop",
                      "duplicate_region_under_opaque_true", "add_parameter",
                      "permute_parameters", "change_function_control",
                      "toggle_selection_control", "toggle_loop_control",
                      "add_barrier", "inline_call", "outline_region",
                      "add_function_called_from_dead_code"),
    [](const ::testing::TestParamInfo<const char*>& info) {
      return std::string(info.param);
    });

// Landmarks of a generated module for hand-written records.
struct Landmarks {
  uint32_t kernel = 0;         // the kernel's function id
  uint32_t entry_label = 0;    // its entry block
  uint32_t return_label = 0;   // a block ending in OpReturn
  uint32_t return_opcode = 0;  // OpReturn
  uint32_t some_label = 0;     // another block of the kernel
  uint32_t constant = 0;       // a module-scope constant
  uint32_t loop_header = 0;    // a kernel block with OpLoopMerge, or 0
};

Landmarks Find(const spirv::TestCase& tc) {
  Landmarks l;
  auto m = spirv::ReadModuleWords(tc.module_words);
  EXPECT_TRUE(m.ok());
  for (const spirv::Function& f : m->functions)
    if (f.id() == m->entry_points[0].word(1)) l.kernel = f.id();
  const spirv::Function& k = *m->FindFunction(l.kernel);
  l.entry_label = k.blocks[0].id();
  l.some_label = k.blocks.back().id();
  for (const spirv::BasicBlock& bb : k.blocks)
    if (bb.terminator()->opcode() == static_cast<uint32_t>(spv::Op::OpReturn))
      l.return_label = bb.id();
  for (const spirv::BasicBlock& bb : k.blocks)
    for (const spirv::Instruction& inst : bb.instructions)
      if (inst.opcode() == static_cast<uint32_t>(spv::Op::OpLoopMerge))
        l.loop_header = bb.id();
  l.return_opcode = static_cast<uint32_t>(spv::Op::OpReturn);
  for (const spirv::Instruction& inst : m->types_values)
    if (inst.opcode() == static_cast<uint32_t>(spv::Op::OpConstant))
      l.constant = inst.result_id();
  return l;
}

absl::Status ReplayOne(const spirv::TestCase& tc, nlohmann::json record) {
  auto r = Replay(tc, MakeLog(tc.module_words, {std::move(record)}));
  return r.ok() ? absl::OkStatus() : r.status();
}

TEST(CfgKindNegativeTest, FailedPreconditionsAreRefused) {
  // A case whose kernel has a loop (a barrier in a loop header is refused).
  spirv::TestCase tc;
  Landmarks l;
  for (uint64_t seed = 1; seed < 400 && l.loop_header == 0; ++seed) {
    tc = Generate(seed);
    l = Find(tc);
  }
  ASSERT_NE(l.loop_header, 0u);
  ASSERT_NE(l.return_label, 0u);
  const nlohmann::json ret_desc = {
      {"base", l.return_label}, {"opcode", l.return_opcode}, {"skip", 0}};
  const std::vector<nlohmann::json> records = {
      // Block-terminator family: a block ending in OpReturn fits none.
      {{"kind", "invert_branch_condition"}, {"block", l.return_label}},
      {{"kind", "merge_blocks"}, {"block", l.return_label}},
      {{"kind", "split_switch"},
       {"block", l.return_label},
       {"cases", 1},
       {"moved", {0}}},
      {{"kind", "permute_switch_cases"},
       {"block", l.return_label},
       {"permutation", {1, 0}}},
      {{"kind", "toggle_selection_control"},
       {"block", l.return_label},
       {"control", 1}},
      {{"kind", "toggle_loop_control"},
       {"block", l.return_label},
       {"control", 2}},
      // Not a block at all.
      {{"kind", "invert_branch_condition"}, {"block", l.kernel}},
      // Block order: the entry block never moves.
      {{"kind", "reorder_blocks"},
       {"block", l.entry_label},
       {"after", l.some_label}},
      // Instruction family: not a select / a run reaching the terminator.
      {{"kind", "select_to_branch"}, {"select", l.constant}},
      {{"kind", "wrap_region_in_loop"},
       {"first", ret_desc},
       {"count", 1},
       {"condition", {{"source", "constant"}}}},
      {{"kind", "duplicate_region_under_opaque_true"},
       {"first", ret_desc},
       {"count", 1},
       {"condition", {{"source", "constant"}}}},
      // Function family: the kernel is an entry point; a label is no
      // function.
      {{"kind", "add_parameter"},
       {"function", l.kernel},
       {"type", "u32"},
       {"value", 1}},
      {{"kind", "permute_parameters"},
       {"function", l.kernel},
       {"permutation", {1, 0}}},
      {{"kind", "change_function_control"},
       {"function", l.entry_label},
       {"control", 1}},
      // Inlining: a constant is no call.
      {{"kind", "inline_call"}, {"call", l.constant}},
      // Outlining: a run reaching the terminator.
      {{"kind", "outline_region"}, {"first", ret_desc}, {"count", 1}},
      // Dead-code family: the entry block is not dead.
      {{"kind", "add_function_called_from_dead_code"},
       {"block", l.entry_label},
       {"copy_of", 0}},
      // Barriers: never on a cycle (before a loop header's merge).
      {{"kind", "add_barrier"},
       {"before",
        {{"base", l.loop_header},
         {"opcode", static_cast<uint32_t>(spv::Op::OpLoopMerge)},
         {"skip", 0}}}},
  };
  for (const nlohmann::json& r : records) {
    const absl::Status s = ReplayOne(tc, r);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition)
        << r.dump() << " → " << s;
  }
}

// The form of llvm_spirv_exported_helper_param_order: a helper exported
// (export_function), then its parameters permuted — allowed only while the
// case is one module.
TEST(CfgKindTest, PermuteParametersTakesAnExportedHelperOfOneModule) {
  spirv::TestCase tc;
  uint32_t helper = 0;
  std::vector<uint32_t> reversed;
  for (uint64_t seed = 1; seed < 400 && helper == 0; ++seed) {
    tc = Generate(seed);
    auto m = spirv::ReadModuleWords(tc.module_words);
    ASSERT_TRUE(m.ok());
    for (const spirv::Function& f : m->functions)
      if (!f.IsDeclaration() && f.parameters.size() >= 2 &&
          !spirv::IsEntryPoint(*m, f.id())) {
        helper = f.id();
        reversed.clear();
        for (size_t i = f.parameters.size(); i > 0; --i)
          reversed.push_back(static_cast<uint32_t>(i - 1));
      }
  }
  ASSERT_NE(helper, 0u);
  const std::vector<nlohmann::json> records = {
      {{"kind", "export_function"}, {"function", helper}},
      {{"kind", "permute_parameters"},
       {"function", helper},
       {"permutation", reversed}},
      {{"kind", "rename_export_to_kernel"}, {"function", helper}}};
  auto r = Replay(tc, MakeLog(tc.module_words, records));
  ASSERT_TRUE(r.ok()) << r.status();
  auto text = spirv::Disassemble(r->test_case.module_words, false);
  ASSERT_TRUE(text.ok());
  EXPECT_THAT(*text, ::testing::HasSubstr(absl::StrCat(
                         "LinkageAttributes \"", tc.entry_point, "\" Export")));
  // Without the export, an already exported helper of a case of several
  // modules is refused: another module may import it.
  spirv::TestCase several = tc;
  several.linked_modules.push_back(tc.module_words);
  EXPECT_EQ(ReplayOne(several, records[0]).code(),
            absl::StatusCode::kFailedPrecondition);
  auto exported = Replay(tc, MakeLog(tc.module_words, {records[0]}));
  ASSERT_TRUE(exported.ok());
  spirv::TestCase exported_several = exported->test_case;
  exported_several.transformation_log.reset();
  exported_several.linked_modules.push_back(tc.module_words);
  EXPECT_EQ(ReplayOne(exported_several, records[1]).code(),
            absl::StatusCode::kFailedPrecondition);
  spirv::TestCase exported_one = exported->test_case;
  exported_one.transformation_log.reset();
  EXPECT_TRUE(ReplayOne(exported_one, records[1]).ok());
}

// Malformed fields are refused with a message naming the problem (the
// engine reports every refused record of a replay as FailedPrecondition,
// "does not apply: <reason>").
TEST(CfgKindNegativeTest, MalformedFieldsAreRefusedWithTheReason) {
  const spirv::TestCase tc = Generate(3);
  const Landmarks l = Find(tc);
  const std::vector<std::pair<nlohmann::json, std::string>> records = {
      {{{"kind", "change_function_control"},
        {"function", l.kernel},
        {"control", 4}},  // Pure is never chosen
       "must be 0 (None), 1 (Inline) or 2 (DontInline)"},
      {{{"kind", "add_parameter"},
        {"function", l.kernel},
        {"type", "struct"},
        {"value", 1}},
       "\"type\" must be"},
      {{{"kind", "merge_blocks"}, {"block", "not a number"}},
       "malformed record"},
      {{{"kind", "reorder_blocks"}, {"block", l.some_label}},  // no "after"
       "malformed record"},
      {{{"kind", "permute_switch_cases"},
        {"block", l.return_label},
        {"permutation", {0, 0}}},
       ""},
      {{{"kind", "split_switch"},
        {"block", l.return_label},
        {"cases", 2},
        {"moved", {1, 0}}},
       ""},
  };
  for (const auto& [r, reason] : records) {
    const absl::Status s = ReplayOne(tc, r);
    EXPECT_FALSE(s.ok()) << r.dump();
    EXPECT_NE(s.message().find(reason), std::string::npos)
        << r.dump() << " → " << s;
  }
}

// Every field of every control-flow / function record, damaged: replay
// fails cleanly or still preserves the results; nothing crashes or throws.
TEST(CfgKindNegativeTest, DamagedFieldsNeverCrash) {
  const spirv::TestCase tc = Generate(5);
  TransformOptions options;
  options.seed = 5;
  options.count = 40;
  options.kinds = {"invert_branch_condition",
                   "merge_blocks",
                   "reorder_blocks",
                   "select_to_branch",
                   "split_switch",
                   "permute_switch_cases",
                   "wrap_region_in_loop",
                   "duplicate_region_under_opaque_true",
                   "add_parameter",
                   "permute_parameters",
                   "change_function_control",
                   "toggle_selection_control",
                   "toggle_loop_control",
                   "add_barrier",
                   "inline_call",
                   "outline_region",
                   "add_function_called_from_dead_code",
                   "add_dead_block",
                   "split_block"};
  auto result = Transform(tc, options);
  ASSERT_TRUE(result.ok()) << result.status();
  auto records = LogRecords(result->log);
  ASSERT_TRUE(records.ok());
  for (size_t i = 0; i < records->size(); ++i) {
    for (auto& [field, value] : (*records)[i].items()) {
      if (field == "kind" || field == "fresh_ids") continue;
      for (const nlohmann::json& bad :
           {nlohmann::json("text"), nlohmann::json(999999u),
            nlohmann::json::array(), nlohmann::json(-1), nlohmann::json(0u)}) {
        nlohmann::json damaged = (*records)[i];
        damaged[field] = bad;
        auto replay = Replay(tc, MakeLog(tc.module_words, {damaged}), {});
        if (replay.ok()) {
          EXPECT_TRUE(CheckTransformed(tc, replay->test_case).ok())
              << damaged.dump();
        }
      }
    }
  }
}

}  // namespace
}  // namespace l0spv::generators::transform
