// Read → write reproduces the input word for word (and byte for byte in the
// input's endianness), and the reader decodes operands the way the grammar
// says: context-dependent literal widths, strings, enumerant parameters,
// OpenCL.std operands.
#include <bit>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"
#include "tests/spirv/test_support.h"

namespace l0spv::spirv {
namespace {

using test::AssembleHandWritten;
using test::HostBytes;
using ::testing::ElementsAre;

// Instructions in a binary, counted by walking word counts only.
size_t CountInstructions(std::span<const uint32_t> words) {
  size_t count = 0;
  for (size_t i = 5; i < words.size(); i += words[i] >> 16) ++count;
  return count;
}

std::vector<OperandKind> Kinds(const Instruction& inst) {
  std::vector<OperandKind> kinds;
  for (const Operand& op : inst.operands()) kinds.push_back(op.kind);
  return kinds;
}

// Every instruction of `opcode`, in binary order.
std::vector<const Instruction*> FindAll(const Module& m, spv::Op opcode) {
  std::vector<const Instruction*> found;
  m.ForEachInstruction([&](const Instruction& inst) {
    if (inst.opcode() == static_cast<uint32_t>(opcode)) found.push_back(&inst);
  });
  return found;
}

class HandWrittenRoundTripTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    auto words = AssembleHandWritten(GetParam());
    ASSERT_TRUE(words.ok()) << words.status();
    words_ = *std::move(words);
  }
  std::vector<uint32_t> words_;
};

TEST_P(HandWrittenRoundTripTest, ReadThenEncodeGivesIdenticalWords) {
  auto m = ReadModuleWords(words_);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(EncodeModule(*m), words_);
  EXPECT_EQ(m->InstructionCount(), CountInstructions(words_));
  EXPECT_LE(m->ComputeTightBound(), m->header.bound);
}

TEST_P(HandWrittenRoundTripTest, HostOrderBytesRoundTrip) {
  const std::vector<uint8_t> bytes = HostBytes(words_);
  auto m = ReadModule(bytes);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->endianness, std::endian::native == std::endian::little
                               ? Endianness::kLittle
                               : Endianness::kBig);
  EXPECT_EQ(WriteModule(*m), bytes);
}

TEST_P(HandWrittenRoundTripTest, BigEndianReadsAndWritesBackBigEndian) {
  const std::vector<uint8_t> little = WordsToBytes(words_, Endianness::kLittle);
  const std::vector<uint8_t> big = WordsToBytes(words_, Endianness::kBig);
  ASSERT_NE(little, big);
  // Byte 0 of a big-endian module is the magic number's most significant byte.
  EXPECT_THAT(std::vector<uint8_t>(big.begin(), big.begin() + 4),
              ElementsAre(0x07, 0x23, 0x02, 0x03));
  EXPECT_THAT(std::vector<uint8_t>(little.begin(), little.begin() + 4),
              ElementsAre(0x03, 0x02, 0x23, 0x07));

  auto m = ReadModule(big);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->endianness, Endianness::kBig);
  EXPECT_EQ(EncodeModule(*m), words_);
  EXPECT_EQ(WriteModule(*m), big);
  EXPECT_EQ(WriteModule(*m, Endianness::kLittle), little);

  auto from_little = ReadModule(little);
  ASSERT_TRUE(from_little.ok()) << from_little.status();
  EXPECT_EQ(from_little->endianness, Endianness::kLittle);
  EXPECT_EQ(WriteModule(*from_little, Endianness::kBig), big);
}

TEST_P(HandWrittenRoundTripTest, ModuleIsValidSpirv) {
  // Keeps the fixtures honest: they model what real producers emit.
  EXPECT_TRUE(Validate(words_).ok()) << Validate(words_);
}

INSTANTIATE_TEST_SUITE_P(Modules, HandWrittenRoundTripTest,
                         ::testing::ValuesIn(test::HandWrittenModuleNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

TEST(HandWrittenModulesTest, AllFixturesPresent) {
  EXPECT_THAT(test::HandWrittenModuleNames(),
              ::testing::IsSupersetOf(
                  {"linkage", "loop_atomics", "opencl_std", "switches"}));
}

class DecodingTest : public ::testing::Test {
 protected:
  Module Read(std::string_view name) {
    auto words = AssembleHandWritten(name);
    EXPECT_TRUE(words.ok()) << words.status();
    if (!words.ok()) return Module{};
    auto m = ReadModuleWords(*words);
    EXPECT_TRUE(m.ok()) << m.status();
    return m.ok() ? *std::move(m) : Module{};
  }
};

TEST_F(DecodingTest, SixtyFourBitConstantTakesTwoWords) {
  const Module m = Read("switches");
  bool found = false;
  for (const Instruction* c : FindAll(m, spv::Op::OpConstant)) {
    ASSERT_EQ(c->NumOperands(), 1u);
    if (c->operand(0).AsLiteral64() == 0x123456789abcdef0ull) {
      found = true;
      EXPECT_EQ(c->operand(0).kind,
                OperandKind::kLiteralContextDependentNumber);
      EXPECT_THAT(c->operand(0).words, ElementsAre(0x9abcdef0u, 0x12345678u));
    }
  }
  EXPECT_TRUE(found);
}

TEST_F(DecodingTest, SwitchCaseLiteralsFollowTheSelectorWidth) {
  const Module m = Read("switches");
  const auto switches = FindAll(m, spv::Op::OpSwitch);
  ASSERT_EQ(switches.size(), 2u);

  // 64-bit selector: each case literal is two words, then a label id.
  const Instruction& wide = *switches[0];
  EXPECT_THAT(
      Kinds(wide),
      ElementsAre(
          OperandKind::kIdRef, OperandKind::kIdRef,
          OperandKind::kLiteralContextDependentNumber, OperandKind::kIdRef,
          OperandKind::kLiteralContextDependentNumber, OperandKind::kIdRef,
          OperandKind::kLiteralContextDependentNumber, OperandKind::kIdRef));
  EXPECT_EQ(wide.operand(2).AsLiteral64(), 0x100000000ull);
  EXPECT_EQ(wide.operand(2).words.size(), 2u);
  EXPECT_EQ(wide.operand(4).AsLiteral64(), 3u);
  EXPECT_EQ(wide.operand(6).AsLiteral64(), 0xffffffff00000001ull);
  EXPECT_EQ(wide.operand(7).AsId(), wide.operand(1).AsId())
      << "the last case branches to the default label";

  // 8-bit selector: one word per literal.
  const Instruction& narrow = *switches[1];
  ASSERT_EQ(narrow.NumOperands(), 6u);
  EXPECT_THAT(narrow.operand(2).words, ElementsAre(7u));
  EXPECT_THAT(narrow.operand(4).words, ElementsAre(200u));
}

TEST_F(DecodingTest, StringLiteralsOfLength0345) {
  const Module m = Read("switches");
  std::vector<std::pair<std::string, size_t>> strings;
  for (const Instruction* s : FindAll(m, spv::Op::OpString)) {
    strings.emplace_back(s->operand(0).AsString(), s->operand(0).words.size());
  }
  EXPECT_THAT(strings, ElementsAre(std::pair<std::string, size_t>{"", 1},
                                   std::pair<std::string, size_t>{"abc", 1},
                                   std::pair<std::string, size_t>{"abcd", 2},
                                   std::pair<std::string, size_t>{"abcde", 2}));
  // StringOperand encodes exactly as the assembler did.
  for (const Instruction* s : FindAll(m, spv::Op::OpString)) {
    EXPECT_EQ(StringOperand(s->operand(0).AsString()).words,
              s->operand(0).words);
  }
}

TEST_F(DecodingTest, MemoryAccessParametersAndDecorations) {
  const Module m = Read("switches");
  const auto loads = FindAll(m, spv::Op::OpLoad);
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_THAT(Kinds(*loads[0]),
              ElementsAre(OperandKind::kIdRef, OperandKind::kMemoryAccess,
                          OperandKind::kLiteralInteger));
  EXPECT_EQ(loads[0]->word(2), 32u);

  bool volatile_aligned = false;
  for (const Instruction* store : FindAll(m, spv::Op::OpStore)) {
    if (store->NumOperands() == 4 && store->word(2) == 3u) {
      volatile_aligned = true;
      EXPECT_EQ(store->operand(3).kind, OperandKind::kLiteralInteger);
      EXPECT_EQ(store->word(3), 8u);
    }
  }
  EXPECT_TRUE(volatile_aligned);

  bool param_attr = false;
  for (const Instruction& d : m.annotations) {
    if (d.NumOperands() >= 2 &&
        d.word(1) == static_cast<uint32_t>(spv::Decoration::FuncParamAttr)) {
      param_attr = true;
      EXPECT_THAT(Kinds(d),
                  ElementsAre(OperandKind::kIdRef, OperandKind::kDecoration,
                              OperandKind::kFunctionParameterAttribute));
    }
  }
  EXPECT_TRUE(param_attr);
}

TEST_F(DecodingTest, SpecConstantOpOperandsFollowTheInnerOpcode) {
  const Module m = Read("switches");
  const auto ops = FindAll(m, spv::Op::OpSpecConstantOp);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_THAT(Kinds(*ops[0]),
              ElementsAre(OperandKind::kLiteralSpecConstantOpInteger,
                          OperandKind::kIdRef, OperandKind::kIdRef));
  EXPECT_EQ(ops[0]->word(0), static_cast<uint32_t>(spv::Op::OpIAdd));
}

TEST_F(DecodingTest, LineInstructionsStayInTheirBlock) {
  const Module m = Read("switches");
  ASSERT_EQ(m.functions.size(), 1u);
  const BasicBlock& entry = m.functions[0].blocks.at(0);
  ASSERT_FALSE(entry.instructions.empty());
  EXPECT_EQ(entry.instructions.front().opcode(),
            static_cast<uint32_t>(spv::Op::OpLine));
  EXPECT_EQ(m.functions[0].parameters.size(), 1u);
  EXPECT_EQ(m.functions[0].blocks.size(), 7u);
}

TEST_F(DecodingTest, OpenClStdOperandsAreDecodedByTheirGrammar) {
  const Module m = Read("opencl_std");
  const uint32_t set = m.OpenClStdImportId();
  ASSERT_NE(set, 0u);
  std::map<uint32_t, const Instruction*> by_number;
  for (const Instruction* e : FindAll(m, spv::Op::OpExtInst)) {
    EXPECT_EQ(e->operand(0).AsId(), set);
    by_number[e->word(1)] = e;
  }
  ASSERT_TRUE(by_number.contains(171));  // vloadn
  EXPECT_THAT(
      Kinds(*by_number[171]),
      ElementsAre(OperandKind::kIdRef, OperandKind::kLiteralExtInstInteger,
                  OperandKind::kIdRef, OperandKind::kIdRef,
                  OperandKind::kLiteralInteger));
  EXPECT_EQ(by_number[171]->word(4), 4u);
  ASSERT_TRUE(by_number.contains(184));  // printf
  EXPECT_THAT(
      Kinds(*by_number[184]),
      ElementsAre(OperandKind::kIdRef, OperandKind::kLiteralExtInstInteger,
                  OperandKind::kIdRef, OperandKind::kIdRef));
  ASSERT_TRUE(by_number.contains(26));  // fma
  EXPECT_EQ(by_number[26]->NumOperands(), 5u);
}

TEST_F(DecodingTest, LinkageDeclarationAndAttributes) {
  const Module m = Read("linkage");
  ASSERT_EQ(m.functions.size(), 2u);
  EXPECT_TRUE(m.functions[0].IsDeclaration());
  EXPECT_EQ(m.functions[0].parameters.size(), 1u);
  EXPECT_FALSE(m.functions[1].IsDeclaration());
  EXPECT_TRUE(m.entry_points.empty());
  bool import = false;
  for (const Instruction& d : m.annotations) {
    if (d.word(1) !=
        static_cast<uint32_t>(spv::Decoration::LinkageAttributes)) {
      continue;
    }
    EXPECT_THAT(
        Kinds(d),
        ElementsAre(OperandKind::kIdRef, OperandKind::kDecoration,
                    OperandKind::kLiteralString, OperandKind::kLinkageType));
    if (d.operand(2).AsString() == "external_fn") {
      import = true;
      EXPECT_EQ(d.word(3), static_cast<uint32_t>(spv::LinkageType::Import));
      EXPECT_EQ(d.word(0), m.functions[0].id());
    }
  }
  EXPECT_TRUE(import);
}

// Round-trips every module a corpus manifest lists ("name<TAB>spv<TAB>json"
// lines; relative paths are relative to the manifest), in both byte orders.
// Failures are collected so one run names every module that fails.
void RoundTripManifest(const std::filesystem::path& manifest) {
  if (!std::filesystem::exists(manifest)) {
    GTEST_SKIP() << manifest
                 << " does not exist; build the l0spv_corpus target to "
                    "round-trip the corpus";
  }
  std::ifstream in(manifest);
  ASSERT_TRUE(in) << manifest;
  size_t modules = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (fields.size() < 2) {
      ADD_FAILURE() << "malformed manifest line: " << line;
      continue;
    }
    std::filesystem::path spv = fields[1];
    if (spv.is_relative()) spv = manifest.parent_path() / spv;
    const std::string where = fields[0] + " (" + spv.string() + ")";
    ++modules;
    auto bytes = ReadFileBytes(spv.string());
    if (!bytes.ok()) {
      ADD_FAILURE() << where << ": " << bytes.status();
      continue;
    }
    auto m = ReadModule(*bytes);
    if (!m.ok()) {
      ADD_FAILURE() << where << ": " << m.status();
      continue;
    }
    EXPECT_EQ(WriteModule(*m), *bytes) << where;
    const Endianness other = m->endianness == Endianness::kLittle
                                 ? Endianness::kBig
                                 : Endianness::kLittle;
    auto swapped = ReadModule(WriteModule(*m, other));
    if (!swapped.ok()) {
      ADD_FAILURE() << where << " byte-swapped: " << swapped.status();
      continue;
    }
    EXPECT_EQ(WriteModule(*swapped, m->endianness), *bytes) << where;
  }
  EXPECT_GT(modules, 0u) << manifest << " lists no modules";
}

TEST(CorpusRoundTripTest, EveryCorpusModuleRoundTrips) {
  RoundTripManifest(std::filesystem::path(L0SPV_BINARY_DIR) /
                    "corpora/corpus_manifest.txt");
}

// Modules known to break some consumer are not validated, which makes them
// good reader input; built only with L0SPV_CORPUS_KNOWN_BUGS.
TEST(CorpusRoundTripTest, EveryKnownConsumerBugModuleRoundTrips) {
  RoundTripManifest(std::filesystem::path(L0SPV_BINARY_DIR) /
                    "corpora/known_consumer_bugs_manifest.txt");
}

// Body-less functions (imports) by name: OpName first, else the
// LinkageAttributes name, else "%id"; defined functions are not listed.
TEST(ModuleTest, DeclaredFunctionNames) {
  auto words = Assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpMemoryModel Physical64 OpenCL
               OpName %named "atomic_add_f"
               OpDecorate %named LinkageAttributes "linked_name" Import
               OpDecorate %linked LinkageAttributes "only_linked" Import
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %named = OpFunction %void None %fn
               OpFunctionEnd
     %linked = OpFunction %void None %fn
               OpFunctionEnd
    %defined = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(words.ok()) << words.status();
  auto m = ReadModuleWords(*words);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_THAT(m->DeclaredFunctionNames(),
              ::testing::ElementsAre("atomic_add_f", "only_linked"));
}

// ScanInstructions / DeclaresFunctions: scans of the words, no parse.
TEST(WordScanTest, DeclaresFunctionsSeesBodylessFunctionsOnly) {
  const std::string head = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main "main"
OpDecorate %imported LinkageAttributes "imported" Import
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %void
%fn_u = OpTypeFunction %void %uint
)";
  const std::string kernel = R"(%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  const std::string declaration = R"(%imported = OpFunction %void None %fn_u
%p = OpFunctionParameter %uint
OpFunctionEnd
)";
  auto without = Assemble(head + kernel);
  auto with = Assemble(head + declaration + kernel);
  ASSERT_TRUE(without.ok()) << without.status();
  ASSERT_TRUE(with.ok()) << with.status();
  EXPECT_FALSE(DeclaresFunctions(*without));
  EXPECT_TRUE(DeclaresFunctions(*with));
  // Malformed words (a word count past the end): false, no crash.
  std::vector<uint32_t> cut(without->begin(), without->end() - 1);
  cut.back() = (100u << 16) | cut.back();
  EXPECT_FALSE(DeclaresFunctions(cut));
  size_t seen = 0;
  EXPECT_FALSE(ScanInstructions(cut, [&](uint32_t, std::span<const uint32_t>) {
    ++seen;
    return true;
  }));
  EXPECT_GT(seen, 5u);
  // Stopping early is not an error.
  seen = 0;
  EXPECT_TRUE(ScanInstructions(*with, [&](uint32_t, std::span<const uint32_t>) {
    return ++seen < 3;
  }));
  EXPECT_EQ(seen, 3u);
}

}  // namespace
}  // namespace l0spv::spirv
