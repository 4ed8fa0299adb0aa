// The generator reaches every OpenCL.std instruction (issue 18: each has a
// defined result somewhere in its domain), counted by the same table
// `generate --stats --coverage` prints.
#include <regex>
#include <string>

#include "generators/kernel/generator.h"
#include "generators/kernel/opcode_stats.h"
#include "gtest/gtest.h"
#include "oracles/validity/device_profile.h"
#include "spirv/binary.h"

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

}  // namespace
}  // namespace l0spv::generators::kernel
