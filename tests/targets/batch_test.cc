// Batches (issue 20): spirv/kernel_batch.h merges generated cases into one
// module; every launch of the batch must compute on `ref` exactly what its
// case computes alone, the module must validate, and each batching target's
// RunBatch must give every launch the result the case gets from Run
// (label: consumers for the real ones; a target whose consumer is missing
// skips, saying why).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "generators/kernel/generator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/compare/compare.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/reference/interpreter.h"
#include "oracles/targets/spirv_versions.h"
#include "oracles/targets/target.h"
#include "spirv/binary.h"
#include "spirv/kernel_batch.h"
#include "spirv/spirv_tools.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;

std::vector<spirv::TestCase> Generated(uint64_t first_seed, size_t count,
                                       const std::string& target = "") {
  generators::kernel::GeneratorOptions g;
  if (!target.empty()) {
    g.avoid_known_bugs = ConsumersOfTarget(target);
    g.max_spirv_version = NewestSpirvVersionOfTarget(target);
    if (target.rfind("ocloc:", 0) == 0) g.profile = target.substr(6);
  }
  std::vector<spirv::TestCase> cases;
  for (uint64_t seed = first_seed; cases.size() < count; ++seed) {
    g.seed = seed;
    auto tc = generators::kernel::GenerateTestCase(g);
    EXPECT_TRUE(tc.ok()) << tc.status();
    if (tc.ok()) cases.push_back(*std::move(tc));
  }
  return cases;
}

TEST(KernelBatch, EveryLaunchComputesWhatItsCaseComputesAlone) {
  const std::vector<spirv::TestCase> cases = Generated(7000, 12);
  auto launches = spirv::BatchKernels(cases);
  ASSERT_TRUE(launches.ok()) << launches.status();
  ASSERT_EQ(launches->size(), cases.size());
  EXPECT_TRUE(spirv::SharesOneModule(*launches));
  EXPECT_TRUE(spirv::Validate(
                  (*launches)[0].module_words,
                  spirv::UniversalEnvForVersion((*launches)[0].module_words[1]))
                  .ok());
  auto batch = spirv::ReadModuleWords((*launches)[0].module_words);
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(batch->KernelNames().size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(absl::StrCat("case ", i));
    EXPECT_EQ((*launches)[i].entry_point,
              spirv::BatchedEntryName(cases[i].entry_point, i));
    const Execution alone = reference::RunReference(cases[i], {});
    const Execution batched = reference::RunReference((*launches)[i], {});
    ASSERT_EQ(alone.status, ExecutionStatus::kOk) << alone.message;
    ASSERT_EQ(batched.status, ExecutionStatus::kOk) << batched.message;
    EXPECT_EQ(alone.buffers, batched.buffers);
  }
}

TEST(KernelBatch, OneVariablePerBuiltIn) {
  const std::vector<spirv::TestCase> cases = Generated(7100, 4);
  auto launches = spirv::BatchKernels(cases);
  ASSERT_TRUE(launches.ok()) << launches.status();
  auto batch = spirv::ReadModuleWords((*launches)[0].module_words);
  ASSERT_TRUE(batch.ok());
  std::vector<uint32_t> builtins;
  for (const spirv::Instruction& a : batch->annotations) {
    if (spirv::Is(a, spv::Op::OpDecorate) &&
        a.operand(1).AsLiteral() ==
            static_cast<uint32_t>(spv::Decoration::BuiltIn))
      builtins.push_back(a.operand(2).AsLiteral());
  }
  std::sort(builtins.begin(), builtins.end());
  EXPECT_TRUE(std::adjacent_find(builtins.begin(), builtins.end()) ==
              builtins.end())
      << "a built-in decorated twice";
  EXPECT_FALSE(builtins.empty());
}

TEST(KernelBatch, RefusesWhatItCannotMerge) {
  EXPECT_THAT(std::string(spirv::BatchKernels({}).status().message()),
              HasSubstr("no cases"));
  std::vector<spirv::TestCase> cases = Generated(7200, 2);
  cases[1].entry_point = "no_such_kernel";
  EXPECT_THAT(std::string(spirv::BatchKernels(cases).status().message()),
              HasSubstr("case 1 of the batch: no Kernel entry point named "
                        "'no_such_kernel'"));
  cases = Generated(7200, 2);
  cases[0].linked_modules.push_back(cases[1].module_words);
  EXPECT_THAT(std::string(spirv::BatchKernels(cases).status().message()),
              HasSubstr("case 0 of the batch has several modules"));
  cases = Generated(7200, 2);
  cases[1].module_words.resize(3);
  EXPECT_THAT(std::string(spirv::BatchKernels(cases).status().message()),
              HasSubstr("case 1 of the batch"));
}

// RunBatch on a real consumer gives each launch what Run gives its case.
class BatchRun : public ::testing::TestWithParam<std::string> {};

TEST_P(BatchRun, EveryLaunchMatchesTheCaseRunAlone) {
  const std::string name = GetParam();
  auto target = MakeTarget(name);
  if (!target.ok()) GTEST_SKIP() << target.status();
  EXPECT_TRUE((*target)->batches());
  // Seeds 7300.. start with a kernel taking a struct by value, which the
  // batch must place after the others (llvm-spirv -r, kernel_batch.cc).
  const std::vector<spirv::TestCase> cases = Generated(7300, 6, name);
  auto launches = spirv::BatchKernels(cases);
  ASSERT_TRUE(launches.ok()) << launches.status();
  const TargetRunLimits limits;
  const std::vector<Execution> batched = (*target)->RunBatch(*launches, limits);
  ASSERT_EQ(batched.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(absl::StrCat(name, ", case ", i));
    const Execution alone = (*target)->Run(cases[i], limits);
    EXPECT_EQ(batched[i].status, alone.status)
        << batched[i].message << " / " << alone.message;
    if (alone.status != ExecutionStatus::kOk || !(*target)->executes())
      continue;
    const Execution reference = reference::RunReference(cases[i], {});
    const CompareResult c = CompareExecutions(cases[i], reference, batched[i],
                                              CompareOptionsFor(cases[i]));
    EXPECT_TRUE(c.equal) << c.explanation;
  }
}

INSTANTIATE_TEST_SUITE_P(Consumers, BatchRun,
                         ::testing::Values("spirv-opt", "llvm-spirv",
                                           "ocloc:tgllp", "oclgrind",
                                           "opencl:Portable"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return n;
                         });

}  // namespace
}  // namespace l0spv::oracles
