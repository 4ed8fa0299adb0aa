// spirv/kernel_batch.h BatchFit and BatchKey on small hand-written kernels:
// which cases may share a batch (SPIR-V versions, llvm-spirv's one private
// cast pointee type per module) and which module properties key a batch
// for spirv-opt (extensions outside its allowlists, Unroll loops).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/kernel_batch.h"
#include "spirv/spirv_tools.h"

namespace l0spv::spirv {
namespace {

using ::testing::HasSubstr;

// A kernel named `name` whose body is `body` (after the entry label);
// `extensions` and `types` go to their sections.
TestCase Kernel(const std::string& name, const std::string& body,
                spv_target_env env = SPV_ENV_UNIVERSAL_1_2,
                const std::string& extensions = "",
                const std::string& capabilities = "") {
  const std::string text = absl::StrCat(
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n",
      capabilities, extensions,
      "OpMemoryModel Physical64 OpenCL\n"
      "OpEntryPoint Kernel %main \"",
      name, "\"\n",
      R"(%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%bool = OpTypeBool
%v2uint = OpTypeVector %uint 2
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_4 = OpConstant %uint 4
%arr = OpTypeArray %uint %uint_4
%ptr_fn_uint = OpTypePointer Function %uint
%ptr_fn_v2 = OpTypePointer Function %v2uint
%ptr_gen_uint = OpTypePointer Generic %uint
%ptr_gen_v2 = OpTypePointer Generic %v2uint
%ptr_wg_uint = OpTypePointer Workgroup %uint
%fn = OpTypeFunction %void
%counter = OpVariable %ptr_wg_uint Workgroup
%main = OpFunction %void None %fn
%entry = OpLabel
%x = OpVariable %ptr_fn_uint Function
%y = OpVariable %ptr_fn_v2 Function
)",
      body, "OpReturn\nOpFunctionEnd\n");
  auto words = Assemble(text, env);
  EXPECT_TRUE(words.ok()) << words.status() << "\n" << text;
  TestCase tc;
  tc.entry_point = name;
  if (words.ok()) tc.module_words = *words;
  return tc;
}

const char kWeakCas[] =
    "%old = OpAtomicCompareExchangeWeak %uint %counter %uint_2 %uint_0 "
    "%uint_0 %uint_1 %uint_0\n";
const char kCastU32[] =
    "%g = OpPtrCastToGeneric %ptr_gen_uint %x\n"
    "%p = OpGenericCastToPtrExplicit %ptr_fn_uint %g Function\n";
const char kCastV2[] =
    "%g2 = OpPtrCastToGeneric %ptr_gen_v2 %y\n"
    "%p2 = OpGenericCastToPtrExplicit %ptr_fn_v2 %g2 Function\n";
const char kGenericCaps[] = "OpCapability GenericPointer\n";

TEST(BatchFit, VersionsRunFromTheCaseToTheLastVersionOfItsInstructions) {
  const TestCase plain = Kernel("a", "");
  const TestCase weak = Kernel("b", kWeakCas);
  const TestCase newer = Kernel("c", "", SPV_ENV_UNIVERSAL_1_4);
  EXPECT_EQ(BatchFitOf(plain).needs, 0x10200u);
  EXPECT_EQ(BatchFitOf(plain).allows, ~0u);
  EXPECT_EQ(BatchFitOf(weak).allows, 0x10300u);  // ends at 1.3
  EXPECT_EQ(BatchFitOf(newer).needs, 0x10400u);
  EXPECT_TRUE(BatchFitOf(plain).Meets(BatchFitOf(weak)));
  EXPECT_TRUE(BatchFitOf(plain).Meets(BatchFitOf(newer)));
  EXPECT_FALSE(BatchFitOf(weak).Meets(BatchFitOf(newer)));
  // A batch of the first two still refuses the third.
  const BatchFit both = BatchFitOf(plain).With(BatchFitOf(weak));
  EXPECT_FALSE(both.Meets(BatchFitOf(newer)));
}

TEST(BatchFit, PrivateCastPointeeIsStructuralAndOnePerBatch) {
  const TestCase none = Kernel("a", "");
  const TestCase u32 =
      Kernel("b", kCastU32, SPV_ENV_UNIVERSAL_1_2, "", kGenericCaps);
  const TestCase u32_again =
      Kernel("c", kCastU32, SPV_ENV_UNIVERSAL_1_2, "", kGenericCaps);
  const TestCase v2 =
      Kernel("d", kCastV2, SPV_ENV_UNIVERSAL_1_2, "", kGenericCaps);
  EXPECT_EQ(BatchFitOf(none).private_cast_pointee, "");
  EXPECT_EQ(BatchFitOf(u32).private_cast_pointee, "i32");
  EXPECT_EQ(BatchFitOf(v2).private_cast_pointee, "v2i32");
  EXPECT_TRUE(BatchFitOf(u32).Meets(BatchFitOf(u32_again)));
  EXPECT_TRUE(BatchFitOf(u32).Meets(BatchFitOf(none)));
  EXPECT_FALSE(BatchFitOf(u32).Meets(BatchFitOf(v2)));
}

TEST(BatchFit, BatchKernelsRefusesCasesThatDoNotFit) {
  const std::vector<TestCase> versions = {
      Kernel("a", kWeakCas), Kernel("b", "", SPV_ENV_UNIVERSAL_1_4)};
  auto batch = BatchKernels(versions);
  ASSERT_FALSE(batch.ok());
  EXPECT_THAT(std::string(batch.status().message()),
              HasSubstr("case 1 of the batch does not fit with the cases "
                        "before it: it needs SPIR-V 1.4 to the newest; they "
                        "need 1.2 to 1.3"));
  const std::vector<TestCase> casts = {
      Kernel("a", kCastU32, SPV_ENV_UNIVERSAL_1_2, "", kGenericCaps),
      Kernel("b", kCastV2, SPV_ENV_UNIVERSAL_1_2, "", kGenericCaps)};
  batch = BatchKernels(casts);
  ASSERT_FALSE(batch.ok());
  EXPECT_THAT(std::string(batch.status().message()),
              HasSubstr("casts to private v2i32"));
  // What fits batches, and the batch validates.
  const std::vector<TestCase> fitting = {
      Kernel("a", kCastU32, SPV_ENV_UNIVERSAL_1_2, "", kGenericCaps),
      Kernel("b", kWeakCas),
      Kernel("c", kCastU32, SPV_ENV_UNIVERSAL_1_2, "", kGenericCaps)};
  batch = BatchKernels(fitting);
  ASSERT_TRUE(batch.ok()) << batch.status();
  EXPECT_TRUE(Validate(batch->front().module_words).ok());
}

TEST(BatchKey, ExtensionsOutsideSpirvOptAllowlistsShareAKey) {
  const std::string add = "OpExtension \"SPV_EXT_shader_atomic_float_add\"\n";
  const std::string subgroups = "OpExtension \"SPV_INTEL_subgroups\"\n";
  const std::string other = "OpExtension \"SPV_KHR_non_semantic_info\"\n";
  const TestCase a = Kernel("a", "", SPV_ENV_UNIVERSAL_1_2, add);
  const TestCase b = Kernel("b", "", SPV_ENV_UNIVERSAL_1_2, subgroups);
  const TestCase ab = Kernel("c", "", SPV_ENV_UNIVERSAL_1_2, add + subgroups);
  const TestCase none = Kernel("d", "");
  const TestCase listed = Kernel("e", "", SPV_ENV_UNIVERSAL_1_2, other);
  EXPECT_EQ(BatchKey(a), BatchKey(b));
  EXPECT_EQ(BatchKey(a), BatchKey(ab));
  EXPECT_NE(BatchKey(a), BatchKey(none));
  // An extension some pass allows keys by its own name.
  EXPECT_NE(BatchKey(listed), BatchKey(a));
  EXPECT_NE(BatchKey(listed), BatchKey(none));
}

// Measured: a kernel with an Unroll loop in the same module hid another
// kernel's spirv_opt_constant_branch_crash.
TEST(BatchKey, UnrollLoopsKeyApart) {
  const std::string loop = R"(OpBranch %hdr
%hdr = OpLabel
%i = OpPhi %uint %uint_0 %entry %next %latch
%lt = OpULessThan %bool %i %uint_4
OpLoopMerge %exit %latch CONTROL
OpBranchConditional %lt %latch %exit
%latch = OpLabel
%next = OpIAdd %uint %i %uint_1
OpBranch %hdr
%exit = OpLabel
)";
  const TestCase unroll =
      Kernel("a", absl::StrReplaceAll(loop, {{"CONTROL", "Unroll"}}));
  const TestCase dont =
      Kernel("b", absl::StrReplaceAll(loop, {{"CONTROL", "DontUnroll"}}));
  const TestCase none = Kernel("c", "");
  EXPECT_NE(BatchKey(unroll), BatchKey(none));
  EXPECT_EQ(BatchKey(dont), BatchKey(none));
}

}  // namespace
}  // namespace l0spv::spirv
