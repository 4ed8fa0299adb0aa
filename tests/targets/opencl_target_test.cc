// Tests of the opencl[:PLATFORM] target (oracles/targets/opencl_target.h) on
// whatever OpenCL platform this machine has (PoCL in CI). Every test skips
// when there is none.
#include "oracles/targets/opencl_target.h"

#include <cstring>
#include <filesystem>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/targets/consumer_probe.h"
#include "oracles/targets/spir_translate.h"
#include "spirv/launch_spec.h"
#include "spirv/spirv_tools.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

bool HaveOpenClDevice() {
  static const bool have = [] {
    for (const OpenClPlatform& p : ProbeOpenCl().platforms)
      if (!p.devices.empty()) return true;
    return false;
  }();
  return have;
}

#define SKIP_WITHOUT_OPENCL()                                 \
  if (!HaveOpenClDevice())                                    \
  GTEST_SKIP() << "no OpenCL platform with a device on this " \
                  "machine (install pocl-opencl-icd)"

constexpr char kPrelude[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%ptr_in = OpTypePointer Input %v3ulong
%gid = OpVariable %ptr_in Input
%ptr_g_uint = OpTypePointer CrossWorkgroup %uint
%uint_1 = OpConstant %uint 1
%uint_3 = OpConstant %uint 3
%ulong_16 = OpConstant %ulong 16
)";

// out[g] = in[g] * 3 + s
constexpr char kScaleAdd[] = R"(
%kfn = OpTypeFunction %void %ptr_g_uint %ptr_g_uint %uint
%k = OpFunction %void None %kfn
%in = OpFunctionParameter %ptr_g_uint
%out = OpFunctionParameter %ptr_g_uint
%s = OpFunctionParameter %uint
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gv 0
%pi = OpInBoundsPtrAccessChain %ptr_g_uint %in %x
%v = OpLoad %uint %pi Aligned 4
%m = OpIMul %uint %v %uint_3
%r = OpIAdd %uint %m %s
%po = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %po %r Aligned 4
OpReturn
OpFunctionEnd
)";

// Stores through a pointer made from the integer 16: crashes a CPU device.
constexpr char kWildStore[] = R"(
%kfn = OpTypeFunction %void %ptr_g_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%p = OpConvertUToPtr %ptr_g_uint %ulong_16
OpStore %p %uint_1 Aligned 4
OpReturn
OpFunctionEnd
)";

// Loops forever, storing each iteration.
constexpr char kForever[] = R"(
%kfn = OpTypeFunction %void %ptr_g_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
OpBranch %loop
%loop = OpLabel
%i = OpPhi %uint %uint_1 %entry %i2 %loop
OpStore %out %i Volatile
%i2 = OpIAdd %uint %i %uint_1
OpBranch %loop
OpFunctionEnd
)";

// Calls a function that is imported and never defined: the module is valid
// SPIR-V but cannot be linked into an executable program.
constexpr char kUnresolvedImport[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpDecorate %ext LinkageAttributes "l0spv_not_defined_anywhere" Import
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ptr_g_uint = OpTypePointer CrossWorkgroup %uint
%extfn = OpTypeFunction %uint %uint
%kfn = OpTypeFunction %void %ptr_g_uint
%uint_1 = OpConstant %uint 1
%ext = OpFunction %uint None %extfn
%a = OpFunctionParameter %uint
OpFunctionEnd
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%r = OpFunctionCall %uint %ext %uint_1
OpStore %out %r Aligned 4
OpReturn
OpFunctionEnd
)";

std::vector<uint32_t> AssembleOrDie(const std::string& text) {
  auto words = spirv::Assemble(text);
  EXPECT_TRUE(words.ok()) << words.status();
  return words.ok() ? *words : std::vector<uint32_t>{};
}

spirv::KernelArg Buffer(std::vector<uint32_t> values, bool result) {
  spirv::KernelArg a;
  a.kind = spirv::KernelArg::Kind::kBuffer;
  a.bytes.resize(values.size() * 4);
  std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  a.is_result = result;
  return a;
}

spirv::KernelArg U32(uint32_t v) {
  spirv::KernelArg a;
  a.kind = spirv::KernelArg::Kind::kScalar;
  a.bytes.resize(4);
  std::memcpy(a.bytes.data(), &v, 4);
  return a;
}

spirv::TestCase Case(const char* body, std::vector<spirv::KernelArg> args,
                     uint64_t global, std::optional<uint64_t> local) {
  spirv::TestCase tc;
  tc.module_words = AssembleOrDie(std::string(kPrelude) + body);
  tc.entry_point = "k";
  tc.nd_range.global[0] = global;
  if (local) tc.nd_range.local = std::array<uint64_t, 3>{*local, 1, 1};
  tc.args = std::move(args);
  return tc;
}

OpenClTargetOptions Quick() {
  OpenClTargetOptions o;
  o.time_limit = 60s;
  return o;
}

TEST(OpenClTarget, RunsAKernelAndReadsBackEveryBuffer) {
  SKIP_WITHOUT_OPENCL();
  std::vector<uint32_t> in(64);
  for (uint32_t i = 0; i < 64; ++i) in[i] = i * 1000;
  const spirv::TestCase tc =
      Case(kScaleAdd,
           {Buffer(in, false), Buffer(std::vector<uint32_t>(64), true), U32(7)},
           64, 16);
  auto e = RunOnOpenCl(tc, Quick());
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->status, ExecutionStatus::kOk) << e->message << "\n" << e->log;
  ASSERT_EQ(e->buffers.size(), 3u);
  EXPECT_EQ(e->buffers[0], tc.args[0].bytes);  // input read back unchanged
  EXPECT_TRUE(e->buffers[2].empty());          // scalar: no buffer
  ASSERT_EQ(e->buffers[1].size(), 256u);
  for (uint32_t i = 0; i < 64; ++i) {
    uint32_t v;
    std::memcpy(&v, &e->buffers[1][i * 4], 4);
    EXPECT_EQ(v, i * 3000 + 7) << "element " << i;
  }
  EXPECT_TRUE(e->printf_output.empty());
}

TEST(OpenClTarget, RuntimeChosenLocalSizeWhenAbsent) {
  SKIP_WITHOUT_OPENCL();
  const spirv::TestCase tc =
      Case(kScaleAdd,
           {Buffer(std::vector<uint32_t>(100, 2), false),
            Buffer(std::vector<uint32_t>(100), true), U32(1)},
           100, std::nullopt);
  auto e = RunOnOpenCl(tc, Quick());
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->status, ExecutionStatus::kOk) << e->message;
  uint32_t last;
  std::memcpy(&last, &e->buffers[1][99 * 4], 4);
  EXPECT_EQ(last, 7u);
}

TEST(OpenClTarget, UnknownPlatformIsNotFoundListingThePlatforms) {
  SKIP_WITHOUT_OPENCL();
  OpenClTargetOptions o = Quick();
  o.platform = "no-such-platform-l0spv";
  const spirv::TestCase tc =
      Case(kScaleAdd, {Buffer({1}, false), Buffer({0}, true), U32(0)}, 1,
           std::nullopt);
  auto e = RunOnOpenCl(tc, o);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(e.status().message(), HasSubstr("no-such-platform-l0spv"));
  EXPECT_THAT(e.status().message(), HasSubstr("platforms: \""));
}

TEST(OpenClTarget, ModuleTheTranslatorRejectsIsBuildFailed) {
  SKIP_WITHOUT_OPENCL();
  spirv::TestCase tc;
  tc.module_words = {0xdeadbeef, 0x00010200, 0, 5, 0};  // wrong magic
  tc.entry_point = "k";
  auto e = RunOnOpenCl(tc, Quick());
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->status, ExecutionStatus::kBuildFailed) << e->message;
  EXPECT_THAT(e->message, HasSubstr("llvm-spirv"));
  EXPECT_THAT(e->message, HasSubstr("invalid magic number"));
}

TEST(OpenClTarget, TranslatorCrashIsCrashedNamingTheTranslator) {
  SKIP_WITHOUT_OPENCL();
  spirv::TestCase tc;
  // Valid header, then an opcode llvm-spirv 14 does not implement: its
  // reader asserts.
  tc.module_words = {0x07230203, 0x00010200, 0, 5, 0, 0xdeadbeef};
  tc.entry_point = "k";
  auto e = RunOnOpenCl(tc, Quick());
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->status, ExecutionStatus::kCrashed) << e->message;
  EXPECT_THAT(e->message, HasSubstr("llvm-spirv"));
  EXPECT_THAT(e->message, HasSubstr("signal"));
}

TEST(OpenClTarget, UnlinkableModuleIsBuildFailedWithTheBuildLog) {
  SKIP_WITHOUT_OPENCL();
  spirv::TestCase tc;
  tc.module_words = AssembleOrDie(kUnresolvedImport);
  tc.entry_point = "k";
  tc.args = {Buffer({0}, true)};
  auto e = RunOnOpenCl(tc, Quick());
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->status, ExecutionStatus::kBuildFailed) << e->message;
  EXPECT_THAT(e->message, HasSubstr("clBuildProgram"));
  EXPECT_FALSE(e->log.empty());
}

TEST(OpenClTarget, MissingEntryPointAndWrongArgumentCountAreBuildFailed) {
  SKIP_WITHOUT_OPENCL();
  spirv::TestCase tc =
      Case(kScaleAdd, {Buffer({1}, false), Buffer({0}, true), U32(0)}, 1, 1);
  tc.entry_point = "not_there";
  auto e = RunOnOpenCl(tc, Quick());
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->status, ExecutionStatus::kBuildFailed);
  EXPECT_THAT(e->message, HasSubstr("not_there"));

  tc.entry_point = "k";
  tc.args.pop_back();
  e = RunOnOpenCl(tc, Quick());
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->status, ExecutionStatus::kBuildFailed);
  EXPECT_THAT(e->message, HasSubstr("takes 3 arguments, the test case has 2"));
}

TEST(OpenClTarget, AKernelThatCrashesTheWorkerIsCrashed) {
  SKIP_WITHOUT_OPENCL();
  const spirv::TestCase tc = Case(kWildStore, {Buffer({0}, true)}, 1, 1);
  auto e = RunOnOpenCl(tc, Quick());
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->status, ExecutionStatus::kCrashed) << e->message;
  EXPECT_THAT(e->message, HasSubstr("signal"));
}

TEST(OpenClTarget, AKernelThatNeverEndsIsTimedOut) {
  SKIP_WITHOUT_OPENCL();
  OpenClTargetOptions o = Quick();
  o.time_limit = 8s;
  const spirv::TestCase tc = Case(kForever, {Buffer({0}, true)}, 1, 1);
  const auto start = std::chrono::steady_clock::now();
  auto e = RunOnOpenCl(tc, o);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->status, ExecutionStatus::kTimedOut) << e->message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 30s);
}

TEST(OpenClTarget, CapturesPrintfSeparatelyFromTheResult) {
  SKIP_WITHOUT_OPENCL();
  const std::string dir = std::string(L0SPV_BINARY_DIR) + "/corpora";
  const std::string spv = dir + "/conformance_int.spv";
  if (!std::filesystem::exists(spv))
    GTEST_SKIP() << spv << " not built (build target l0spv_corpus)";
  auto tc =
      spirv::LoadSidecarCase(spv, std::string(L0SPV_SOURCE_DIR) +
                                      "/corpora/opencl/conformance_int.json");
  ASSERT_TRUE(tc.ok()) << tc.status();
  auto e = RunOnOpenCl(*tc, Quick());
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->status, ExecutionStatus::kOk) << e->message;
  EXPECT_THAT(e->printf_output, HasSubstr("PASS conformance_int\n"));
  EXPECT_THAT(e->printf_output, ::testing::Not(HasSubstr("l0spv-opencl")));
}

// printf_formats passes 32-bit floats to printf (the corpus is compiled for
// devices without fp64): on a device with doubles that is outside the
// contract (SPIR 1.2 2.10.3), and the worker says so instead of running it.
TEST(OpenClTarget, PrintfOfFloatsOnADeviceWithDoublesIsUnsupported) {
  SKIP_WITHOUT_OPENCL();
  const std::string spv =
      std::string(L0SPV_BINARY_DIR) + "/corpora/printf_formats.spv";
  if (!std::filesystem::exists(spv))
    GTEST_SKIP() << spv << " not built (build target l0spv_corpus)";
  auto tc =
      spirv::LoadSidecarCase(spv, std::string(L0SPV_SOURCE_DIR) +
                                      "/corpora/opencl/printf_formats.json");
  ASSERT_TRUE(tc.ok()) << tc.status();
  auto e = RunOnOpenCl(*tc, Quick());
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->status, ExecutionStatus::kUnsupported) << e->message;
  EXPECT_THAT(e->message, HasSubstr("passes a 32-bit float to printf"));
  // Decided from the launch alone: a batch runner does not re-run it.
  EXPECT_TRUE(e->launch_own);
}

TEST(SpirTranslate, TranslatesAValidModuleToBitcode) {
  if (!FindProgram("llvm-spirv-14") && !FindProgram("llvm-spirv"))
    GTEST_SKIP() << "llvm-spirv not installed";
  auto r =
      TranslateToSpir(AssembleOrDie(std::string(kPrelude) + kScaleAdd), {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->status, ExecutionStatus::kOk) << r->message;
  ASSERT_GE(r->bitcode.size(), 4u);
  EXPECT_EQ(r->bitcode[0], 'B');  // LLVM bitcode magic "BC\xC0\xDE"
  EXPECT_EQ(r->bitcode[1], 'C');
}

TEST(SpirTranslate, MissingTranslatorIsAnErrorStatus) {
  SpirTranslateOptions o;
  o.translator = "/nonexistent/llvm-spirv";
  auto r = TranslateToSpir({0x07230203}, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("/nonexistent/llvm-spirv"));
}

}  // namespace
}  // namespace l0spv::oracles
