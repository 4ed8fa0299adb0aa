// duplicate_linkonce: exported functions that other modules import get
// LinkOnceODR copies there; every module calling a LinkOnceODR function
// defines it, the program computes what the whole case computes, and the
// record replays. Where it must not apply, it says why.
#include "generators/transform/duplicate_linkonce.h"

#include <algorithm>
#include <string>
#include <vector>

#include "generators/kernel/generator.h"
#include "generators/transform/engine.h"
#include "generators/transform/split_module.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/consumers.h"
#include "spirv/binary.h"
#include "spirv/link.h"
#include "spirv/unified1/spirv.hpp11"
#include "tests/transform/split_cases.h"

namespace l0spv::generators::transform {
namespace {

using ::testing::HasSubstr;

constexpr uint32_t kLinkOnceOdr =
    static_cast<uint32_t>(spv::LinkageType::LinkOnceODR);
constexpr uint32_t kImport = static_cast<uint32_t>(spv::LinkageType::Import);

// Every module of the case, parsed.
std::vector<spirv::Module> Modules(const spirv::TestCase& tc) {
  std::vector<spirv::Module> out;
  for (size_t i = 0; i <= tc.linked_modules.size(); ++i) {
    auto m = spirv::ReadModuleWords(i == 0 ? tc.module_words
                                           : tc.linked_modules[i - 1]);
    EXPECT_TRUE(m.ok()) << m.status();
    if (m.ok()) out.push_back(*std::move(m));
  }
  return out;
}

// The properties of every output: each module valid; a module with a
// LinkOnceODR definition declares the extension; no module imports a
// symbol that only LinkOnceODR definitions provide; same results on ref.
// Returns the number of LinkOnceODR definitions.
size_t ExpectWellFormed(const spirv::TestCase& whole,
                        const spirv::TestCase& copied) {
  size_t linkonce = 0;
  std::vector<std::string> linkonce_names, imported;
  for (const spirv::Module& m : Modules(copied)) {
    const std::vector<uint32_t> words = spirv::EncodeModule(m);
    EXPECT_TRUE(Valid(words).ok()) << Valid(words);
    bool has_linkonce = false;
    for (const spirv::LinkageSymbol& s : spirv::LinkageSymbols(m)) {
      if (s.linkage_type == kLinkOnceOdr) {
        has_linkonce = true;
        ++linkonce;
        linkonce_names.push_back(s.name);
        const spirv::Function* f = m.FindFunction(s.id);
        EXPECT_TRUE(f != nullptr && !f->IsDeclaration()) << s.name;
      }
      if (s.linkage_type == kImport) imported.push_back(s.name);
    }
    if (has_linkonce) {
      auto text = spirv::Disassemble(words);
      EXPECT_THAT(text.value_or(""),
                  HasSubstr("OpExtension \"SPV_KHR_linkonce_odr\""));
    }
  }
  for (const std::string& name : imported)
    EXPECT_EQ(std::count(linkonce_names.begin(), linkonce_names.end(), name), 0)
        << name << " is imported but only LinkOnceODR definitions provide it";
  ExpectSameOnRef(whole, copied);
  return linkonce;
}

// Golden: kWhole split into three modules (module.spv imports add1, one
// module defines add1 and imports twice, the third defines twice); the
// copies replace imports and follow add1's call of twice.
TEST(DuplicateLinkOnce, CopiesReplaceImportsAndFollowCallees) {
  const spirv::TestCase whole = CaseOf(kWhole);
  auto split = SplitModule(whole, {.seed = 1, .modules = 3});
  ASSERT_TRUE(split.ok()) << split.status();
  size_t linkonce_total = 0;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    auto copied = DuplicateLinkOnce(split->test_case, {.seed = seed});
    ASSERT_TRUE(copied.ok()) << copied.status();
    linkonce_total += ExpectWellFormed(whole, *copied);
    // Deterministic in (case, options).
    auto again = DuplicateLinkOnce(split->test_case, {.seed = seed});
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->module_words, copied->module_words);
    EXPECT_EQ(again->linked_modules, copied->linked_modules);
  }
  // Each seed makes at least two LinkOnceODR definitions (home + a copy).
  EXPECT_GE(linkonce_total, 16u);
}

TEST(DuplicateLinkOnce, WhereItMustNotApply) {
  const spirv::TestCase whole = CaseOf(kWhole);
  auto one = DuplicateLinkOnce(whole, {.seed = 1});
  EXPECT_EQ(one.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(one.status().message(), HasSubstr("split it first"));
  // Once every import is a copy, nothing is left to copy.
  auto split = SplitModule(whole, {.seed = 1, .modules = 3});
  ASSERT_TRUE(split.ok());
  spirv::TestCase tc = split->test_case;
  for (uint64_t seed = 0; seed < 16; ++seed) {
    auto next = DuplicateLinkOnce(tc, {.seed = seed});
    if (!next.ok()) {
      EXPECT_EQ(next.status().code(), absl::StatusCode::kFailedPrecondition);
      EXPECT_THAT(next.status().message(),
                  HasSubstr("no module imports a function another exports"));
      return;
    }
    tc = *std::move(next);
  }
  ADD_FAILURE() << "copies never ran out";
}

// ocloc link cannot take LinkOnceODR copies of a function returning a
// struct (ocloc_link_linkonce_struct_return): none while IGC is avoided.
TEST(DuplicateLinkOnce, AStructReturnGetsNoCopiesWhileOclocIsAvoided) {
  // Numbered ids: the function keeps its id across the modules, as
  // split_module leaves it.
  const std::string preamble =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Linkage\n"
      "OpCapability Int64\nOpMemoryModel Physical64 OpenCL\n";
  const std::string types = R"(
%44 = OpTypeInt 32 0
%45 = OpConstant %44 1
%42 = OpTypeStruct %44 %44
%43 = OpTypeFunction %42 %44
)";
  const std::string kernel = preamble + R"(OpEntryPoint Kernel %k "k"
OpDecorate %40 LinkageAttributes "f" Import
)" + types + R"(%void = OpTypeVoid
%ptr = OpTypePointer CrossWorkgroup %44
%kfn = OpTypeFunction %void %ptr
%40 = OpFunction %42 None %43
%41 = OpFunctionParameter %44
OpFunctionEnd
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr
%kb = OpLabel
%p = OpFunctionCall %42 %40 %45
%a = OpCompositeExtract %44 %p 1
OpStore %out %a
OpReturn
OpFunctionEnd
)";
  const std::string library =
      preamble + "OpDecorate %40 LinkageAttributes \"f\" Export\n" + types +
      R"(%40 = OpFunction %42 None %43
%41 = OpFunctionParameter %44
%50 = OpLabel
%51 = OpIAdd %44 %41 %45
%52 = OpCompositeConstruct %42 %41 %51
OpReturnValue %52
OpFunctionEnd
)";
  spirv::TestCase tc = CaseOf(kernel);
  tc.nd_range.global = {1, 1, 1};
  tc.args[0].bytes.assign(4, 0);
  auto lib = spirv::Assemble(library);
  ASSERT_TRUE(lib.ok()) << lib.status();
  tc.linked_modules.push_back(*lib);
  DuplicateOptions avoid{.seed = 1};
  avoid.avoid_known_bugs = oracles::kConsumerIgc;
  auto kept = DuplicateLinkOnce(tc, avoid);
  ASSERT_FALSE(kept.ok());
  EXPECT_EQ(kept.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(kept.status().message(),
              HasSubstr("ocloc_link_linkonce_struct_return"));
  auto copied = DuplicateLinkOnce(tc, {.seed = 1});
  ASSERT_TRUE(copied.ok()) << copied.status();
  EXPECT_EQ(ExpectWellFormed(tc, *copied), 2u);
}

// The record: logged after split_module, replayed to the same modules; a
// module-level record after it is refused.
TEST(DuplicateLinkOnce, TheRecordReplays) {
  const spirv::TestCase whole = CaseOf(kWhole);
  auto split = SplitAndLog(whole, {.seed = 1, .modules = 3});
  ASSERT_TRUE(split.ok());
  auto copied = DuplicateLinkOnceAndLog(*split, {.seed = 3});
  ASSERT_TRUE(copied.ok()) << copied.status();
  auto records = LogRecords(*copied->transformation_log);
  ASSERT_TRUE(records.ok());
  ASSERT_EQ(records->size(), 2u);
  EXPECT_EQ((*records)[1]["kind"], kDuplicateLinkOnceKind);
  auto replayed = Replay(whole, *copied->transformation_log);
  ASSERT_TRUE(replayed.ok()) << replayed.status();
  EXPECT_EQ(replayed->test_case.module_words, copied->module_words);
  EXPECT_EQ(replayed->test_case.linked_modules, copied->linked_modules);
  // Before its split, the record does not apply.
  nlohmann::json swapped = *copied->transformation_log;
  std::swap(swapped["records"][0], swapped["records"][1]);
  auto r = Replay(whole, swapped);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("record 0 (duplicate_linkonce)"));
}

// Property: generated cases, split then copied, compute what the whole
// cases compute.
TEST(DuplicateLinkOnce, GeneratedCasesComputeTheSame) {
  size_t linkonce_cases = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    kernel::GeneratorOptions options;
    options.seed = seed;
    auto tc = kernel::GenerateTestCase(options);
    ASSERT_TRUE(tc.ok()) << tc.status();
    auto split = SplitModule(*tc, {.seed = seed});
    if (!split.ok()) continue;
    auto copied = DuplicateLinkOnce(split->test_case, {.seed = seed});
    if (!copied.ok()) {
      EXPECT_EQ(copied.status().code(), absl::StatusCode::kFailedPrecondition)
          << copied.status();
      continue;
    }
    SCOPED_TRACE(testing::Message() << "seed " << seed);
    linkonce_cases += ExpectWellFormed(*tc, *copied) > 0;
  }
  EXPECT_GE(linkonce_cases, 5u);
}

}  // namespace
}  // namespace l0spv::generators::transform
