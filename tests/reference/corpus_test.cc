// Runs every module of the compiled corpus (corpora/, built into
// ${L0SPV_BINARY_DIR}/corpora) on the reference interpreter. A run may be
// unsupported (the summary lists what is missing); it must never be UB,
// time out or fail to build, since corpus kernels are valid and UB-free.
// Runs use every optional check (races, uninitialised reads), and their
// results must equal a run without checks: checks observe, never change.
#include <filesystem>
#include <iostream>
#include <map>

#include "gtest/gtest.h"
#include "oracles/reference/interpreter.h"
#include "spirv/launch_spec.h"

namespace l0spv::oracles::reference::test {
namespace {

TEST(ReferenceCorpus, EveryKernelRunsWithoutUbOrTimeout) {
  const std::string manifest =
      std::string(L0SPV_BINARY_DIR) + "/corpora/corpus_manifest.txt";
  if (!std::filesystem::exists(manifest))
    GTEST_SKIP() << "corpus not built (" << manifest << ")";
  auto entries = spirv::ReadCorpusManifest(manifest);
  ASSERT_TRUE(entries.ok()) << entries.status();
  for (const spirv::CorpusEntry& entry : *entries) {
    if (!std::filesystem::exists(entry.spv_path))
      GTEST_SKIP() << "corpus module " << entry.spv_path
                   << " not built (build target l0spv_corpus)";
  }
  int ok = 0, unsupported = 0;
  std::map<std::string, int> missing;
  for (const spirv::CorpusEntry& entry : *entries) {
    SCOPED_TRACE(entry.name);
    auto tc = spirv::LoadSidecarCase(entry.spv_path, entry.json_path);
    ASSERT_TRUE(tc.ok()) << tc.status();
    ReferenceOptions all_checks;
    all_checks.check_races = true;
    all_checks.check_uninitialized = true;
    const Execution e = RunReference(*tc, all_checks);
    std::cout << "[corpus] " << entry.name << ": "
              << ExecutionStatusName(e.status)
              << (e.message.empty() ? "" : " — ") << e.message << " ("
              << e.instructions_executed << " instructions)\n";
    if (e.status == ExecutionStatus::kOk) {
      ++ok;
      ReferenceOptions no_checks;
      no_checks.check_races = false;
      const Execution plain = RunReference(*tc, no_checks);
      EXPECT_EQ(plain.status, ExecutionStatus::kOk) << plain.message;
      EXPECT_EQ(plain.buffers, e.buffers);
      EXPECT_EQ(plain.printf_output, e.printf_output);
      EXPECT_EQ(plain.instructions_executed, e.instructions_executed);
      for (size_t i = 0; i < tc->args.size(); ++i) {
        if (tc->args[i].kind == spirv::KernelArg::Kind::kBuffer) {
          EXPECT_EQ(e.buffers[i].size(), tc->args[i].bytes.size());
        }
      }
    } else if (e.status == ExecutionStatus::kUnsupported) {
      ++unsupported;
      ++missing[e.message.substr(e.message.rfind(": ") + 2)];
    } else {
      ADD_FAILURE() << entry.name << ": " << ExecutionStatusName(e.status)
                    << ": " << e.message;
    }
  }
  std::cout << "[corpus] " << ok << " ok, " << unsupported << " unsupported of "
            << entries->size() << "\n";
  for (const auto& [what, count] : missing)
    std::cout << "[corpus] missing (" << count << "x): " << what << "\n";
}

// The self-checking conformance kernels (corpora/opencl/conformance_*.cl)
// compare every result with a hand-computed value and print "PASS <name>";
// a "FAIL n" line names the check that the interpreter got wrong.
TEST(ReferenceCorpus, ConformanceKernelsPass) {
  const std::string manifest =
      std::string(L0SPV_BINARY_DIR) + "/corpora/corpus_manifest.txt";
  if (!std::filesystem::exists(manifest))
    GTEST_SKIP() << "corpus not built (" << manifest << ")";
  auto entries = spirv::ReadCorpusManifest(manifest);
  ASSERT_TRUE(entries.ok()) << entries.status();
  int kernels = 0;
  for (const spirv::CorpusEntry& entry : *entries) {
    if (entry.name.rfind("conformance_", 0) != 0) continue;
    if (!std::filesystem::exists(entry.spv_path))
      GTEST_SKIP() << "corpus module " << entry.spv_path << " not built";
    SCOPED_TRACE(entry.name);
    auto tc = spirv::LoadSidecarCase(entry.spv_path, entry.json_path);
    ASSERT_TRUE(tc.ok()) << tc.status();
    ReferenceOptions all_checks;
    all_checks.check_races = true;
    all_checks.check_uninitialized = true;
    const Execution e = RunReference(*tc, all_checks);
    ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
    EXPECT_EQ(e.printf_output, "PASS " + entry.name + "\n");
    EXPECT_EQ(e.buffers[1], std::vector<uint8_t>(4, 0)) << "failed checks";
    ++kernels;
  }
  EXPECT_GE(kernels, 3);
}

}  // namespace
}  // namespace l0spv::oracles::reference::test
