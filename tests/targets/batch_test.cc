// Batches: spirv/kernel_batch.h merges generated cases into one
// module; every launch of the batch must compute on `ref` exactly what its
// case computes alone, the module must validate, and each batching target's
// RunBatch must give every launch the result the case gets from Run
// (label: consumers for the real ones; a target whose consumer is missing
// skips, saying why).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "generators/kernel/generator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/compare/compare.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/reference/interpreter.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_kinds.h"
#include "spirv/binary.h"
#include "spirv/kernel_batch.h"
#include "spirv/spirv_tools.h"
#include "tests/support/generated_cases.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;

std::vector<spirv::TestCase> Generated(uint64_t first_seed, size_t count,
                                       const std::string& target = "") {
  return test_support::GeneratedCases(first_seed, count, target);
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

// The reference stage of a batching target decodes the batch once
// (RunReferenceBatch): each launch's result must be RunReference's.
TEST(KernelBatch, ReferenceBatchDecodesOnceAndAgreesLaunchByLaunch) {
  const std::vector<spirv::TestCase> cases = Generated(7100, 10);
  auto launches = spirv::BatchKernels(cases);
  ASSERT_TRUE(launches.ok()) << launches.status();
  // A launch of an entry point the module lacks, and one with an argument
  // too few: their failures are their own, the others still run.
  launches->push_back(launches->front());
  launches->back().entry_point = "no_such_kernel";
  launches->push_back((*launches)[1]);
  launches->back().args.pop_back();
  const std::vector<Execution> batch =
      reference::RunReferenceBatch(*launches, {});
  ASSERT_EQ(batch.size(), launches->size());
  for (size_t i = 0; i < launches->size(); ++i) {
    SCOPED_TRACE(absl::StrCat("launch ", i));
    const Execution alone = reference::RunReference((*launches)[i], {});
    EXPECT_EQ(batch[i].status, alone.status);
    EXPECT_EQ(batch[i].message, alone.message);
    EXPECT_EQ(batch[i].buffers, alone.buffers);
    EXPECT_EQ(batch[i].printf_output, alone.printf_output);
    EXPECT_EQ(batch[i].instructions_executed, alone.instructions_executed);
  }
  EXPECT_EQ(batch[cases.size()].status, ExecutionStatus::kBuildFailed);
  EXPECT_THAT(batch[cases.size()].message,
              testing::HasSubstr("no_such_kernel"));
  EXPECT_EQ(batch[cases.size() + 1].status, ExecutionStatus::kBuildFailed);
  // Launches of different modules run case by case, with the same results.
  const std::vector<Execution> apart = reference::RunReferenceBatch(cases, {});
  for (size_t i = 0; i < cases.size(); ++i)
    EXPECT_EQ(apart[i].buffers, batch[i].buffers) << "case " << i;
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

bool HasDecorationGroups(const spirv::TestCase& c) {
  auto m = spirv::ReadModuleWords(c.module_words);
  return m.ok() &&
         std::any_of(m->annotations.begin(), m->annotations.end(),
                     [](const spirv::Instruction& a) {
                       return spirv::Is(a, spv::Op::OpDecorationGroup);
                     });
}

// spirv-opt -O leaves a module with decoration groups nearly untouched, so
// such a case must not share a batch with others (it hid their crashes).
TEST(KernelBatch, KeySeparatesDecorationGroupsAndExtensionSets) {
  const std::vector<spirv::TestCase> cases = Generated(7400, 30);
  std::set<std::string> with, without;
  for (const spirv::TestCase& c : cases)
    (HasDecorationGroups(c) ? with : without).insert(spirv::BatchKey(c));
  ASSERT_FALSE(with.empty());
  ASSERT_FALSE(without.empty());
  for (const std::string& k : with) EXPECT_EQ(without.count(k), 0u) << k;

  // The same extensions in another order: the same key; another set: not.
  auto m = spirv::ReadModuleWords(cases[0].module_words);
  ASSERT_TRUE(m.ok());
  const auto extension = [](const char* name) {
    return spirv::Instruction(static_cast<uint32_t>(spv::Op::OpExtension), 0, 0,
                              {spirv::StringOperand(name)});
  };
  spirv::TestCase ab = cases[0], ba = cases[0], a = cases[0];
  m->extensions = {extension("SPV_A"), extension("SPV_B")};
  ab.module_words = spirv::EncodeModule(*m);
  m->extensions = {extension("SPV_B"), extension("SPV_A")};
  ba.module_words = spirv::EncodeModule(*m);
  m->extensions = {extension("SPV_A")};
  a.module_words = spirv::EncodeModule(*m);
  EXPECT_EQ(spirv::BatchKey(ab), spirv::BatchKey(ba));
  EXPECT_NE(spirv::BatchKey(ab), spirv::BatchKey(a));
  EXPECT_NE(spirv::BatchKey(a), spirv::BatchKey(cases[0]));
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

// Warm OpenCL workers (OpenClWarmWorker): batches forked from the warm
// server give what batches forked from the caller give, batch after batch
// (each its own context, buffers, printf and Oclgrind log).
class WarmWorker : public ::testing::TestWithParam<std::string> {};

TEST_P(WarmWorker, GivesWhatAColdWorkerGives) {
  const std::string name = GetParam();
  TargetOptions cold_options;
  cold_options.warm_workers = false;
  auto warm = MakeTarget(name);
  auto cold = MakeTarget(name, cold_options);
  if (!warm.ok() || !cold.ok()) GTEST_SKIP() << warm.status();
  const TargetRunLimits limits;
  for (uint64_t first : {7500u, 7510u, 7520u}) {
    const std::vector<spirv::TestCase> cases = Generated(first, 4, name);
    auto launches = spirv::BatchKernels(cases);
    ASSERT_TRUE(launches.ok()) << launches.status();
    const std::vector<Execution> w = (*warm)->RunBatch(*launches, limits);
    const std::vector<Execution> c = (*cold)->RunBatch(*launches, limits);
    ASSERT_EQ(w.size(), c.size());
    for (size_t i = 0; i < w.size(); ++i) {
      SCOPED_TRACE(absl::StrCat(name, ", seed ", first + i));
      EXPECT_EQ(w[i].status, c[i].status) << w[i].message << c[i].message;
      EXPECT_EQ(w[i].message, c[i].message);
      EXPECT_EQ(w[i].buffers, c[i].buffers);
      EXPECT_EQ(w[i].printf_output, c[i].printf_output);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(OpenCl, WarmWorker,
                         ::testing::Values("oclgrind", "opencl:Portable"),
                         [](const auto& info) {
                           return std::string(
                               info.param == "oclgrind" ? "oclgrind" : "pocl");
                         });

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
