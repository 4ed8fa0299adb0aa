// Tests of spirv/numeric_bits.h: exhaustive half round trips, rounding in
// every mode against an independent bracketing reference, ties, overflow,
// underflow, NaN payloads, bfloat16.
#include "spirv/numeric_bits.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "gtest/gtest.h"

namespace l0spv::spirv {
namespace {

constexpr RoundMode kModes[] = {RoundMode::kRte, RoundMode::kRtz,
                                RoundMode::kRtp, RoundMode::kRtn};

// The value of a finite half, from its definition (not the code under test).
double HalfValue(uint16_t h) {
  const int exp = (h >> 10) & 0x1F;
  const double man = h & 0x3FF;
  const double v =
      exp == 0 ? std::ldexp(man, -24) : std::ldexp(man + 1024, exp - 25);
  return (h & 0x8000) != 0 ? -v : v;
}

// The correctly rounded half of a finite, non-zero `x` in `mode`: brackets
// |x| between two adjacent halves and picks one by the mode's rule. Above
// the largest finite half the upper neighbour is inf (0x7C00), which sits
// where the next binade's first value (65536) would be.
uint16_t ReferenceHalf(double x, RoundMode mode) {
  const bool neg = std::signbit(x);
  const double ax = std::fabs(x);
  uint16_t lo = 0, hi = 0x7C00;  // invariant: value(lo) <= ax < value(hi)
  while (hi - lo > 1) {
    const uint16_t mid = static_cast<uint16_t>((lo + hi) / 2);
    (HalfValue(mid) <= ax ? lo : hi) = mid;
  }
  const uint16_t sign = neg ? 0x8000 : 0;
  if (HalfValue(lo) == ax) return sign | lo;
  const double upper = hi == 0x7C00 ? 65536.0 : HalfValue(hi);
  bool up = false;
  switch (mode) {
    case RoundMode::kRte: {
      const double mid2 = HalfValue(lo) + upper;  // exact: 12 bits
      up = 2 * ax > mid2 || (2 * ax == mid2 && (lo & 1) != 0);
      break;
    }
    case RoundMode::kRtz:
      break;
    case RoundMode::kRtp:
      up = !neg;
      break;
    case RoundMode::kRtn:
      up = neg;
      break;
  }
  return sign | (up ? hi : lo);
}

TEST(NumericBitsTest, EveryHalfRoundTripsThroughFloatAndDouble) {
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t h = static_cast<uint16_t>(i);
    const float f = HalfToFloat(h);
    if (IsHalfNan(h)) {
      // Widening keeps the payload bit for bit (signalling stays signalling).
      EXPECT_EQ(FloatToBits(f), (uint32_t{h & 0x8000u} << 16) | 0x7F800000u |
                                    (uint32_t{h & 0x3FFu} << 13))
          << std::hex << h;
      // Narrowing back keeps sign and payload and makes it quiet.
      for (RoundMode m : kModes) EXPECT_EQ(FloatToHalf(f, m), h | 0x0200u);
      continue;
    }
    EXPECT_EQ(static_cast<double>(f), (h & 0x7C00) == 0x7C00
                                          ? std::copysign(INFINITY, f)
                                          : HalfValue(h))
        << std::hex << h;
    for (RoundMode m : kModes) {
      EXPECT_EQ(FloatToHalf(f, m), h) << std::hex << h;
      EXPECT_EQ(DoubleToHalf(f, m), h) << std::hex << h;
    }
  }
}

TEST(NumericBitsTest, TiesBetweenAdjacentHalves) {
  // Every midpoint of two adjacent finite halves, both signs: the tie goes
  // to the even neighbour in RTE, and one ulp of the source format either
  // side decides it.
  for (uint16_t lo = 0; lo < 0x7BFF; ++lo) {
    const double mid = (HalfValue(lo) + HalfValue(lo + 1)) / 2;
    const uint16_t even = (lo & 1) == 0 ? lo : static_cast<uint16_t>(lo + 1);
    for (uint16_t sign : {uint16_t{0}, uint16_t{0x8000}}) {
      const double x = sign != 0 ? -mid : mid;
      const float xf = static_cast<float>(x);
      ASSERT_EQ(static_cast<double>(xf), x);  // midpoints have 12 bits
      EXPECT_EQ(FloatToHalf(xf, RoundMode::kRte), sign | even) << lo;
      EXPECT_EQ(DoubleToHalf(x, RoundMode::kRte), sign | even) << lo;
      EXPECT_EQ(FloatToHalf(xf, RoundMode::kRtz), sign | lo) << lo;
      const uint16_t away = static_cast<uint16_t>(lo + 1);
      EXPECT_EQ(FloatToHalf(xf, RoundMode::kRtp), sign ? sign | lo : away);
      EXPECT_EQ(FloatToHalf(xf, RoundMode::kRtn), sign ? sign | away : lo);
      const float above = std::nextafter(xf, sign ? -INFINITY : INFINITY);
      const float below = std::nextafter(xf, 0.0f);
      EXPECT_EQ(FloatToHalf(above, RoundMode::kRte), sign | away) << lo;
      EXPECT_EQ(FloatToHalf(below, RoundMode::kRte), sign | lo) << lo;
    }
  }
}

TEST(NumericBitsTest, FloatToHalfMatchesTheBracketingReference) {
  // Every sign/exponent/top-mantissa pattern, with the low bits that decide
  // rounding (zero, sticky, just below/at/above half an ulp, all ones).
  std::mt19937 rng(7);
  for (uint32_t top = 0; top < 65536; ++top) {
    for (uint32_t low : {0x0000u, 0x0001u, 0x0FFFu, 0x1000u, 0x1001u, 0x7FFFu,
                         0x8000u, 0xFFFFu, static_cast<uint32_t>(rng())}) {
      const uint32_t bits = (top << 16) | (low & 0xFFFFu);
      const float f = BitsToFloat(bits);
      if (std::isnan(f) || std::isinf(f) || f == 0) continue;
      for (RoundMode m : kModes) {
        ASSERT_EQ(FloatToHalf(f, m), ReferenceHalf(f, m))
            << std::hex << bits << " mode " << static_cast<int>(m);
      }
    }
  }
}

TEST(NumericBitsTest, DoubleToHalfRoundsOnceAndMatchesTheReference) {
  // 1 + 2^-11 + 2^-40 is above the tie between 1 and 1 + 2^-10; through
  // float it would become the tie and round down to 1.
  const double x = 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(FloatToHalf(static_cast<float>(x), RoundMode::kRte), 0x3C00);
  EXPECT_EQ(DoubleToHalf(x, RoundMode::kRte), 0x3C01);
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) {
    uint64_t bits = rng();
    // Mostly exponents near the half range, some anywhere.
    if (i % 4 != 0) {
      const uint64_t exp = 1023 - 30 + rng() % 50;
      bits = (bits & 0x800FFFFFFFFFFFFFu) | (exp << 52);
    }
    const double d = BitsToDouble(bits);
    if (std::isnan(d) || std::isinf(d) || d == 0) continue;
    for (RoundMode m : kModes) {
      ASSERT_EQ(DoubleToHalf(d, m), ReferenceHalf(d, m))
          << std::hex << bits << " mode " << static_cast<int>(m);
    }
  }
}

TEST(NumericBitsTest, OverflowAndUnderflowFollowTheMode) {
  EXPECT_EQ(FloatToHalf(65504.0f, RoundMode::kRte), 0x7BFF);
  EXPECT_EQ(FloatToHalf(65519.0f, RoundMode::kRte), 0x7BFF);
  EXPECT_EQ(FloatToHalf(65520.0f, RoundMode::kRte), 0x7C00);  // tie to even
  EXPECT_EQ(FloatToHalf(1e30f, RoundMode::kRtz), 0x7BFF);
  EXPECT_EQ(FloatToHalf(1e30f, RoundMode::kRtp), 0x7C00);
  EXPECT_EQ(FloatToHalf(-1e30f, RoundMode::kRtp), 0xFBFF);
  EXPECT_EQ(FloatToHalf(-1e30f, RoundMode::kRtn), 0xFC00);
  EXPECT_EQ(DoubleToHalf(1e300, RoundMode::kRte), 0x7C00);
  EXPECT_EQ(FloatToHalf(INFINITY, RoundMode::kRtz), 0x7C00);  // inf is exact
  EXPECT_EQ(FloatToHalf(-INFINITY, RoundMode::kRtp), 0xFC00);
  // 2^-25 is the tie between 0 and the smallest subnormal.
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25), RoundMode::kRte), 0x0000);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.5f, -25), RoundMode::kRte), 0x0001);
  EXPECT_EQ(DoubleToHalf(1e-300, RoundMode::kRte), 0x0000);
  EXPECT_EQ(DoubleToHalf(1e-300, RoundMode::kRtp), 0x0001);
  EXPECT_EQ(DoubleToHalf(-1e-300, RoundMode::kRtn), 0x8001);
  EXPECT_EQ(DoubleToHalf(-1e-300, RoundMode::kRtz), 0x8000);
  EXPECT_EQ(FloatToHalf(BitsToFloat(0x00000001), RoundMode::kRtp), 0x0001);
  EXPECT_EQ(FloatToHalf(-0.0f, RoundMode::kRte), 0x8000);
}

TEST(NumericBitsTest, NarrowedNanStaysQuietNanWithSignAndTopPayload) {
  // A signalling NaN whose payload is all below the kept bits must not
  // become inf.
  EXPECT_EQ(FloatToHalf(BitsToFloat(0x7F800001u), RoundMode::kRte), 0x7E00);
  EXPECT_EQ(FloatToHalf(BitsToFloat(0xFFC12345u), RoundMode::kRtz), 0xFE09);
  EXPECT_EQ(DoubleToHalf(BitsToDouble(0x7FF0000000000001u), RoundMode::kRte),
            0x7E00);
  EXPECT_EQ(DoubleToHalf(BitsToDouble(0xFFF8040000000000u), RoundMode::kRte),
            0xFE01);
  EXPECT_EQ(
      DoubleToHalf(std::numeric_limits<double>::quiet_NaN(), RoundMode::kRte),
      0x7E00);
}

TEST(NumericBitsTest, Bfloat16RoundsToNearestEvenAndKeepsNanQuiet) {
  EXPECT_EQ(FloatToBfloat16(1.0f), 0x3F80);
  EXPECT_EQ(FloatToBfloat16(BitsToFloat(0x3F808000u)), 0x3F80);  // tie, even
  EXPECT_EQ(FloatToBfloat16(BitsToFloat(0x3F818000u)), 0x3F82);  // tie, odd
  EXPECT_EQ(FloatToBfloat16(BitsToFloat(0x3F808001u)), 0x3F81);
  EXPECT_EQ(FloatToBfloat16(BitsToFloat(0xBF807FFFu)), 0xBF80);
  EXPECT_EQ(FloatToBfloat16(std::numeric_limits<float>::max()), 0x7F80);
  EXPECT_EQ(FloatToBfloat16(BitsToFloat(0x7F7F7FFFu)), 0x7F7F);
  EXPECT_EQ(FloatToBfloat16(-INFINITY), 0xFF80);
  EXPECT_EQ(FloatToBfloat16(BitsToFloat(0x00008000u)), 0x0000);  // denormal tie
  // NaN: quiet, sign and top payload kept, never rounded into inf.
  EXPECT_EQ(FloatToBfloat16(BitsToFloat(0x7F800001u)), 0x7FC0);
  EXPECT_EQ(FloatToBfloat16(BitsToFloat(0xFFFFFFFFu)), 0xFFFF);
  EXPECT_EQ(FloatToBfloat16(BitsToFloat(0xFFA10000u)), 0xFFE1);
  for (uint32_t i = 0; i < 65536; ++i) {
    const uint16_t b = static_cast<uint16_t>(i);
    const float f = Bfloat16ToFloat(b);
    EXPECT_EQ(FloatToBits(f), uint32_t{b} << 16);
    EXPECT_EQ(FloatToBfloat16(f), IsFloatNan(FloatToBits(f)) ? b | 0x40u : b);
  }
}

TEST(NumericBitsTest, PredicatesAndFlushing) {
  EXPECT_TRUE(IsHalfNan(0x7C01));
  EXPECT_FALSE(IsHalfNan(0x7C00));
  EXPECT_TRUE(IsFloatNan(0xFF800001u));
  EXPECT_FALSE(IsFloatNan(0xFF800000u));
  EXPECT_TRUE(IsDoubleNan(0x7FF0000000000001u));
  EXPECT_FALSE(IsDoubleNan(0x7FF0000000000000u));
  EXPECT_EQ(FlushHalfDenormal(0x83FF), 0x8000);
  EXPECT_EQ(FlushHalfDenormal(0x0400), 0x0400);
  EXPECT_EQ(FloatToBits(FlushDenormal(BitsToFloat(0x807FFFFFu))), 0x80000000u);
  EXPECT_EQ(FloatToBits(FlushDenormal(BitsToFloat(0x00800000u))), 0x00800000u);
}

TEST(NumericBitsTest, EncodeAndDecodeByWidth) {
  EXPECT_EQ(EncodeFloat(1.0, 16), 0x3C00u);
  EXPECT_EQ(EncodeFloat(-0.5, 32), 0xBF000000u);
  EXPECT_EQ(EncodeFloat(2.0, 64), 0x4000000000000000u);
  EXPECT_EQ(EncodeFloat(NAN, 16), 0x7E00u);
  EXPECT_EQ(DecodeFloat(0xC000, 16), -2.0);
  EXPECT_EQ(DecodeFloat(0x3F800000u, 32), 1.0);
  EXPECT_EQ(DecodeFloat(0x3FF8000000000000u, 64), 1.5);
  EXPECT_EQ(DecodeFloat(0x0001, 16), std::ldexp(1.0, -24));
}

}  // namespace
}  // namespace l0spv::spirv
