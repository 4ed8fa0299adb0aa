// Exact numeric conversions (numeric.h).
#include "oracles/reference/numeric.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "gtest/gtest.h"

namespace l0spv::oracles::reference {
namespace {

TEST(ReferenceNumeric, HalfRoundTripsEveryValue) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = HalfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) continue;
    EXPECT_EQ(FloatToHalf(f), h) << std::hex << h;
  }
}

TEST(ReferenceNumeric, HalfRoundingModes) {
  const float mid = 1.0f + std::ldexp(1.0f, -11);  // halfway 1 and next
  EXPECT_EQ(FloatToHalf(mid, RoundMode::kRte), 0x3C00);
  EXPECT_EQ(FloatToHalf(mid, RoundMode::kRtp), 0x3C01);
  EXPECT_EQ(FloatToHalf(-mid, RoundMode::kRtn), 0xBC01);
  EXPECT_EQ(FloatToHalf(-mid, RoundMode::kRtz), 0xBC00);
  EXPECT_EQ(FloatToHalf(70000.0f, RoundMode::kRte), 0x7C00);  // inf
  EXPECT_EQ(FloatToHalf(70000.0f, RoundMode::kRtz), 0x7BFF);  // max
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25), RoundMode::kRte), 0x0000);
  EXPECT_EQ(FloatToHalf(std::ldexp(1.5f, -25), RoundMode::kRte), 0x0001);
  EXPECT_EQ(DoubleToHalf(65504.0), 0x7BFF);
}

TEST(ReferenceNumeric, RoundToFloatFromExactValues) {
  const long double third = 1.0L / 3.0L;
  const float down = static_cast<float>(RoundToFloat(third, RoundMode::kRtz));
  const float up = static_cast<float>(RoundToFloat(third, RoundMode::kRtp));
  EXPECT_EQ(std::nextafter(down, 1.0f), up);
  // 2^24 + 1 is not a float: rte goes to even (2^24).
  EXPECT_EQ(RoundToFloat(16777217.0L, RoundMode::kRte), 16777216.0L);
  EXPECT_EQ(RoundToFloat(16777217.0L, RoundMode::kRtp), 16777218.0L);
  // Subnormal float results.
  EXPECT_EQ(RoundToFloat(std::ldexp(1.0L, -150), RoundMode::kRtp),
            std::ldexp(1.0L, -149));
  EXPECT_EQ(RoundToFloat(std::ldexp(1.0L, -150), RoundMode::kRte), 0.0L);
}

TEST(ReferenceNumeric, FloatToIntRangeAndSaturation) {
  uint64_t out = 0;
  EXPECT_TRUE(FloatToInt(-2.5L, true, 32, RoundMode::kRte, false, &out));
  EXPECT_EQ(static_cast<int32_t>(out), -2);
  EXPECT_TRUE(FloatToInt(-2.5L, true, 32, RoundMode::kRtn, false, &out));
  EXPECT_EQ(static_cast<int32_t>(out), -3);
  EXPECT_FALSE(FloatToInt(256.0L, false, 8, RoundMode::kRtz, false, &out));
  EXPECT_TRUE(FloatToInt(256.0L, false, 8, RoundMode::kRtz, true, &out));
  EXPECT_EQ(out, 255u);
  EXPECT_TRUE(FloatToInt(std::numeric_limits<long double>::quiet_NaN(), true,
                         32, RoundMode::kRtz, true, &out));
  EXPECT_EQ(out, 0u);
  EXPECT_FALSE(FloatToInt(-0.5L, false, 32, RoundMode::kRtn, false, &out));
  EXPECT_TRUE(FloatToInt(-0.5L, false, 32, RoundMode::kRtz, false, &out));
  EXPECT_EQ(out, 0u);
}

// The hardware int -> float path ConvertLanes and the executor share: every
// integer width it takes, both signednesses, into float and double, against
// RoundToFloat of the exact value; and the specs it must leave alone.
TEST(ReferenceNumeric, HardwareIntToFloatMatchesTheExactPath) {
  const uint32_t patterns[] = {0u,          1u,          0x7Fu,
                               0x80u,       0xFFu,       0x8000u,
                               0xFFFFu,     0x7FFFFFFFu, 0x80000001u,
                               0xFFFFFFFFu, 0x01000001u};  // 2^24 + 1: rounds
                                                           // in a float
  for (Kind from : {kI8, kI16, kI32})
    for (Kind to : {kF32, kF64})
      for (bool is_signed : {false, true}) {
        ConvertSpec spec{from, to, is_signed};
        ASSERT_TRUE(IsHardwareIntToFloat(spec));
        const uint32_t sb = KindBytes(from), bits = sb * 8;
        uint8_t src[4 * 11] = {}, dst[8 * 11] = {};
        for (int l = 0; l < 11; ++l)
          std::memcpy(src + l * sb, &patterns[l], sb);
        ASSERT_EQ(ConvertLanes(spec, src, dst, 11, /*flush_denormals=*/true),
                  -1);
        for (int l = 0; l < 11; ++l) {
          const uint64_t raw =
              bits == 32 ? patterns[l] : patterns[l] & ((1u << bits) - 1);
          const long double exact =
              is_signed && (raw >> (bits - 1))
                  ? static_cast<long double>(raw) - std::ldexp(1.0L, bits)
                  : raw;
          if (to == kF32) {
            float got;
            std::memcpy(&got, dst + 4 * l, 4);
            EXPECT_EQ(got,
                      static_cast<float>(RoundToFloat(exact, RoundMode::kRte)))
                << "lane " << l << " from " << bits << " bits";
          } else {
            double got;
            std::memcpy(&got, dst + 8 * l, 8);
            EXPECT_EQ(got, static_cast<double>(exact)) << "lane " << l;
          }
        }
      }
  ConvertSpec spec{kI32, kF32};
  spec.default_rounding = false;
  spec.mode = RoundMode::kRtz;
  EXPECT_FALSE(IsHardwareIntToFloat(spec));
  spec.mode = RoundMode::kRte;
  EXPECT_TRUE(IsHardwareIntToFloat(spec));
  EXPECT_FALSE(IsHardwareIntToFloat({kI64, kF32}));
  EXPECT_FALSE(IsHardwareIntToFloat({kBool, kF32}));
  EXPECT_FALSE(IsHardwareIntToFloat({kI32, kF16}));
  EXPECT_FALSE(IsHardwareIntToFloat({kF32, kF64}));
}

}  // namespace
}  // namespace l0spv::oracles::reference
