// fuzzers/campaign/routing.h — which of a campaign's targets each case is
// generated for (the target swarm), so that one target's known bugs and
// limitations shape only the cases that target runs.
//
// Contract:
//  - A CaseRouter holds the campaign's targets (besides `ref`, which runs
//    every case) with the consumer families each one runs
//    (oracles::ConsumersOfTarget) and the newest SPIR-V its consumer reads.
//  - Route(seed) is a pure function of the case seed and the target list:
//    the same campaign gives the same routing in every job, shard, resume
//    and batch size.
//  - kSwarm: a lead target drawn uniformly, each other target joining with
//    a probability that gives every target an expected share of about
//    kSwarmShare of the cases, and then every target whose consumers are
//    all avoided already, whose SPIR-V reader is new enough and whose
//    profile is no narrower riding
//    along for free (llvm-spirv beside PoCL or Oclgrind, which read SPIR-V
//    through it). The case avoids the known
//    bugs of exactly the routed targets' consumers, stays at the newest
//    SPIR-V all of them read and is generated for the narrowest device
//    profile among theirs (ocloc:tgllp's has no float atomics; that must
//    not keep them from a case without it).
//  - kAll: every case runs on every target and avoids all their bugs (the
//    campaign's behaviour before routing; `--route=all`).
//  - Per release: an entry of an avoided family that none of the routed
//    targets' releases has (RouteTarget::open_bugs) is allowed in the case
//    (CaseRoute::allowed_bugs), so a bug fixed in DPC++'s translator or in
//    SPIRV-Tools 2025.5 narrows only the cases of the old release.
//  - A target listed with consumers 0 (known bugs not avoided) or newest
//    ~0u (a fixed --spirv_version) narrows nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace l0spv::fuzzers::campaign {

enum class RouteMode { kSwarm, kAll };

// "swarm" / "all".
const char* RouteModeName(RouteMode mode);

struct RouteTarget {
  std::string name;
  uint32_t consumers = 0;       // oracles::ConsumerBit mask to avoid
  uint32_t newest_spirv = ~0u;  // header word; ~0u = no limit
  // The device profile its cases are generated for ("" = any) and that
  // profile's DeviceProfile::Breadth.
  std::string profile;
  int profile_breadth = 0;
  // The registry entries its release has (oracles::KnownBugsOpenOnTarget),
  // ascending; only used when the router knows the entries' consumers.
  std::vector<uint32_t> open_bugs;
};

struct CaseRoute {
  std::vector<bool> runs;       // per target, in the router's order
  uint32_t avoid = 0;           // union of the routed targets' consumers
  uint32_t newest_spirv = ~0u;  // min over the routed targets
  std::string profile;          // the narrowest routed profile; "" = any
  // Entries of the avoided families that no routed target's release has
  // (oracles::KnownBugId values): the case may hold their constructs.
  std::vector<uint32_t> allowed_bugs;
};

// The expected share of cases each target runs under kSwarm (before free
// rides): 1/n for the lead draw plus the joins.
inline constexpr double kSwarmShare = 0.45;

class CaseRouter {
 public:
  // `entry_consumers[id]`: the consumer families of registry entry `id`
  // (oracles::ConsumersOf); empty = entries are avoided per family only.
  CaseRouter(std::vector<RouteTarget> targets, RouteMode mode,
             std::vector<uint32_t> entry_consumers = {});

  CaseRoute Route(uint64_t case_seed) const;

  RouteMode mode() const { return mode_; }
  const std::vector<RouteTarget>& targets() const { return targets_; }
  // The share of cases target i runs, measured over kShareSamples seeds
  // (the job sizes its groups by it so batches stay full).
  double Share(size_t i) const { return shares_[i]; }

  static constexpr uint64_t kShareSamples = 4096;

 private:
  std::vector<RouteTarget> targets_;
  RouteMode mode_;
  std::vector<uint32_t> entry_consumers_;
  uint32_t join_per_mille_ = 0;  // a non-lead target's chance to join
  std::vector<double> shares_;
};

}  // namespace l0spv::fuzzers::campaign
