// Tests of the Target interface (oracles/targets/target.h) that need no real
// consumer: MakeTarget's errors, the `ref` adapter in and out of process,
// and the fault paths of the tool adapters driven through stand-in
// executables (shell scripts that crash, hang, reject or write garbage).
#include "oracles/targets/target.h"

#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/compare/compare.h"
#include "oracles/process/subprocess.h"
#include "oracles/targets/adapter_util.h"
#include "oracles/targets/target_kinds.h"
#include "spirv/kernel_batch.h"
#include "spirv/spirv_tools.h"

namespace l0spv::oracles {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using namespace std::chrono_literals;

// out[g] = g * 3
constexpr char kTimesThree[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%ptr_in = OpTypePointer Input %v3ulong
%gid = OpVariable %ptr_in Input
%ptr_g_uint = OpTypePointer CrossWorkgroup %uint
%uint_3 = OpConstant %uint 3
%kfn = OpTypeFunction %void %ptr_g_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gv 0
%x32 = OpUConvert %uint %x
%r = OpIMul %uint %x32 %uint_3
%po = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %po %r Aligned 4
OpReturn
OpFunctionEnd
)";

// Loops forever (the reference's step budget is raised past the time limit
// in the test that uses it).
constexpr char kForever[] = R"(
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ptr_g_uint = OpTypePointer CrossWorkgroup %uint
%uint_1 = OpConstant %uint 1
%kfn = OpTypeFunction %void %ptr_g_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
OpBranch %loop
%loop = OpLabel
%i = OpPhi %uint %uint_1 %entry %i2 %loop
OpStore %out %i Aligned 4
%i2 = OpIAdd %uint %i %uint_1
OpBranch %loop
OpFunctionEnd
)";

spirv::TestCase Case(const char* text, uint64_t global) {
  spirv::TestCase tc;
  auto words = spirv::Assemble(text);
  EXPECT_TRUE(words.ok()) << words.status();
  if (words.ok()) tc.module_words = *words;
  tc.entry_point = "k";
  tc.nd_range.global[0] = global;
  spirv::KernelArg out;
  out.kind = spirv::KernelArg::Kind::kBuffer;
  out.bytes.assign(global * 4, 0);
  out.is_result = true;
  tc.args.push_back(out);
  return tc;
}

TargetRunLimits Limits(std::chrono::milliseconds wall) {
  TargetRunLimits l;
  l.wall_time = wall;
  return l;
}

class TargetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("l0spv_target_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    options_.scratch_dir = (dir_ / "scratch").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A stand-in consumer: a shell script with `body`.
  std::string Script(const std::string& name, const std::string& body) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    chmod(path.c_str(), 0755);
    return path;
  }

  Execution RunWith(const std::string& target, const std::string& program,
                    std::chrono::milliseconds wall = 20s) {
    TargetOptions o = options_;
    o.program = program;
    auto t = MakeTarget(target, o);
    EXPECT_TRUE(t.ok()) << t.status();
    if (!t.ok()) return {};
    return (*t)->Run(Case(kTimesThree, 4), Limits(wall));
  }

  // The scratch directory holds nothing after a run.
  void ExpectScratchClean() {
    std::error_code ec;
    if (!fs::exists(options_.scratch_dir, ec)) return;
    EXPECT_TRUE(fs::is_empty(options_.scratch_dir, ec))
        << options_.scratch_dir << " still holds "
        << fs::directory_iterator(options_.scratch_dir)->path();
  }

  fs::path dir_;
  TargetOptions options_;
};

TEST_F(TargetTest, MalformedAndUnknownNamesAreInvalidArgument) {
  for (const char* name : {"cuda", "ref:fast", "ocloc", "ocloc:", "opencl:",
                           "llvm-spirv:x", "oclgrind:y", ""}) {
    auto t = MakeTarget(name);
    ASSERT_FALSE(t.ok()) << name;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument)
        << name << ": " << t.status();
  }
  EXPECT_THAT(MakeTarget("cuda").status().message(),
              HasSubstr("known kinds: ref, gpu, opencl"));
}

TEST_F(TargetTest, GpuHasNoAdapterHereAndSaysWhy) {
  auto t = MakeTarget("gpu");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(t.status().message()), StartsWith("gpu: "));
  EXPECT_GT(t.status().message().size(), 6u);
}

TEST_F(TargetTest, ConsumersMissingFromPathAreFailedPrecondition) {
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  fs::create_directories(dir_ / "empty");
  setenv("PATH", (dir_ / "empty").c_str(), 1);
  // No current releases from PyPI either.
  setenv("L0SPV_CONSUMERS_DIR", (dir_ / "empty").c_str(), 1);
  for (const char* name :
       {"ocloc:tgllp", "spirv-opt", "llvm-spirv", "oclgrind"}) {
    auto t = MakeTarget(name);
    ASSERT_FALSE(t.ok()) << name;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kFailedPrecondition)
        << name << ": " << t.status();
    EXPECT_THAT(t.status().message(), HasSubstr("not installed")) << name;
  }
  setenv("PATH", saved.c_str(), 1);
  unsetenv("L0SPV_CONSUMERS_DIR");

  TargetOptions o;
  o.program = (dir_ / "no-such-tool").string();
  auto t = MakeTarget("llvm-spirv", o);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(t.status().message(), HasSubstr("no-such-tool"));
}

TEST_F(TargetTest, RefRunsInAWorkerAndInProcessWithTheSameResult) {
  const spirv::TestCase tc = Case(kTimesThree, 16);
  auto worker = MakeTarget("ref", options_);
  ASSERT_TRUE(worker.ok()) << worker.status();
  EXPECT_EQ((*worker)->name(), "ref");
  EXPECT_TRUE((*worker)->executes());
  const Execution a = (*worker)->Run(tc, Limits(20s));
  ASSERT_EQ(a.status, ExecutionStatus::kOk) << a.message;
  uint32_t last;
  std::memcpy(&last, &a.buffers[0][15 * 4], 4);
  EXPECT_EQ(last, 45u);

  TargetOptions in_process = options_;
  in_process.ref_in_process = true;
  auto local = MakeTarget("ref", in_process);
  ASSERT_TRUE(local.ok());
  const Execution b = (*local)->Run(tc, Limits(20s));
  EXPECT_TRUE(CompareExecutions(tc, a, b, {}).equal);
  EXPECT_EQ(a.instructions_executed, b.instructions_executed);
}

TEST_F(TargetTest, RefWorkerPastTheWallClockIsTimedOut) {
  TargetOptions o = options_;
  o.reference.step_budget = uint64_t{1} << 62;  // only the clock stops it
  auto t = MakeTarget("ref", o);
  ASSERT_TRUE(t.ok());
  const auto start = std::chrono::steady_clock::now();
  const Execution e = (*t)->Run(Case(kForever, 1), Limits(300ms));
  EXPECT_EQ(e.status, ExecutionStatus::kTimedOut) << e.message;
  EXPECT_THAT(e.message, HasSubstr("timed out after"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

TEST_F(TargetTest, RefWorkerOverTheMemoryLimitIsCrashedNotTheCaller) {
  if (!kMemoryLimitsEnforced)
    GTEST_SKIP() << "memory limits are not applied in ASan builds";
  TargetOptions o = options_;
  o.reference.memory_limit_bytes = uint64_t{1} << 40;  // the worker's cap bites
  auto t = MakeTarget("ref", o);
  ASSERT_TRUE(t.ok());
  spirv::TestCase tc = Case(kTimesThree, 4);
  tc.args[0].bytes.assign(size_t{64} << 20, 0);  // the worker copies 64 MiB
  TargetRunLimits limits = Limits(20s);
  limits.memory_bytes = 32 << 20;  // below what the worker needs
  const Execution e = (*t)->Run(tc, limits);
  EXPECT_EQ(e.status, ExecutionStatus::kCrashed) << e.message;
  EXPECT_THAT(e.message, HasSubstr("reference interpreter"));
}

TEST_F(TargetTest, AConsumerKilledByASignalIsCrashedWithItsStderr) {
  const Execution e = RunWith(
      "ocloc:tgllp",
      Script("ocloc", "echo 'IGC: about to fall over' >&2\nkill -SEGV $$"));
  EXPECT_EQ(e.status, ExecutionStatus::kCrashed) << e.message;
  EXPECT_THAT(e.message, HasSubstr("ocloc crashed: signal 11"));
  EXPECT_THAT(e.message, HasSubstr("about to fall over"));
  EXPECT_THAT(e.log, HasSubstr("about to fall over"));
  ExpectScratchClean();
}

TEST_F(TargetTest, AConsumerThatHangsIsTimedOutAndKilled) {
  const auto start = std::chrono::steady_clock::now();
  const Execution e =
      RunWith("spirv-opt", Script("spirv-opt", "sleep 30"), 300ms);
  EXPECT_EQ(e.status, ExecutionStatus::kTimedOut) << e.message;
  EXPECT_THAT(e.message, HasSubstr("spirv-opt -O timed out"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  ExpectScratchClean();
}

TEST_F(TargetTest, OclocRejectionIsBuildFailedWithTheNormalizedFirstError) {
  Execution e =
      RunWith("ocloc:tgllp",
              Script("ocloc",
                     "echo 'Compilation from IR - skipping loading of FCL'\n"
                     "echo 'error: bad thing at 0xdeadbeef in module.spv'\n"
                     "echo 'error: second thing'\n"
                     "echo 'Build failed with error code: -11'\nexit 245"));
  EXPECT_EQ(e.status, ExecutionStatus::kBuildFailed) << e.message;
  EXPECT_EQ(e.message,
            "ocloc rejected the module: error: bad thing at 0x? in "
            "module.spv");
  EXPECT_THAT(e.log, HasSubstr("second thing"));

  e = RunWith("ocloc:tgllp", Script("ocloc2", "exit 1"));
  EXPECT_EQ(e.status, ExecutionStatus::kBuildFailed);
  EXPECT_EQ(e.message, "ocloc rejected the module without a message (exit 1)");

  e = RunWith("ocloc:tgllp",
              Script("ocloc3", "echo 'Internal Compiler Error: boom'\nexit 0"));
  EXPECT_EQ(e.status, ExecutionStatus::kCrashed);
  EXPECT_THAT(e.message, HasSubstr("ocloc internal error"));

  e = RunWith("ocloc:tgllp", Script("ocloc4", "exit 0"));
  EXPECT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  EXPECT_TRUE(e.buffers.empty());
  ExpectScratchClean();
}

TEST_F(TargetTest, AnOptimizerOutputThatFailsValidationIsAFindingAgainstIt) {
  // Writes a module that ends mid-instruction.
  const Execution e =
      RunWith("spirv-opt", Script("spirv-opt",
                                  "for a; do last=$a; done\n"
                                  "head -c 40 module.spv > \"$last\""));
  EXPECT_EQ(e.status, ExecutionStatus::kBuildFailed) << e.message;
  EXPECT_THAT(e.message, HasSubstr("spirv-opt -O produced a module that fails "
                                   "validation"));
}

TEST_F(TargetTest, AnOptimizerThatRejectsAValidModuleIsBuildFailed) {
  const Execution e = RunWith(
      "spirv-opt", Script("spirv-opt", "echo 'error: no thanks' >&2\nexit 1"));
  EXPECT_EQ(e.status, ExecutionStatus::kBuildFailed);
  EXPECT_EQ(e.message,
            "spirv-opt -O rejected a valid module (exit 1): error: no thanks");
}

// spirv-opt validates its input with the same SPIRV-Tools validator the
// harness uses; the harness checks first and lets spirv-opt skip its copy
// (--skip-validation) only for a module that passed, so an invalid module
// still meets spirv-opt's own validation and its rejection is spirv-opt's.
TEST_F(TargetTest, SpirvOptSkipsItsValidationOnlyOfModulesThatPassed) {
  const std::string args = (dir_ / "args").string();
  TargetOptions o = options_;
  o.program = Script("spirv-opt", "echo \"$@\" >> " + args +
                                      "\nfor a; do last=$a; done\n"
                                      "cp module.spv \"$last\"");
  auto t = MakeTarget("spirv-opt", o);
  ASSERT_TRUE(t.ok()) << t.status();
  const Execution ok = (*t)->Run(Case(kTimesThree, 4), Limits(20s));
  EXPECT_EQ(ok.status, ExecutionStatus::kOk) << ok.message;
  // A batch is made of validated cases (Target::RunBatch's precondition).
  const std::vector<spirv::TestCase> two = {Case(kTimesThree, 4),
                                            Case(kTimesThree, 8)};
  auto launches = spirv::BatchKernels(two);
  ASSERT_TRUE(launches.ok()) << launches.status();
  for (const Execution& e : (*t)->RunBatch(*launches, Limits(20s)))
    EXPECT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  std::ifstream in(args);
  std::string line;
  for (int run = 0; run < 2; ++run) {
    ASSERT_TRUE(std::getline(in, line)) << "run " << run;
    EXPECT_THAT(line, StartsWith("--target-env=spv1.2 --skip-validation -O "));
  }
}

TEST_F(TargetTest, SpirvOptValidatesAModuleTheHarnessFindsInvalid) {
  const std::string args = (dir_ / "args").string();
  TargetOptions o = options_;
  o.program = Script("spirv-opt", "echo \"$@\" >> " + args +
                                      "\necho 'error: invalid' >&2\nexit 1");
  auto t = MakeTarget("spirv-opt", o);
  ASSERT_TRUE(t.ok()) << t.status();
  // OpIMul with a 64-bit result type of 32-bit operands: spirv-val rejects.
  spirv::TestCase invalid = Case(kTimesThree, 4);
  auto broken = spirv::Assemble(absl::StrReplaceAll(
      std::string(kTimesThree), {{"%r = OpIMul %uint", "%r = OpIMul %ulong"}}));
  ASSERT_TRUE(broken.ok()) << broken.status();
  invalid.module_words = *broken;
  ASSERT_FALSE(spirv::Validate(invalid.module_words).ok());
  const Execution e = (*t)->Run(invalid, Limits(20s));
  EXPECT_EQ(e.status, ExecutionStatus::kBuildFailed);
  EXPECT_THAT(e.message, HasSubstr("fails validation (spirv-opt"));
  std::ifstream in(args);
  std::string line;
  std::getline(in, line);
  EXPECT_THAT(line, Not(HasSubstr("--skip-validation")));
}

TEST_F(TargetTest, AConsumerThatVanishesAfterMakeTargetIsUnsupported) {
  const std::string tool = Script("llvm-spirv", "exit 0");
  TargetOptions o = options_;
  o.program = tool;
  auto t = MakeTarget("llvm-spirv", o);
  ASSERT_TRUE(t.ok()) << t.status();
  fs::remove(tool);
  const Execution e = (*t)->Run(Case(kTimesThree, 4), Limits(20s));
  EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << e.message;
  EXPECT_THAT(e.message, HasSubstr("harness"));
}

TEST(SpirvVersions, NewestVersionEachTargetReads) {
  EXPECT_EQ(NewestSpirvVersionOfTarget("spirv-opt:ccp"), 0x00010600u);
  EXPECT_EQ(NewestSpirvVersionOfTarget("ocloc:pvc"), 0x00010400u);
  EXPECT_EQ(NewestSpirvVersionOfTarget("opencl:Portable"), 0x00010400u);
  EXPECT_EQ(NewestSpirvVersionOfTarget("oclgrind"), 0x00010400u);
  EXPECT_EQ(NewestSpirvVersionOfTarget("ref"), ~0u);
}

// A module newer than the consumer reads is never sent to it: the stand-in
// would "crash" if it ran. ref reads it; spirv-opt (1.6) takes a 1.5 one.
TEST_F(TargetTest, AModuleNewerThanTheConsumerReadsIsUnsupportedUnsent) {
  const std::string tool = Script("ocloc", "kill -SEGV $$");
  TargetOptions o = options_;
  o.program = tool;
  auto t = MakeTarget("ocloc:tgllp", o);
  ASSERT_TRUE(t.ok()) << t.status();
  spirv::TestCase tc = Case(kTimesThree, 4);
  tc.module_words[1] = 0x00010500;
  const Execution e = (*t)->Run(tc, Limits(20s));
  EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << e.message;
  EXPECT_EQ(e.message,
            "the module is SPIR-V 1.5; ocloc:tgllp reads SPIR-V 1.0 to 1.4");
  tc.module_words[1] = 0x00010400;
  EXPECT_EQ((*t)->Run(tc, Limits(20s)).status, ExecutionStatus::kCrashed);
  o.program = Script("spirv-opt", "kill -SEGV $$");
  auto opt = MakeTarget("spirv-opt", o);
  ASSERT_TRUE(opt.ok()) << opt.status();
  tc.module_words[1] = 0x00010500;
  EXPECT_EQ((*opt)->Run(tc, Limits(20s)).status, ExecutionStatus::kCrashed);
}

TEST_F(TargetTest, ToolAdaptersReportWhatTheyRunAndLeaveNoScratch) {
  struct Want {
    const char* target;
    bool executes;
  };
  const std::string tool = Script("tool", "echo 'error: no' >&2\nexit 1");
  for (const Want& w : {Want{"ocloc:tgllp", false}, Want{"spirv-opt:ccp", true},
                        Want{"llvm-spirv", true}}) {
    TargetOptions o = options_;
    o.program = tool;  // a stand-in: the program is the consumer
    auto t = MakeTarget(w.target, o);
    ASSERT_TRUE(t.ok()) << w.target << ": " << t.status();
    EXPECT_EQ((*t)->name(), w.target);
    EXPECT_EQ((*t)->executes(), w.executes) << w.target;
    EXPECT_EQ((*t)->consumer(), tool) << w.target;
    const Execution e = (*t)->Run(Case(kTimesThree, 4), Limits(20s));
    EXPECT_EQ(e.status, ExecutionStatus::kBuildFailed) << w.target;
    ExpectScratchClean();
  }
}

TEST_F(TargetTest, AnUnusableScratchDirectoryIsUnsupportedNotAFinding) {
  TargetOptions o = options_;
  o.program = Script("spirv-opt", "exit 0");
  // A regular file where the scratch directory's parent should be.
  o.scratch_dir = (dir_ / "file").string();
  std::ofstream(o.scratch_dir) << "x";
  for (const char* name : {"spirv-opt", "llvm-spirv", "ocloc:tgllp"}) {
    auto t = MakeTarget(name, o);
    ASSERT_TRUE(t.ok()) << name << ": " << t.status();
    const Execution e = (*t)->Run(Case(kTimesThree, 4), Limits(20s));
    EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << name;
    EXPECT_THAT(e.message, StartsWith("harness: cannot create a scratch"))
        << name;
  }
}

TEST(NormalizedFirstError, PicksTheFirstErrorJoinsColonLinesAndScrubs) {
  EXPECT_EQ(NormalizedFirstError("banner\n  error:   x  at 0x1F  \n"),
            "error: x at 0x?");
  EXPECT_EQ(NormalizedFirstError("Error(s) while linking:\nno symbol\n"),
            "Error(s) while linking: no symbol");
  EXPECT_EQ(NormalizedFirstError("just a line\n"), "just a line");
  EXPECT_EQ(NormalizedFirstError("error in /tmp/d1/m.spv", "/tmp/d1"),
            "error in <dir>/m.spv");
  EXPECT_EQ(NormalizedFirstError(""), "");
}

TEST(LastLines, KeepsTheTail) {
  EXPECT_EQ(LastLines("a\nb\nc\n", 2), "b\nc");
  EXPECT_EQ(LastLines("a\nb", 5), "a\nb");
  EXPECT_EQ(LastLines("", 3), "");
  EXPECT_EQ(LastLines("\n\nx", 1), "x");
}

}  // namespace
}  // namespace l0spv::oracles
