// Tests of spirv/hash.h: the published FNV-1a 64 vectors (stored hashes
// depend on them), words hashed as their little-endian bytes, chaining.
#include "spirv/hash.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace l0spv::spirv {
namespace {

TEST(HashTest, MatchesPublishedFnv1a64Vectors) {
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325u);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cu);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8u);
}

TEST(HashTest, WordsHashAsTheirLittleEndianBytes) {
  const std::vector<uint32_t> words = {0x64636261u, 0x0072u};
  EXPECT_EQ(Fnv1a64Words(words), Fnv1a64(absl::string_view("abcdr\0\0\0", 8)));
  EXPECT_NE(Fnv1a64Words(words),
            Fnv1a64Words(std::vector<uint32_t>{0x61626364u, 0x0072u}));
}

TEST(HashTest, SeedingChainsInputs) {
  EXPECT_EQ(Fnv1a64("bar", Fnv1a64("foo")), Fnv1a64("foobar"));
  const std::vector<uint32_t> a = {1, 2}, b = {3};
  const std::vector<uint32_t> ab = {1, 2, 3};
  EXPECT_EQ(Fnv1a64Words(b, Fnv1a64Words(a)), Fnv1a64Words(ab));
  EXPECT_EQ(Fnv1a64Mix(kFnv1a64Offset, 'a'), Fnv1a64("a"));
}

}  // namespace
}  // namespace l0spv::spirv
