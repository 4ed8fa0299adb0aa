// split_module: a one-module case becomes several modules that link back
// into a program computing the same results on ref; where it must not
// apply, it says why.
#include "generators/transform/split_module.h"

#include <string>
#include <vector>

#include "generators/kernel/generator.h"
#include "generators/transform/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/reference/interpreter.h"
#include "spirv/binary.h"
#include "spirv/link.h"
#include "spirv/spirv_tools.h"
#include "spirv/unified1/spirv.hpp11"
#include "tests/transform/split_cases.h"

namespace l0spv::generators::transform {
namespace {

using ::testing::HasSubstr;

TEST(SplitModule, MovesFunctionsBehindExportAndImport) {
  const spirv::TestCase whole = CaseOf(kWhole);
  auto split = SplitModule(whole, {.seed = 1, .modules = 3});
  ASSERT_TRUE(split.ok()) << split.status();
  ASSERT_EQ(split->test_case.linked_modules.size(), 2u);
  EXPECT_EQ(split->functions_per_module, (std::vector<uint32_t>{1, 1, 1}));
  // Every module is valid alone, the kernel stays in module.spv.
  auto m0 = spirv::ReadModuleWords(split->test_case.module_words);
  ASSERT_TRUE(m0.ok());
  EXPECT_EQ(m0->KernelNames(), std::vector<std::string>{"k"});
  EXPECT_TRUE(Valid(split->test_case.module_words).ok());
  size_t imports = 0, exports = 0;
  for (const auto& words :
       {split->test_case.module_words, split->test_case.linked_modules[0],
        split->test_case.linked_modules[1]}) {
    EXPECT_TRUE(Valid(words).ok()) << Valid(words);
    auto m = spirv::ReadModuleWords(words);
    ASSERT_TRUE(m.ok());
    for (const spirv::LinkageSymbol& s : spirv::LinkageSymbols(*m)) {
      EXPECT_THAT(s.name, HasSubstr("l0spv_fn_"));
      imports +=
          s.linkage_type == static_cast<uint32_t>(spv::LinkageType::Import);
      exports +=
          s.linkage_type == static_cast<uint32_t>(spv::LinkageType::Export);
    }
  }
  // add1 and twice each live in one module and are imported by the other
  // that calls them.
  EXPECT_EQ(imports, 2u);
  EXPECT_EQ(exports, 2u);
  ExpectSameOnRef(whole, split->test_case);
  // Deterministic in (case, options).
  auto again = SplitModule(whole, {.seed = 1, .modules = 3});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->test_case.module_words, split->test_case.module_words);
  EXPECT_EQ(again->test_case.linked_modules, split->test_case.linked_modules);
}

TEST(SplitModule, ParameterDecorationsFollowTheDeclarations) {
  const spirv::TestCase whole = CaseOf(kWhole);
  for (uint64_t seed = 0; seed < 8; ++seed) {
    auto split = SplitModule(whole, {.seed = seed, .modules = 2});
    ASSERT_TRUE(split.ok()) << split.status();
    for (const auto& words : split->test_case.linked_modules) {
      auto text = spirv::Disassemble(words);
      ASSERT_TRUE(text.ok());
      // Whichever module holds add1 (defined or declared) keeps Zext on x.
      if (text->find("OpName %add1") != std::string::npos) {
        EXPECT_THAT(*text, HasSubstr("FuncParamAttr Zext"));
      }
    }
    ExpectSameOnRef(whole, split->test_case);
  }
}

// Replaces the first `from` of `text` by `to`.
void Replace(std::string& text, const std::string& from,
             const std::string& to) {
  text.replace(text.find(from), from.size(), to);
}

TEST(SplitModule, RefusesWhatItCannotMoveAndSaysWhy) {
  // Both helpers read a Workgroup variable (one per work-group: it cannot
  // link across modules): nothing may move.
  std::string text = kWhole;
  Replace(text, "%gid = OpVariable %pv3 Input",
          "%gid = OpVariable %pv3 Input\n"
          "%pwg = OpTypePointer Workgroup %uint\n"
          "%wg = OpVariable %pwg Workgroup");
  Replace(text, "%x1 = OpIAdd %uint %x %one",
          "%w1 = OpLoad %uint %wg\n%x1 = OpIAdd %uint %x %one");
  Replace(text, "%y2 = OpIAdd %uint %y %y",
          "%w2 = OpLoad %uint %wg\n%y2 = OpIAdd %uint %y %y");
  auto split = SplitModule(CaseOf(text), {.seed = 1});
  ASSERT_FALSE(split.ok());
  EXPECT_EQ(split.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(split.status().message(),
              HasSubstr("uses a module-scope variable (Workgroup)"));

  const spirv::TestCase whole = CaseOf(kWhole);
  EXPECT_EQ(SplitModule(whole, {.seed = 1, .modules = 1}).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto split_once = SplitModule(whole, {.seed = 1});
  ASSERT_TRUE(split_once.ok());
  auto twice = SplitModule(split_once->test_case, {.seed = 1});
  EXPECT_EQ(twice.status().code(), absl::StatusCode::kInvalidArgument);
}

// Module-scope variables move too: a built-in is declared again in each
// module that reads it; a program-scope constant (UniformConstant) is
// defined in one module with Export and declared with Import elsewhere.
TEST(SplitModule, VariablesMoveBehindExportAndImport) {
  std::string text = kWhole;
  Replace(text, "%gid = OpVariable %pv3 Input",
          "%gid = OpVariable %pv3 Input\n"
          "%arr = OpTypeArray %uint %two\n"
          "%table = OpConstantComposite %arr %one %two\n"
          "%pc = OpTypePointer UniformConstant %uint\n"
          "%parr = OpTypePointer UniformConstant %arr\n"
          "%tab = OpVariable %parr UniformConstant %table");
  Replace(text, "%one = OpConstant %uint 1",
          "%one = OpConstant %uint 1\n%two = OpConstant %uint 2");
  // twice reads the built-in and the table; the kernel reads the table.
  Replace(text, "%y2 = OpIAdd %uint %y %y",
          "%gg = OpLoad %v3ulong %gid\n"
          "%t1 = OpAccessChain %pc %tab %one\n"
          "%tv = OpLoad %uint %t1\n"
          "%y1 = OpIAdd %uint %y %tv\n"
          "%y2 = OpIAdd %uint %y1 %y");
  Replace(text, "%r = OpFunctionCall %uint %add1 %g32",
          "%r0 = OpFunctionCall %uint %add1 %g32\n"
          "%t0p = OpAccessChain %pc %tab %one\n"
          "%t0 = OpLoad %uint %t0p\n"
          "%r = OpIAdd %uint %r0 %t0");
  const spirv::TestCase whole = CaseOf(text);
  size_t linked_variables = 0;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    auto split = SplitModule(whole, {.seed = seed, .modules = 3});
    ASSERT_TRUE(split.ok()) << split.status();
    for (const auto& words : split->test_case.linked_modules)
      EXPECT_TRUE(Valid(words).ok()) << Valid(words);
    EXPECT_TRUE(Valid(split->test_case.module_words).ok());
    for (const auto& words :
         {split->test_case.module_words, split->test_case.linked_modules[0],
          split->test_case.linked_modules[1]}) {
      auto m = spirv::ReadModuleWords(words);
      ASSERT_TRUE(m.ok());
      for (const spirv::LinkageSymbol& s : spirv::LinkageSymbols(*m))
        linked_variables += s.name.rfind("l0spv_var_", 0) == 0;
    }
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    ExpectSameOnRef(whole, split->test_case);
  }
  // Whenever twice leaves module.spv the table is exported and imported.
  EXPECT_GE(linked_variables, 2u);
}

// Property: transformed cases (outline_region makes functions of code that
// reads built-ins and constants) split with their variables and compute
// what they compute whole.
TEST(SplitModule, TransformedCasesSplitWithTheirVariables) {
  size_t with_variables = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    kernel::GeneratorOptions options;
    options.seed = seed;
    options.printf = kernel::PrintfMode::kOn;
    auto tc = kernel::GenerateTestCase(options);
    ASSERT_TRUE(tc.ok()) << tc.status();
    TransformOptions to;
    to.seed = seed;
    to.count = 40;
    to.kinds = {"outline_region", "split_block"};
    auto mutated = Transform(*tc, to);
    ASSERT_TRUE(mutated.ok()) << mutated.status();
    auto split = SplitModule(mutated->test_case, {.seed = seed});
    if (!split.ok()) continue;
    bool variables = false;
    for (const auto& words : split->test_case.linked_modules) {
      EXPECT_TRUE(Valid(words).ok()) << "seed " << seed << ": " << Valid(words);
      auto m = spirv::ReadModuleWords(words);
      ASSERT_TRUE(m.ok());
      for (const spirv::LinkageSymbol& s : spirv::LinkageSymbols(*m))
        variables |= s.name.rfind("l0spv_var_", 0) == 0;
      for (const spirv::Instruction& a : m->annotations)
        variables |=
            a.NumOperands() > 1 &&
            a.word(1) == static_cast<uint32_t>(spv::Decoration::BuiltIn);
    }
    with_variables += variables;
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    ExpectSameOnRef(mutated->test_case, split->test_case);
  }
  EXPECT_GE(with_variables, 5u);
}

// ocloc link cannot take a shuffle of vectors of two widths (registry
// entry ocloc_link_shuffle_mixed_widths): while ocloc's bugs are avoided,
// such a case stays whole; otherwise it splits.
TEST(SplitModule, AShuffleOfTwoWidthsStaysWholeWhileOclocIsAvoided) {
  std::string text = kWhole;
  const std::string at = "%twice = OpFunction %uint None %ufn";
  text.replace(
      text.find(at), at.size(),
      "%v2 = OpConstantNull %v2uint\n%v3 = OpConstantNull %v3uint\n" + at);
  const std::string body = "%y2 = OpIAdd %uint %y %y";
  text.replace(text.find(body), body.size(),
               body + "\n%s = OpVectorShuffle %v4uint %v2 %v3 0 1 2 4");
  const std::string types = "%one = OpConstant %uint 1";
  text.replace(text.find(types), types.size(),
               types +
                   "\n%v2uint = OpTypeVector %uint 2\n%v3uint = OpTypeVector "
                   "%uint 3\n%v4uint = OpTypeVector %uint 4");
  const spirv::TestCase whole = CaseOf(text);
  SplitOptions avoid{.seed = 1};
  avoid.avoid_known_bugs = oracles::kConsumerIgc;
  auto kept = SplitModule(whole, avoid);
  ASSERT_FALSE(kept.ok());
  EXPECT_EQ(kept.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(kept.status().message(),
              HasSubstr("ocloc_link_shuffle_mixed_widths"));
  auto split = SplitModule(whole, {.seed = 1});
  ASSERT_TRUE(split.ok()) << split.status();
  ExpectSameOnRef(whole, split->test_case);
}

// ocloc link mistranslates a struct built from an array parameter
// (ocloc_link_struct_of_array_param): such a case stays whole while IGC's
// bugs are avoided; otherwise it splits.
TEST(SplitModule, AStructOfAnArrayParameterStaysWholeWhileOclocIsAvoided) {
  const spirv::TestCase whole = CaseOf(R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int8
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%uint = OpTypeInt 32 0
%void = OpTypeVoid
%uchar = OpTypeInt 8 0
%c5 = OpConstant %uchar 5
%c9 = OpConstant %uchar 9
%u2 = OpConstant %uint 2
%arr = OpTypeArray %uchar %u2
%st = OpTypeStruct %arr
%ptr = OpTypePointer CrossWorkgroup %uchar
%wfn = OpTypeFunction %uchar %arr
%kfn = OpTypeFunction %void %ptr
%wrap = OpFunction %uchar None %wfn
%p = OpFunctionParameter %arr
%wb = OpLabel
%s = OpCompositeConstruct %st %p
%e = OpCompositeExtract %uchar %s 0 1
OpReturnValue %e
OpFunctionEnd
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr
%b = OpLabel
%a = OpCompositeConstruct %arr %c5 %c9
%r = OpFunctionCall %uchar %wrap %a
OpStore %out %r
OpReturn
OpFunctionEnd
)");
  SplitOptions avoid{.seed = 1};
  avoid.avoid_known_bugs = oracles::kConsumerIgc;
  auto kept = SplitModule(whole, avoid);
  ASSERT_FALSE(kept.ok());
  EXPECT_THAT(kept.status().message(),
              HasSubstr("ocloc_link_struct_of_array_param"));
  EXPECT_TRUE(SplitModule(whole, {.seed = 1}).ok());
}

// Property: generated cases split into 2-4 modules link back into programs
// that compute exactly what the whole cases compute.
TEST(SplitModule, GeneratedCasesComputeTheSameWhenSplit) {
  size_t split_cases = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    kernel::GeneratorOptions options;
    options.seed = seed;
    options.avoid_known_bugs = 0;
    options.printf = kernel::PrintfMode::kSwarm;
    auto tc = kernel::GenerateTestCase(options);
    ASSERT_TRUE(tc.ok()) << tc.status();
    auto split = SplitModule(*tc, {.seed = seed});
    if (!split.ok()) {
      EXPECT_EQ(split.status().code(), absl::StatusCode::kFailedPrecondition)
          << split.status();
      continue;
    }
    ++split_cases;
    for (const auto& words : split->test_case.linked_modules)
      EXPECT_TRUE(Valid(words).ok()) << "seed " << seed << ": " << Valid(words);
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    ExpectSameOnRef(*tc, split->test_case);
  }
  EXPECT_GE(split_cases, 20u);
}

}  // namespace
}  // namespace l0spv::generators::transform

namespace l0spv::generators::transform {
namespace {

// split_module as a logged kind: SplitAndLog appends its record to the
// case's log, Replay of that log on the original gives the same modules;
// the record must be last, a malformed one says which field, one that no
// longer applies is skipped when asked.
TEST(SplitModuleRecord, ReplayGivesTheSameModules) {
  const spirv::TestCase whole = CaseOf(kWhole);
  auto split = SplitAndLog(whole, {.seed = 1, .modules = 3});
  ASSERT_TRUE(split.ok()) << split.status();
  ASSERT_TRUE(split->transformation_log.has_value());
  auto records = LogRecords(*split->transformation_log);
  ASSERT_TRUE(records.ok());
  ASSERT_EQ(records->size(), 1u);
  EXPECT_EQ((*records)[0]["kind"], kSplitModuleKind);
  auto replayed = Replay(whole, *split->transformation_log);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_EQ(replayed->test_case.module_words, split->module_words);
  EXPECT_EQ(replayed->test_case.linked_modules, split->linked_modules);

  // After module-level kinds: the split record follows their records.
  TransformOptions to;
  to.seed = 5;
  to.count = 10;
  auto mutated = Transform(whole, to);
  ASSERT_TRUE(mutated.ok()) << mutated.status();
  auto both = SplitAndLog(mutated->test_case, {.seed = 2});
  ASSERT_TRUE(both.ok()) << both.status();
  auto again = Replay(whole, *both->transformation_log);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->test_case.linked_modules, both->linked_modules);
  ExpectSameOnRef(whole, again->test_case);
  // A case of several modules is transformed whole, then split.
  EXPECT_EQ(Transform(*both, to).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(SplitModuleRecord, WhereItMustNotApply) {
  const spirv::TestCase whole = CaseOf(kWhole);
  auto split = SplitAndLog(whole, {.seed = 1});
  ASSERT_TRUE(split.ok());
  nlohmann::json log = *split->transformation_log;
  // A module-level record after it.
  TransformOptions to;
  to.seed = 5;
  to.count = 3;
  auto mutated = Transform(whole, to);
  ASSERT_TRUE(mutated.ok());
  nlohmann::json late = log;
  late["records"].push_back(
      (*mutated->test_case.transformation_log)["records"][0]);
  auto r = Replay(whole, late);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("follows a split_module record"));
  // A second split: the case has several modules already.
  nlohmann::json twice = log;
  twice["records"].push_back(twice["records"][0]);
  r = Replay(whole, twice);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(),
              HasSubstr("record 1 (split_module) does not apply"));
  // A field of the wrong type.
  nlohmann::json bad = log;
  bad["records"][0]["modules"] = "three";
  r = Replay(whole, bad);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("field 'modules'"));
  // A module with nothing to move: the record does not apply, or is
  // skipped when asked.
  std::string kernel_only = kWhole;
  const std::string call = "%r = OpFunctionCall %uint %add1 %g32";
  kernel_only.replace(kernel_only.find(call), call.size(),
                      "%r = OpIAdd %uint %g32 %g32");
  const size_t helpers = kernel_only.find("%twice = OpFunction");
  kernel_only.erase(helpers, kernel_only.find("%k = OpFunction") - helpers);
  const spirv::TestCase lone = CaseOf(kernel_only);
  EXPECT_EQ(SplitAndLog(lone, {.seed = 1}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  nlohmann::json on_lone = MakeLog(lone.module_words, {log["records"][0]});
  r = Replay(lone, on_lone);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("record 0 (split_module)"));
  auto skipped = Replay(lone, on_lone, {.skip_inapplicable = true});
  ASSERT_TRUE(skipped.ok()) << skipped.status();
  EXPECT_EQ(skipped->skipped, std::vector<size_t>{0});
  EXPECT_TRUE(skipped->test_case.linked_modules.empty());
}

}  // namespace
}  // namespace l0spv::generators::transform
