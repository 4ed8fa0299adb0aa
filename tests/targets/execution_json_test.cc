// Execution <-> JSON keeps every byte a consumer printed, UTF-8 or not.
#include "oracles/execution_json.h"

#include <string>

#include "gtest/gtest.h"
#include "spirv/text_bytes.h"

namespace l0spv::oracles {
namespace {

TEST(ExecutionJson, BytesThatAreNotUtf8RoundTripExactlyAndReadably) {
  Execution e;
  e.status = ExecutionStatus::kCrashed;
  e.message = "spirv-opt crashed: caf\xe9 \xff";
  e.log = std::string("binary \x00\x8b\x1f", 9);
  e.printf_output = "ok \xc3\xa9";  // valid UTF-8 stays as it is
  const nlohmann::json j = ExecutionToJson(e);
  // The document dumps (no nlohmann exception) and shows the bytes.
  const std::string text = spirv::DumpJson(j);
  EXPECT_NE(text.find("caf\\\\xe9 \\\\xff"), std::string::npos) << text;
  EXPECT_TRUE(j.contains("message_base64"));
  EXPECT_TRUE(j.contains("log_base64"));
  EXPECT_FALSE(j.contains("printf_base64"));
  auto back = ExecutionFromJson(nlohmann::json::parse(text));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->message, e.message);
  EXPECT_EQ(back->log, e.log);
  EXPECT_EQ(back->printf_output, e.printf_output);
}

TEST(ExecutionJson, ABadBase64TwinIsAnError) {
  nlohmann::json j{{"status", "crashed"}, {"message_base64", "%%%"}};
  EXPECT_FALSE(ExecutionFromJson(j).ok());
  nlohmann::json k{{"status", "crashed"}, {"log", 5}};
  EXPECT_FALSE(ExecutionFromJson(k).ok());
}

}  // namespace
}  // namespace l0spv::oracles
