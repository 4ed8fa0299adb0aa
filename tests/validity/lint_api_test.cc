// LintBinary / LintModule / CheckLevelZeroRules behaviour and report shape.
#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"
#include "spirv/grammar.h"
#include "tests/validity/test_modules.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;

constexpr char kCleanKernel[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "main"
       %uint = OpTypeInt 32 0
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
       %void = OpTypeVoid
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint
       %main = OpFunction %void None %fn
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";

// A signed int (instruction 6: three capabilities, the memory model, the
// entry point and the OpName come first) and an image without access
// qualifier (instruction 8). The OpName is not valid UTF-8. spirv-val rejects
// the signed int as well.
constexpr char kTwoProblems[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability ImageBasic
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "main"
               OpName %int "bad)"
                                "\x01"
                                R"(name"
        %int = OpTypeInt 32 1
       %void = OpTypeVoid
      %image = OpTypeImage %void 2D 0 0 0 0 Unknown
         %fn = OpTypeFunction %void %int
       %main = OpFunction %void None %fn
          %x = OpFunctionParameter %int
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";

DeviceProfile Profile(const std::string& name) {
  auto p = FindDeviceProfile(name);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : DeviceProfile{};
}

spirv::Module Assemble(const char* text, uint32_t minor = 2) {
  auto module = validity_testing::AssembleText(text, minor);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *module : spirv::Module{};
}

TEST(LintBinaryTest, CleanKernelIsOk) {
  auto report =
      LintBinary(spirv::WriteModule(Assemble(kCleanKernel)), Profile("full"));
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << report->ToText();
  EXPECT_TRUE(report->spirv_val_error.empty());
  EXPECT_EQ(report->profile, "full");
}

TEST(LintBinaryTest, BigEndianModulesLintToo) {
  auto report = LintBinary(
      spirv::WriteModule(Assemble(kCleanKernel), spirv::Endianness::kBig),
      Profile("full"));
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << report->ToText();
}

TEST(LintBinaryTest, GarbageAndTruncationAreErrorsNotCrashes) {
  const DeviceProfile full = Profile("full");
  const std::vector<uint8_t> valid = spirv::WriteModule(Assemble(kCleanKernel));
  std::vector<std::vector<uint8_t>> inputs = {{},
                                              {0x03},
                                              {0x03, 0x02, 0x23},
                                              {0xde, 0xad, 0xbe, 0xef},
                                              std::vector<uint8_t>(64, 0xff),
                                              std::vector<uint8_t>(20, 0)};
  // Every truncation that keeps the header but cuts an instruction.
  for (size_t n = 0; n < valid.size(); n += 4) {
    inputs.emplace_back(valid.begin(), valid.begin() + n);
  }
  // An odd length.
  inputs.emplace_back(valid.begin(), valid.end() - 1);
  for (const auto& bytes : inputs) {
    auto report = LintBinary(bytes, full);
    if (!report.ok()) {
      EXPECT_EQ(report.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_FALSE(report.status().message().empty());
    }
  }
  EXPECT_FALSE(LintBinary({}, full).ok());
  EXPECT_FALSE(LintBinary(std::vector<uint8_t>(64, 0xff), full).ok());
  EXPECT_FALSE(
      LintBinary(std::vector<uint8_t>(valid.begin(), valid.end() - 8), full)
          .ok());
}

TEST(LintModuleTest, FindingsNameRuleInstructionAndPosition) {
  const spirv::Module module = Assemble(kTwoProblems);
  const LintReport report = LintModule(module, Profile("full"));
  ASSERT_EQ(report.findings.size(), 2u) << report.ToText();
  EXPECT_FALSE(report.ok());
  EXPECT_THAT(report.spirv_val_error, HasSubstr("Signedness"));

  const LintFinding& signedness = report.findings[0];
  EXPECT_EQ(signedness.rule_id, "L0-INT-SIGNEDNESS");
  EXPECT_EQ(signedness.opcode, static_cast<uint32_t>(spv::Op::OpTypeInt));
  EXPECT_NE(signedness.result_id, 0u);
  EXPECT_EQ(signedness.instruction_index, 6u);
  EXPECT_THAT(signedness.message, HasSubstr("OpTypeInt %"));
  EXPECT_THAT(signedness.message, HasSubstr("Signedness 1"));
  // The non-printable byte of the OpName is escaped.
  EXPECT_THAT(signedness.message, HasSubstr("bad\\x01name"));

  const LintFinding& access = report.findings[1];
  EXPECT_EQ(access.rule_id, "L0-IMAGE-ACCESS-QUALIFIER");
  EXPECT_EQ(access.instruction_index, 8u);
  EXPECT_EQ(access.opcode, static_cast<uint32_t>(spv::Op::OpTypeImage));
}

TEST(LintModuleTest, ModuleLevelFindingsComeFirst) {
  spirv::Module module = Assemble(kTwoProblems, 4);
  const std::vector<LintFinding> findings =
      CheckLevelZeroRules(module, Profile("baseline"));
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].rule_id, "L0-SPIRV-VERSION");
  EXPECT_EQ(findings[0].instruction_index, kModuleLevel);
  EXPECT_EQ(findings[0].opcode, 0u);
  EXPECT_THAT(findings[0].message, HasSubstr("1.4"));
  for (size_t i = 1; i < findings.size(); ++i) {
    EXPECT_LE(findings[i - 1].instruction_index == kModuleLevel
                  ? 0
                  : findings[i - 1].instruction_index,
              findings[i].instruction_index);
  }
}

TEST(LintModuleTest, IsDeterministic) {
  const spirv::Module module = Assemble(kTwoProblems);
  const DeviceProfile baseline = Profile("baseline");
  EXPECT_EQ(CheckLevelZeroRules(module, baseline),
            CheckLevelZeroRules(module, baseline));
}

TEST(LintModuleTest, SpirvValFailureIsReportedAndRulesStillRun) {
  // No OpMemoryModel: spirv-val fails, the memory-model rule still reports.
  constexpr char kNoMemoryModel[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpEntryPoint Kernel %main "main"
        %int = OpTypeInt 32 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  const LintReport report =
      LintModule(Assemble(kNoMemoryModel), Profile("full"));
  EXPECT_FALSE(report.spirv_val_error.empty());
  std::vector<std::string> rules;
  for (const LintFinding& f : report.findings) rules.push_back(f.rule_id);
  EXPECT_THAT(rules, ::testing::UnorderedElementsAre("L0-MEMORY-MODEL",
                                                     "L0-INT-SIGNEDNESS"));
}

// SPIRV-Tools' OpenCL 2.2 environment (used for SPIR-V <= 1.2) rejects
// Int64Atomics; Level Zero devices with int64 atomics take it, so the lint
// must not report a spirv-val failure for it.
TEST(LintModuleTest, Int64AtomicsPassesSpirvValAtSpirv12) {
  constexpr char kInt64Atomics[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int64Atomics
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "main"
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %ulong_1 = OpConstant %ulong 1
%_ptr_CrossWorkgroup_ulong = OpTypePointer CrossWorkgroup %ulong
       %void = OpTypeVoid
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_ulong
       %main = OpFunction %void None %fn
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_ulong
      %entry = OpLabel
          %a = OpAtomicIAdd %ulong %p %uint_1 %uint_0 %ulong_1
               OpReturn
               OpFunctionEnd
)";
  const spirv::Module module = Assemble(kInt64Atomics);
  const LintReport full = LintModule(module, Profile("full"));
  EXPECT_TRUE(full.ok()) << full.ToText();
  const LintReport baseline = LintModule(module, Profile("baseline"));
  EXPECT_TRUE(baseline.spirv_val_error.empty()) << baseline.spirv_val_error;
  EXPECT_FALSE(baseline.findings.empty());
}

TEST(LintReportTest, TextAndJson) {
  const LintReport report = LintModule(Assemble(kTwoProblems), Profile("full"));
  const std::string text = report.ToText();
  EXPECT_THAT(text, HasSubstr("spirv-val: failed: "));
  EXPECT_THAT(text, HasSubstr("L0-INT-SIGNEDNESS: [instruction 6]"));
  EXPECT_THAT(text,
              HasSubstr("2 Level Zero findings (profile 'full'); NOT OK"));

  const nlohmann::json j = report.ToJson();
  EXPECT_EQ(j["ok"], false);
  EXPECT_EQ(j["profile"], "full");
  EXPECT_EQ(j["spirv_val"]["passed"], false);
  EXPECT_THAT(j["spirv_val"]["error"].get<std::string>(),
              HasSubstr("Signedness"));
  ASSERT_EQ(j["findings"].size(), 2u);
  EXPECT_EQ(j["findings"][0]["rule_id"], "L0-INT-SIGNEDNESS");
  EXPECT_EQ(j["findings"][0]["opcode_name"], "OpTypeInt");
  EXPECT_EQ(j["findings"][0]["instruction_index"], 6);
  // Dumping must not throw on module-provided strings.
  EXPECT_NO_THROW((void)j.dump());

  LintReport empty;
  EXPECT_TRUE(empty.ok());
  EXPECT_THAT(empty.ToText(), HasSubstr("0 Level Zero findings"));
  LintReport module_level;
  module_level.findings.push_back({"L0-MEMORY-MODEL", "m", 0, 0, kModuleLevel});
  EXPECT_TRUE(
      module_level.ToJson()["findings"][0]["instruction_index"].is_null());
  LintReport val_failed;
  val_failed.spirv_val_error = "spirv-val: bad\xff";
  EXPECT_FALSE(val_failed.ok());
  EXPECT_NO_THROW((void)val_failed.ToJson().dump());
}

}  // namespace
}  // namespace l0spv::oracles

namespace l0spv::oracles {
namespace {

// Modules of a case: kernel k defines g, which calls f (imported), and
// calls g; the library defines f, which calls g (imported) when `cycle`.
// Each module alone has no recursion; linked, f and g call each other.
spirv::TestCase CaseOfTwoModules(bool cycle) {
  const std::string preamble = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpMemoryModel Physical64 OpenCL
)";
  const std::string kernel = preamble + R"(
OpEntryPoint Kernel %k "k"
OpDecorate %f LinkageAttributes "f" Import
OpDecorate %g LinkageAttributes "g" Export
%uint = OpTypeInt 32 0
%c0 = OpConstant %uint 0
%void = OpTypeVoid
%kfn = OpTypeFunction %void
%ufn = OpTypeFunction %uint %uint
%f = OpFunction %uint None %ufn
%fx = OpFunctionParameter %uint
OpFunctionEnd
%g = OpFunction %uint None %ufn
%gx = OpFunctionParameter %uint
%gb = OpLabel
%gy = OpFunctionCall %uint %f %gx
OpReturnValue %gy
OpFunctionEnd
%k = OpFunction %void None %kfn
%kb = OpLabel
%kv = OpFunctionCall %uint %g %c0
OpReturn
OpFunctionEnd
)";
  const std::string library =
      preamble +
      (cycle ? "OpDecorate %g LinkageAttributes \"g\" Import\n" : "") +
      R"(OpDecorate %f LinkageAttributes "f" Export
%uint = OpTypeInt 32 0
%ufn = OpTypeFunction %uint %uint
)" +
      (cycle ? R"(%g = OpFunction %uint None %ufn
%gx = OpFunctionParameter %uint
OpFunctionEnd
)"
             : "") +
      R"(%f = OpFunction %uint None %ufn
%fx = OpFunctionParameter %uint
%fb = OpLabel
)" +
      (cycle ? "%fy = OpFunctionCall %uint %g %fx\nOpReturnValue %fy\n"
             : "OpReturnValue %fx\n") +
      "OpFunctionEnd\n";
  spirv::TestCase tc;
  tc.module_words = spirv::EncodeModule(Assemble(kernel.c_str()));
  tc.linked_modules.push_back(spirv::EncodeModule(Assemble(library.c_str())));
  tc.entry_point = "k";
  return tc;
}

TEST(LintCaseTest, ARecursionThroughImportsShowsInTheLinkedProgram) {
  auto profile = FindDeviceProfile("full");
  ASSERT_TRUE(profile.ok());
  const LintReport clean = LintCase(CaseOfTwoModules(false), *profile);
  EXPECT_TRUE(clean.ok()) << clean.ToText();
  const LintReport cycle = LintCase(CaseOfTwoModules(true), *profile);
  ASSERT_FALSE(cycle.ok());
  ASSERT_FALSE(cycle.findings.empty()) << cycle.ToText();
  EXPECT_EQ(cycle.findings[0].rule_id, "L0-RECURSION");
  EXPECT_THAT(cycle.findings[0].message, HasSubstr("linked program: "));
}

// LinkOnceODR copies that differ make the program depend on the linker's
// pick: the case is invalid (a reduction must not make them differ).
TEST(LintCaseTest, DifferingLinkOnceOdrCopiesAreALinkError) {
  auto profile = FindDeviceProfile("full");
  ASSERT_TRUE(profile.ok());
  const std::string copy = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpExtension "SPV_KHR_linkonce_odr"
OpMemoryModel Physical64 OpenCL
OpDecorate %h LinkageAttributes "h" LinkOnceODR
%uint = OpTypeInt 32 0
%ufn = OpTypeFunction %uint %uint
%h = OpFunction %uint None %ufn
%x = OpFunctionParameter %uint
%b = OpLabel
%y = OpIAdd %uint %x %x
OpReturnValue %y
OpFunctionEnd
)";
  std::string other = copy;
  other.replace(other.find("OpIAdd"), 6, "OpIMul");
  spirv::TestCase tc = CaseOfTwoModules(false);
  tc.linked_modules.push_back(spirv::EncodeModule(Assemble(copy.c_str())));
  EXPECT_TRUE(LintCase(tc, *profile).ok()) << LintCase(tc, *profile).ToText();
  tc.linked_modules.push_back(spirv::EncodeModule(Assemble(other.c_str())));
  const LintReport report = LintCase(tc, *profile);
  EXPECT_FALSE(report.ok());
  EXPECT_THAT(report.link_error, HasSubstr("the definitions of 'h'"));
  EXPECT_THAT(report.ToText(), HasSubstr("link: failed: "));
}

TEST(LintCaseTest, AFindingNamesItsModuleFile) {
  auto profile = FindDeviceProfile("full");
  ASSERT_TRUE(profile.ok());
  spirv::TestCase tc = CaseOfTwoModules(false);
  tc.linked_modules.push_back(spirv::EncodeModule(Assemble(kTwoProblems)));
  const LintReport report = LintCase(tc, *profile);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.spirv_val_error, HasSubstr("module-2.spv: "));
  ASSERT_FALSE(report.findings.empty());
  EXPECT_THAT(report.findings[0].message, HasSubstr("module-2.spv: "));
  // Unreadable words are named too.
  tc.linked_modules[1] = {1, 2, 3};
  EXPECT_THAT(LintCase(tc, *profile).spirv_val_error,
              HasSubstr("module-2.spv: "));
}

}  // namespace
}  // namespace l0spv::oracles
