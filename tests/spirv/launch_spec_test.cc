#include "spirv/launch_spec.h"

#include <cstring>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace l0spv::spirv {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ParseArgSpec, BuffersLocalsAndScalars) {
  auto buf = ParseArgSpec("buf:16");
  ASSERT_TRUE(buf.ok()) << buf.status();
  EXPECT_EQ(buf->kind, KernelArg::Kind::kBuffer);
  EXPECT_EQ(buf->bytes, std::vector<uint8_t>(16, 0));
  EXPECT_TRUE(buf->is_result);

  auto local = ParseArgSpec("local:256");
  ASSERT_TRUE(local.ok());
  EXPECT_EQ(local->kind, KernelArg::Kind::kLocal);
  EXPECT_EQ(local->local_bytes, 256u);

  auto u32 = ParseArgSpec("u32:0x01020304");
  ASSERT_TRUE(u32.ok());
  EXPECT_THAT(u32->bytes, ElementsAre(4, 3, 2, 1));
  auto i16 = ParseArgSpec("i16:-2");
  ASSERT_TRUE(i16.ok());
  EXPECT_THAT(i16->bytes, ElementsAre(0xFE, 0xFF));
  auto f32 = ParseArgSpec("f32:1.5");
  ASSERT_TRUE(f32.ok());
  float f;
  std::memcpy(&f, f32->bytes.data(), 4);
  EXPECT_EQ(f, 1.5f);
  auto f16 = ParseArgSpec("f16:1.0");
  ASSERT_TRUE(f16.ok());
  EXPECT_THAT(f16->bytes, ElementsAre(0x00, 0x3C));
  auto f16_small = ParseArgSpec("f16:0.000030517578125");  // 2^-15, subnormal
  ASSERT_TRUE(f16_small.ok());
  EXPECT_THAT(f16_small->bytes, ElementsAre(0x00, 0x02));
}

TEST(ParseArgSpec, RejectsMalformedSpecs) {
  for (const char* spec :
       {"buf", "buf:0", "buf:-3", "buf:99999999999999", "local:x", "u8:256",
        "i8:-129", "u32:abc", "q32:1", "f32:one", "buf:@/nonexistent/file"}) {
    auto a = ParseArgSpec(spec);
    EXPECT_FALSE(a.ok()) << spec;
  }
  EXPECT_THAT(ParseArgSpec("q32:1").status().message(),
              HasSubstr("unknown scalar type 'q32'"));
}

TEST(TestCaseFromSidecar, BuildsDeterministicArguments) {
  const auto sidecar = nlohmann::json::parse(R"({
    "kernel": "k", "global": [10, 2], "local": [5, 1],
    "args": [
      {"kind": "buffer", "bytes": 8, "init": "iota-u32", "result": false},
      {"kind": "buffer", "bytes": 12, "init": "random", "seed": 7, "result": true},
      {"kind": "scalar", "type": "u16", "value": "513"},
      {"kind": "struct", "bytes_hex": "0a0B"},
      {"kind": "local", "bytes": 64}
    ]})");
  auto tc = TestCaseFromSidecar(sidecar, {1, 2, 3}, "s.json");
  ASSERT_TRUE(tc.ok()) << tc.status();
  EXPECT_EQ(tc->entry_point, "k");
  EXPECT_EQ(tc->nd_range.dims, 2u);
  EXPECT_EQ(tc->nd_range.global[1], 2u);
  ASSERT_TRUE(tc->nd_range.local.has_value());
  EXPECT_EQ((*tc->nd_range.local)[0], 5u);
  ASSERT_EQ(tc->args.size(), 5u);
  EXPECT_THAT(tc->args[0].bytes, ElementsAre(0, 0, 0, 0, 1, 0, 0, 0));
  EXPECT_TRUE(tc->args[1].is_result);
  EXPECT_THAT(tc->args[2].bytes, ElementsAre(1, 2));
  EXPECT_THAT(tc->args[3].bytes, ElementsAre(0x0a, 0x0b));
  EXPECT_EQ(tc->args[4].local_bytes, 64u);
  // Same seed, same bytes: campaigns and tests rely on it.
  auto again = TestCaseFromSidecar(sidecar, {1, 2, 3}, "s.json");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->args[1].bytes, tc->args[1].bytes);
}

TEST(TestCaseFromSidecar, ErrorsNameTheFieldAndFile) {
  auto bad = [](const char* text) {
    return TestCaseFromSidecar(nlohmann::json::parse(text), {}, "k.json")
        .status();
  };
  EXPECT_THAT(bad(R"({"global": [1]})").message(),
              HasSubstr("k.json: field 'kernel': missing"));
  EXPECT_THAT(bad(R"({"kernel": "k"})").message(), HasSubstr("global"));
  EXPECT_THAT(bad(R"({"kernel": "k", "global": [0]})").message(),
              HasSubstr("is 0"));
  EXPECT_THAT(bad(R"({"kernel": "k", "global": [4], "local": [8]})").message(),
              HasSubstr("local size"));
  EXPECT_THAT(
      bad(R"({"kernel":"k","global":[4],"args":[{"kind":"pipe"}]})").message(),
      HasSubstr("args[0]"));
  EXPECT_THAT(
      bad(R"({"kernel":"k","global":[4],"args":[{"kind":"buffer","bytes":4,"init":"ones"}]})")
          .message(),
      HasSubstr("field 'args[0].init': expected one of zero, iota-u8"));
  // A scalar value given as a JSON number (the format wants a string) is an
  // error naming the file, not an exception.
  EXPECT_THAT(
      bad(R"({"kernel":"k","global":[4],"args":[{"kind":"scalar","type":"u32","value":1}]})")
          .message(),
      HasSubstr("k.json: field 'args[0].value': expected a string"));
}

}  // namespace
}  // namespace l0spv::spirv
