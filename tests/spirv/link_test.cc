// spirv::LinkModules: imports bind to exports by name and type, LinkOnceODR
// copies merge, types unify across modules, and every error names the
// module and the symbol.
#include "spirv/link.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "spirv/binary.h"
#include "spirv/file_io.h"
#include "spirv/spirv_tools.h"
#include "spirv/test_case.h"
#include "spirv/unified1/spirv.hpp11"
#include "tests/support/linkage_modules.h"

namespace l0spv::spirv {
namespace {

using test_support::kImportsAdd1Body;
using test_support::kLinkagePreamble;
using ::testing::HasSubstr;

std::string Helper(const std::string& linkage, const std::string& name,
                   const std::string& result_type = "%uint") {
  return R"(
OpMemoryModel Physical64 OpenCL
OpDecorate %f LinkageAttributes ")" +
         name + "\" " + linkage + R"(
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%one = OpConstant %uint 1
%ufn = OpTypeFunction )" +
         result_type + R"( %uint
%f = OpFunction )" +
         result_type +
         R"( None %ufn
%x = OpFunctionParameter %uint
%b = OpLabel
%y = OpIAdd %uint %x %one
%z = OpBitcast )" +
         result_type +
         R"( %y
OpReturnValue %z
OpFunctionEnd
)";
}

Module ParseOrDie(const std::string& text) {
  auto words = Assemble(text);
  EXPECT_TRUE(words.ok()) << words.status() << "\n" << text;
  if (!words.ok()) return Module{};
  auto m = ReadModuleWords(*words);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *std::move(m) : Module{};
}

absl::StatusOr<Module> Link(const std::vector<std::string>& texts) {
  std::vector<Module> modules;
  for (const std::string& t : texts) modules.push_back(ParseOrDie(t));
  std::vector<LinkInput> inputs;
  for (size_t i = 0; i < modules.size(); ++i)
    inputs.push_back({"module " + std::to_string(i), &modules[i]});
  return LinkModules(inputs);
}

size_t Count(const Module& m, spv::Op op) {
  size_t n = 0;
  m.ForEachInstruction([&](const Instruction& inst) {
    n += inst.opcode() == static_cast<uint32_t>(op);
  });
  return n;
}

void ExpectValid(const Module& m) {
  std::vector<uint32_t> words = EncodeModule(m);
  EXPECT_TRUE(Validate(words).ok())
      << Validate(words) << "\n"
      << Disassemble(words).value_or("(unreadable)");
}

TEST(LinkModules, ImportBindsToTheExportAndTypesUnify) {
  auto linked =
      Link({std::string(kLinkagePreamble) + kImportsAdd1Body,
            std::string(kLinkagePreamble) + Helper("Export", "add1")});
  ASSERT_TRUE(linked.ok()) << linked.status();
  ExpectValid(*linked);
  ASSERT_EQ(linked->functions.size(), 2u);
  for (const Function& f : linked->functions) EXPECT_FALSE(f.IsDeclaration());
  // %uint and %ufn exist once: the call's callee type is the definition's.
  EXPECT_EQ(Count(*linked, spv::Op::OpTypeInt), 2u);  // uint, ulong
  EXPECT_EQ(Count(*linked, spv::Op::OpTypeFunction), 2u);
  // The import's decoration went with it; the export stays.
  const auto symbols = LinkageSymbols(*linked);
  ASSERT_EQ(symbols.size(), 1u);
  EXPECT_EQ(symbols[0].linkage_type,
            static_cast<uint32_t>(spv::LinkageType::Export));
  // The call now names the definition.
  uint32_t callee = 0;
  linked->ForEachInstruction([&](const Instruction& inst) {
    if (inst.opcode() == static_cast<uint32_t>(spv::Op::OpFunctionCall))
      callee = inst.word(0);
  });
  EXPECT_EQ(callee, symbols[0].id);
  EXPECT_EQ(linked->header.bound, linked->ComputeTightBound());
}

TEST(LinkModules, ModuleOrderDoesNotMatter) {
  auto linked = Link({std::string(kLinkagePreamble) + Helper("Export", "add1"),
                      std::string(kLinkagePreamble) + kImportsAdd1Body});
  ASSERT_TRUE(linked.ok()) << linked.status();
  ExpectValid(*linked);
  EXPECT_EQ(linked->KernelNames(), std::vector<std::string>{"k"});
}

TEST(LinkModules, LinkOnceOdrCopiesMergeIntoOne) {
  const std::string linkonce = std::string(kLinkagePreamble) +
                               "OpExtension \"SPV_KHR_linkonce_odr\"\n" +
                               Helper("LinkOnceODR", "add1");
  auto linked = Link(
      {std::string(kLinkagePreamble) + kImportsAdd1Body, linkonce, linkonce});
  ASSERT_TRUE(linked.ok()) << linked.status();
  ExpectValid(*linked);
  EXPECT_EQ(linked->functions.size(), 2u);
  EXPECT_EQ(Count(*linked, spv::Op::OpExtension), 1u);
  EXPECT_EQ(LinkageSymbols(*linked).size(), 1u);
}

// Copies that differ (here: one adds 1, the other subtracts it) would make
// the program depend on which one the linker keeps: with
// equivalent_linkonce, an error naming both.
TEST(LinkModules, DifferingLinkOnceOdrCopiesAreAnError) {
  const std::string linkonce = std::string(kLinkagePreamble) +
                               "OpExtension \"SPV_KHR_linkonce_odr\"\n" +
                               Helper("LinkOnceODR", "add1");
  std::string other = linkonce;
  other.replace(other.find("OpIAdd"), 6, "OpISub");
  std::vector<Module> modules = {
      ParseOrDie(std::string(kLinkagePreamble) + kImportsAdd1Body),
      ParseOrDie(linkonce), ParseOrDie(other)};
  const LinkInput inputs[] = {{"module 0", &modules[0]},
                              {"module 1", &modules[1]},
                              {"module 2", &modules[2]}};
  auto linked = LinkModules(inputs, {.equivalent_linkonce = true});
  ASSERT_FALSE(linked.ok());
  EXPECT_THAT(linked.status().message(),
              HasSubstr("the definitions of 'add1' in module 1 and in module 2 "
                        "differ"));
  // Without the check (a consumer's output, translated module by module)
  // the first copy is kept.
  EXPECT_TRUE(LinkModules(inputs).ok());
}

TEST(LinkModules, AnExportWinsOverLinkOnceOdrCopies) {
  const std::string linkonce = std::string(kLinkagePreamble) +
                               "OpExtension \"SPV_KHR_linkonce_odr\"\n" +
                               Helper("LinkOnceODR", "add1");
  auto linked =
      Link({std::string(kLinkagePreamble) + kImportsAdd1Body, linkonce,
            std::string(kLinkagePreamble) + Helper("Export", "add1")});
  ASSERT_TRUE(linked.ok()) << linked.status();
  ExpectValid(*linked);
  const auto symbols = LinkageSymbols(*linked);
  ASSERT_EQ(symbols.size(), 1u);
  EXPECT_EQ(symbols[0].linkage_type,
            static_cast<uint32_t>(spv::LinkageType::Export));
}

TEST(LinkModules, ExportedVariablesBindToo) {
  const std::string exporter = std::string(kLinkagePreamble) + R"(
OpMemoryModel Physical64 OpenCL
OpDecorate %v LinkageAttributes "counter" Export
%uint = OpTypeInt 32 0
%seven = OpConstant %uint 7
%p = OpTypePointer CrossWorkgroup %uint
%v = OpVariable %p CrossWorkgroup %seven
)";
  const std::string importer = std::string(kLinkagePreamble) + R"(
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpDecorate %v LinkageAttributes "counter" Import
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%p = OpTypePointer CrossWorkgroup %uint
%kfn = OpTypeFunction %void %p
%v = OpVariable %p CrossWorkgroup
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %p
%b = OpLabel
%x = OpLoad %uint %v
OpStore %out %x
OpReturn
OpFunctionEnd
)";
  auto linked = Link({importer, exporter});
  ASSERT_TRUE(linked.ok()) << linked.status();
  ExpectValid(*linked);
  EXPECT_EQ(Count(*linked, spv::Op::OpVariable), 1u);
}

// An array type's length is a constant: constants unify too, or the
// import's type (a pointer to uint[4]) would differ from the export's.
TEST(LinkModules, TypesBuiltFromConstantsUnify) {
  const std::string types = R"(
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%four = OpConstant %uint 4
%arr = OpTypeArray %uint %four
%parr = OpTypePointer CrossWorkgroup %arr
%fn = OpTypeFunction %void %parr
)";
  const std::string importer = std::string(kLinkagePreamble) + R"(
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpDecorate %f LinkageAttributes "f" Import
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%four = OpConstant %uint 4
%arr = OpTypeArray %uint %four
%parr = OpTypePointer CrossWorkgroup %arr
%fn = OpTypeFunction %void %parr
%f = OpFunction %void None %fn
%a = OpFunctionParameter %parr
OpFunctionEnd
%k = OpFunction %void None %fn
%p = OpFunctionParameter %parr
%b = OpLabel
%c = OpFunctionCall %void %f %p
OpReturn
OpFunctionEnd
)";
  const std::string exporter =
      std::string(kLinkagePreamble) +
      "OpMemoryModel Physical64 OpenCL\nOpDecorate %f LinkageAttributes \"f\" "
      "Export" +
      types + R"(
%f = OpFunction %void None %fn
%a = OpFunctionParameter %parr
%b = OpLabel
OpReturn
OpFunctionEnd
)";
  auto linked = Link({importer, exporter});
  ASSERT_TRUE(linked.ok()) << linked.status();
  ExpectValid(*linked);
  EXPECT_EQ(Count(*linked, spv::Op::OpTypeArray), 1u);
  EXPECT_EQ(Count(*linked, spv::Op::OpConstant), 1u);
}

// llvm-spirv gives a module's built-in variables Import linkage when the
// module has the Linkage capability: the environment defines them, so they
// bind to nothing and are no error (spirv-link skips them too); an import
// of the same name that is not a built-in still is one.
TEST(LinkModules, ImportedBuiltInsAreTheEnvironments) {
  std::string kernel = std::string(kLinkagePreamble) + kImportsAdd1Body;
  const std::string plain = "OpDecorate %gid BuiltIn GlobalInvocationId\n";
  kernel.replace(kernel.find(plain), plain.size(),
                 plain +
                     "OpDecorate %gid LinkageAttributes "
                     "\"__spirv_BuiltInGlobalInvocationId\" Import\n");
  auto linked =
      Link({kernel, std::string(kLinkagePreamble) + Helper("Export", "add1")});
  ASSERT_TRUE(linked.ok()) << linked.status();
  ExpectValid(*linked);
  EXPECT_EQ(Count(*linked, spv::Op::OpVariable), 1u);
  // What is left imports only the built-in: nothing more to link (ref
  // would otherwise link the program again and again).
  EXPECT_FALSE(HasImports(EncodeModule(*linked)));
  auto kernel_words = Assemble(kernel);
  ASSERT_TRUE(kernel_words.ok());
  EXPECT_TRUE(HasImports(*kernel_words));

  std::string not_built_in = kernel;
  not_built_in.replace(not_built_in.find(plain), plain.size(), "");
  linked = Link(
      {not_built_in, std::string(kLinkagePreamble) + Helper("Export", "add1")});
  ASSERT_FALSE(linked.ok());
  EXPECT_THAT(linked.status().message(),
              HasSubstr("imports '__spirv_BuiltInGlobalInvocationId'"));
}

TEST(LinkModules, HasImportsScansTheWords) {
  auto importer = Assemble(std::string(kLinkagePreamble) + kImportsAdd1Body);
  auto exporter =
      Assemble(std::string(kLinkagePreamble) + Helper("Export", "add1"));
  ASSERT_TRUE(importer.ok() && exporter.ok());
  EXPECT_TRUE(HasImports(*importer));
  EXPECT_FALSE(HasImports(*exporter));
  std::vector<uint32_t> truncated(importer->begin(), importer->begin() + 7);
  truncated.push_back(0xffff0047);  // a word count past the end
  EXPECT_FALSE(HasImports(truncated));
  EXPECT_FALSE(HasImports({}));
}

TEST(LinkModules, AnUnresolvedImportNamesModuleAndSymbol) {
  auto linked = Link({std::string(kLinkagePreamble) + kImportsAdd1Body});
  ASSERT_FALSE(linked.ok());
  EXPECT_EQ(linked.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(linked.status().message(),
              HasSubstr("module 0 imports 'add1', which no module exports"));
  linked = Link({std::string(kLinkagePreamble) + kImportsAdd1Body,
                 std::string(kLinkagePreamble) + Helper("Export", "add2")});
  ASSERT_FALSE(linked.ok());
  EXPECT_THAT(linked.status().message(), HasSubstr("'add1'"));
}

// A partial link (the reducer merging two modules of several) keeps an
// import nobody defines as one declaration; a full link refuses it.
TEST(LinkModules, APartialLinkKeepsUnresolvedImports) {
  const std::string kernel = std::string(kLinkagePreamble) + kImportsAdd1Body;
  Module a = ParseOrDie(kernel), b = ParseOrDie(kernel);
  // Two inputs each importing add1, neither defining it: one declaration.
  std::string renamed = kernel;
  renamed.replace(renamed.find("\"k\""), 3, "\"k2\"");
  b = ParseOrDie(renamed);
  const LinkInput inputs[] = {{"a", &a}, {"b", &b}};
  EXPECT_FALSE(LinkModules(inputs).ok());
  auto partial = LinkModules(inputs, {.partial = true});
  ASSERT_TRUE(partial.ok()) << partial.status();
  ExpectValid(*partial);
  size_t imports = 0;
  for (const LinkageSymbol& s : LinkageSymbols(*partial))
    imports +=
        s.linkage_type == static_cast<uint32_t>(spv::LinkageType::Import);
  EXPECT_EQ(imports, 1u);
  // The partial program then links with the module that defines add1.
  Module lib =
      ParseOrDie(std::string(kLinkagePreamble) + Helper("Export", "add1"));
  const LinkInput rest[] = {{"partial", &*partial}, {"lib", &lib}};
  auto full = LinkModules(rest);
  ASSERT_TRUE(full.ok()) << full.status();
  EXPECT_EQ(Count(*full, spv::Op::OpEntryPoint), 2u);
}

TEST(LinkModules, TwoStrongDefinitionsAreAnError) {
  auto linked =
      Link({std::string(kLinkagePreamble) + kImportsAdd1Body,
            std::string(kLinkagePreamble) + Helper("Export", "add1"),
            std::string(kLinkagePreamble) + Helper("Export", "add1")});
  ASSERT_FALSE(linked.ok());
  EXPECT_THAT(linked.status().message(),
              HasSubstr("'add1' is defined twice (Export) in module 1 and in "
                        "module 2"));
}

TEST(LinkModules, ATypeMismatchNamesBothModules) {
  auto linked = Link(
      {std::string(kLinkagePreamble) + kImportsAdd1Body,
       std::string(kLinkagePreamble) + Helper("Export", "add1", "%float")});
  ASSERT_FALSE(linked.ok());
  EXPECT_THAT(linked.status().message(),
              HasSubstr("'add1' has one type in module 1 and another in "
                        "module 0"));
}

TEST(LinkModules, DuplicateEntryPointsAndModelsAreErrors) {
  auto linked = Link({std::string(kLinkagePreamble) + kImportsAdd1Body,
                      std::string(kLinkagePreamble) + kImportsAdd1Body});
  ASSERT_FALSE(linked.ok());
  EXPECT_THAT(linked.status().message(),
              HasSubstr("entry point 'k' is defined in module 0 and in "
                        "module 1"));
  std::string physical32 =
      std::string(kLinkagePreamble) + Helper("Export", "add1");
  physical32.replace(physical32.find("Physical64"), 10, "Physical32");
  linked = Link({std::string(kLinkagePreamble) + kImportsAdd1Body, physical32});
  ASSERT_FALSE(linked.ok());
  EXPECT_THAT(linked.status().message(),
              HasSubstr("module 1: its OpMemoryModel differs"));
  EXPECT_FALSE(LinkModules({}).ok());
}

// Cases of several modules on disk: module.spv, module-1.spv, ... listed in
// case.json's "linked_modules"; LinkTestCase links them.
class LinkedCaseFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("l0spv_linked_case_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    auto kernel = Assemble(std::string(kLinkagePreamble) + kImportsAdd1Body);
    auto helper =
        Assemble(std::string(kLinkagePreamble) + Helper("Export", "add1"));
    ASSERT_TRUE(kernel.ok() && helper.ok());
    tc_.module_words = *kernel;
    tc_.linked_modules.push_back(*helper);
    tc_.entry_point = "k";
    tc_.nd_range.dims = 1;
    tc_.nd_range.global = {4, 1, 1};
    KernelArg out;
    out.kind = KernelArg::Kind::kBuffer;
    out.bytes.assign(16, 0);
    tc_.args.push_back(out);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  // Rewrites case.json's "linked_modules" to `value` (raw JSON).
  void SetLinkedModules(const std::string& value) {
    auto j = nlohmann::json::parse(std::ifstream(dir_ / "case.json"));
    j["linked_modules"] = nlohmann::json::parse(value);
    std::ofstream(dir_ / "case.json") << j.dump();
  }
  std::filesystem::path dir_;
  TestCase tc_;
};

TEST_F(LinkedCaseFilesTest, RoundTripAndLink) {
  ASSERT_TRUE(WriteTestCase(tc_, dir_.string()).ok());
  EXPECT_TRUE(std::filesystem::exists(dir_ / "module-1.spv"));
  auto back = ReadTestCase(dir_.string());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->linked_modules, tc_.linked_modules);
  EXPECT_EQ(TestCaseToJson(*back)["linked_modules"],
            nlohmann::json::array({"module-1.spv"}));
  auto linked = LinkTestCase(*back);
  ASSERT_TRUE(linked.ok()) << linked.status();
  EXPECT_TRUE(linked->linked_modules.empty());
  EXPECT_TRUE(Validate(linked->module_words).ok());
  // A one-module case has no "linked_modules" and links to itself.
  TestCase whole = tc_;
  whole.linked_modules.clear();
  EXPECT_FALSE(TestCaseToJson(whole).contains("linked_modules"));
}

TEST_F(LinkedCaseFilesTest, BadListsAndFilesAreClearErrors) {
  ASSERT_TRUE(WriteTestCase(tc_, dir_.string()).ok());
  SetLinkedModules(R"("module-1.spv")");
  auto r = ReadTestCase(dir_.string());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("linked_modules"));
  SetLinkedModules(R"(["../module-1.spv"])");
  r = ReadTestCase(dir_.string());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(),
              HasSubstr("the name of a module file in the case directory"));
  // At most kMaxLinkedModules (15) further modules.
  std::string sixteen = "[";
  for (int i = 1; i <= 16; ++i)
    sixteen += (i > 1 ? "," : "") + std::string("\"module-") +
               std::to_string(i) + ".spv\"";
  SetLinkedModules(sixteen + "]");
  r = ReadTestCase(dir_.string());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("linked_modules"));
  SetLinkedModules(R"(["module-9.spv"])");
  r = ReadTestCase(dir_.string());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("module-9.spv"));
  const std::vector<uint8_t> garbage = {1, 2, 3};
  ASSERT_TRUE(WriteFileBytes((dir_ / "module-1.spv").string(), garbage).ok());
  SetLinkedModules(R"(["module-1.spv"])");
  r = ReadTestCase(dir_.string());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("module-1.spv"));
}

TEST_F(LinkedCaseFilesTest, ALinkErrorNamesTheModuleFile) {
  auto other =
      Assemble(std::string(kLinkagePreamble) + Helper("Export", "add2"));
  ASSERT_TRUE(other.ok());
  tc_.linked_modules[0] = *other;
  auto linked = LinkTestCase(tc_);
  ASSERT_FALSE(linked.ok());
  EXPECT_THAT(linked.status().message(),
              HasSubstr("module.spv imports 'add1', which no module exports"));
}

}  // namespace
}  // namespace l0spv::spirv
