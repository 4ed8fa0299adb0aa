// oracles/targets/target_kinds.h — every target kind is one record in one
// table: its name, its parameter, its releases, the consumer families it
// runs, the newest SPIR-V it reads, its batch size, how it is probed and
// listed, and its factory. Every question about a target name is a lookup
// here (MakeTarget, DescribeTarget, ListTargets, ConsumersOfTarget,
// NewestSpirvVersionOfTarget, DefaultBatchSize, the campaign's default
// targets); nothing else tests a kind's spelling.
//
// Contract:
//  - A name is KIND[:PARAM][@RELEASE] (target_name.h). The record says
//    whether PARAM is forbidden, optional or required (InvalidArgument, with
//    the record's example, otherwise) and which release set its consumer has
//    (releases.h; "" = one release, and '@' is InvalidArgument).
//  - A new target kind is a factory in its adapter file and one row in
//    target_kinds.cc; docs/DESIGN.md lists the test it needs.
//  - ConsumersOfTarget: the consumer families (known_bugs/consumers.h bits)
//    whose code runs on the target's path: "ocloc:DEV" and "gpu[:DEV]" IGC;
//    "opencl[:P]" PoCL through llvm-spirv's SPIR path, IGC when P names an
//    Intel "Graphics" platform, Intel's CPU runtime when P names another
//    Intel platform or the name carries a release; "oclgrind" Oclgrind
//    through llvm-spirv; "llvm-spirv", "spirv-opt", "spirv-link",
//    "spirv-fuzz" their tools; "ref" none; a name of no known kind every
//    family.
//  - ConsumerVersionOfTarget: the version of family `bit` on that target:
//    the picked release's when the family is the target's own and has
//    releases, else the Debian package's (ConsumerVersion); "" unknown.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/known_bugs/known_bug_ids.h"
#include "oracles/targets/releases.h"
#include "oracles/targets/target.h"
#include "oracles/targets/target_name.h"
#include "oracles/targets/target_registry.h"

namespace l0spv::oracles {

struct TargetKindSpec {
  enum class Param { kNone, kOptional, kRequired };

  std::string_view kind = {};  // "ocloc"
  Param param = Param::kNone;
  std::string_view example = {};   // "ocloc:tgllp": shown when PARAM is wrong
  std::string_view releases = {};  // release set (releases.h); "" = one release
  uint32_t release_family = 0;     // the consumer bit whose releases they are
  uint32_t newest_spirv = ~0u;     // header version word; ~0u = no limit
  // Whether PARAM may name a device profile (ocloc:tgllp, gpu:dg2): a case
  // for the target is generated for that profile.
  bool param_names_profile = false;
  // Cases per batch when a campaign's --batch is auto: where
  // bench/targets/batch_bench measured the consumer's cases/s to level off
  // (docs: "Batches"); 1 for a kind that does not batch. spirv-opt batches
  // only cases of one spirv::BatchKey (one case with decoration groups
  // turns -O off for its whole batch).
  uint32_t default_batch = 1;
  // Whether a campaign without --target runs it (ref always runs; the
  // spirv-fuzz target needs a seed of its own).
  bool in_default_campaign = true;
  uint32_t (*consumers)(const TargetName& name) = nullptr;
  // What this machine has for the name (probes only what it needs).
  absl::StatusOr<TargetInfo> (*describe)(const TargetName& name) = nullptr;
  // Every concrete target of the kind for `l0spv-fuzz targets`.
  std::vector<TargetInfo> (*list)() = nullptr;
  absl::StatusOr<std::unique_ptr<Target>> (*make)(
      const TargetName& name, const TargetOptions& options) = nullptr;
};

const std::vector<TargetKindSpec>& TargetKinds();

// nullptr for a kind of no record.
const TargetKindSpec* FindTargetKind(std::string_view kind);

// InvalidArgument when the name's parameter or release breaks its record's
// rules (or the kind is unknown); the record otherwise.
absl::StatusOr<const TargetKindSpec*> CheckTargetName(const TargetName& name);

uint32_t ConsumersOfTarget(const std::string& target);
uint32_t NewestSpirvVersionOfTarget(const std::string& target);
uint32_t DefaultBatchSize(const std::string& target);
// The device profile a target's cases are generated for ("tgllp" for
// ocloc:tgllp), or "" when its name names none (any profile will do).
std::string DeviceProfileOfTarget(const std::string& target);
// The narrowest of the targets' device profiles (DeviceProfile::Breadth;
// the first of equal breadth), or `fallback` when none names one.
std::string NarrowestProfileOf(const std::vector<std::string>& targets,
                               const std::string& fallback);

// The release a name picks, when its kind has releases and one is
// installed (opencl: only for Intel's CPU runtime).
std::optional<ConsumerRelease> ReleaseOfTarget(const std::string& target);

std::string ConsumerVersionOfTarget(const std::string& target, ConsumerBit bit);

// The registry entries a case for `target` must avoid: those of the
// consumer families it runs that are open on the release it runs of each
// (KnownBugOpenOn at ConsumerVersionOfTarget), in KnownBugId order. A
// campaign allows a case every entry of its avoided families that none of
// its targets has (a bug llvm-spirv 14 has and DPC++'s translator fixed).
std::vector<KnownBugId> KnownBugsOpenOnTarget(const std::string& target);

// `target` at the installed release whose version is `version` (a registry
// entry's: "2023.1-2" -> "spirv-opt@2023.1"), so an entry seen on Debian's
// release reproduces on that release while a newer one is the default;
// `target` unchanged when its kind has one release or none matches.
std::string TargetAtVersion(const std::string& target,
                            const std::string& version);

// Every family the target runs with its version ({"spirv-opt": "2025.5"};
// "" when unknown); empty for `ref` and for names of no known kind.
std::map<std::string, std::string> ConsumerVersionsOfTarget(
    const std::string& target);

}  // namespace l0spv::oracles
