#include "fuzzers/campaign/routing.h"

#include <algorithm>
#include <cmath>

#include "generators/kernel/random.h"

namespace l0spv::fuzzers::campaign {

namespace {
// Keeps the routing stream apart from the generator's, which is seeded with
// the same case seed.
constexpr uint64_t kRouteSalt = 0x726f757465ull;  // "route"
}  // namespace

const char* RouteModeName(RouteMode mode) {
  return mode == RouteMode::kSwarm ? "swarm" : "all";
}

CaseRouter::CaseRouter(std::vector<RouteTarget> targets, RouteMode mode,
                       std::vector<uint32_t> entry_consumers)
    : targets_(std::move(targets)),
      mode_(mode),
      entry_consumers_(std::move(entry_consumers)) {
  const size_t n = targets_.size();
  if (n > 1) {
    // lead share 1/n, the rest of kSwarmShare from joins: 1/n + (1-1/n) q.
    const double lead = 1.0 / static_cast<double>(n);
    const double q = std::clamp((kSwarmShare - lead) / (1.0 - lead), 0.0, 1.0);
    join_per_mille_ = static_cast<uint32_t>(std::lround(q * 1000));
  }
  shares_.assign(n, 0.0);
  for (uint64_t s = 0; s < kShareSamples; ++s) {
    const CaseRoute r = Route(s);
    for (size_t i = 0; i < n; ++i) shares_[i] += r.runs[i] ? 1.0 : 0.0;
  }
  for (double& share : shares_) share /= static_cast<double>(kShareSamples);
}

CaseRoute CaseRouter::Route(uint64_t case_seed) const {
  const size_t n = targets_.size();
  CaseRoute route;
  route.runs.assign(n, mode_ == RouteMode::kAll || n == 1);
  if (n > 1 && mode_ == RouteMode::kSwarm) {
    generators::kernel::Rng rng(case_seed ^ kRouteSalt);
    const uint32_t lead = rng.Below(static_cast<uint32_t>(n));
    for (size_t i = 0; i < n; ++i)
      route.runs[i] = i == lead || rng.Below(1000) < join_per_mille_;
  }
  int breadth = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!route.runs[i]) continue;
    const RouteTarget& t = targets_[i];
    route.avoid |= t.consumers;
    route.newest_spirv = std::min(route.newest_spirv, t.newest_spirv);
    if (!t.profile.empty() &&
        (route.profile.empty() || t.profile_breadth < breadth)) {
      route.profile = t.profile;
      breadth = t.profile_breadth;
    }
  }
  // Per release: the avoided families' entries no routed release has.
  std::vector<bool> needed(entry_consumers_.size(), false);
  for (size_t i = 0; i < n; ++i) {
    if (!route.runs[i]) continue;
    for (uint32_t id : targets_[i].open_bugs)
      if (id < needed.size()) needed[id] = true;
  }
  for (uint32_t id = 0; id < entry_consumers_.size(); ++id)
    if ((entry_consumers_[id] & route.avoid) != 0 && !needed[id])
      route.allowed_bugs.push_back(id);
  // Free rides: a target the case narrows in nothing (no consumer of its
  // left to avoid, none of its release's entries allowed, its SPIR-V
  // reader new enough, its profile no narrower) runs it too.
  for (size_t i = 0; i < n; ++i) {
    const RouteTarget& t = targets_[i];
    const bool profile_fits =
        t.profile.empty() ||
        (!route.profile.empty() && t.profile_breadth >= breadth);
    const bool bugs_avoided = std::all_of(
        t.open_bugs.begin(), t.open_bugs.end(),
        [&](uint32_t id) { return id >= needed.size() || needed[id]; });
    if ((t.consumers & ~route.avoid) == 0 && bugs_avoided &&
        t.newest_spirv >= route.newest_spirv && profile_fits)
      route.runs[i] = true;
  }
  return route;
}

}  // namespace l0spv::fuzzers::campaign
