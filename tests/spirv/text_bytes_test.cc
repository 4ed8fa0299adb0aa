// Consumer bytes made safe for JSON and terminals; shell words quoted so a
// command runs as written.
#include "spirv/text_bytes.h"

#include <cstdio>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace l0spv::spirv {
namespace {

TEST(IsValidUtf8, AcceptsWellFormedAndRejectsTheRest) {
  EXPECT_TRUE(IsValidUtf8("plain ascii"));
  EXPECT_TRUE(IsValidUtf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_FALSE(IsValidUtf8("caf\xe9"));           // Latin-1
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // overlong
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xe2\x82"));          // cut short
}

TEST(EscapeInvalidUtf8, ShowsEveryBadByteAndKeepsTheRest) {
  EXPECT_EQ(EscapeInvalidUtf8("caf\xe9 \xff\xfe!"), "caf\\xe9 \\xff\\xfe!");
  EXPECT_EQ(EscapeInvalidUtf8("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(EscapeInvalidUtf8(std::string("a\0b", 3)), std::string("a\0b", 3));
  EXPECT_TRUE(IsValidUtf8(EscapeInvalidUtf8("\x80\x81\xc3")));
}

TEST(DumpJson, NeverThrowsAndKeepsTheBytesReadable) {
  nlohmann::json j{{"message", "caf\xe9"}, {"list", {"ok", "\xff"}}};
  j["key \xfe"] = 1;
  const std::string text = DumpJson(j, 2);
  const nlohmann::json back = nlohmann::json::parse(text);
  EXPECT_EQ(back["message"], "caf\\xe9");
  EXPECT_EQ(back["list"][1], "\\xff");
  EXPECT_TRUE(back.contains("key \\xfe"));
  // Valid documents are dumped as nlohmann would.
  nlohmann::json fine{{"a", "caf\xc3\xa9"}};
  EXPECT_EQ(DumpJson(fine), fine.dump());
}

// What `sh -c` prints for `printf '%s\n' WORD`, WORD quoted.
std::string ShellEcho(const std::string& word) {
  const std::string command = "printf '%s' " + ShellQuote(word);
  FILE* p = popen(command.c_str(), "r");
  std::string out;
  char buf[256];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

TEST(ShellQuote, EveryWordReachesTheCommandAsItIs) {
  for (const std::string word :
       {"plain", "with space", "it's", "a \"dir\"", "$(touch /tmp/x)", "`id`",
        "semi;colon", "back\\slash", "star*",
        "--target=opencl:"
        "Portable Computing Language",
        "new\nline", ""}) {
    EXPECT_EQ(ShellEcho(word), word) << ShellQuote(word);
  }
  EXPECT_EQ(ShellQuote("l0spv-fuzz"), "l0spv-fuzz");
  EXPECT_EQ(ShellQuote("--target=spirv-opt"), "--target=spirv-opt");
  EXPECT_EQ(ShellQuote("a'b"), "'a'\\''b'");
}

}  // namespace
}  // namespace l0spv::spirv
