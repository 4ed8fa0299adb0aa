// The typed JSON layer (spirv/json_reader.h): every malformed field is an
// error naming file, field and what was expected; the first error wins;
// optional reads treat absent and null alike; nothing throws.
#include "spirv/json_reader.h"

#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace l0spv::spirv {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

TEST(JsonReaderTest, ReadsEveryTypeItWasAskedFor) {
  const json doc = json::parse(R"({"s": "x", "u": 7, "i": -3, "d": 1.5,
      "b": true, "e": "f32", "a": [1, 2], "o": {"k": 1}})");
  JsonReader reader("doc.json", doc);
  JsonField root = reader.root();
  EXPECT_EQ(root["s"].String(), "x");
  EXPECT_EQ(root["u"].Uint(0, 10), 7u);
  EXPECT_EQ(root["i"].Int(-5, 5), -3);
  EXPECT_EQ(root["d"].Number(0, 2), 1.5);
  EXPECT_TRUE(root["b"].Bool());
  EXPECT_EQ(root["e"].Enum({"f16", "f32"}), "f32");
  EXPECT_EQ(root["a"].Array(2).size(), 2u);
  EXPECT_EQ(root["o"].Members(1).size(), 1u);
  EXPECT_TRUE(reader.ok()) << reader.status();
}

TEST(JsonReaderTest, OptionalReadsGiveTheDefaultForAbsentAndNull) {
  const json doc = json::parse(R"({"n": null})");
  JsonReader reader("doc.json", doc);
  JsonField root = reader.root();
  EXPECT_EQ(root["missing"].String("dflt"), "dflt");
  EXPECT_EQ(root["n"].Uint(9, 0, 10), 9u);
  EXPECT_FALSE(root["n"].Bool(false));
  EXPECT_TRUE(root["missing"].Array(3, /*required=*/false).empty());
  EXPECT_TRUE(reader.ok());
}

struct BadField {
  const char* document;
  const char* expected_fragment;
};

class JsonReaderErrorTest : public ::testing::TestWithParam<BadField> {};

// Each case reads {"f": ...} through the accessor the fragment implies and
// must fail naming the file, the field path and the expectation.
TEST_P(JsonReaderErrorTest, NamesFileFieldAndExpectation) {
  const json doc = json::parse(GetParam().document);
  JsonReader reader("case.json", doc, "regenerate it");
  JsonField f = reader.root()["f"];
  const std::string want = GetParam().expected_fragment;
  if (want.find("string") != std::string::npos) (void)f.String();
  if (want.find("integer in 0..10") != std::string::npos) (void)f.Uint(0, 10);
  if (want.find("integer in -1..1") != std::string::npos) (void)f.Int(-1, 1);
  if (want.find("number in") != std::string::npos) (void)f.Number(0, 1);
  if (want.find("true or false") != std::string::npos) (void)f.Bool();
  if (want.find("one of") != std::string::npos) (void)f.Enum({"a", "b"});
  if (want.find("array") != std::string::npos) (void)f.Array(2);
  if (want.find("at most 2") != std::string::npos) (void)f.Array(2);
  if (want.find("missing") != std::string::npos) (void)f.String();
  ASSERT_FALSE(reader.ok()) << GetParam().document;
  const std::string message(reader.status().message());
  EXPECT_EQ(reader.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(message, HasSubstr("case.json: field 'f': "));
  EXPECT_THAT(message, HasSubstr(want));
  EXPECT_THAT(message, HasSubstr("(regenerate it)"));
}

INSTANTIATE_TEST_SUITE_P(
    Fields, JsonReaderErrorTest,
    ::testing::Values(
        BadField{R"({"f": 5})", "expected a string, got number 5"},
        BadField{R"({"f": "5"})", "expected an integer in 0..10, got string"},
        BadField{R"({"f": 11})", "expected an integer in 0..10, got 11"},
        BadField{R"({"f": -1})", "expected an integer in 0..10, got number -1"},
        BadField{R"({"f": 1.5})", "expected an integer in 0..10, got number"},
        BadField{R"({"f": 18446744073709551616})",
                 "expected an integer in 0..10"},
        BadField{R"({"f": 2})", "expected an integer in -1..1, got 2"},
        BadField{R"({"f": "x"})", "expected a number in"},
        BadField{R"({"f": 1e300})", "expected a number in"},
        BadField{R"({"f": 0})", "expected true or false, got number 0"},
        BadField{R"({"f": "c"})", "expected one of a, b; got string \"c\""},
        BadField{R"({"f": {}})", "expected an array, got an object"},
        BadField{R"({"f": [1, 2, 3]})", "at most 2 elements, got 3"},
        BadField{R"({})", "missing (required)"},
        BadField{R"({"f": null})", "missing (required)"}));

TEST(JsonReaderTest, NestedPathsNameArrayElementsAndMembers) {
  const json doc = json::parse(R"({"args": [{}, {"kind": 3}]})");
  JsonReader reader("c.json", doc);
  for (JsonField a : reader.root()["args"].Array(4))
    (void)a["kind"].String("buffer");
  ASSERT_FALSE(reader.ok());
  EXPECT_THAT(reader.status().message(),
              HasSubstr("field 'args[1].kind': expected a string"));
}

TEST(JsonReaderTest, TheFirstErrorWinsAndLaterReadsAreHarmless) {
  const json doc = json::parse(R"({"a": 1, "b": 2})");
  JsonReader reader("c.json", doc);
  (void)reader.root()["a"].String();
  (void)reader.root()["b"].String();
  (void)reader.root()["a"]["deeper"].Uint();
  EXPECT_THAT(reader.status().message(), HasSubstr("'a'"));
  EXPECT_THAT(reader.status().message(), ::testing::Not(HasSubstr("'b'")));
}

TEST(JsonReaderTest, MemberOfANonObjectIsAnError) {
  const json doc = json::parse(R"({"a": [1]})");
  JsonReader reader("c.json", doc);
  (void)reader.root()["a"]["x"].Uint(0, 1, 2);
  ASSERT_FALSE(reader.ok());
  EXPECT_THAT(reader.status().message(),
              HasSubstr("field 'a': expected an object, got an array of 1"));
}

TEST(JsonReaderTest, TheDocumentItselfMustBeAnObjectWhenExpected) {
  const json doc = json::parse("[1]");
  JsonReader reader("c.json", doc);
  EXPECT_FALSE(reader.root().ExpectObject());
  EXPECT_THAT(reader.status().message(),
              HasSubstr("c.json: expected an object"));
}

TEST(JsonReaderTest, ParseJsonNamesTheDocument) {
  auto j = ParseJson("{\"a\": ", "state/job-0.json");
  ASSERT_FALSE(j.ok());
  EXPECT_THAT(j.status().message(), HasSubstr("state/job-0.json: not valid"));
}

TEST(JsonReaderTest, ReadJsonFileAppliesItsCap) {
  auto j = ReadJsonFile("/dev/zero", 1024);
  ASSERT_FALSE(j.ok());
  EXPECT_THAT(j.status().message(), HasSubstr("1024-byte limit"));
}

}  // namespace
}  // namespace l0spv::spirv
