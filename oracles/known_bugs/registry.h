// oracles/known_bugs/registry.h — the known consumer bug registry as data.
//
// Contract: one record per reproducer in corpora/known-consumer-bugs/
// (registry.json beside them; the format is in that folder's README.md),
// embedded in the binary at configure time. `EmbeddedKnownBugs()` parses it
// once; the registry is checked (field types, enums, every duplicate_of
// naming an entry, every entry having its reproducer) by a test, and a
// malformed registry makes every lookup fail with the reason rather than
// crash. Gates in the generator and the transformations name entries by
// `KnownBugId` (known_bug_ids.h, generated from the same file); an entry's
// consumers (`consumer` plus `also_affects`) decide which campaigns avoid it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/known_bugs/known_bug_ids.h"

namespace l0spv::oracles {

// How an entry was found, so a reader can find it again (the registry
// README, "how_found"): the method, and where known the command line, the
// case seeds, the targets, the device profile, the date it was recorded
// and how its reproducer was reduced.
struct HowFound {
  std::string method;   // campaign | mutate-campaign | spirv-fuzz | libfuzzer
                        // | generator | corpus | by-hand | audit
  std::string command;  // "" = not recorded
  std::vector<int64_t> seeds;        // may be empty
  std::vector<std::string> targets;  // at least one
  std::string profile;               // "" = not recorded
  std::string date;                  // YYYY-MM-DD
  std::string reduced;               // "" = not recorded
  std::string note;                  // "" = none
};

struct KnownBug {
  std::string name;  // reproducer stem
  ConsumerBit consumer = kConsumerIgc;
  uint32_t consumers = 0;  // consumer | also_affects
  std::string version;     // the consumer's version it was seen on
  // Releases of `consumer` (spelled as `version`) the reproducer does not
  // reproduce on (`known-bugs --check` measures it): their cases need not
  // avoid the entry. Every other release, and every also_affects family,
  // is taken to have it.
  std::vector<std::string> not_on;
  std::string kind;    // crash | miscompile | rejects-valid |
                       // emits-invalid | limitation
  std::string status;  // open | doubtful | not-a-bug | fixed-in:VERSION
  std::optional<std::string> duplicate_of;
  std::string root_cause;
  HowFound how_found;
  std::string target;              // l0spv-fuzz target that runs the reproducer
  std::string verdict;             // the verdict kind it gives there
  std::vector<std::string> gates;  // where the project avoids it
  // Environment the consumer runs the reproducer in, where the bug depends
  // on the host (PoCL picks its kernel library by the host CPU: the
  // wide-vector bugs are in its avx2/avx/sse2 libraries, not avx512).
  std::vector<std::pair<std::string, std::string>> consumer_env;
  // The reproducer: SPIR-V assembly (or OpenCL C) and its launch sidecar.
  std::string spvasm;
  std::string opencl_c;
  std::string sidecar;
};

struct KnownBugRegistry {
  std::vector<KnownBug> bugs;  // in KnownBugId order
  const KnownBug* Find(const std::string& name) const;
};

// The embedded registry (parsed once), or why it does not parse.
const absl::StatusOr<KnownBugRegistry>& EmbeddedKnownBugs();
// Parses a registry document; `reproducers` supply the texts by name.
absl::StatusOr<KnownBugRegistry> ParseKnownBugRegistry(
    const std::string& json_text, const std::string& where);

// The consumers whose campaigns must avoid these entries' constructs (0
// when the embedded registry is broken: nothing is avoided, and the
// registry test fails).
uint32_t ConsumersOf(KnownBugId id);
uint32_t ConsumersOf(std::initializer_list<KnownBugId> ids);
const KnownBug* KnownBugOf(KnownBugId id);

// Whether a target running consumer family `family` at release `version`
// ("" = unknown) must avoid entry `bug`: the entry belongs to that family
// (its consumer or also_affects) and, for its own consumer, the release is
// not in not_on.
bool KnownBugOpenOn(const KnownBug& bug, ConsumerBit family,
                    const std::string& version);

// Whether a case may hold the constructs of every entry in `ids`: each
// entry either belongs to no family in `avoid` (a ConsumerBit mask) or is
// in `allowed` (open on none of the releases the case runs, as a
// campaign's CaseRoute::allowed_bugs). The one rule behind the generator's,
// the transformation kinds' and the splitter's gates.
bool KnownBugsAllowed(std::span<const KnownBugId> ids, uint32_t avoid,
                      std::span<const KnownBugId> allowed);

}  // namespace l0spv::oracles
