// The property every transformation kind promises: the module stays valid
// (spirv-val + lint) and `ref`'s results stay identical on the case's
// inputs, for 200 random transformations on generated cases and on every
// corpus kernel; the log replays to the byte-identical module.
#include <filesystem>
#include <iostream>

#include "generators/kernel/generator.h"
#include "generators/transform/engine.h"
#include "generators/transform/registry.h"
#include "generators/transform/semantics_check.h"
#include "gtest/gtest.h"
#include "spirv/launch_spec.h"

namespace l0spv::generators::transform {
namespace {

// Sanitizer builds run 5x fewer generated cases (CI's second stage).
#if defined(__SANITIZE_ADDRESS__)
constexpr uint64_t kCasesPerShard = 50;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr uint64_t kCasesPerShard = 50;
#else
constexpr uint64_t kCasesPerShard = 250;
#endif
#else
constexpr uint64_t kCasesPerShard = 250;
#endif

void CheckGeneratedShard(uint64_t shard) {
  std::map<std::string, uint64_t> applied;
  for (uint64_t i = 0; i < kCasesPerShard; ++i) {
    const uint64_t seed = shard * 1000 + i;
    SCOPED_TRACE(testing::Message() << "generator seed " << seed);
    generators::kernel::GeneratorOptions g;
    g.seed = seed;
    auto original = generators::kernel::GenerateTestCase(g);
    ASSERT_TRUE(original.ok()) << original.status();
    TransformOptions o;
    o.seed = seed;
    o.count = 200;
    auto result = Transform(*original, o);
    ASSERT_TRUE(result.ok()) << result.status();
    for (const auto& [k, n] : result->applied) applied[k] += n;
    ASSERT_TRUE(CheckTransformed(*original, result->test_case).ok())
        << CheckTransformed(*original, result->test_case)
        << "\nlog kinds: " << result->log["records"].size();
    if (i % 10 == 0) {
      auto again = Replay(*original, result->log);
      ASSERT_TRUE(again.ok()) << again.status();
      EXPECT_EQ(again->test_case.module_words, result->test_case.module_words);
    }
  }
  uint64_t total = 0;
  for (const auto& [k, n] : applied) total += n;
  std::cout << "[transform] shard " << shard << ": " << total
            << " transformations over " << kCasesPerShard << " cases, "
            << applied.size() << " kinds\n";
}

TEST(TransformProperty, GeneratedShard0) { CheckGeneratedShard(0); }
TEST(TransformProperty, GeneratedShard1) { CheckGeneratedShard(1); }
TEST(TransformProperty, GeneratedShard2) { CheckGeneratedShard(2); }
TEST(TransformProperty, GeneratedShard3) { CheckGeneratedShard(3); }

TEST(TransformProperty, EveryCorpusKernel) {
  const std::string manifest =
      std::string(L0SPV_BINARY_DIR) + "/corpora/corpus_manifest.txt";
  if (!std::filesystem::exists(manifest))
    GTEST_SKIP() << "corpus not built (" << manifest << ")";
  auto entries = spirv::ReadCorpusManifest(manifest);
  ASSERT_TRUE(entries.ok()) << entries.status();
  int checked = 0, not_runnable = 0;
  for (const spirv::CorpusEntry& entry : *entries) {
    if (!std::filesystem::exists(entry.spv_path))
      GTEST_SKIP() << "corpus module " << entry.spv_path << " not built";
    SCOPED_TRACE(entry.name);
    auto original = spirv::LoadSidecarCase(entry.spv_path, entry.json_path);
    ASSERT_TRUE(original.ok()) << original.status();
    for (uint64_t seed = 0; seed < 3; ++seed) {
      TransformOptions o;
      o.seed = seed;
      o.count = 200;
      auto result = Transform(*original, o);
      ASSERT_TRUE(result.ok()) << result.status();
      const absl::Status s = CheckTransformed(*original, result->test_case);
      if (absl::IsFailedPrecondition(s)) {  // ref cannot run the original
        ++not_runnable;
        break;
      }
      ASSERT_TRUE(s.ok()) << s << " (seed " << seed << ")";
      auto again = Replay(*original, result->log);
      ASSERT_TRUE(again.ok()) << again.status();
      EXPECT_EQ(again->test_case.module_words, result->test_case.module_words);
      ++checked;
    }
  }
  std::cout << "[transform] corpus: " << checked << " transformed cases "
            << "checked, " << not_runnable << " kernels ref cannot run\n";
  EXPECT_GT(checked, 0);
}

// Every kind applies somewhere: restricted to one kind and its enablers(),
// 40 generated cases see it applied at least once, and the results stay valid
// and equal.
TEST(TransformProperty, EveryKindApplies) {
  for (const Transformation* t : AllTransformations()) {
    SCOPED_TRACE(std::string(t->kind()));
    uint64_t applied = 0;
    for (uint64_t seed = 0; seed < 40 && applied < 3; ++seed) {
      generators::kernel::GeneratorOptions g;
      g.seed = 5000 + seed;
      // Every construct, known consumer bugs or not: the switch kinds need
      // switches, which the PoCL gate keeps out of cases with barriers.
      g.avoid_known_bugs = 0;
      auto original = generators::kernel::GenerateTestCase(g);
      ASSERT_TRUE(original.ok());
      TransformOptions o;
      o.seed = seed;
      o.count = 20;
      o.kinds = KindAndEnablers(t->kind());
      auto result = Transform(*original, o);
      ASSERT_TRUE(result.ok()) << result.status();
      ASSERT_TRUE(CheckTransformed(*original, result->test_case).ok())
          << CheckTransformed(*original, result->test_case);
      applied += result->applied[std::string(t->kind())];
    }
    EXPECT_GT(applied, 0u) << t->kind() << " never applied";
  }
}

}  // namespace
}  // namespace l0spv::generators::transform
