// The target swarm: deterministic, balanced, and never narrowing a target's
// cases by another target's known bugs more than the draw says.
#include "fuzzers/campaign/routing.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/target_kinds.h"
#include "oracles/validity/device_profile.h"

namespace l0spv::fuzzers::campaign {
namespace {

RouteTarget Target(const std::string& name, uint32_t consumers,
                   uint32_t newest_spirv = ~0u) {
  RouteTarget t;
  t.name = name;
  t.consumers = consumers;
  t.newest_spirv = newest_spirv;
  return t;
}

// The campaign of the per-target reach measurement, as the target kind
// table describes it.
std::vector<RouteTarget> CampaignTargets() {
  std::vector<RouteTarget> targets;
  for (const char* name :
       {"opencl", "oclgrind", "ocloc:tgllp", "spirv-opt", "llvm-spirv",
        "spirv-link", "opencl:Intel(R) OpenCL"}) {
    RouteTarget t = Target(name, oracles::ConsumersOfTarget(name),
                           oracles::NewestSpirvVersionOfTarget(name));
    t.profile = oracles::DeviceProfileOfTarget(name);
    if (auto p = oracles::FindDeviceProfile(t.profile); p.ok())
      t.profile_breadth = p->Breadth();
    targets.push_back(std::move(t));
  }
  return targets;
}

TEST(RoutingTest, SameSeedSameRoute) {
  const CaseRouter a(CampaignTargets(), RouteMode::kSwarm);
  const CaseRouter b(CampaignTargets(), RouteMode::kSwarm);
  bool any_differs = false;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const CaseRoute ra = a.Route(seed), rb = b.Route(seed);
    EXPECT_EQ(ra.runs, rb.runs) << seed;
    EXPECT_EQ(ra.avoid, rb.avoid) << seed;
    EXPECT_EQ(ra.newest_spirv, rb.newest_spirv) << seed;
    any_differs = any_differs || ra.runs != a.Route(seed + 1).runs;
  }
  EXPECT_TRUE(any_differs) << "every seed got the same route";
}

TEST(RoutingTest, AllSendsEveryCaseEverywhereAvoidingEveryone) {
  const std::vector<RouteTarget> targets = CampaignTargets();
  uint32_t every = 0, oldest = ~0u;
  for (const RouteTarget& t : targets) {
    every |= t.consumers;
    oldest = std::min(oldest, t.newest_spirv);
  }
  const CaseRouter router(targets, RouteMode::kAll);
  for (uint64_t seed = 0; seed < 50; ++seed) {
    const CaseRoute r = router.Route(seed);
    EXPECT_EQ(r.runs, std::vector<bool>(targets.size(), true));
    EXPECT_EQ(r.avoid, every);
    EXPECT_EQ(r.newest_spirv, oldest);
  }
  for (size_t i = 0; i < targets.size(); ++i)
    EXPECT_DOUBLE_EQ(router.Share(i), 1.0);
}

TEST(RoutingTest, SwarmAvoidsExactlyTheRoutedTargetsBugs) {
  const std::vector<RouteTarget> targets = CampaignTargets();
  const CaseRouter router(targets, RouteMode::kSwarm);
  for (uint64_t seed = 0; seed < 2000; ++seed) {
    const CaseRoute r = router.Route(seed);
    uint32_t avoid = 0, newest = ~0u;
    size_t routed = 0;
    for (size_t i = 0; i < targets.size(); ++i) {
      if (!r.runs[i]) continue;
      ++routed;
      avoid |= targets[i].consumers;
      newest = std::min(newest, targets[i].newest_spirv);
    }
    ASSERT_GE(routed, 1u) << seed;
    EXPECT_EQ(r.avoid, avoid) << seed;
    EXPECT_EQ(r.newest_spirv, newest) << seed;
    // A target the case narrows in nothing rides along.
    for (size_t i = 0; i < targets.size(); ++i) {
      if ((targets[i].consumers & ~r.avoid) == 0 &&
          targets[i].newest_spirv >= r.newest_spirv) {
        EXPECT_TRUE(r.runs[i]) << targets[i].name << " seed " << seed;
      }
    }
  }
}

TEST(RoutingTest, SwarmGivesEveryTargetAFairShare) {
  const std::vector<RouteTarget> targets = CampaignTargets();
  const CaseRouter router(targets, RouteMode::kSwarm);
  for (size_t i = 0; i < targets.size(); ++i) {
    EXPECT_GE(router.Share(i), 0.40) << targets[i].name;
    // llvm-spirv rides along with PoCL and Oclgrind (both read SPIR-V
    // through it), so it runs more than its drawn share.
    EXPECT_LE(router.Share(i), 0.90) << targets[i].name;
  }
}

// The point of routing: for every pair T, U where U has bugs T does not,
// a good part of T's cases keep what U's bugs would remove (an eighth at
// least, for the pairs that share llvm-spirv: PoCL, Oclgrind and llvm-spirv
// all avoid its bugs; about half for the others), so every construct of
// U's entries still reaches T.
TEST(RoutingTest, AnotherTargetsBugsNarrowFewOfATargetsCases) {
  const std::vector<RouteTarget> targets = CampaignTargets();
  const CaseRouter router(targets, RouteMode::kSwarm);
  constexpr uint64_t kCases = 4000;
  for (size_t t = 0; t < targets.size(); ++t) {
    for (size_t u = 0; u < targets.size(); ++u) {
      const uint32_t extra = targets[u].consumers & ~targets[t].consumers;
      if (extra == 0) continue;
      uint64_t runs = 0, spared = 0;
      for (uint64_t seed = 0; seed < kCases; ++seed) {
        const CaseRoute r = router.Route(seed);
        if (!r.runs[t]) continue;
        ++runs;
        spared += (r.avoid & extra) == 0;
      }
      EXPECT_GE(spared, runs / 8)
          << targets[t].name << "'s cases spared " << targets[u].name
          << "'s bugs: " << spared << " of " << runs;
    }
  }
}

// ocloc:tgllp's profile (no float atomics, no fp64) shapes only the cases
// routed to it; the others are generated for any profile.
TEST(RoutingTest, ACaseHasTheProfileOfItsNarrowestTarget) {
  const std::vector<RouteTarget> targets = CampaignTargets();
  ASSERT_EQ(targets[2].name, "ocloc:tgllp");
  ASSERT_EQ(targets[2].profile, "tgllp");
  const CaseRouter router(targets, RouteMode::kSwarm);
  uint64_t without = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    const CaseRoute r = router.Route(seed);
    EXPECT_EQ(r.profile, r.runs[2] ? "tgllp" : "") << seed;
    without += !r.runs[2];
  }
  EXPECT_GE(without, 400u);
  // --route=all: every case on the narrowest profile.
  const CaseRouter all(targets, RouteMode::kAll);
  EXPECT_EQ(all.Route(3).profile, "tgllp");
}

// Two releases of one family: an entry only the old release has is allowed
// in a case for the new one alone, and the old release never rides along
// with such a case.
TEST(RoutingTest, AnEntryGatesOnlyTheReleasesItIsOpenOn) {
  RouteTarget old_release = Target("spirv-opt@2023.1", 1u << 4);
  old_release.open_bugs = {0, 1};
  RouteTarget new_release = Target("spirv-opt@2025.5", 1u << 4);
  new_release.open_bugs = {1};
  RouteTarget ocloc = Target("ocloc", 1u);
  ocloc.open_bugs = {2};
  const CaseRouter router({old_release, new_release, ocloc},
                          RouteMode::kSwarm,
                          /*entry_consumers=*/{1u << 4, 1u << 4, 1u});
  uint64_t new_alone = 0;
  for (uint64_t seed = 0; seed < 500; ++seed) {
    const CaseRoute r = router.Route(seed);
    const auto allowed = [&](uint32_t id) {
      return std::find(r.allowed_bugs.begin(), r.allowed_bugs.end(), id) !=
             r.allowed_bugs.end();
    };
    EXPECT_FALSE(allowed(1)) << seed;  // both releases have it
    EXPECT_FALSE(allowed(2)) << seed;  // ocloc has it, or it is not avoided
    if (r.runs[0]) {
      EXPECT_FALSE(allowed(0)) << seed;
    } else if (r.runs[1]) {
      EXPECT_TRUE(allowed(0)) << seed;
      ++new_alone;
    }
  }
  EXPECT_GT(new_alone, 50u);
}

TEST(RoutingTest, OneTargetRunsEveryCase) {
  const CaseRouter router({Target("spirv-opt", oracles::kConsumerSpirvOpt)},
                          RouteMode::kSwarm);
  for (uint64_t seed = 0; seed < 20; ++seed) {
    EXPECT_EQ(router.Route(seed).runs, std::vector<bool>{true});
    EXPECT_EQ(router.Route(seed).avoid, oracles::kConsumerSpirvOpt);
  }
}

TEST(RoutingTest, NoTargetsRouteNothing) {
  const CaseRouter router({}, RouteMode::kSwarm);
  const CaseRoute r = router.Route(7);
  EXPECT_TRUE(r.runs.empty());
  EXPECT_EQ(r.avoid, 0u);
  EXPECT_EQ(r.newest_spirv, ~0u);
}

TEST(RoutingTest, TargetsAvoidingNothingRideEveryCase) {
  // --allow_known_bugs lists targets with consumers 0: nothing to route by.
  const CaseRouter router({Target("a", 0), Target("b", 0), Target("c", 0)},
                          RouteMode::kSwarm);
  for (uint64_t seed = 0; seed < 50; ++seed)
    EXPECT_EQ(router.Route(seed).runs, std::vector<bool>(3, true));
}

}  // namespace
}  // namespace l0spv::fuzzers::campaign
