// `l0spv-fuzz report` end to end, one consumer kind per case: a registry
// reproducer becomes a finding (`check --save_finding`), `report` writes
// upstream/UPSTREAM.md, and the commands in it — the consumer's own tools,
// no l0spv-fuzz — show the bug when run. Consumers not installed here skip.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/reproduce.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/target_registry.h"
#include "spirv/test_case.h"

namespace l0spv::oracles {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

ChildResult RunTool(const std::vector<std::string>& argv,
                    const std::string& dir = "") {
  ChildLimits limits;
  limits.wall_time = std::chrono::seconds(120);
  limits.memory_bytes = 0;
  auto r = RunCommand(argv, limits, dir);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ChildResult{};
}

std::string Read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct ReportCase {
  KnownBugId bug;
  std::string target;
  bool commands_fail;  // the consumer's tool exits non-zero
  std::string shows;   // ... or prints this
};

class ReportTest : public ::testing::TestWithParam<ReportCase> {};

TEST_P(ReportTest, UpstreamReportReproducesWithTheConsumersOwnTools) {
  const ReportCase& c = GetParam();
  auto info = DescribeTarget(c.target);
  ASSERT_TRUE(info.ok());
  if (!info->available) GTEST_SKIP() << c.target << ": " << info->reason;
  const KnownBug* bug = KnownBugOf(c.bug);
  ASSERT_NE(bug, nullptr);
  auto tc = ReproducerCase(*bug);
  ASSERT_TRUE(tc.ok()) << tc.status();
  const fs::path dir =
      fs::path(::testing::TempDir()) /
      ("l0spv_report_" + bug->name + std::to_string(::getpid()));
  fs::remove_all(dir);
  ASSERT_TRUE(spirv::WriteTestCase(*tc, (dir / "case").string()).ok());
  ChildResult check = RunTool({L0SPV_FUZZ_BINARY, "check",
                               (dir / "case").string(), "--target=" + c.target,
                               "--save_finding=" + (dir / "out").string()});
  ASSERT_EQ(check.exit_code, 1) << check.stderr_text;
  std::vector<fs::path> findings;
  for (const auto& e : fs::directory_iterator(dir / "out" / "findings"))
    findings.push_back(e.path());
  ASSERT_EQ(findings.size(), 1u);
  ChildResult report =
      RunTool({L0SPV_FUZZ_BINARY, "report", findings[0].string()});
  ASSERT_EQ(report.exit_code, 0) << report.stderr_text;
  const fs::path up = findings[0] / "upstream";
  const std::string md = Read(up / "UPSTREAM.md");
  EXPECT_THAT(md, HasSubstr(bug->version));           // consumer version
  EXPECT_THAT(md, HasSubstr("OpEntryPoint Kernel"));  // the SPIR-V as text
  EXPECT_THAT(md, HasSubstr("## Launch"));
  EXPECT_TRUE(fs::exists(up / "module.spvasm"));
  // The commands, run from upstream/ without l0spv-fuzz.
  const size_t start = md.find("```sh\n", md.find("## Reproduce"));
  ASSERT_NE(start, std::string::npos);
  const std::string commands =
      md.substr(start + 6, md.find("```", start + 6) - start - 6);
  ChildResult run = RunTool({"bash", "-c", commands}, up.string());
  if (c.commands_fail) {
    EXPECT_FALSE(run.Succeeded()) << commands;
  } else {
    EXPECT_TRUE(run.Succeeded()) << commands << run.stderr_text;
    EXPECT_THAT(run.stdout_text + run.stderr_text, HasSubstr(c.shows))
        << commands;
  }
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Consumers, ReportTest,
    ::testing::Values(
        // spirv-opt --ccp folds smod(1, 2147483647) to 0xffffffff.
        // (Debian's 2023.1: the entries were seen there.)
        ReportCase{KnownBugId::kSpirvOptSmodFold, "spirv-opt:ccp@2023.1", false,
                   "OpStore %13 %uint_4294967295"},
        ReportCase{KnownBugId::kSpirvOptConstantBranchCrash, "spirv-opt@2023.1",
                   true, ""},
        // Oclgrind: sign(+inf-ish) stores -inf (0xff800000 little-endian).
        ReportCase{KnownBugId::kOclgrindSignZero, "oclgrind", false,
                   "[3] = 0xff"},
        // PoCL: trunc(NaN) = +0.0; the buffer starts with zeros, not NaN.
        ReportCase{KnownBugId::kPoclTruncNan,
                   "opencl:Portable Computing Language", false,
                   "00 00 00 00 00 00 80 7f"},
        ReportCase{KnownBugId::kLogicalNot, "ocloc:tgllp", true, ""},
        ReportCase{KnownBugId::kLlvmSpirvUnrollSelfLoop, "llvm-spirv@14", true,
                   ""}),
    [](const auto& info) {
      return std::string(KnownBugOf(info.param.bug)->name);
    });

TEST(ReportErrors, NotAFindingOrOursIsExitTwo) {
  ChildResult r =
      RunTool({L0SPV_FUZZ_BINARY, "report", "/nonexistent/finding"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.stderr_text, HasSubstr("/nonexistent/finding"));
  r = RunTool({L0SPV_FUZZ_BINARY, "report"});
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace l0spv::oracles
