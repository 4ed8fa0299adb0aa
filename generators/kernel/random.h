// generators/kernel/random.h — the generator's one source of randomness.
//
// Contract: a Rng is a seeded, platform-independent stream (splitmix64 to
// seed xoshiro256**; no std:: distributions, whose output differs between
// standard libraries), so the same seed gives the same kernel everywhere.
// Every random choice of the generator flows from one Rng passed down
// explicitly (DESIGN.md rule 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace l0spv::generators {

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (uint64_t& s : state_) s = SplitMix(seed);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = Rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, n); n == 0 returns 0. Multiply-shift: the bias is below
  // 2^-32 for the small n the generator uses.
  uint32_t Below(uint32_t n) {
    return static_cast<uint32_t>(((Next() >> 32) * uint64_t{n}) >> 32);
  }
  // Uniform in [lo, hi].
  uint32_t Range(uint32_t lo, uint32_t hi) { return lo + Below(hi - lo + 1); }
  // True with probability 1/n.
  bool OneIn(uint32_t n) { return Below(n) == 0; }
  // True with probability percent/100.
  bool Percent(uint32_t percent) { return Below(100) < percent; }

  template <typename T>
  const T& Pick(std::span<const T> items) {
    return items[Below(static_cast<uint32_t>(items.size()))];
  }
  // Index chosen with probability proportional to weights[i].
  size_t Weighted(std::span<const uint32_t> weights) {
    uint64_t total = 0;
    for (uint32_t w : weights) total += w;
    if (total == 0) return 0;
    uint64_t r = (Next() >> 11) % total;
    for (size_t i = 0; i < weights.size(); ++i) {
      if (r < weights[i]) return i;
      r -= weights[i];
    }
    return weights.size() - 1;
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t SplitMix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t state_[4];
};

}  // namespace l0spv::generators
