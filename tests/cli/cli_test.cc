// End-to-end tests of the `l0spv-fuzz` command: exit codes and messages.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "oracles/process/subprocess.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"
#include "spirv/unified1/spirv.hpp11"
#include "tests/support/linkage_modules.h"

namespace l0spv {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

constexpr char kValidKernel[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

// Same kernel, but Physical32 breaks the Level Zero addressing rule.
constexpr char kPhysical32Kernel[] = R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %main "main"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";

struct CliRun {
  int exit_code;
  std::string out, err;
};

CliRun L0spvFuzz(std::vector<std::string> args,
                 const std::vector<std::string>& env = {}) {
  args.insert(args.begin(), L0SPV_FUZZ_BINARY);
  oracles::ChildLimits limits;
  limits.wall_time = std::chrono::seconds(60);
  auto r = oracles::RunCommand(args, limits, "", "", env);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r->ending, oracles::ChildResult::Ending::kExited)
      << r->Describe() << r->stderr_text;
  return {r->exit_code, r->stdout_text, r->stderr_text};
}

// The OpenCL tests exercise the command's plumbing, so they load only PoCL's
// ICD: Intel's ICD dlopens a library with RTLD_DEEPBIND, which the sanitizer
// runtime refuses, so under ASan it cannot even be enumerated.
std::vector<std::string> PoclOnlyEnv() {
  const char* icd = "/etc/OpenCL/vendors/pocl.icd";
  if (!fs::exists(icd)) return {};
  return {std::string("OCL_ICD_VENDORS=") + icd};
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("l0spv_cli_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string WriteBytes(const std::string& name,
                         const std::vector<uint8_t>& bytes) {
    const std::string path = (dir_ / name).string();
    EXPECT_TRUE(spirv::WriteFileBytes(path, bytes).ok());
    return path;
  }
  std::string WriteModule(const std::string& name, const char* text) {
    auto words = spirv::Assemble(text);
    EXPECT_TRUE(words.ok()) << words.status();
    return WriteBytes(name,
                      spirv::WordsToBytes(*words, spirv::Endianness::kLittle));
  }

  fs::path dir_;
};

TEST_F(CliTest, OverviewAndHelp) {
  CliRun r = L0spvFuzz({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("lint"));
  EXPECT_THAT(r.out, HasSubstr("targets"));
  r = L0spvFuzz({"lint", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("--profile"));
  EXPECT_EQ(L0spvFuzz({}).exit_code, 2);
}

TEST_F(CliTest, UsageErrorsExitTwo) {
  CliRun r = L0spvFuzz({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown command 'frobnicate'"));
  r = L0spvFuzz({"lint", "--no-such-flag", "x.spv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown flag '--no-such-flag'"));
  r = L0spvFuzz({"lint"});
  EXPECT_EQ(r.exit_code, 2);
  r = L0spvFuzz({"generate", "--seed=1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("nothing to do"));
  r = L0spvFuzz({"--target=gpu"});
  EXPECT_EQ(r.exit_code, 2);
  // Without a usable gpu target the campaign says so and lists what is
  // available.
  EXPECT_THAT(r.err, HasSubstr("target gpu is not available"));
  EXPECT_THAT(r.err, HasSubstr("available    ref"));
}

TEST_F(CliTest, LintAcceptsAValidKernel) {
  const std::string path = WriteModule("ok.spv", kValidKernel);
  CliRun r = L0spvFuzz({"lint", path});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("1 ok"));
}

TEST_F(CliTest, LintReportsRuleViolationsWithExitOne) {
  const std::string path = WriteModule("p32.spv", kPhysical32Kernel);
  CliRun r = L0spvFuzz({"lint", path});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("L0-ADDRESSING"));
  r = L0spvFuzz({"lint", "--json", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("\"rule_id\""));
}

TEST_F(CliTest, LintRejectsGarbageTruncatedAndMissingFilesWithExitTwo) {
  CliRun r =
      L0spvFuzz({"lint", WriteBytes("garbage.spv",
                                    {'h', 'e', 'l', 'l', 'o', '!', '!', '!'})});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("garbage.spv"));
  auto words = spirv::Assemble(kValidKernel);
  ASSERT_TRUE(words.ok());
  auto bytes = spirv::WordsToBytes(*words, spirv::Endianness::kLittle);
  bytes.resize(bytes.size() - 6);  // cut mid-instruction, not word-aligned
  r = L0spvFuzz({"lint", WriteBytes("truncated.spv", bytes)});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("not a multiple of 4"));
  bytes.resize(bytes.size() - 2);  // word-aligned, last instruction cut
  r = L0spvFuzz({"lint", WriteBytes("truncated4.spv", bytes)});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("word"));
  r = L0spvFuzz({"lint", (dir_ / "missing.spv").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("missing.spv"));
}

TEST_F(CliTest, LintRejectsUnknownProfile) {
  const std::string path = WriteModule("ok.spv", kValidKernel);
  CliRun r = L0spvFuzz({"lint", "--profile=quantum", path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("quantum"));
}

TEST_F(CliTest, LintWalksDirectories) {
  WriteModule("a.spv", kValidKernel);
  WriteModule("b.spv", kValidKernel);
  CliRun r = L0spvFuzz({"lint", dir_.string()});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("2 module(s)"));
  fs::create_directories(dir_ / "empty");
  EXPECT_EQ(L0spvFuzz({"lint", (dir_ / "empty").string()}).exit_code, 2);
}

// Stores its global id (as u32) into element gid of the buffer argument.
constexpr char kStoreGidKernel[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "store_gid" %gid_var
OpDecorate %gid_var BuiltIn GlobalInvocationId
OpDecorate %gid_var Constant
%void = OpTypeVoid
%u32 = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%v3u64 = OpTypeVector %u64 3
%in_ptr = OpTypePointer Input %v3u64
%buf_ptr = OpTypePointer CrossWorkgroup %u32
%fn = OpTypeFunction %void %buf_ptr
%gid_var = OpVariable %in_ptr Input
%main = OpFunction %void None %fn
%buf = OpFunctionParameter %buf_ptr
%entry = OpLabel
%gid3 = OpLoad %v3u64 %gid_var
%gid = OpCompositeExtract %u64 %gid3 0
%slot = OpInBoundsPtrAccessChain %buf_ptr %buf %gid
%value = OpUConvert %u32 %gid
OpStore %slot %value
OpReturn
OpFunctionEnd
)";

TEST_F(CliTest, RunExecutesAModuleOnTheReferenceInterpreter) {
  const std::string path = WriteModule("gid.spv", kStoreGidKernel);
  const std::string dump = (dir_ / "out").string();
  CliRun r = L0spvFuzz({"run", path, "--kernel=store_gid", "--global=4",
                        "--local=2", "--arg=buf:16", "--dump", dump});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("status ok"));
  auto bytes = spirv::ReadFileBytes(dump + "/arg0.bin");
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, (std::vector<uint8_t>{0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3,
                                          0, 0, 0}));
  r = L0spvFuzz({"run", path, "--kernel=store_gid", "--global=4",
                 "--arg=buf:16", "--json"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("\"status\": \"ok\""));
}

TEST_F(CliTest, RunTakesTheLaunchFromACorpusSidecar) {
  const std::string path = WriteModule("gid.spv", kStoreGidKernel);
  const std::string sidecar = (dir_ / "gid.json").string();
  const std::string text =
      R"({"kernel": "store_gid", "global": [4], "local": [2], "args": [)"
      R"({"kind": "buffer", "bytes": 16, "init": "zero", "result": true}]})";
  ASSERT_TRUE(spirv::WriteFileBytes(
                  sidecar, std::vector<uint8_t>(text.begin(), text.end()))
                  .ok());
  const std::string dump = (dir_ / "sc").string();
  CliRun r = L0spvFuzz({"run", path, "--sidecar", sidecar, "--dump", dump});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto bytes = spirv::ReadFileBytes(dump + "/arg0.bin");
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ((*bytes)[12], 3);
  r = L0spvFuzz({"run", path, "--sidecar", (dir_ / "none.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("none.json"));
}

TEST_F(CliTest, RunReportsUndefinedBehaviourAsAFinding) {
  const std::string path = WriteModule("gid.spv", kStoreGidKernel);
  // Eight work-items, room for four: the fifth store is out of bounds.
  CliRun r = L0spvFuzz(
      {"run", path, "--kernel=store_gid", "--global=8", "--arg=buf:16"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("ub-detected"));
}

TEST_F(CliTest, RunRejectsBadInvocationsWithExitTwo) {
  const std::string path = WriteModule("gid.spv", kStoreGidKernel);
  EXPECT_EQ(L0spvFuzz({"run", path, "--global=4"}).exit_code, 2);
  EXPECT_EQ(L0spvFuzz({"run", path, "--kernel=store_gid"}).exit_code, 2);
  CliRun r = L0spvFuzz(
      {"run", path, "--kernel=store_gid", "--global=4", "--arg=buf:zero"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("buf:zero"));
  r = L0spvFuzz({"run", path, "--kernel=store_gid", "--global=4",
                 "--arg=buf:16", "--target=gpu"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("gpu: "));
  EXPECT_THAT(r.err, HasSubstr("l0spv-fuzz targets"));
  r = L0spvFuzz({"run", path, "--kernel=store_gid", "--global=4",
                 "--arg=buf:16", "--target=spirv-opt:no-such-pass"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown pass flag '--no-such-pass'"));
  r = L0spvFuzz({"run", path, "--kernel=store_gid", "--global=4",
                 "--arg=buf:16", "--target=warp-drive"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown target 'warp-drive'"));
  r = L0spvFuzz({"run", path, "--kernel=store_gid", "--global=4",
                 "--arg=buf:16", "--target=opencl:NoSuchPlatform"},
                PoclOnlyEnv());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("NoSuchPlatform"));
  r = L0spvFuzz({"run", (dir_ / "no_case_here").string()});
  EXPECT_EQ(r.exit_code, 2);
}

TEST_F(CliTest, RunOnOpenClAgreesWithRef) {
  const std::string path = WriteModule("gid.spv", kStoreGidKernel);
  const std::string dump = (dir_ / "cl").string();
  CliRun r = L0spvFuzz({"run", path, "--kernel=store_gid", "--global=4",
                        "--arg=buf:16", "--target=opencl", "--dump", dump},
                       PoclOnlyEnv());
  if (r.exit_code == 2 && r.err.find("no OpenCL platform") != std::string::npos)
    GTEST_SKIP() << "no OpenCL platform on this machine";
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto bytes = spirv::ReadFileBytes(dump + "/arg0.bin");
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, (std::vector<uint8_t>{0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3,
                                          0, 0, 0}));
}

// Every tool target through `run --target=NAME` (MakeTarget): the executing
// ones must dump what ref dumps; ocloc is compile-only.
TEST_F(CliTest, RunDrivesEveryToolTargetThroughMakeTarget) {
  const std::string path = WriteModule("gid.spv", kStoreGidKernel);
  const std::vector<std::string> launch = {"run", path, "--kernel=store_gid",
                                           "--global=4", "--arg=buf:16"};
  auto run = [&](const std::string& target, const std::string& dump) {
    std::vector<std::string> args = launch;
    args.push_back("--target=" + target);
    if (!dump.empty()) args.push_back("--dump=" + dump);
    return L0spvFuzz(args);
  };
  const std::vector<uint8_t> expected = {0, 0, 0, 0, 1, 0, 0, 0,
                                         2, 0, 0, 0, 3, 0, 0, 0};
  for (const char* target : {"ref", "spirv-opt", "spirv-opt:ccp,vector-dce",
                             "llvm-spirv", "oclgrind"}) {
    const std::string dump =
        (dir_ / ("out_" + std::to_string(std::hash<std::string>()(target))))
            .string();
    CliRun r = run(target, dump);
    if (r.exit_code == 2 && r.err.find("not installed") != std::string::npos)
      continue;  // that consumer is missing here; `targets` says so
    ASSERT_EQ(r.exit_code, 0) << target << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr("status ok")) << target;
    auto bytes = spirv::ReadFileBytes(dump + "/arg0.bin");
    ASSERT_TRUE(bytes.ok()) << target << ": " << bytes.status();
    EXPECT_EQ(*bytes, expected) << target;
  }
  CliRun r = run("ocloc:tgllp", "");
  if (r.err.find("not installed") == std::string::npos) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("compile-only target"));
  }
}

TEST_F(CliTest, TargetsListsEveryKindWithReasons) {
  CliRun r = L0spvFuzz({"targets"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* name :
       {"ref", "gpu", "ocloc:tgllp", "oclgrind", "spirv-opt", "llvm-spirv"}) {
    EXPECT_THAT(r.out, HasSubstr(name));
  }
  r = L0spvFuzz({"targets", "--json"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("\"reason\""));
}

TEST_F(CliTest, GenerateWritesARunnableCase) {
  const std::string out = (dir_ / "case").string();
  CliRun r = L0spvFuzz({"generate", "--seed=3", "--out=" + out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(out + "/case.json"));
  r = L0spvFuzz({"run", out, "--target=ref"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out + r.err, HasSubstr("status ok"));
  // Same seed, same bytes.
  const std::string again = (dir_ / "again").string();
  ASSERT_EQ(L0spvFuzz({"generate", "--seed=3", "--out=" + again}).exit_code, 0);
  EXPECT_EQ(*spirv::ReadFileBytes(out + "/module.spv"),
            *spirv::ReadFileBytes(again + "/module.spv"));
}

// Loops with the Unroll hint in the cases `generate` wrote to `out`: the
// construct of spirv_opt_unroll_drops_decorations, gated by default.
int UnrollLoops(const std::string& out) {
  int loops = 0;
  for (const auto& entry : fs::directory_iterator(out)) {
    auto module = spirv::ReadModuleFile((entry.path() / "module.spv").string());
    if (!module.ok()) return -1;
    for (const spirv::Function& fn : module->functions)
      for (const spirv::BasicBlock& bb : fn.blocks)
        for (const spirv::Instruction& i : bb.instructions)
          if (i.opcode() == static_cast<uint32_t>(spv::Op::OpLoopMerge) &&
              (i.operand(2).AsLiteral() & 1) != 0)
            ++loops;
  }
  return loops;
}

TEST_F(CliTest, GenerateAllowBugEmitsOnlyTheNamedKnownBug) {
  const std::string gated = (dir_ / "gated").string();
  const std::string allowed = (dir_ / "allowed").string();
  // The entry was seen on spirv-opt 2023.1 (2025.5 does not have it, so
  // --avoid=spirv-opt, the newest release, keeps its construct).
  ASSERT_EQ(L0spvFuzz({"generate", "--count=60", "--avoid=spirv-opt@2023.1",
                       "--out=" + gated})
                .exit_code,
            0);
  CliRun r = L0spvFuzz({"generate", "--count=60", "--out=" + allowed,
                        "--avoid=spirv-opt@2023.1",
                        "--allow_bug=spirv_opt_unroll_drops_decorations"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(UnrollLoops(gated), 0);
  EXPECT_GT(UnrollLoops(allowed), 0);
  // A name the registry does not hold is a usage error naming it.
  for (const char* command : {"generate", "campaign"}) {
    r = L0spvFuzz({command,
                   "--allow_bug=spirv_opt_unroll_drops_decorations,"
                   "no_such_bug",
                   "--out=" + (dir_ / "c").string()});
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_FALSE(fs::exists(dir_ / "c")) << command;
    EXPECT_THAT(r.err, HasSubstr("'no_such_bug' is not a known-bug registry "
                                 "name; `l0spv-fuzz known-bugs` lists them"));
  }
}

// `generate` is the whole language unless --avoid names targets to spare;
// --avoid takes target names and refuses what contradicts it.
TEST_F(CliTest, GenerateAvoidsOnlyTheNamedTargetsBugs) {
  const std::string whole = (dir_ / "whole").string();
  CliRun r = L0spvFuzz({"generate", "--count=60", "--out=" + whole});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("no --avoid: the whole language"));
  EXPECT_GT(UnrollLoops(whole), 0);  // spirv-opt's entry, not avoided
  const std::string others = (dir_ / "others").string();
  r = L0spvFuzz({"generate", "--count=60", "--avoid=ocloc:tgllp,oclgrind",
                 "--out=" + others});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("no --avoid")));
  EXPECT_GT(UnrollLoops(others), 0);  // another target's bugs: not avoided
  // Per release: spirv-opt 2025.5 does not have the unroll bug (not_on);
  // where it is not installed its version is unknown and the entry stays.
  if (absl::StrContains(L0spvFuzz({"targets"}).out,
                        "spirv-opt@2025.5                    available")) {
    const std::string newest = (dir_ / "newest").string();
    r = L0spvFuzz({"generate", "--count=60", "--avoid=spirv-opt@2025.5",
                   "--out=" + newest});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(UnrollLoops(newest), 0);
  }
  struct Bad {
    std::vector<std::string> flags;
    const char* says;
  };
  for (const Bad& bad : std::vector<Bad>{
           {{"--avoid=no-such-kind"}, "--avoid: "},
           {{"--avoid=spirv-opt", "--allow_known_bugs"}, "contradict"},
           {{"--allow_bug=spirv_opt_unroll_drops_decorations"},
            "--allow_bug lifts one gate of the targets --avoid names"}}) {
    std::vector<std::string> args{"generate",
                                  "--out=" + (dir_ / "bad").string()};
    args.insert(args.end(), bad.flags.begin(), bad.flags.end());
    r = L0spvFuzz(args);
    EXPECT_EQ(r.exit_code, 2) << bad.says;
    EXPECT_THAT(r.err, HasSubstr(bad.says));
    EXPECT_FALSE(fs::exists(dir_ / "bad")) << bad.says;
  }
}

TEST_F(CliTest, GenerateCheckAndStats) {
  CliRun r = L0spvFuzz({"generate", "--seed=100", "--count=20", "--check"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("0 rejected by lint, 0 with undefined"));
  r = L0spvFuzz({"generate", "--count=20", "--stats"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("distinct core opcodes"));
  EXPECT_THAT(r.out, HasSubstr("OpEntryPoint"));
  EXPECT_EQ(L0spvFuzz({"generate", "--count=0", "--stats"}).exit_code, 2);
  r = L0spvFuzz({"generate", "--profile=nope", "--stats"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("nope"));
  // The coverage table: usable opcodes of the profile, with the shares.
  r = L0spvFuzz(
      {"generate", "--count=20", "--stats", "--coverage", "--profile=tgllp"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("coverage on profile 'tgllp'"));
  EXPECT_THAT(r.out, HasSubstr("core opcodes outside images: "));
  EXPECT_THAT(r.out, HasSubstr("OpenCL.std: "));
  EXPECT_THAT(r.out, HasSubstr("never generated (OpenCL.std):"));
  // Shader-only opcodes are not usable in a Kernel environment.
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("OpEmitVertex")));
  EXPECT_THAT(r.out, HasSubstr("created or removed by transformations: "));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("ref ran: ")));
  // With --check, the lint and ref columns are measured too (on the cases and
  // on their transformed versions).
  r = L0spvFuzz({"generate", "--count=3", "--stats", "--coverage", "--check"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("in modules lint accepted: "));
  EXPECT_THAT(r.out, HasSubstr("checked 3 case(s)"));
  r = L0spvFuzz({"generate", "--count=2", "--coverage", "--check"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--coverage needs --stats"));
  r = L0spvFuzz({"generate", "--count=2", "--stats", "--coverage", "--json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("drop --json"));
  r = L0spvFuzz({"generate", "--count=2", "--stats", "--coverage=maybe"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("coverage"));
  // printf: on in every case, off in none; a bad mode is a usage error.
  r = L0spvFuzz({"generate", "--count=10", "--stats", "--printf=on"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("printf"));
  r = L0spvFuzz({"generate", "--count=10", "--stats", "--printf=off"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("printf")));
  r = L0spvFuzz({"generate", "--count=2", "--check", "--printf=sometimes"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--printf expects off, swarm or on"));
}

TEST_F(CliTest, CampaignOnTheReferenceAlone) {
  const std::string out = (dir_ / "campaign").string();
  CliRun r =
      L0spvFuzz({"--target=ref", "--iterations=6", "--jobs=2", "--out=" + out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("6 cases"));
  EXPECT_TRUE(fs::exists(out + "/stats.json"));
  EXPECT_TRUE(fs::exists(out + "/campaign.json"));
  // A finished campaign resumed with the same flags has nothing left to do.
  r = L0spvFuzz({"--target=ref", "--iterations=6", "--jobs=2", "--out=" + out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("0 cases"));
  // ... and with other flags it refuses, naming the flag.
  r = L0spvFuzz({"--target=ref", "--iterations=6", "--jobs=3", "--out=" + out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("jobs"));
}

// --split: cases of several modules (split_module, logged), counted in the
// closing line and stats.json; a bad value is a usage error.
TEST_F(CliTest, CampaignSplitsCasesAndCountsThem) {
  const std::string out = (dir_ / "split-campaign").string();
  CliRun r = L0spvFuzz({"campaign", "--target=ref", "--iterations=12",
                        "--split=on", "--mutate", "--out=" + out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("of several modules)"));
  std::ifstream in(out + "/stats.json");
  const nlohmann::json stats = nlohmann::json::parse(in, nullptr, false);
  ASSERT_TRUE(stats.is_object());
  EXPECT_GE(stats["split_cases"].get<uint64_t>(), 3u);
  EXPECT_LE(stats["split_cases"].get<uint64_t>(), 12u);
  r = L0spvFuzz({"campaign", "--target=ref", "--iterations=1", "--split=17",
                 "--out=" + out + "-bad"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--split expects off, on or a module count"));
}

// --batch: a batching consumer builds several cases per run (stats.json
// counts the batches and gives the yield); a bad value is a usage error.
TEST_F(CliTest, CampaignBatchesCasesAndRefusesBadBatchSizes) {
  for (const char* bad :
       {"0", "65", "many", "", "99999999999999999999", "-1", "4x"}) {
    SCOPED_TRACE(bad);
    CliRun r = L0spvFuzz({"--target=ref", "--iterations=1",
                          std::string("--batch=") + bad,
                          "--out=" + (dir_ / "batch-bad").string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr("expected auto, off or a count of cases "
                                 "from 1 to 64"));
  }
  if (!std::filesystem::exists("/usr/bin/spirv-opt"))
    GTEST_SKIP() << "spirv-opt is not installed";
  const std::string out = (dir_ / "batch-campaign").string();
  CliRun r = L0spvFuzz({"--target=spirv-opt", "--iterations=16", "--batch=4",
                        "--jobs=1", "--no_reduce", "--out=" + out});
  EXPECT_NE(r.exit_code, 2) << r.err;
  std::ifstream in(out + "/stats.json");
  const nlohmann::json stats = nlohmann::json::parse(in, nullptr, false);
  ASSERT_TRUE(stats.is_object());
  EXPECT_EQ(stats["cases"], 16);
  // Groups of 4 cases, each split by batch key (spirv::BatchKey).
  EXPECT_GE(stats["targets"]["spirv-opt"]["batches"].get<uint64_t>(), 2u);
  EXPECT_EQ(stats["targets"]["spirv-opt"]["runs"], 16);
  EXPECT_GT(
      stats["yield"]["targets"]["spirv-opt"]["cases_per_second"].get<double>(),
      0);
}

TEST_F(CliTest, CampaignUsageErrors) {
  CliRun r = L0spvFuzz({"--target=ref", "--time=soon"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--time=soon"));
  r = L0spvFuzz({"--target=ref", "--shard=3/2"});
  EXPECT_EQ(r.exit_code, 2);
  r = L0spvFuzz({"--target=nosuchthing"});
  EXPECT_EQ(r.exit_code, 2);
  r = L0spvFuzz({"--target=ref", "--route=some"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--route expects swarm or all, not 'some'"));
}

TEST_F(CliTest, CampaignMutateRunsTransformedCases) {
  const std::string out = (dir_ / "mutate").string();
  CliRun r = L0spvFuzz({"--target=ref", "--mutate", "--iterations=3",
                        "--no_reduce", "--out=" + out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(out + "/stats.json");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_THAT(text.str(), HasSubstr("ref~mutated"));
}

// --mutate=spirv-fuzz without spirv-fuzz: exit 2 naming the install
// script; `targets` says the same.
TEST_F(CliTest, CampaignMutateSpirvFuzzWithoutTheToolExitsTwo) {
  const std::vector<std::string> env = {"L0SPV_SPIRV_FUZZ=/nonexistent/sf"};
  CliRun r = L0spvFuzz({"--target=ref", "--mutate=spirv-fuzz", "--iterations=1",
                        "--out=" + (dir_ / "sf").string()},
                       env);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("ci/install-spirv-fuzz.sh"));
  EXPECT_FALSE(fs::exists(dir_ / "sf" / "stats.json"));
  r = L0spvFuzz({"targets"}, env);
  EXPECT_THAT(r.out + r.err, HasSubstr("ci/install-spirv-fuzz.sh"));
  r = L0spvFuzz({"--target=ref", "--mutate=sometimes", "--iterations=1",
                 "--out=" + (dir_ / "sf2").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--mutate=sometimes"));
}

// The new spirv-fuzz inputs refused with exit 2: --kernel_fixup without a
// --module candidate, and a spirv-fuzz target whose seed is no number.
TEST_F(CliTest, SpirvFuzzInputsOutOfShapeExitTwo) {
  const std::string c = (dir_ / "case").string();
  ASSERT_EQ(L0spvFuzz({"generate", "--seed=2", "--out=" + c}).exit_code, 0);
  CliRun r = L0spvFuzz({"check", c, "--target=ref", "--kernel_fixup"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--kernel_fixup applies to a --module file"));
  for (const std::string target :
       {"spirv-fuzz:seven", "spirv-fuzz:1+fixup+fixup2", "spirv-fuzz:+"}) {
    r = L0spvFuzz({"check", c, "--target=" + target},
                  {"L0SPV_SPIRV_FUZZ=/bin/true"});
    EXPECT_EQ(r.exit_code, 2) << target << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("spirv-fuzz:SEED")) << target;
  }
}

// The engine's plumbing with a stand-in spirv-fuzz (CI has no real one):
// it crashes on seeds divisible by 3 and otherwise returns its input with a
// one-record transformation sequence. Crashes are findings against
// spirv-fuzz:SEED that keep spirv-fuzz/seed; the rest are usable mutants.
TEST_F(CliTest, CampaignMutateSpirvFuzzWithAStandIn) {
  const fs::path tool = dir_ / "spirv-fuzz";
  {
    std::ofstream f(tool);
    f << "#!/bin/sh\n"
         "seed=${4#--seed=}\n"
         "if [ $((seed % 3)) -eq 0 ]; then kill -KILL $$; fi\n"
         "cp \"$1\" \"$3\"\n"
         "echo '{\"transformation\": [{\"addConstantBoolean\": {}}]}' "
         "> out.transformations_json\n"
         "printf 'binary' > out.transformations\n";
  }
  fs::permissions(tool, fs::perms::owner_all);
  const std::string out = (dir_ / "sfcampaign").string();
  CliRun r = L0spvFuzz({"--target=ref", "--mutate=spirv-fuzz", "--iterations=6",
                        "--no_reduce", "--out=" + out},
                       {"L0SPV_SPIRV_FUZZ=" + tool.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // findings: spirv-fuzz crashed
  std::ifstream in(out + "/stats.json");
  const nlohmann::json stats = nlohmann::json::parse(in);
  const nlohmann::json& sf = stats["spirv_fuzz"];
  EXPECT_EQ(sf["runs"], 6) << sf.dump();
  EXPECT_EQ(sf["tool-crashed"], 2) << sf.dump();  // seeds 0 and 3
  EXPECT_EQ(sf["usable"], 4) << sf.dump();
  EXPECT_EQ(sf["transformations"], 4) << sf.dump();
  EXPECT_EQ(stats["targets"]["ref~mutated"]["runs"], 4);
  int crash_findings = 0;
  for (const auto& e : fs::directory_iterator(out + "/findings")) {
    const std::string name = e.path().filename().string();
    ASSERT_THAT(name, ::testing::StartsWith("crash.spirv-fuzz.")) << name;
    EXPECT_TRUE(fs::exists(e.path() / "spirv-fuzz" / "seed"));
    EXPECT_TRUE(fs::exists(e.path() / "case" / "module.spv"));
    ++crash_findings;
  }
  EXPECT_EQ(crash_findings, 1);  // both crashes share a signature
}

TEST_F(CliTest, TransformAndReplay) {
  const std::string original = (dir_ / "orig").string();
  const std::string transformed = (dir_ / "tr").string();
  const std::string again = (dir_ / "again").string();
  ASSERT_EQ(L0spvFuzz({"generate", "--seed=4", "--out=" + original}).exit_code,
            0);
  CliRun r =
      L0spvFuzz({"transform", original, "--seed=2", "--transformations=40",
                 "--check", "--out=" + transformed});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("1/1 transformed cases valid"));
  r = L0spvFuzz({"replay", original, transformed, "--out=" + again});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream a(transformed + "/module.spv", std::ios::binary),
      b(again + "/module.spv", std::ios::binary);
  std::stringstream ta, tb;
  ta << a.rdbuf();
  tb << b.rdbuf();
  EXPECT_EQ(ta.str(), tb.str()) << "replay is byte-identical";
  r = L0spvFuzz({"transform", "--list"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("\nsplit_block\n"));
  EXPECT_THAT(r.out, HasSubstr("\nmerge_blocks  (enablers: split_block)\n"));
  EXPECT_THAT(r.out, HasSubstr("\nsplit_module  (case-level"));
}

// A kind restricted by --kinds that cannot apply without its enablers: the
// run says which kinds to add, and stops saying so once they are there.
TEST_F(CliTest, TransformNamesMissingEnablers) {
  const std::string original = (dir_ / "o3").string();
  ASSERT_EQ(L0spvFuzz({"generate", "--seed=4", "--out=" + original}).exit_code,
            0);
  CliRun r = L0spvFuzz({"transform", original, "--transformations=20",
                        "--check", "--kinds=add_dead_store"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("add_dead_store never applied: it needs "
                               "add_local_variable (its enablers)"));
  r = L0spvFuzz({"transform", original, "--transformations=20", "--check",
                 "--kinds=add_dead_store,add_local_variable"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, testing::Not(HasSubstr("never applied")));
}

TEST_F(CliTest, TransformAndReplayErrors) {
  const std::string original = (dir_ / "o2").string();
  ASSERT_EQ(L0spvFuzz({"generate", "--seed=5", "--out=" + original}).exit_code,
            0);
  CliRun r = L0spvFuzz({"transform"});
  EXPECT_EQ(r.exit_code, 2);
  r = L0spvFuzz({"transform", original});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("nothing to do"));
  r = L0spvFuzz({"transform", (dir_ / "missing.spv").string(), "--check"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--sidecar"));
  r = L0spvFuzz({"transform", original, "--check", "--kinds=bogus"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("bogus"));
  r = L0spvFuzz({"replay", original});
  EXPECT_EQ(r.exit_code, 2);
  r = L0spvFuzz({"replay", original, original, "--check"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("transformation_log"));
  // A log recorded on another case is refused by name.
  const std::string other = (dir_ / "o3").string();
  const std::string tr = (dir_ / "t3").string();
  ASSERT_EQ(L0spvFuzz({"generate", "--seed=6", "--out=" + other}).exit_code, 0);
  ASSERT_EQ(L0spvFuzz({"transform", other, "--out=" + tr}).exit_code, 0);
  r = L0spvFuzz({"replay", original, tr, "--check"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("another module"));
  const std::string bad = (dir_ / "bad.json").string();
  std::ofstream(bad) << "{not json";
  r = L0spvFuzz({"replay", original, bad, "--check"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.json: not valid JSON"));
}

TEST_F(CliTest, ShardsMerge) {
  const std::string a = (dir_ / "a").string(), b = (dir_ / "b").string();
  ASSERT_EQ(
      L0spvFuzz({"--target=ref", "--iterations=3", "--shard=0/2", "--out=" + a})
          .exit_code,
      0);
  ASSERT_EQ(
      L0spvFuzz({"--target=ref", "--iterations=4", "--shard=1/2", "--out=" + b})
          .exit_code,
      0);
  const std::string merged = (dir_ / "merged").string();
  CliRun r = L0spvFuzz({"merge", "--out=" + merged, a, b});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("7 cases"));
  EXPECT_TRUE(fs::exists(merged + "/stats.json"));
  r = L0spvFuzz({"merge", "--out=" + merged, (dir_ / "missing").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("stats.json"));
}

TEST_F(CliTest, CheckReRunsACase) {
  const std::string out = (dir_ / "case").string();
  ASSERT_EQ(L0spvFuzz({"generate", "--seed=9", "--out=" + out}).exit_code, 0);
  CliRun r = L0spvFuzz({"check", out, "--target=ref"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("not interesting"));
  r = L0spvFuzz({"check", (dir_ / "nothing").string(), "--target=ref"});
  EXPECT_EQ(r.exit_code, 2);
  r = L0spvFuzz({"check", out, "--target=bogus"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST_F(CliTest, CheckSavesWhatItFindsAsAFindingForReduce) {
  const std::string out = (dir_ / "case").string();
  ASSERT_EQ(L0spvFuzz({"generate", "--seed=9", "--out=" + out}).exit_code, 0);
  // Shrink the u32 results buffer to one word: every work-item's stores
  // past it are out of bounds, which the reference reports as `ub`.
  std::ifstream in(out + "/case.json");
  nlohmann::json j = nlohmann::json::parse(in);
  in.close();
  ASSERT_EQ(j["args"][0]["file"], "arg0.bin");
  j["args"][0]["bytes"] = 4;
  std::ofstream(out + "/case.json") << j.dump(2);
  fs::resize_file(out + "/arg0.bin", 4);

  const std::string saved = (dir_ / "saved").string();
  CliRun r =
      L0spvFuzz({"check", out, "--target=ref", "--save_finding=" + saved});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("finding saved: " + saved + "/findings/ub."));
  int findings = 0;
  for (const auto& e : fs::directory_iterator(saved + "/findings")) {
    ++findings;
    EXPECT_TRUE(fs::exists(e.path() / "verdict.json"));
    EXPECT_TRUE(fs::exists(e.path() / "case" / "module.spv"));
    EXPECT_TRUE(fs::exists(e.path() / "outputs" / "ref.json"));
  }
  EXPECT_EQ(findings, 1);

  // --module would record a module the finding does not hold: refused.
  r = L0spvFuzz({"check", out, "--target=ref", "--save_finding=" + saved,
                 "--module=" + out + "/module.spv"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("does not combine with --module"));
}

}  // namespace
}  // namespace l0spv

namespace l0spv {
namespace {

// A kernel importing add1, and a module exporting it.
constexpr char kExportsAdd1[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpMemoryModel Physical64 OpenCL
OpDecorate %f LinkageAttributes "add1" Export
%uint = OpTypeInt 32 0
%one = OpConstant %uint 1
%ufn = OpTypeFunction %uint %uint
%f = OpFunction %uint None %ufn
%x = OpFunctionParameter %uint
%b = OpLabel
%y = OpIAdd %uint %x %one
OpReturnValue %y
OpFunctionEnd
)";

TEST_F(CliTest, RunLinksSeveralModulesAndNamesWhatDoesNotLink) {
  const std::string kernel =
      WriteModule("kernel.spv", test_support::ImportsAdd1().c_str());
  const std::string lib = WriteModule("lib.spv", kExportsAdd1);
  const std::string dump = (dir_ / "out").string();
  CliRun r = L0spvFuzz({"run", kernel, lib, "--kernel=k", "--global=4",
                        "--arg=buf:16", "--dump", dump});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(
      *spirv::ReadFileBytes(dump + "/arg0.bin"),
      (std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}));
  // Without the library the import is unresolved: exit 2 naming it.
  r = L0spvFuzz({"run", kernel, "--kernel=k", "--global=4", "--arg=buf:16"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  r = L0spvFuzz(
      {"run", kernel, kernel, "--kernel=k", "--global=4", "--arg=buf:16"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("entry point 'k' is defined in module.spv "
                               "and in module-1.spv"));
  // At most 16 modules in all.
  std::vector<std::string> many = {"run", kernel};
  for (int i = 0; i < 16; ++i) many.push_back(lib);
  for (const char* flag : {"--kernel=k", "--global=4", "--arg=buf:16"})
    many.push_back(flag);
  r = L0spvFuzz(many);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("at most 16 modules can be linked"));
  // A case directory lists its own modules.
  r = L0spvFuzz({"run", dir_.string(), lib});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("a case directory lists its own"));
}

TEST_F(CliTest, GenerateSplitWritesLinkedCasesThatComputeTheSame) {
  const std::string out = (dir_ / "split").string();
  CliRun r = L0spvFuzz({"generate", "--seed=7", "--count=12", "--split=on",
                        "--avoid=spirv-opt", "--check", "--out=" + out});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("split "));
  size_t split_cases = 0;
  for (const auto& e : fs::directory_iterator(out)) {
    if (!fs::exists(e.path() / "module-1.spv")) continue;
    ++split_cases;
    r = L0spvFuzz({"run", e.path().string(), "--target=ref"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    r = L0spvFuzz({"run", e.path().string(), "--target=spirv-opt"});
    EXPECT_EQ(r.exit_code, 0) << r.err;  // each module optimized, then linked
  }
  EXPECT_GE(split_cases, 3u);
  // The split is the last record of the case's log: replayed on the whole
  // case, it gives the same modules.
  const std::string whole = (dir_ / "whole").string();
  const std::string split7 = (dir_ / "split7").string();
  const std::string again = (dir_ / "again7").string();
  ASSERT_EQ(L0spvFuzz({"generate", "--seed=9", "--out=" + whole}).exit_code, 0);
  ASSERT_EQ(L0spvFuzz({"generate", "--seed=9", "--split=3", "--out=" + split7})
                .exit_code,
            0);
  ASSERT_TRUE(fs::exists(fs::path(split7) / "module-2.spv"));
  r = L0spvFuzz({"replay", whole, split7, "--out=" + again});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* file : {"module.spv", "module-1.spv", "module-2.spv"}) {
    std::ifstream a(fs::path(split7) / file, std::ios::binary),
        b(fs::path(again) / file, std::ios::binary);
    std::stringstream ta, tb;
    ta << a.rdbuf();
    tb << b.rdbuf();
    EXPECT_FALSE(ta.str().empty()) << file;
    EXPECT_EQ(ta.str(), tb.str()) << file;
  }
  r = L0spvFuzz({"generate", "--split=1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--split expects off, on or a module count"));
}

}  // namespace
}  // namespace l0spv
