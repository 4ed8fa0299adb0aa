#include "oracles/known_bugs/registry.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/civil_time.h"
#include "oracles/known_bugs/registry_data.h"
#include "spirv/json_reader.h"

namespace l0spv::oracles {
namespace {

// A consumer name of Consumers() (consumers.h: the one list).
std::string ConsumerField(spirv::JsonField field) {
  const std::string name = field.String();
  if (!ConsumerByName(name)) {
    std::vector<std::string> names;
    for (const ConsumerInfo& c : Consumers()) names.emplace_back(c.name);
    field.Fail(absl::StrCat("expected one of ", absl::StrJoin(names, ", "),
                            "; got \"", name, "\""));
  }
  return name;
}

constexpr char kFormat[] = "l0spv-known-bugs/2";

// `how_found` (the README's table): a wrong type, an unknown method, no
// target or a date that is not YYYY-MM-DD fails the field.
HowFound HowFoundField(spirv::JsonField h) {
  HowFound found;
  if (!h.ExpectObject()) return found;
  found.method = h["method"].Enum({"campaign", "mutate-campaign", "spirv-fuzz",
                                   "libfuzzer", "generator", "corpus",
                                   "by-hand", "audit"});
  found.command = h["command"].String("");
  for (spirv::JsonField s : h["seeds"].Array(4096, false))
    found.seeds.push_back(s.Int(0, INT64_MAX));
  for (spirv::JsonField t : h["targets"].Array(64))
    found.targets.push_back(t.NonEmptyString());
  if (found.targets.empty() && h["targets"].present())
    h["targets"].Fail("expected at least one target");
  found.profile = h["profile"].String("");
  found.date = h["date"].NonEmptyString();
  absl::CivilDay day;
  if (!found.date.empty() &&
      (found.date.size() != 10 || !absl::ParseCivilTime(found.date, &day)))
    h["date"].Fail(
        absl::StrCat("expected a date YYYY-MM-DD; got \"", found.date, "\""));
  found.reduced = h["reduced"].String("");
  found.note = h["note"].String("");
  return found;
}

const known_bugs_internal::ReproducerText* FindText(const std::string& name) {
  for (size_t i = 0; i < known_bugs_internal::kReproducerCount; ++i) {
    if (known_bugs_internal::kReproducers[i].name == name)
      return &known_bugs_internal::kReproducers[i];
  }
  return nullptr;
}

}  // namespace

const KnownBug* KnownBugRegistry::Find(const std::string& name) const {
  for (const KnownBug& b : bugs)
    if (b.name == name) return &b;
  return nullptr;
}

absl::StatusOr<KnownBugRegistry> ParseKnownBugRegistry(
    const std::string& json_text, const std::string& where) {
  auto doc = spirv::ParseJson(json_text, where);
  if (!doc.ok()) return doc.status();
  spirv::JsonReader reader(where, *doc,
                           "corpora/known-consumer-bugs/README.md describes "
                           "the registry");
  spirv::JsonField root = reader.root();
  if (!root.ExpectObject()) return reader.status();
  if (root["format"].String() != kFormat && reader.ok())
    root["format"].Fail(absl::StrCat("expected \"", kFormat, "\""));
  KnownBugRegistry registry;
  std::set<std::string> names;
  for (spirv::JsonField e : root["bugs"].Array(4096)) {
    if (!e.ExpectObject()) break;
    KnownBug b;
    b.name = e["name"].NonEmptyString();
    const std::string consumer = ConsumerField(e["consumer"]);
    if (!reader.ok()) break;
    b.consumer = *ConsumerByName(consumer);
    b.consumers = b.consumer;
    for (spirv::JsonField also : e["also_affects"].Array(8, false)) {
      const std::string other = ConsumerField(also);
      if (auto bit = ConsumerByName(other)) b.consumers |= *bit;
    }
    b.version = e["version"].NonEmptyString();
    for (spirv::JsonField v : e["not_on"].Array(16, false)) {
      b.not_on.push_back(v.NonEmptyString());
      if (reader.ok() && b.not_on.back() == b.version)
        v.Fail("the recorded version cannot be one the bug is not on");
    }
    b.kind = e["kind"].Enum({"crash", "miscompile", "rejects-valid",
                             "emits-invalid", "limitation"});
    b.status = e["status"].String();
    if (reader.ok() && b.status != "open" && b.status != "doubtful" &&
        b.status != "not-a-bug" && !absl::StartsWith(b.status, "fixed-in:")) {
      e["status"].Fail(absl::StrCat(
          "expected open, doubtful, not-a-bug or fixed-in:VERSION; got \"",
          b.status, "\""));
    }
    if (e["duplicate_of"].present())
      b.duplicate_of = e["duplicate_of"].NonEmptyString();
    b.root_cause = e["root_cause"].NonEmptyString();
    b.how_found = HowFoundField(e["how_found"]);
    b.target = e["target"].NonEmptyString();
    b.verdict =
        e["verdict"].Enum({"crash", "timeout", "rejected-valid",
                           "accepted-invalid", "mismatch", "target-ub"});
    for (spirv::JsonField g : e["gates"].Array(64))
      b.gates.push_back(g.String());
    for (auto& [var, value] : e["consumer_env"].Members(8, false)) {
      const bool name_ok =
          !var.empty() &&
          var.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
              std::string::npos;
      if (!name_ok && reader.ok())
        value.Fail("expected an environment variable name (A-Z, 0-9, _)");
      b.consumer_env.emplace_back(var, value.String());
    }
    if (!reader.ok()) break;
    if (!names.insert(b.name).second) {
      e["name"].Fail(absl::StrCat("\"", b.name, "\" is listed twice"));
      break;
    }
    if (const auto* text = FindText(b.name)) {
      b.spvasm = std::string(text->spvasm);
      b.opencl_c = std::string(text->opencl_c);
      b.sidecar = std::string(text->sidecar);
    }
    registry.bugs.push_back(std::move(b));
  }
  if (!reader.ok()) return reader.status();
  for (const KnownBug& b : registry.bugs) {
    if (b.duplicate_of && registry.Find(*b.duplicate_of) == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": ", b.name, ": duplicate_of \"",
                       *b.duplicate_of, "\" is not an entry"));
    }
  }
  return registry;
}

const absl::StatusOr<KnownBugRegistry>& EmbeddedKnownBugs() {
  static const auto* registry = new absl::StatusOr<KnownBugRegistry>(
      ParseKnownBugRegistry(std::string(known_bugs_internal::kRegistryJson),
                            "corpora/known-consumer-bugs/registry.json"));
  return *registry;
}

const KnownBug* KnownBugOf(KnownBugId id) {
  const auto& r = EmbeddedKnownBugs();
  const size_t i = static_cast<size_t>(id);
  if (!r.ok() || i >= r->bugs.size()) return nullptr;
  return &r->bugs[i];
}

uint32_t ConsumersOf(KnownBugId id) {
  const KnownBug* b = KnownBugOf(id);
  return b == nullptr ? 0 : b->consumers;
}

uint32_t ConsumersOf(std::initializer_list<KnownBugId> ids) {
  uint32_t mask = 0;
  for (KnownBugId id : ids) mask |= ConsumersOf(id);
  return mask;
}

bool KnownBugOpenOn(const KnownBug& bug, ConsumerBit family,
                    const std::string& version) {
  if ((bug.consumers & family) == 0) return false;
  if (family != bug.consumer || version.empty()) return true;
  return std::find(bug.not_on.begin(), bug.not_on.end(), version) ==
         bug.not_on.end();
}

bool KnownBugsAllowed(std::span<const KnownBugId> ids, uint32_t avoid,
                      std::span<const KnownBugId> allowed) {
  return std::all_of(ids.begin(), ids.end(), [&](KnownBugId id) {
    return (avoid & ConsumersOf(id)) == 0 ||
           std::find(allowed.begin(), allowed.end(), id) != allowed.end();
  });
}

}  // namespace l0spv::oracles
