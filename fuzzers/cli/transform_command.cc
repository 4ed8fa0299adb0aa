// `l0spv-fuzz transform`: applies random semantics-preserving
// transformations to a test case (any valid Level Zero module) and writes
// the transformed case with its transformation log; optionally checks that
// the module stays valid and `ref`'s results stay identical.
#include <algorithm>
#include <iostream>
#include <map>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "fuzzers/cli/case_input.h"
#include "fuzzers/cli/commands.h"
#include "generators/kernel/generator.h"
#include "generators/transform/engine.h"
#include "generators/transform/registry.h"
#include "generators/transform/semantics_check.h"

ABSL_DECLARE_FLAG(uint64_t, seed);
ABSL_DECLARE_FLAG(uint64_t, count);
ABSL_DECLARE_FLAG(std::string, out);
ABSL_DECLARE_FLAG(bool, check);
ABSL_DECLARE_FLAG(bool, stats);
ABSL_DECLARE_FLAG(bool, json);
ABSL_FLAG(uint32_t, transformations, 0,
          "transformations to apply per case (0 = 1..200 drawn from the "
          "seed)");
ABSL_FLAG(std::string, kinds, "",
          "comma-separated transformation kinds to use (default: a random "
          "subset per case; `transform --list` names them and the enablers "
          "each one needs)");
ABSL_FLAG(bool, list, false, "list the transformation kinds and exit");
ABSL_FLAG(bool, from_generator, false,
          "transform generated cases (seeds --seed .. --seed+--count-1) "
          "instead of an input case");

namespace l0spv::fuzzers::cli {
namespace {

int RunTransform(const std::vector<std::string>& positional) {
  if (absl::GetFlag(FLAGS_list)) {
    // One kind per line, its name first; the kinds it needs to find
    // opportunities (enablers) after it, to add to --kinds with it.
    for (const generators::transform::Transformation* t :
         generators::transform::AllTransformations()) {
      std::cout << t->kind();
      const char* sep = "  (enablers: ";
      for (std::string_view e : t->enablers()) {
        std::cout << sep << e;
        sep = ", ";
      }
      std::cout << (t->enablers().empty() ? "\n" : ")\n");
    }
    // The case-level kind (engine.h): not drawn here, made by --split.
    std::cout << generators::transform::kSplitModuleKind
              << "  (case-level, the last record: generate/campaign "
                 "--split)\n";
    return kExitOk;
  }
  const bool from_generator = absl::GetFlag(FLAGS_from_generator);
  if (from_generator != positional.empty())
    return UsageError("transform",
                      from_generator
                          ? "--from_generator takes no input case"
                          : "expected one CASE_DIR or FILE.spv --sidecar=JSON");
  const std::string out = absl::GetFlag(FLAGS_out);
  const bool check = absl::GetFlag(FLAGS_check);
  const bool stats = absl::GetFlag(FLAGS_stats);
  if (out.empty() && !check && !stats)
    return UsageError("transform",
                      "nothing to do: give --out=DIR, --check or --stats");
  const uint64_t count = absl::GetFlag(FLAGS_count);
  if (count == 0) return UsageError("transform", "--count must be at least 1");

  generators::transform::TransformOptions options;
  options.count = absl::GetFlag(FLAGS_transformations);
  if (const std::string k = absl::GetFlag(FLAGS_kinds); !k.empty()) {
    for (absl::string_view part : absl::StrSplit(k, ',')) {
      if (part.empty())
        return UsageError("transform",
                          absl::StrCat("--kinds=", k, ": an empty kind name"));
      options.kinds.emplace_back(part);
    }
  }

  if (!from_generator && !out.empty()) {
    if (absl::Status s = CheckOutIsNotInput(positional[0], out); !s.ok())
      return UsageError("transform", std::string(s.message()));
  }
  std::optional<spirv::TestCase> input;
  if (!from_generator) {
    auto tc = ReadCaseInput(positional[0]);
    if (!tc.ok())
      return UsageError("transform", std::string(tc.status().message()));
    input = std::move(*tc);
  }
  std::map<std::string, uint64_t> applied, cases_with;
  uint64_t failures = 0, total = 0;
  for (uint64_t i = 0; i < count; ++i) {
    options.seed = absl::GetFlag(FLAGS_seed) + i;
    spirv::TestCase original;
    if (from_generator) {
      generators::kernel::GeneratorOptions g;
      g.seed = options.seed;
      auto tc = generators::kernel::GenerateTestCase(g);
      if (!tc.ok())
        return UsageError("transform", std::string(tc.status().message()));
      original = std::move(*tc);
    } else {
      original = *input;
    }
    auto result = generators::transform::Transform(original, options);
    if (!result.ok())
      return UsageError("transform", absl::StrCat("seed ", options.seed, ": ",
                                                  result.status().message()));
    for (const auto& [kind, n] : result->applied) {
      applied[kind] += n;
      ++cases_with[kind];
      total += n;
    }
    if (check) {
      if (absl::Status s = generators::transform::CheckTransformed(
              original, result->test_case);
          !s.ok()) {
        // An original that cannot run has nothing to compare against: that
        // is the input's problem, not a transformation bug.
        if (absl::IsFailedPrecondition(s))
          return UsageError("transform", std::string(s.message()));
        ++failures;
        std::cerr << "seed " << options.seed
                  << ": NOT preserved: " << s.message() << "\n";
      }
    }
    if (!out.empty()) {
      const std::string dir =
          count == 1 ? out : absl::StrCat(out, "/seed-", options.seed);
      if (absl::Status s = spirv::WriteTestCase(result->test_case, dir);
          !s.ok())
        return UsageError("transform", std::string(s.message()));
      if (count == 1)
        std::cerr << "wrote " << dir << " (" << total
                  << " transformations; log in case.json "
                     "\"transformation_log\")\n";
    }
  }
  if (stats) {
    std::cout << absl::StrFormat("%-36s %10s %8s\n", "kind", "applied",
                                 "cases");
    for (const generators::transform::Transformation* t :
         generators::transform::AllTransformations()) {
      const std::string k(t->kind());
      std::cout << absl::StrFormat("%-36s %10d %8d\n", k, applied[k],
                                   cases_with[k]);
    }
    std::cout << absl::StrFormat("%-36s %10d %8d\n", "total", total, count);
  }
  // A kind restricted by --kinds that never applied may lack the kinds
  // that create its opportunities: say which.
  for (const std::string& k : options.kinds) {
    if (applied[k] != 0) continue;
    const generators::transform::Transformation* t =
        generators::transform::FindTransformation(k);
    if (t == nullptr) continue;  // Transform refused it already
    std::string missing;
    for (std::string_view e : t->enablers()) {
      if (std::find(options.kinds.begin(), options.kinds.end(), e) !=
          options.kinds.end())
        continue;
      if (!missing.empty()) missing += ",";
      missing += e;
    }
    if (!missing.empty())
      std::cerr << k << " never applied: it needs " << missing
                << " (its enablers); add them to --kinds\n";
  }
  if (check)
    std::cerr << (count - failures) << "/" << count
              << " transformed cases valid and equal to the original on ref\n";
  return failures == 0 ? kExitOk : kExitFinding;
}

}  // namespace

Command TransformCommand() {
  return {"transform",
          "apply semantics-preserving transformations to a case",
          "transform (CASE_DIR | FILE.spv --sidecar=JSON | --from_generator) "
          "[--out=DIR] [--seed=N] [--count=N] [--transformations=N] "
          "[--kinds=K,...] [--check] [--stats] | --list\n\n"
          "Applies random transformations (swarm: a random subset of kinds per "
          "case unless --kinds) and writes the transformed case to --out; its "
          "case.json carries the transformation log, which `l0spv-fuzz replay` "
          "re-applies. --check lints every transformed module and compares its "
          "`ref` results with the original's (exit 1 on any difference: a "
          "transformation bug). --stats prints how often each kind applied.",
          {"seed", "count", "out", "check", "stats", "transformations", "kinds",
           "list", "from_generator", "sidecar"},
          RunTransform};
}

}  // namespace l0spv::fuzzers::cli
