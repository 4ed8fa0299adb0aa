// `l0spv-fuzz generate`: test cases from the kernel generator; optionally
// checks each one (lint + reference run) and prints the coverage table.
#include <algorithm>
#include <iostream>
#include <map>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "fuzzers/campaign/campaign.h"
#include "fuzzers/cli/commands.h"
#include "generators/kernel/generator.h"
#include "generators/kernel/opcode_stats.h"
#include "generators/transform/engine.h"
#include "generators/transform/split_module.h"
#include "oracles/compare/compare.h"
#include "oracles/known_bugs/registry.h"
#include "oracles/reference/interpreter.h"
#include "oracles/targets/target_registry.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"
#include "spirv/text_bytes.h"

ABSL_DECLARE_FLAG(std::string, profile);
ABSL_DECLARE_FLAG(bool, json);
ABSL_FLAG(uint64_t, seed, 0, "seed of the first test case");
ABSL_FLAG(uint64_t, count, 1, "number of consecutive seeds to generate");
ABSL_FLAG(std::string, out, "",
          "directory to write the case to (with --count > 1: one "
          "sub-directory seed-N per case)");
ABSL_FLAG(bool, stats, false,
          "print how often each opcode and OpenCL.std instruction appears");
ABSL_FLAG(bool, coverage, false,
          "with --stats: also print the coverage table (every core opcode the "
          "profile makes usable and every OpenCL.std instruction: how many "
          "cases used it, and, measured on these cases and on each one after "
          "the campaign's --mutate, whether transformations create or remove "
          "it and, with --check, whether lint accepted and ref ran modules "
          "with it)");
ABSL_FLAG(bool, check, false,
          "lint every case (spirv-val + Level Zero rules) and run it on the "
          "reference interpreter; exit 1 if any is rejected or has undefined "
          "behaviour (a generator bug)");
ABSL_FLAG(uint32_t, max_statements, 60,
          "upper bound on the kernel's statements (each case draws its size "
          "below it)");
ABSL_FLAG(bool, allow_known_bugs, false,
          "also emit constructs with known, filed consumer bugs (a "
          "campaign; `generate` emits them unless --avoid)");
ABSL_FLAG(std::string, avoid, "",
          "generate: comma-separated targets (`l0spv-fuzz targets` names) "
          "whose consumers' known bugs and limitations the cases leave out, "
          "staying at the newest SPIR-V they all read and, with "
          "--profile=auto, on the narrowest of their device profiles: what "
          "a campaign sends a case routed to those targets. Default: none "
          "(the whole language)");
ABSL_FLAG(std::string, allow_bug, "",
          "comma-separated known-bug registry names (`l0spv-fuzz known-bugs` "
          "lists them) whose constructs are emitted anyway, every other gate "
          "kept: a campaign aimed at one known bug, e.g. to see whether a new "
          "consumer version fixed it");
ABSL_FLAG(bool, non_uniform, false,
          "allow ND-ranges with partial work-groups (OpenCL 2.0; Level Zero "
          "cannot launch them)");
ABSL_FLAG(std::string, images, "off",
          "image and sampler kernels: off (default), swarm (a quarter of the "
          "cases) or on (every case); only profiles with images get them");

ABSL_FLAG(std::string, printf, "swarm",
          "printf calls in generated kernels: swarm (default, 30% of the "
          "cases), on (every case) or off");

ABSL_FLAG(std::string, split, "off",
          "split each case into several modules that link back into it "
          "(Linkage; every target takes them: the linkers link them, "
          "spirv-opt and llvm-spirv transform each, PoCL says unsupported): "
          "off (default), on (2-4 modules drawn per case) or a count "
          "2..16; with --check, the split case must compute what the "
          "original computes on ref");

ABSL_FLAG(std::string, spirv_version, "swarm",
          "SPIR-V version of the cases: swarm (each case draws one from 1.0 "
          "to the newest the profile and, in a campaign, every target's "
          "consumer accepts), a version (1.3) or a range (1.0-1.2)");

namespace l0spv::fuzzers::cli {

absl::Status SpirvVersionsFromFlag(const oracles::DeviceProfile& profile,
                                   generators::kernel::GeneratorOptions& o) {
  const std::string v = absl::GetFlag(FLAGS_spirv_version);
  const auto word = [](const std::string& text) -> std::optional<uint32_t> {
    uint32_t minor = 0;
    if (text.size() != 3 || text.substr(0, 2) != "1." ||
        !absl::SimpleAtoi(absl::string_view(text).substr(2), &minor) ||
        minor > 6)
      return std::nullopt;
    return 0x00010000u | (minor << 8);
  };
  o.min_spirv_version = 0x00010000;
  o.max_spirv_version = 0;
  if (v != "swarm") {
    const std::vector<std::string> ends = absl::StrSplit(v, '-');
    const auto low = word(ends[0]);
    const auto high = ends.size() == 2 ? word(ends[1]) : low;
    if (ends.size() > 2 || !low || !high || *low > *high) {
      return absl::InvalidArgumentError(
          "--spirv_version expects swarm, a version 1.0 to 1.6 or a range "
          "LOW-HIGH of them, not '" +
          v + "'");
    }
    o.min_spirv_version = *low;
    o.max_spirv_version = *high;
  }
  if (o.min_spirv_version > profile.max_spirv_version) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--spirv_version=", v, ": profile '", profile.name,
        "' accepts SPIR-V 1.0 to ", profile.MaxSpirvVersionString()));
  }
  return absl::OkStatus();
}

namespace {

struct CheckCounts {
  uint64_t rejected = 0, ub = 0, other = 0;
};

// Lints `tc` and runs it on the reference interpreter with every check,
// printing and counting what fails; `table` (if any) records which opcodes
// lint accepted and ref ran.
void CheckCase(const spirv::TestCase& tc, const spirv::Module& module,
               const oracles::DeviceProfile& profile, const std::string& label,
               CheckCounts& counts, generators::kernel::OpcodeStats* table) {
  const oracles::LintReport report = oracles::LintModule(module, profile);
  if (!report.ok()) {
    ++counts.rejected;
    std::cout << label << ": REJECTED\n" << report.ToText() << "\n";
    if (table) table->AddChecked(module, false, false);
    return;
  }
  // Every check of the reference: bounds, division, shifts, conversions,
  // barrier divergence, data races and reads of uninitialised memory.
  oracles::reference::ReferenceOptions ref;
  ref.check_races = true;
  ref.check_uninitialized = true;
  const oracles::Execution e = oracles::reference::RunReference(tc, ref);
  if (e.status == oracles::ExecutionStatus::kUbDetected) {
    ++counts.ub;
    std::cout << label << ": UB " << e.message << "\n";
  } else if (e.status != oracles::ExecutionStatus::kOk) {
    ++counts.other;
    std::cout << label << ": " << oracles::ExecutionStatusName(e.status) << " "
              << e.message << "\n";
  }
  if (table)
    table->AddChecked(module, true, e.status == oracles::ExecutionStatus::kOk);
}

// The split case must link and compute exactly what the whole case computes
// on ref (buffers and printf output).
void CheckSplit(const spirv::TestCase& whole, const spirv::TestCase& split,
                const oracles::DeviceProfile& profile, const std::string& label,
                CheckCounts& counts) {
  // Each module passes lint, and so does the program they link into.
  const oracles::LintReport report = oracles::LintCase(split, profile);
  if (!report.ok()) {
    ++counts.rejected;
    std::cout << label << ": REJECTED\n" << report.ToText() << "\n";
    return;
  }
  oracles::reference::ReferenceOptions ref;
  const oracles::Execution a = oracles::reference::RunReference(whole, ref);
  const oracles::Execution b = oracles::reference::RunReference(split, ref);
  if (b.status != a.status) {
    ++counts.other;
    std::cout << label << ": ref says "
              << oracles::ExecutionStatusName(b.status) << " (" << b.message
              << "), the whole case " << oracles::ExecutionStatusName(a.status)
              << "\n";
    return;
  }
  const oracles::CompareResult cmp =
      oracles::CompareExecutions(whole, a, b, oracles::CompareOptions{});
  if (!cmp.equal) {
    ++counts.other;
    std::cout << label << ": differs from the whole case: " << cmp.explanation
              << "\n";
  }
}

// off / swarm / on, the shape of --images and --printf (both enums list
// kOff, kSwarm, kOn).
template <typename Mode>
absl::StatusOr<Mode> OffSwarmOn(const char* flag, const std::string& v) {
  if (v == "off") return Mode::kOff;
  if (v == "swarm") return Mode::kSwarm;
  if (v == "on") return Mode::kOn;
  return absl::InvalidArgumentError(
      absl::StrCat("--", flag, " expects off, swarm or on, not '", v, "'"));
}
}  // namespace

absl::StatusOr<generators::kernel::ImageMode> ImageModeFromFlag() {
  return OffSwarmOn<generators::kernel::ImageMode>("images",
                                                   absl::GetFlag(FLAGS_images));
}

absl::StatusOr<std::vector<oracles::KnownBugId>> AllowedBugsFromFlag() {
  std::vector<oracles::KnownBugId> ids;
  const std::string list = absl::GetFlag(FLAGS_allow_bug);
  if (list.empty()) return ids;
  const auto& registry = oracles::EmbeddedKnownBugs();
  if (!registry.ok()) return registry.status();
  for (absl::string_view name : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    const oracles::KnownBug* bug = registry->Find(std::string(name));
    if (bug == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--allow_bug: '", name,
          "' is not a known-bug registry name; `l0spv-fuzz known-bugs` lists "
          "them"));
    }
    ids.push_back(
        static_cast<oracles::KnownBugId>(bug - registry->bugs.data()));
  }
  return ids;
}

absl::StatusOr<uint32_t> SplitModulesFromFlag() {
  const std::string split = absl::GetFlag(FLAGS_split);
  if (split == "off") return 0;
  if (split == "on") return 1;
  uint32_t modules = 0;
  if (!absl::SimpleAtoi(split, &modules) || modules < 2 || modules > 16)
    return absl::InvalidArgumentError(absl::StrCat(
        "--split expects off, on or a module count 2..16, not '", split, "'"));
  return modules;
}

absl::StatusOr<generators::kernel::PrintfMode> PrintfModeFromFlag() {
  return OffSwarmOn<generators::kernel::PrintfMode>(
      "printf", absl::GetFlag(FLAGS_printf));
}

namespace {

int RunGenerate(const std::vector<std::string>& positional) {
  if (!positional.empty()) {
    return UsageError("generate", "unexpected argument '" + positional[0] +
                                      "' (use --out=DIR)");
  }
  const uint64_t first = absl::GetFlag(FLAGS_seed);
  const uint64_t count = absl::GetFlag(FLAGS_count);
  const std::string out = absl::GetFlag(FLAGS_out);
  const bool stats = absl::GetFlag(FLAGS_stats);
  const bool check = absl::GetFlag(FLAGS_check);
  const bool coverage = absl::GetFlag(FLAGS_coverage);
  auto split_flag = SplitModulesFromFlag();
  if (!split_flag.ok())
    return UsageError("generate", std::string(split_flag.status().message()));
  const uint32_t split_modules = *split_flag;
  if (count == 0) return UsageError("generate", "--count must be at least 1");
  if (coverage && !stats)
    return UsageError("generate", "--coverage needs --stats");
  if (coverage && absl::GetFlag(FLAGS_json))
    return UsageError("generate",
                      "--coverage prints a text table: drop --json (or "
                      "--coverage)");
  if (out.empty() && !stats && !check) {
    return UsageError("generate",
                      "nothing to do: give --out=DIR, --stats or --check");
  }
  // The whole language unless --avoid names the targets to spare; then
  // what a campaign sends a case routed to exactly those targets (the
  // router's own answer: families, releases, SPIR-V version, profile).
  const std::string avoid = absl::GetFlag(FLAGS_avoid);
  std::string profile_name = absl::GetFlag(FLAGS_profile);
  fuzzers::campaign::CaseRoute route;
  if (!avoid.empty()) {
    if (absl::GetFlag(FLAGS_allow_known_bugs))
      return UsageError("generate",
                        "--avoid and --allow_known_bugs contradict each "
                        "other: drop one");
    auto targets = oracles::ParseTargetList(avoid);
    if (!targets.ok())
      return UsageError("generate",
                        "--avoid: " + std::string(targets.status().message()));
    fuzzers::campaign::CampaignOptions campaign;
    campaign.targets = *targets;
    campaign.route = fuzzers::campaign::RouteMode::kAll;
    campaign.profile_per_case = profile_name == "auto";
    campaign.spirv_version_fixed =
        absl::GetFlag(FLAGS_spirv_version) != "swarm";
    route = fuzzers::campaign::RouterOf(campaign).Route(0);
  } else {
    std::cerr << "generate: no --avoid: the whole language, constructs of "
                 "known consumer bugs included (--avoid=TARGET,... leaves "
                 "out those targets' known bugs, as a campaign does)\n";
  }
  if (profile_name == "auto")
    profile_name = route.profile.empty() ? "full" : route.profile;
  auto profile = oracles::FindDeviceProfile(profile_name);
  if (!profile.ok())
    return UsageError("generate", std::string(profile.status().message()));

  generators::kernel::GeneratorOptions options;
  options.profile = profile_name;
  options.max_statements = absl::GetFlag(FLAGS_max_statements);
  options.avoid_known_bugs = route.avoid;
  auto allowed = AllowedBugsFromFlag();
  if (!allowed.ok())
    return UsageError("generate", std::string(allowed.status().message()));
  if (!allowed->empty() && avoid.empty())
    return UsageError("generate",
                      "--allow_bug lifts one gate of the targets --avoid "
                      "names; without --avoid every known bug's construct is "
                      "emitted already");
  options.allowed_bugs = *std::move(allowed);
  for (uint32_t id : route.allowed_bugs)
    options.allowed_bugs.push_back(static_cast<oracles::KnownBugId>(id));
  options.allow_non_uniform = absl::GetFlag(FLAGS_non_uniform);
  auto images = ImageModeFromFlag();
  if (!images.ok())
    return UsageError("generate", std::string(images.status().message()));
  options.images = *images;
  auto printf_mode = PrintfModeFromFlag();
  if (!printf_mode.ok())
    return UsageError("generate", std::string(printf_mode.status().message()));
  options.printf = *printf_mode;
  if (absl::Status v = SpirvVersionsFromFlag(*profile, options); !v.ok())
    return UsageError("generate", std::string(v.message()));
  if (route.newest_spirv != ~0u) options.max_spirv_version = route.newest_spirv;
  if (options.images == generators::kernel::ImageMode::kOn &&
      !profile->images) {
    return UsageError(
        "generate", "--images=on: profile " + profile_name + " has no images");
  }

  generators::kernel::OpcodeStats table;
  CheckCounts counts;
  uint64_t split_cases = 0, unsplittable = 0;
  std::map<std::string, uint64_t> unsplittable_why;
  for (uint64_t i = 0; i < count; ++i) {
    options.seed = first + i;
    auto tc = generators::kernel::GenerateTestCase(options);
    if (!tc.ok()) {
      std::cerr << "error: seed " << options.seed << ": "
                << tc.status().message() << "\n";
      return kExitUsage;
    }
    if (split_modules != 0) {
      generators::transform::SplitOptions split;
      split.seed = options.seed;
      split.modules = split_modules == 1 ? 0 : split_modules;
      const bool linkonce =
          profile->FindExtension("SPV_KHR_linkonce_odr") != nullptr &&
          generators::transform::LinkonceAllowed(options.avoid_known_bugs,
                                                 options.allowed_bugs);
      split.avoid_known_bugs = options.avoid_known_bugs;
      auto parts = generators::transform::SplitCase(*tc, split, linkonce);
      if (parts.ok()) {
        ++split_cases;
        if (check) {
          CheckSplit(*tc, *parts, *profile,
                     absl::StrCat("seed ", options.seed, " split"), counts);
        }
        *tc = *std::move(parts);
      } else if (parts.status().code() ==
                 absl::StatusCode::kFailedPrecondition) {
        ++unsplittable;  // nothing movable: the case stays whole
        ++unsplittable_why[std::string(parts.status().message())];
      } else {
        std::cout << "seed " << options.seed
                  << ": split failed: " << parts.status().message() << "\n";
        ++counts.other;
      }
    }
    if (!out.empty()) {
      const std::string dir =
          count == 1 ? out : absl::StrCat(out, "/seed-", options.seed);
      if (auto s = spirv::WriteTestCase(*tc, dir); !s.ok()) {
        std::cerr << "error: " << s.message() << "\n";
        return kExitUsage;
      }
    }
    if (!stats && !check) continue;
    auto module = spirv::ReadModuleWords(tc->module_words);
    if (!module.ok()) {
      std::cerr << "seed " << options.seed << ": generated module unreadable: "
                << module.status().message() << "\n";
      ++counts.rejected;
      continue;
    }
    if (stats) table.Add(*module);
    if (check) {
      CheckCase(*tc, *module, *profile, absl::StrCat("seed ", options.seed),
                counts, coverage ? &table : nullptr);
    }
    if (!coverage) continue;
    // The xform column: the campaign's --mutate on this case (its kinds and
    // count drawn from the seed, as there).
    generators::transform::TransformOptions mutate;
    mutate.seed = options.seed;
    mutate.avoid_known_bugs = options.avoid_known_bugs;
    mutate.validate_input = false;  // generated: valid by construction
    auto mutated = generators::transform::Transform(*tc, mutate);
    if (!mutated.ok()) {
      std::cout << "seed " << options.seed
                << ": transform failed: " << mutated.status().message() << "\n";
      ++counts.other;
      continue;
    }
    auto mutated_module =
        spirv::ReadModuleWords(mutated->test_case.module_words);
    if (!mutated_module.ok()) {
      std::cout << "seed " << options.seed
                << ": transformed module unreadable: "
                << mutated_module.status().message() << "\n";
      ++counts.other;
      continue;
    }
    table.AddTransformed(*module, *mutated_module);
    if (check) {
      CheckCase(mutated->test_case, *mutated_module, *profile,
                absl::StrCat("seed ", options.seed, " transformed"), counts,
                &table);
    }
  }
  if (stats) {
    if (absl::GetFlag(FLAGS_json)) {
      std::cout << spirv::DumpJson(table.ToJson(), 2) << "\n";
    } else {
      std::cout << table.ToText();
    }
    if (coverage) std::cout << "\n" << table.CoverageText(*profile);
  }
  if (check) {
    std::cout << absl::StrFormat(
        "checked %u case(s) from seed %u, profile %s: %u rejected by lint, "
        "%u with undefined behaviour, %u other reference failures\n",
        count, first, profile_name, counts.rejected, counts.ub, counts.other);
    if (split_modules != 0)
      std::cout << absl::StrFormat(
          "split %u case(s) into several modules (each computing on ref what "
          "the whole case computes unless listed above); %u had no movable "
          "function and stayed whole\n",
          split_cases, unsplittable);
    for (const auto& [why, n] : unsplittable_why)
      std::cout << absl::StrFormat("  %u: %s\n", n, why);
    if (counts.rejected + counts.ub + counts.other > 0) return kExitFinding;
  }
  return kExitOk;
}

}  // namespace

Command GenerateCommand() {
  return {
      "generate",
      "random, valid, UB-free Level Zero kernels (test cases) from seeds",
      "generate [--seed=N] [--count=K] [--out=DIR] [--profile=NAME]\n"
      "         [--stats [--coverage]] [--check] [--max_statements=N]\n"
      "         [--avoid=TARGET,... | --allow_bug=NAME,...] [--non_uniform] "
      "[--images=off|swarm|on] [--printf=swarm|on|off]\n"
      "         [--spirv_version=swarm|1.N|1.N-1.M]\n\n"
      "Generates test cases (module, ND-range, argument buffers, float "
      "tolerances) from consecutive seeds; the same seed, flags and "
      "profile always give the same bytes. Cases hold the whole language, "
      "known consumer bugs included; --avoid=TARGET,... leaves out those "
      "targets' known bugs and limitations (what a campaign sends them). --out "
      "writes case "
      "directories (`l0spv-fuzz run DIR --target=...` runs one). "
      "--check lints each case and runs it on the reference interpreter; "
      "a rejection or undefined behaviour is a generator bug (exit 1). "
      "--stats prints how often each opcode and OpenCL.std instruction "
      "appears; with --coverage, also every usable one and the share "
      "generated. "
      "--images=on gives every case image and sampler arguments "
      "(sampled, sampler-less, written and read-write images, queries, "
      "literal samplers); swarm gives a quarter of them; off (default) "
      "none. Profiles without images never get them. --printf=swarm "
      "(default) gives 30% of the cases printf calls whose text is "
      "exact (compared as a multiset of lines), on every case, off none. "
      "Each case draws its "
      "SPIR-V version from 1.0 to the profile's newest (--spirv_version "
      "fixes one or a range) and uses what that version adds. "
      "--split=on|N writes cases of several modules (module.spv with "
      "the kernel, module-1.spv, ...: functions moved out with "
      "Export/Import linkage); a case without a movable function stays "
      "whole (counted).",
      {"seed", "count", "out", "profile", "stats", "coverage", "check", "json",
       "max_statements", "allow_known_bugs", "avoid", "allow_bug",
       "non_uniform", "images", "printf", "spirv_version", "split"},
      RunGenerate};
}

}  // namespace l0spv::fuzzers::cli
