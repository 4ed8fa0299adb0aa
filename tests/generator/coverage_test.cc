// The generator reaches every OpenCL.std instruction (each has a
// defined result somewhere in its domain), counted by the same table
// `generate --stats --coverage` prints.
#include <regex>
#include <string>
#include <vector>

#include "generators/kernel/generator.h"
#include "generators/kernel/opcode_stats.h"
#include "gtest/gtest.h"
#include "oracles/validity/device_profile.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"

namespace l0spv::generators::kernel {
namespace {

TEST(GeneratorCoverage, EveryOpenClStdInstructionIsGenerated) {
  OpcodeStats stats;
  for (uint64_t seed = 0; seed < 1200; ++seed) {
    GeneratorOptions options;
    options.seed = seed;
    options.avoid_known_bugs = 0;
    options.printf = PrintfMode::kSwarm;
    auto tc = GenerateTestCase(options);
    ASSERT_TRUE(tc.ok()) << tc.status();
    auto m = spirv::ReadModuleWords(tc->module_words);
    ASSERT_TRUE(m.ok()) << m.status();
    stats.Add(*m);
  }
  auto profile = oracles::FindDeviceProfile("full");
  ASSERT_TRUE(profile.ok());
  const std::string table = stats.CoverageText(*profile);
  std::smatch match;
  ASSERT_TRUE(std::regex_search(
      table, match, std::regex("OpenCL.std: ([0-9]+) of ([0-9]+) generated")))
      << table;
  EXPECT_EQ(match[1].str(), match[2].str()) << table;
  EXPECT_GE(std::stoi(match[2].str()), 160);
}

// The measured columns of the coverage table, on two hand-written modules:
// `after` is `before` with an OpCopyObject added and its OpIAdd removed.
constexpr char kBefore[] = R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%one = OpConstant %uint 1
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%entry = OpLabel
%sum = OpIAdd %uint %one %one
OpReturn
OpFunctionEnd
)";
constexpr char kAfter[] = R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%one = OpConstant %uint 1
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%entry = OpLabel
%copy = OpCopyObject %uint %one
OpReturn
OpFunctionEnd
)";

spirv::Module ParseOrDie(const char* text) {
  auto words = spirv::Assemble(text);
  EXPECT_TRUE(words.ok()) << words.status();
  auto m = spirv::ReadModuleWords(*words);
  EXPECT_TRUE(m.ok()) << m.status();
  return *std::move(m);
}

// The row of `opcode` in the coverage table, split into its columns.
std::vector<std::string> Row(const std::string& table, const std::string& op) {
  std::smatch match;
  const std::regex row("\\n" + op +
                       " +[^ ]+ +([^ ]+) +([^ ]+) +([^ ]+) +([^ \\n]+)\\n");
  if (!std::regex_search(table, match, row)) return {};
  return {match[1], match[2], match[3], match[4]};
}

TEST(GeneratorCoverage, MeasuredColumnsPrintDashesUntilFed) {
  OpcodeStats stats;
  stats.Add(ParseOrDie(kBefore));
  auto profile = oracles::FindDeviceProfile("full");
  ASSERT_TRUE(profile.ok());
  const std::string table = stats.CoverageText(*profile);
  EXPECT_EQ(Row(table, "OpIAdd"),
            (std::vector<std::string>{"1", "-", "-", "-"}))
      << table;
  EXPECT_EQ(table.find("ref ran:"), std::string::npos);
  EXPECT_EQ(table.find("created or removed by transformations"),
            std::string::npos);
}

TEST(GeneratorCoverage, MeasuredColumnsCountCheckedAndTransformedModules) {
  OpcodeStats stats;
  const spirv::Module before = ParseOrDie(kBefore);
  const spirv::Module after = ParseOrDie(kAfter);
  stats.Add(before);
  stats.AddChecked(before, /*lint_ok=*/true, /*ref_ran=*/true);
  stats.AddChecked(after, /*lint_ok=*/true, /*ref_ran=*/false);
  stats.AddTransformed(before, after);
  auto profile = oracles::FindDeviceProfile("full");
  ASSERT_TRUE(profile.ok());
  const std::string table = stats.CoverageText(*profile);
  // gen lint ref xform
  EXPECT_EQ(Row(table, "OpIAdd"),
            (std::vector<std::string>{"1", "1", "1", "1"}))
      << table;
  EXPECT_EQ(Row(table, "OpCopyObject"),
            (std::vector<std::string>{"0", "1", "0", "1"}))
      << table;
  // Unchanged by the transformation, in both modules.
  EXPECT_EQ(Row(table, "OpConstant"),
            (std::vector<std::string>{"1", "2", "1", "0"}))
      << table;
  EXPECT_EQ(Row(table, "OpSDiv"),
            (std::vector<std::string>{"0", "0", "0", "0"}))
      << table;
  EXPECT_NE(table.find("ref ran: "), std::string::npos) << table;
  EXPECT_NE(table.find("created or removed by transformations: 2 of"),
            std::string::npos)
      << table;
}

}  // namespace
}  // namespace l0spv::generators::kernel
