// `l0spv-fuzz known-bugs [--check] [--consumer=C] [--json]`: the known
// consumer bug registry (corpora/known-consumer-bugs/registry.json) — list
// it, or run every reproducer on its consumer and say what still holds.
#include <algorithm>
#include <iostream>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "fuzzers/cli/commands.h"
#include "nlohmann/json.hpp"
#include "oracles/known_bugs/registry.h"
#include "oracles/known_bugs/reproduce.h"
#include "oracles/targets/target_kinds.h"
#include "reducers/known_match.h"
#include "spirv/text_bytes.h"

ABSL_DECLARE_FLAG(bool, check);
ABSL_DECLARE_FLAG(bool, json);
ABSL_FLAG(std::string, consumer, "",
          "only the entries of this consumer family: igc, llvm-spirv, pocl, "
          "oclgrind, spirv-opt, spirv-link, spirv-fuzz, intel-cpu");

namespace l0spv::fuzzers::cli {
namespace {

// how_found as the registry holds it: the optional fields only when set.
nlohmann::json HowFoundJson(const oracles::HowFound& h) {
  nlohmann::json j = {{"method", h.method}};
  if (!h.command.empty()) j["command"] = h.command;
  if (!h.seeds.empty()) j["seeds"] = h.seeds;
  j["targets"] = h.targets;
  if (!h.profile.empty()) j["profile"] = h.profile;
  j["date"] = h.date;
  if (!h.reduced.empty()) j["reduced"] = h.reduced;
  if (!h.note.empty()) j["note"] = h.note;
  return j;
}

nlohmann::json EntryJson(const oracles::KnownBug& b) {
  return {{"name", b.name},
          {"consumer", oracles::ConsumerInfoOf(b.consumer).name},
          {"version", b.version},
          {"not_on", b.not_on},
          {"kind", b.kind},
          {"status", b.status},
          {"duplicate_of", b.duplicate_of ? nlohmann::json(*b.duplicate_of)
                                          : nlohmann::json(nullptr)},
          {"root_cause", b.root_cause},
          {"how_found", HowFoundJson(b.how_found)},
          {"target", b.target},
          {"verdict", b.verdict},
          {"gates", b.gates}};
}

// `known-bugs FINDING_DIR...`: is each finding a known bug? Labels it
// (known.json, README's first line) and prints the answer.
int MatchFindings(const std::vector<std::string>& dirs) {
  nlohmann::json out = nlohmann::json::array();
  bool any_error = false;
  for (const std::string& dir : dirs) {
    auto match = reducers::LabelFinding(dir);
    if (!match.ok()) {
      std::cerr << "l0spv-fuzz known-bugs: " << match.status().message()
                << "\n";
      any_error = true;
      continue;
    }
    if (absl::GetFlag(FLAGS_json)) {
      const bool known = *match && (*match)->certain;
      out.push_back(
          {{"finding", dir},
           {"known",
            known ? nlohmann::json((*match)->name) : nlohmann::json(nullptr)},
           {"possibly_known", *match && !known ? nlohmann::json((*match)->name)
                                               : nlohmann::json(nullptr)},
           {"how",
            *match ? nlohmann::json((*match)->how) : nlohmann::json(nullptr)}});
    } else {
      std::cout << dir << ": "
                << (*match ? absl::StrCat(
                                 (*match)->certain ? "known: "
                                                   : "new, possibly known: ",
                                 (*match)->name, " (", (*match)->how, ")")
                           : std::string("new"))
                << "\n";
    }
  }
  if (absl::GetFlag(FLAGS_json)) std::cout << spirv::DumpJson(out, 2) << "\n";
  return any_error ? kExitUsage : kExitOk;
}

// The same target at every other installed release of its consumer
// ("spirv-opt@2023.1" -> {"spirv-opt@2025.5"}); none for a consumer with
// one release.
std::vector<std::string> OtherReleases(const std::string& target) {
  const oracles::TargetName name = oracles::ParseTargetName(target);
  const oracles::TargetKindSpec* spec = oracles::FindTargetKind(name.kind);
  std::vector<std::string> out;
  if (spec == nullptr || spec->releases.empty()) return out;
  if ((spec->consumers(name) & spec->release_family) == 0) return out;
  const auto picked = oracles::ReleaseOfTarget(target);
  for (const oracles::ConsumerRelease& r :
       oracles::InstalledReleases(std::string(spec->releases))) {
    if (picked && r.tag == picked->tag) continue;
    out.push_back(absl::StrCat(name.WithoutRelease(), "@", r.tag));
  }
  return out;
}

int RunKnownBugs(const std::vector<std::string>& positional) {
  if (!positional.empty()) {
    if (absl::GetFlag(FLAGS_check))
      return UsageError("known-bugs", "--check takes no FINDING_DIR");
    return MatchFindings(positional);
  }
  const auto& registry = oracles::EmbeddedKnownBugs();
  if (!registry.ok())
    return UsageError("known-bugs", std::string(registry.status().message()));
  const std::string consumer = absl::GetFlag(FLAGS_consumer);
  if (!consumer.empty() && !oracles::ConsumerByName(consumer)) {
    std::vector<std::string> names;
    for (const oracles::ConsumerInfo& c : oracles::Consumers())
      names.emplace_back(c.name);
    return UsageError("known-bugs", absl::StrCat("--consumer=", consumer,
                                                 ": expected one of ",
                                                 absl::StrJoin(names, ", ")));
  }
  const bool check = absl::GetFlag(FLAGS_check);
  const bool json = absl::GetFlag(FLAGS_json);
  nlohmann::json out = nlohmann::json::array();
  int broken = 0, reproduced = 0, fixed = 0, absent = 0, errors = 0;
  for (const oracles::KnownBug& b : registry->bugs) {
    const std::string name(oracles::ConsumerInfoOf(b.consumer).name);
    if (!consumer.empty() && name != consumer) continue;
    nlohmann::json j = EntryJson(b);
    std::string line = absl::StrFormat(
        "%-36s %-10s %-17s %-13s %-9s %-10s %-15s%s", b.name, name, b.version,
        b.kind, b.status, b.how_found.date, b.how_found.method,
        b.duplicate_of ? absl::StrCat(" (duplicate of ", *b.duplicate_of, ")")
                       : std::string());
    if (check) {
      auto run = oracles::RunKnownBug(b);
      std::string result;
      if (!run.ok()) {
        ++errors;
        result = absl::StrCat("error: ", run.status().message());
        j["check"] = {{"result", "error"},
                      {"detail", std::string(run.status().message())}};
      } else {
        const bool same_version = run->installed_version == b.version;
        switch (run->outcome) {
          case oracles::KnownBugRun::Outcome::kReproduces:
            ++reproduced;
            result = "reproduces";
            break;
          case oracles::KnownBugRun::Outcome::kNotInstalled:
            ++absent;
            result = absl::StrCat("consumer not installed (", run->detail, ")");
            break;
          case oracles::KnownBugRun::Outcome::kDoesNotReproduce:
            if (same_version) {
              // Recorded on this very version: the reproducer is broken
              // (or the entry was wrong) — an open bug must reproduce.
              if (b.status == "open") ++broken;
              result =
                  absl::StrCat("DOES NOT REPRODUCE on the recorded version (",
                               run->detail, ")");
            } else {
              ++fixed;
              result = absl::StrCat("fixed here (", run->installed_version,
                                    "; recorded on ", b.version, ")");
            }
            break;
        }
        j["check"] = {{"result", result},
                      {"outcome", oracles::OutcomeName(run->outcome)},
                      {"target", run->target},
                      {"installed_version", run->installed_version},
                      {"verdict", oracles::VerdictKindName(run->verdict.kind)},
                      {"signature", run->verdict.signature},
                      {"detail", run->detail}};
        // Every other installed release of the entry's consumer: is it
        // open there too?
        nlohmann::json releases = nlohmann::json::object();
        std::vector<std::string> shown;
        for (const std::string& other : OtherReleases(run->target)) {
          auto r = oracles::RunKnownBug(b, other);
          const std::string status =
              !r.ok() ? "error"
              : r->outcome == oracles::KnownBugRun::Outcome::kReproduces
                  ? "open"
              : r->outcome == oracles::KnownBugRun::Outcome::kNotInstalled
                  ? "not installed"
                  : "does not reproduce";
          const std::string version =
              r.ok() ? r->installed_version : std::string();
          releases[other] = {
              {"status", status},
              {"version", version},
              {"verdict",
               r.ok() ? oracles::VerdictKindName(r->verdict.kind) : ""}};
          std::string said = status;
          // not_on must be measured, not assumed: a release it lists that
          // has the bug after all narrows nothing it should.
          const bool listed = std::find(b.not_on.begin(), b.not_on.end(),
                                        version) != b.not_on.end();
          if (status == "open" && listed) {
            ++broken;
            said = "OPEN, though not_on lists it";
          } else if (status == "does not reproduce" && !listed &&
                     !version.empty()) {
            said += absl::StrCat(" (not_on may list ", version, ")");
          }
          shown.push_back(
              absl::StrCat(other.substr(other.rfind('@') + 1), ": ", said));
        }
        if (!releases.empty()) j["check"]["releases"] = std::move(releases);
        if (!shown.empty())
          absl::StrAppend(&result, "; ", absl::StrJoin(shown, ", "));
      }
      absl::StrAppend(&line, "  ", result);
    }
    if (json) {
      out.push_back(std::move(j));
    } else {
      std::cout << line << "\n" << std::flush;
    }
  }
  if (json) std::cout << spirv::DumpJson(out, 2) << "\n";
  if (check) {
    std::cerr << "known-bugs --check: " << reproduced << " reproduce, " << fixed
              << " fixed here, " << absent << " consumer not installed, "
              << broken
              << " open entries that no longer reproduce on their recorded "
                 "version or reproduce on a release their not_on lists, "
              << errors << " error(s)\n";
  }
  if (errors > 0) return kExitUsage;
  return broken > 0 ? kExitFinding : kExitOk;
}

}  // namespace

Command KnownBugsCommand() {
  return {"known-bugs",
          "list the known consumer bug registry; --check runs its reproducers",
          "known-bugs [--check] [--consumer=C] [--json] | known-bugs "
          "FINDING_DIR... [--json]\n\n"
          "Lists corpora/known-consumer-bugs/registry.json (embedded at "
          "build time): name, consumer, the consumer version it was seen on, "
          "kind (crash, miscompile, rejects-valid, emits-invalid, "
          "limitation), status (open, doubtful, not-a-bug, fixed-in:V) and "
          "duplicate_of. --json prints one object per entry. --check runs "
          "every reproducer on its consumer (and on ref) and says, per "
          "entry: reproduces / fixed here (the installed version differs "
          "from the recorded one) / consumer not installed. Exit 1 when an "
          "open entry no longer reproduces on the version it was recorded on "
          "(a broken reproducer), 2 when a reproducer cannot be run. With "
          "FINDING_DIRs: is each finding a known bug? (matched as after a "
          "campaign's reduction: its reduced/ case, same consumer, by "
          "signature then by construct; writes known.json and the README's "
          "first line).",
          {"check", "consumer", "json"},
          RunKnownBugs};
}

}  // namespace l0spv::fuzzers::cli
