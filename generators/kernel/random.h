// generators/kernel/random.h — the generator's one source of randomness.
//
// Contract: a Rng is a seeded, platform-independent stream (splitmix64 to
// seed xoshiro256**; no std:: distributions, whose output differs between
// standard libraries), so the same seed gives the same kernel everywhere.
// Every random choice of the generator flows from one Rng passed down
// explicitly (DESIGN.md rule 1).
//
// Decision bytes (libFuzzer): an Rng built with a byte span takes each
// decision from the bytes first — Below(n) / Weighted(total) read the
// fewest little-endian bytes that hold a value below n (1, 2 or 4) and
// reduce it modulo n; Next() reads 8 — and from the seeded stream once the
// bytes run out. A mutation of one byte then changes one decision, which
// is what lets coverage guidance steer generation. A seeded Rng can record
// its decisions in that same encoding (Record), so replaying the record as
// decision bytes makes the same choices. Without decision bytes or a record
// the stream is exactly the seeded one (seed-driven cases stay identical).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace l0spv::generators::kernel {

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (uint64_t& s : state_) s = SplitMix(seed);
  }
  // Decisions from `decisions` first (the span must outlive the Rng), then
  // from the stream seeded with `seed`.
  Rng(uint64_t seed, std::span<const uint8_t> decisions) : Rng(seed) {
    decisions_ = decisions;
  }
  // Appends every later decision to `*record` in the decision-byte
  // encoding (null stops recording).
  void Record(std::vector<uint8_t>* record) { record_ = record; }

  uint64_t Next() {
    if (!decisions_.empty() || record_ != nullptr) return Decide(Draw::kRaw, 0);
    return Stream();
  }

  // Uniform in [0, n); n == 0 returns 0. Multiply-shift: the bias is below
  // 2^-32 for the small n the generator uses.
  uint32_t Below(uint32_t n) {
    if (!decisions_.empty() || record_ != nullptr)
      return static_cast<uint32_t>(Decide(Draw::kBelow, n));
    return static_cast<uint32_t>(FromStream(Draw::kBelow, n));
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
    uint64_t r = !decisions_.empty() || record_ != nullptr
                     ? Decide(Draw::kModulo, total)
                     : FromStream(Draw::kModulo, total);
    for (size_t i = 0; i < weights.size(); ++i) {
      if (r < weights[i]) return i;
      r -= weights[i];
    }
    return weights.size() - 1;
  }

 private:
  // How a decision is drawn from the stream: raw 64 bits, multiply-shift
  // below n (n < 2^32), or modulo n.
  enum class Draw { kRaw, kBelow, kModulo };

  uint64_t FromStream(Draw draw, uint64_t n) {
    switch (draw) {
      case Draw::kRaw:
        return Stream();
      case Draw::kBelow:
        return ((Stream() >> 32) * n) >> 32;
      case Draw::kModulo:
        break;
    }
    return (Stream() >> 11) % n;
  }

  // A decision: from the decision bytes while they last (the fewest bytes
  // that hold a value below n, reduced modulo n; 8 for a raw draw), else
  // exactly the stream-only draw; appended to the record when recording.
  uint64_t Decide(Draw draw, uint64_t n) {
    const size_t width = draw == Draw::kRaw    ? 8
                         : n <= 0x100          ? 1
                         : n <= 0x10000        ? 2
                         : n <= 0x100000000ULL ? 4
                                               : 8;
    uint64_t v = 0;
    if (!decisions_.empty()) {
      // A short tail is padded with stream bits, so input cut anywhere
      // still decodes deterministically.
      const size_t take = decisions_.size() < width ? decisions_.size() : width;
      for (size_t i = 0; i < take; ++i) v |= uint64_t{decisions_[i]} << (8 * i);
      decisions_ = decisions_.subspan(take);
      if (take < width) v |= Stream() << (8 * take);
      if (draw != Draw::kRaw) v = n == 0 ? 0 : v % n;
    } else {
      v = FromStream(draw, n);
    }
    if (record_ != nullptr) {
      for (size_t i = 0; i < width; ++i)
        record_->push_back(static_cast<uint8_t>(v >> (8 * i)));
    }
    return v;
  }

  uint64_t Stream() {
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

  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t SplitMix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t state_[4];
  std::span<const uint8_t> decisions_;
  std::vector<uint8_t>* record_ = nullptr;
};

}  // namespace l0spv::generators::kernel
