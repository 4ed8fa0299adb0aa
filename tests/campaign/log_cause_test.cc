// LogCause on captured logs of real consumers (tests/campaign/logs/) and the
// signatures Judge builds from them: one cause per signature, no banners.
#include "oracles/verdict/log_cause.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "oracles/verdict/verdict.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string Log(const std::string& name) {
  std::ifstream in(std::string(L0SPV_SOURCE_DIR) + "/tests/campaign/logs/" +
                   name);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << name;
  return s.str();
}

struct LogCase {
  const char* file;
  const char* cause;
};

class CapturedLog : public ::testing::TestWithParam<LogCase> {};

TEST_P(CapturedLog, GivesItsCause) {
  EXPECT_EQ(LogCause(Log(GetParam().file)), GetParam().cause);
}

INSTANTIATE_TEST_SUITE_P(
    Consumers, CapturedLog,
    ::testing::Values(
        // Intel CPU runtime: ORC JIT names every missing built-in; the first
        // is the signature's cause.
        LogCase{"intel_cpu_missing_builtins.log",
                "symbols not found: __spirv_SMulExtended"},
        // Its crashes: the pass that was running, not "0. Running pass".
        LogCase{"intel_cpu_crash_group_builtin.log",
                "pass sycl-kernel-group-builtin"},
        LogCase{"intel_cpu_crash_vplan.log", "pass vplan-vec"},
        // No rule: the first line that is no banner decides.
        LogCase{"intel_cpu_invalid_cast.log", ""},
        LogCase{"dpcpp_llvm_spirv_nsw_decoration.log", ""},
        // llvm-spirv 14: the first frame past LLVM's signal handler.
        LogCase{"llvm_spirv_14_crash_frames.log",
                "frame llvm::ConstantVector::getImpl"}),
    [](const auto& info) {
      std::string n = info.param.file;
      return n.substr(0, n.find('.'));
    });

// A captured explanation's first line is the adapter's message, the rest
// the consumer's log.
Execution Failed(ExecutionStatus status, const std::string& text) {
  Execution e;
  e.status = status;
  const size_t nl = text.find('\n');
  e.message = text.substr(0, nl);
  e.log = nl == std::string::npos ? "" : text.substr(nl + 1);
  return e;
}

Verdict JudgeLog(ExecutionStatus status, const std::string& log) {
  Execution ok;
  ok.status = ExecutionStatus::kOk;
  return Judge(spirv::TestCase{}, ok, "opencl:Intel", true,
               Failed(status, log));
}

TEST(LogSignature, DifferentCrashesOfOneConsumerAreDifferentFindings) {
  const Verdict a = JudgeLog(ExecutionStatus::kCrashed,
                             Log("intel_cpu_crash_group_builtin.log"));
  const Verdict b =
      JudgeLog(ExecutionStatus::kCrashed, Log("intel_cpu_crash_vplan.log"));
  EXPECT_NE(a.signature, b.signature);
  EXPECT_THAT(a.signature, HasSubstr("sycl-kernel-group-builtin"));
  EXPECT_THAT(b.signature, HasSubstr("vplan-vec"));
}

TEST(LogSignature, BannersAndCommandLinesAreNeverTheCause) {
  const Verdict v = JudgeLog(ExecutionStatus::kBuildFailed,
                             Log("intel_cpu_invalid_cast.log"));
  EXPECT_THAT(v.signature, Not(HasSubstr("compilation-started")));
  EXPECT_THAT(v.signature, HasSubstr("invalid-cast"));
  const Verdict c = JudgeLog(ExecutionStatus::kCrashed,
                             "Stack dump:\n0.\tProgram arguments: tool -r "
                             "m.spv\nSegmentation fault\n");
  EXPECT_THAT(c.signature, Not(HasSubstr("program-arguments")));
}

TEST(LogSignature, OneMissingSymbolIsOneCauseWhateverElseIsMissing) {
  const Verdict one = JudgeLog(
      ExecutionStatus::kBuildFailed,
      "JIT session error: Symbols not found: [ _Z19get_local_linear_idv ]");
  const Verdict two = JudgeLog(ExecutionStatus::kBuildFailed,
                               "JIT session error: Symbols not found: [ "
                               "_Z19get_local_linear_idv, _Z5zzzzzv ]");
  EXPECT_EQ(one.signature, two.signature);
  EXPECT_EQ(one.signature,
            "rejected-valid:opencl-intel:symbols-not-found-get_local_linear_id");
}

TEST(LogCause, AssertionsAndLlvmErrorsAreTheirText) {
  EXPECT_EQ(LogCause("x: SPIRVReader.cpp:12: void f(): Assertion `V && "
                     "\"bad\"' failed.\n"),
            "assertion: V && Q");
  EXPECT_EQ(LogCause("LLVM ERROR: Cannot select: 0x55 intrinsic %foo\n"),
            "llvm error: Cannot select: N intrinsic N");
}

TEST(LogCause, FramesOfTheCrashMachineryAreSkipped) {
  EXPECT_EQ(LogCause("#0  0x00007f in raise () from /lib/libc.so.6\n"
                     "#1  0x00007f in abort () from /lib/libc.so.6\n"
                     "#2  0x000055 in SPIRV::SPIRVModuleImpl::getEntry "
                     "(this=0x1) at m.cpp:3\n"),
            "frame SPIRV::SPIRVModuleImpl::getEntry");
  EXPECT_EQ(LogCause(" #0 0x0000 (/lib/libfoo.so+0x12)\n"), "");
}

TEST(LogCause, ItaniumNamesAreDemangledToTheirBaseName) {
  EXPECT_EQ(BaseSymbolName("_Z20get_global_linear_idv"),
            "get_global_linear_id");
  EXPECT_EQ(BaseSymbolName("__spirv_SMulExtended"), "__spirv_SMulExtended");
  EXPECT_EQ(BaseSymbolName("_Z99x"), "_Z99x");  // a length past the end
}

}  // namespace
}  // namespace l0spv::oracles
