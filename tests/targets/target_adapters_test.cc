// Every target adapter on its real consumer (label: consumers): a corpus
// kernel runs on each executing target and must agree with `ref`
// (CompareExecutions), ocloc accepts a valid module and rejects or crashes
// on the IGC reproducers of corpora/known-consumer-bugs, Oclgrind reports an
// out-of-bounds store, and the translators' known crashes come back as
// findings naming them. A test skips, saying why, when its consumer is not
// installed.
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/compare/compare.h"
#include "oracles/targets/target.h"
#include "spirv/launch_spec.h"
#include "spirv/spirv_tools.h"
#include "tests/support/linkage_modules.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

// Integer-only, 128 work-items: cheap on every consumer, exact comparison.
constexpr char kCorpusKernel[] = "int_builtins";

spirv::TestCase CorpusCase(const std::string& name) {
  auto entries = spirv::ReadCorpusManifest(std::string(L0SPV_BINARY_DIR) +
                                           "/corpora/corpus_manifest.txt");
  EXPECT_TRUE(entries.ok()) << entries.status();
  if (entries.ok()) {
    for (const spirv::CorpusEntry& e : *entries) {
      if (e.name != name) continue;
      auto tc = spirv::LoadSidecarCase(e.spv_path, e.json_path);
      EXPECT_TRUE(tc.ok()) << tc.status();
      if (tc.ok()) return *tc;
    }
  }
  ADD_FAILURE() << "corpus kernel " << name << " not in the manifest";
  return {};
}

// A reproducer from corpora/known-consumer-bugs (built only on request), as
// a TestCase: the .spvasm assembled for its "; Version: 1.N" and the launch
// from its sidecar.
spirv::TestCase KnownBugCase(const std::string& name) {
  const std::string base =
      std::string(L0SPV_SOURCE_DIR) + "/corpora/known-consumer-bugs/" + name;
  std::ifstream in(base + ".spvasm");
  const std::string text((std::istreambuf_iterator<char>(in)),
                         std::istreambuf_iterator<char>());
  EXPECT_FALSE(text.empty()) << base;
  spv_target_env env = SPV_ENV_UNIVERSAL_1_2;
  if (const size_t at = text.find("; Version: 1."); at != std::string::npos) {
    const char minor = text[at + 13];
    if (minor == '0') env = SPV_ENV_UNIVERSAL_1_0;
    if (minor == '1') env = SPV_ENV_UNIVERSAL_1_1;
  }
  auto words = spirv::Assemble(text, env);
  EXPECT_TRUE(words.ok()) << words.status();
  std::ifstream sidecar(base + ".json");
  const auto json = nlohmann::json::parse(sidecar, nullptr, false);
  auto tc = spirv::TestCaseFromSidecar(
      json, words.ok() ? *words : std::vector<uint32_t>{}, base + ".json");
  EXPECT_TRUE(tc.ok()) << tc.status();
  return tc.ok() ? *tc : spirv::TestCase{};
}

TargetRunLimits Limits(std::chrono::milliseconds wall = 60s) {
  TargetRunLimits l;
  l.wall_time = wall;
  return l;
}

// The target, or a skip with the registry's reason when its consumer is
// missing; any other error fails the test.
#define MAKE_OR_SKIP(var, name, options)                                 \
  auto var##_or = MakeTarget(name, options);                             \
  if (!var##_or.ok() &&                                                  \
      var##_or.status().code() == absl::StatusCode::kFailedPrecondition) \
    GTEST_SKIP() << var##_or.status();                                   \
  ASSERT_TRUE(var##_or.ok()) << var##_or.status();                       \
  std::unique_ptr<Target> var = *std::move(var##_or)

// Runs the corpus kernel on `name` and on ref; they must agree.
void ExpectAgreesWithRef(Target& target) {
  const spirv::TestCase tc = CorpusCase(kCorpusKernel);
  auto ref = MakeTarget("ref");
  ASSERT_TRUE(ref.ok());
  const Execution expected = (*ref)->Run(tc, Limits());
  ASSERT_EQ(expected.status, ExecutionStatus::kOk) << expected.message;
  const Execution actual = target.Run(tc, Limits());
  ASSERT_EQ(actual.status, ExecutionStatus::kOk)
      << target.name() << ": " << actual.message << "\n"
      << actual.log;
  const CompareResult c =
      CompareExecutions(tc, expected, actual, CompareOptionsFor(tc));
  EXPECT_TRUE(c.equal) << target.name() << ": " << c.explanation;
}

class TargetAdaptersTest : public ::testing::Test {
 protected:
  TargetOptions options_;
};

TEST_F(TargetAdaptersTest, OpenClAgreesWithRef) {
  // Intel's ICD cannot even be enumerated under ASan (docs/CONSUMERS.md);
  // PoCL is the device this test means.
  const char* pocl = "/etc/OpenCL/vendors/pocl.icd";
  if (std::filesystem::exists(pocl)) setenv("OCL_ICD_VENDORS", pocl, 1);
  MAKE_OR_SKIP(target, "opencl", options_);
  EXPECT_TRUE(target->executes());
  ExpectAgreesWithRef(*target);
}

TEST_F(TargetAdaptersTest, OclgrindAgreesWithRef) {
  MAKE_OR_SKIP(target, "oclgrind", options_);
  ExpectAgreesWithRef(*target);
}

TEST_F(TargetAdaptersTest, SpirvOptAgreesWithRefWithTheDefaultAndAPassList) {
  MAKE_OR_SKIP(target, "spirv-opt", options_);
  EXPECT_EQ(target->name(), "spirv-opt");
  ExpectAgreesWithRef(*target);
  MAKE_OR_SKIP(listed, "spirv-opt:ccp,simplify-instructions loop-unroll",
               options_);
  ExpectAgreesWithRef(*listed);
}

TEST_F(TargetAdaptersTest, LlvmSpirvRoundTripAgreesWithRef) {
  MAKE_OR_SKIP(target, "llvm-spirv", options_);
  ExpectAgreesWithRef(*target);
}

TEST_F(TargetAdaptersTest, OclocAcceptsAValidModuleCompileOnly) {
  MAKE_OR_SKIP(target, "ocloc:tgllp", options_);
  EXPECT_FALSE(target->executes());
  const Execution e = target->Run(CorpusCase(kCorpusKernel), Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kOk) << e.message << "\n" << e.log;
  EXPECT_TRUE(e.buffers.empty());
}

TEST_F(TargetAdaptersTest, OclocRejectsAndCrashesOnKnownIgcBugs) {
  MAKE_OR_SKIP(target, "ocloc:tgllp", options_);
  // IGC's SPIR-V reader does not implement OpExecutionModeId.
  Execution e = target->Run(KnownBugCase("local_size_id_v12"), Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kBuildFailed) << e.message;
  EXPECT_EQ(e.message,
            "ocloc rejected the module: error: IGC SPIRV Consumer does not "
            "support the following opcode: 331");
  // OpSpecConstantOp makes ocloc abort.
  e = target->Run(KnownBugCase("spec_constant_op"), Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kCrashed) << e.message;
  EXPECT_THAT(e.message, HasSubstr("ocloc crashed: signal 6"));
}

TEST_F(TargetAdaptersTest, OclocPastATinyTimeLimitIsTimedOut) {
  MAKE_OR_SKIP(target, "ocloc:tgllp", options_);
  const Execution e = target->Run(CorpusCase(kCorpusKernel), Limits(5ms));
  EXPECT_EQ(e.status, ExecutionStatus::kTimedOut) << e.message;
  EXPECT_THAT(e.message, HasSubstr("ocloc timed out"));
}

TEST_F(TargetAdaptersTest, OclocUnknownDeviceIsNotFoundListingDevices) {
  auto t = MakeTarget("ocloc:no-such-gpu", options_);
  if (!t.ok() && t.status().code() == absl::StatusCode::kFailedPrecondition)
    GTEST_SKIP() << t.status();
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(t.status().message(), HasSubstr("tgllp"));
}

// out[g + 1] = 7 for g < 4, on a 4-element buffer: the last store is out of
// bounds.
constexpr char kStorePastTheEnd[] = R"(
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
%uint_7 = OpConstant %uint 7
%ulong_1 = OpConstant %ulong 1
%kfn = OpTypeFunction %void %ptr_g_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gv 0
%x1 = OpIAdd %ulong %x %ulong_1
%po = OpInBoundsPtrAccessChain %ptr_g_uint %out %x1
OpStore %po %uint_7 Aligned 4
OpReturn
OpFunctionEnd
)";

TEST_F(TargetAdaptersTest, OclgrindSurfacesAnOutOfBoundsStoreAsUb) {
  MAKE_OR_SKIP(target, "oclgrind", options_);
  spirv::TestCase tc;
  auto words = spirv::Assemble(kStorePastTheEnd);
  ASSERT_TRUE(words.ok()) << words.status();
  tc.module_words = *words;
  tc.entry_point = "k";
  tc.nd_range.global[0] = 4;
  spirv::KernelArg out;
  out.bytes.assign(16, 0);
  out.is_result = true;
  tc.args.push_back(out);
  // Twice on the same target: the second batch comes from the warm worker
  // (OpenClWarmWorker) and must still read its own Oclgrind log.
  const Execution first = target->Run(tc, Limits());
  EXPECT_EQ(first.status, ExecutionStatus::kUbDetected) << first.message;
  const Execution e = target->Run(tc, Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kUbDetected) << e.message << e.log;
  EXPECT_THAT(e.message, HasSubstr("Oclgrind reported 1 error(s): Invalid "
                                   "write of size 4 at global memory "
                                   "address 0x?"));
  EXPECT_THAT(e.message, HasSubstr("Global(3,0,0)"));
  EXPECT_THAT(e.log, HasSubstr("[oclgrind]"));
  // The reference finds the same undefined behaviour: no finding.
  auto ref = MakeTarget("ref");
  ASSERT_TRUE(ref.ok());
  EXPECT_TRUE(CompareExecutions(tc, (*ref)->Run(tc, Limits()), e, {}).equal);
}

// printf("%s %e\n", "f:", -512.0f) with the float passed as a 32-bit float:
// right on a device without doubles, outside the contract of one with
// doubles (SPIR 1.2 2.10.3: a float argument is a double there), where
// PoCL 3.1 prints 0. The OpenCL targets refuse it as unsupported.
constexpr char kPrintfFloat[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int8
%std = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uchar = OpTypeInt 8 0
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%uint_0 = OpConstant %uint 0
%uint_4 = OpConstant %uint 4
%arr = OpTypeArray %uchar %uint_4
%ptr_arr = OpTypePointer UniformConstant %arr
%ptr_uchar = OpTypePointer UniformConstant %uchar
%c_pct = OpConstant %uchar 37
%c_e = OpConstant %uchar 101
%c_nl = OpConstant %uchar 10
%c_0 = OpConstant %uchar 0
%fmt = OpConstantComposite %arr %c_pct %c_e %c_nl %c_0
%fmtv = OpVariable %ptr_arr UniformConstant %fmt
%m512 = OpConstant %float -512
%fnty = OpTypeFunction %void
%k = OpFunction %void None %fnty
%entry = OpLabel
%fp = OpAccessChain %ptr_uchar %fmtv %uint_0
%r = OpExtInst %uint %std printf %fp %m512
OpReturn
OpFunctionEnd
)";

TEST_F(TargetAdaptersTest, PrintfOfAFloatOnADeviceWithDoublesIsUnsupported) {
  spirv::TestCase tc;
  auto words = spirv::Assemble(kPrintfFloat);
  ASSERT_TRUE(words.ok()) << words.status();
  tc.module_words = *words;
  tc.entry_point = "k";
  tc.nd_range.global[0] = 1;
  auto ref = MakeTarget("ref");
  ASSERT_TRUE(ref.ok());
  const Execution r = (*ref)->Run(tc, Limits());
  ASSERT_EQ(r.status, ExecutionStatus::kOk) << r.message;
  EXPECT_EQ(r.printf_output, "-5.120000e+02\n");
  for (const char* name : {"opencl", "oclgrind"}) {
    SCOPED_TRACE(name);
    auto target = MakeTarget(name, options_);
    if (!target.ok()) continue;  // not installed here
    const Execution e = (*target)->Run(tc, Limits());
    EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << e.message;
    EXPECT_THAT(e.message, HasSubstr("passes a 32-bit float to printf"));
  }
}

TEST_F(TargetAdaptersTest, OclgrindGivingUpIsCrashedNotUb) {
  MAKE_OR_SKIP(target, "oclgrind", options_);
  // Oclgrind 21.10 does not implement addrspacecast (generic pointers).
  const Execution e = target->Run(CorpusCase("atomics_c11"), Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kCrashed) << e.message;
  EXPECT_THAT(e.message, HasSubstr("Oclgrind internal error: OCLGRIND FATAL "
                                   "ERROR"));
  EXPECT_THAT(e.message, HasSubstr("Unsupported instruction: addrspacecast"));
}

TEST_F(TargetAdaptersTest, SpirvOptBogusPassIsAClearError) {
  auto t = MakeTarget("spirv-opt:ccp,no-such-pass", options_);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(),
              HasSubstr("spirv-opt: unknown pass flag '--no-such-pass'"));
}

TEST_F(TargetAdaptersTest, LlvmSpirvCrashIsAFindingNamingTheTranslator) {
  // A vector OpCompositeConstruct of run-time values: llvm-spirv 14's reader
  // segfaults (corpora/known-consumer-bugs/composite_construct_runtime;
  // DPC++'s 2024.2 reads it).
  MAKE_OR_SKIP(target, "llvm-spirv@14", options_);
  const Execution e =
      target->Run(KnownBugCase("composite_construct_runtime"), Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kCrashed) << e.message;
  EXPECT_THAT(e.message, HasSubstr(" -r crashed: signal"));
  EXPECT_THAT(e.message, HasSubstr("llvm-spirv"));
}

TEST_F(TargetAdaptersTest, AnInvalidModuleIsRejectedLikeRefDoes) {
  MAKE_OR_SKIP(target, "spirv-opt", options_);
  spirv::TestCase tc = CorpusCase(kCorpusKernel);
  tc.module_words.resize(tc.module_words.size() - 3);  // cut the last words
  const Execution e = target->Run(tc, Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kBuildFailed) << e.message;
  EXPECT_THAT(e.message, HasSubstr("the module fails validation"));
}

}  // namespace
}  // namespace l0spv::oracles

namespace l0spv::oracles {
namespace {

// A kernel module importing add1 and a module exporting it.
constexpr char kExporter[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpMemoryModel Physical64 OpenCL
OpDecorate %f LinkageAttributes "add1" Export
%uint = OpTypeInt 32 0
%seven = OpConstant %uint 7
%ufn = OpTypeFunction %uint %uint
%f = OpFunction %uint None %ufn
%x = OpFunctionParameter %uint
%b = OpLabel
%y = OpIAdd %uint %x %seven
OpReturnValue %y
OpFunctionEnd
)";

spirv::TestCase LinkedCase(const std::string& exporter = kExporter) {
  spirv::TestCase tc;
  auto importer = spirv::Assemble(test_support::ImportsAdd1());
  auto exported = spirv::Assemble(exporter);
  EXPECT_TRUE(importer.ok() && exported.ok());
  if (importer.ok()) tc.module_words = *importer;
  if (exported.ok()) tc.linked_modules.push_back(*exported);
  test_support::SetKernelKLaunch(tc);
  return tc;
}

TEST_F(TargetAdaptersTest, RefLinksTheModulesOfACase) {
  auto ref = MakeTarget("ref");
  ASSERT_TRUE(ref.ok());
  const Execution e = (*ref)->Run(LinkedCase(), Limits());
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  ASSERT_EQ(e.buffers.size(), 1u);
  const std::vector<uint8_t> expected = {7, 0, 0, 0, 8,  0, 0, 0,
                                         9, 0, 0, 0, 10, 0, 0, 0};
  EXPECT_EQ(e.buffers[0], expected);
  // A module that exports another name leaves the import unresolved.
  std::string other = kExporter;
  other.replace(other.find("\"add1\""), 6, "\"add2\"");
  const Execution unresolved = (*ref)->Run(LinkedCase(other), Limits());
  EXPECT_EQ(unresolved.status, ExecutionStatus::kBuildFailed);
  EXPECT_THAT(unresolved.message,
              HasSubstr("module.spv imports 'add1', which no module exports"));
}

TEST_F(TargetAdaptersTest, SpirvLinkAgreesWithRefOnOneModule) {
  MAKE_OR_SKIP(target, "spirv-link", options_);
  ExpectAgreesWithRef(*target);
}

// Every target takes a case of several modules: the linkers link it
// (spirv-link, ocloc link, clLinkProgram on Oclgrind), the one-module
// consumers (spirv-opt, llvm-spirv) run on each module and ref links what
// they made; the executing ones compute what ref computes.
class SeveralModulesTest : public ::testing::TestWithParam<const char*> {};

TEST_P(SeveralModulesTest, TheTargetRunsTheCaseLikeRef) {
  TargetOptions options;
  MAKE_OR_SKIP(target, GetParam(), options);
  const spirv::TestCase tc = LinkedCase();
  auto ref = MakeTarget("ref");
  ASSERT_TRUE(ref.ok());
  const Execution expected = (*ref)->Run(tc, Limits());
  const Execution actual = target->Run(tc, Limits());
  ASSERT_EQ(actual.status, ExecutionStatus::kOk) << actual.message << "\n"
                                                 << actual.log;
  if (target->executes()) {
    EXPECT_EQ(actual.buffers, expected.buffers);
  }
}

INSTANTIATE_TEST_SUITE_P(LinkingConsumers, SeveralModulesTest,
                         ::testing::Values("spirv-link", "spirv-opt",
                                           "llvm-spirv", "oclgrind",
                                           "ocloc:tgllp"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::erase_if(name, [](char c) {
                             return !std::isalnum(
                                 static_cast<unsigned char>(c));
                           });
                           return name;
                         });

// PoCL 3.1 makes linker inputs only from OpenCL C source: its
// clLinkProgram refuses SPIR binaries, which is a limitation, said as such.
TEST_F(TargetAdaptersTest, PoclSaysWhyItDoesNotLinkSpirBinaries) {
  const char* pocl = "/etc/OpenCL/vendors/pocl.icd";
  if (!std::filesystem::exists(pocl)) GTEST_SKIP() << "no PoCL ICD";
  setenv("OCL_ICD_VENDORS", pocl, 1);
  MAKE_OR_SKIP(target, "opencl", options_);
  const Execution e = target->Run(LinkedCase(), Limits());
  EXPECT_EQ(e.status, ExecutionStatus::kUnsupported) << e.message;
  EXPECT_THAT(e.message,
              HasSubstr("the platform does not link SPIR binaries: "
                        "clLinkProgram returned CL_INVALID_OPERATION"));
}

// A module that fails to translate is named in the one-module consumers'
// messages, so a finding on a library module says which module.
TEST_F(TargetAdaptersTest, SpirvOptNamesTheModuleItRejects) {
  MAKE_OR_SKIP(target, "spirv-opt", options_);
  spirv::TestCase tc = LinkedCase();
  tc.linked_modules[0].resize(3);  // a truncated header
  const Execution e = target->Run(tc, Limits());
  EXPECT_NE(e.status, ExecutionStatus::kOk);
  EXPECT_THAT(e.message, HasSubstr("module-1.spv"));
}

}  // namespace
}  // namespace l0spv::oracles

namespace l0spv::oracles {
namespace {

// A module importing what it defines itself (here a LinkOnceODR definition)
// is linked by ref as zeModuleCreate would; the call reaches the body.
TEST_F(TargetAdaptersTest, RefLinksAModuleThatImportsWhatItDefines) {
  std::string text = test_support::ImportsAdd1();
  text.replace(text.find("OpCapability Int64"), 18,
               "OpCapability Int64\nOpExtension \"SPV_KHR_linkonce_odr\"");
  text.replace(text.find("%void = OpTypeVoid"), 18,
               "OpDecorate %def LinkageAttributes \"add1\" LinkOnceODR\n"
               "%void = OpTypeVoid");
  text.replace(text.find("%k = OpFunction"), 15,
               "%def = OpFunction %uint None %ufn\n%dx = OpFunctionParameter "
               "%uint\n%db = OpLabel\nOpReturnValue %dx\nOpFunctionEnd\n"
               "%k = OpFunction");
  spirv::TestCase tc = LinkedCase();
  auto words = spirv::Assemble(text);
  ASSERT_TRUE(words.ok()) << words.status();
  tc.module_words = *words;
  tc.linked_modules.clear();
  auto ref = MakeTarget("ref");
  ASSERT_TRUE(ref.ok());
  const Execution e = (*ref)->Run(tc, Limits());
  ASSERT_EQ(e.status, ExecutionStatus::kOk) << e.message;
  const std::vector<uint8_t> expected = {0, 0, 0, 0, 1, 0, 0, 0,
                                         2, 0, 0, 0, 3, 0, 0, 0};
  EXPECT_EQ(e.buffers[0], expected);
}

}  // namespace
}  // namespace l0spv::oracles
