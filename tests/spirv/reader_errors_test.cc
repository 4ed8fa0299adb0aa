// Every way the reader rejects a malformed binary: each error is an
// InvalidArgument naming the word offset ("word N") and the problem, and the
// same bytes in the other endianness give the same diagnosis.
#include <algorithm>
#include <functional>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/binary.h"
#include "tests/spirv/test_support.h"

namespace l0spv::spirv {
namespace {

using spv::Op;
using test::ByteSwapWords;
using test::Cat;
using test::HostBytes;
using test::RawModule;
using test::StringWords;

uint32_t U(auto e) { return static_cast<uint32_t>(e); }

// Ids of the scaffold kernel below.
constexpr uint32_t kVoid = 1, kFnTy = 2, kUint = 3, kMain = 4, kEntry = 5,
                   kUlong = 6, kFree = 20;

// Checks that `bytes` fail to read with InvalidArgument at `word`, the
// message naming `problem`.
::testing::AssertionResult FailsAt(std::span<const uint8_t> bytes, size_t word,
                                   std::string_view problem) {
  auto m = ReadModule(bytes);
  if (m.ok()) return ::testing::AssertionFailure() << "the module was read";
  const std::string message(m.status().message());
  if (m.status().code() != absl::StatusCode::kInvalidArgument) {
    return ::testing::AssertionFailure() << "wrong code: " << m.status();
  }
  const std::string where = absl::StrCat("word ", word, " (");
  if (message.find(where) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "message does not name '" << where << "': " << message;
  }
  if (message.find(problem) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "message does not say '" << problem << "': " << message;
  }
  return ::testing::AssertionSuccess() << message;
}

// The same check on host-order words, on their byte-swapped form (the other
// endianness) and through ReadModuleWords.
::testing::AssertionResult FailsAt(const std::vector<uint32_t>& words,
                                   size_t word, std::string_view problem) {
  if (auto r = FailsAt(HostBytes(words), word, problem); !r) return r;
  if (auto r = FailsAt(HostBytes(ByteSwapWords(words)), word, problem); !r) {
    return ::testing::AssertionFailure() << "byte-swapped: " << r.message();
  }
  auto m = ReadModuleWords(words);
  if (m.ok() ||
      std::string(m.status().message()).find(problem) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "ReadModuleWords disagrees: " << m.status();
  }
  return ::testing::AssertionSuccess();
}

// A valid kernel `void main() { <body> return; }` with uint and ulong types.
RawModule Kernel(const std::function<void(RawModule&)>& body = {},
                 uint32_t bound = 100) {
  RawModule r(bound);
  r.KernelPrologue();
  r.Add(Op::OpEntryPoint,
        Cat({{U(spv::ExecutionModel::Kernel), kMain}, StringWords("main")}));
  r.Add(Op::OpTypeVoid, {kVoid});
  r.Add(Op::OpTypeFunction, {kFnTy, kVoid});
  r.Add(Op::OpTypeInt, {kUint, 32, 0});
  r.Add(Op::OpTypeInt, {kUlong, 64, 0});
  r.Add(Op::OpFunction, {kVoid, kMain, 0, kFnTy});
  r.Add(Op::OpLabel, {kEntry});
  if (body) body(r);
  r.Add(Op::OpReturn, {});
  r.Add(Op::OpFunctionEnd, {});
  return r;
}

TEST(ReaderErrorsTest, ScaffoldKernelReads) {
  // Guards every test below: they fail because of their one defect.
  EXPECT_TRUE(ReadModule(Kernel().Bytes()).ok());
  EXPECT_TRUE(ReadModuleWords(Kernel().words()).ok());
}

TEST(ReaderErrorsTest, Empty) {
  EXPECT_TRUE(FailsAt(std::vector<uint8_t>{}, 0, "empty"));
}

TEST(ReaderErrorsTest, ThreeBytes) {
  EXPECT_TRUE(FailsAt(std::vector<uint8_t>{0x03, 0x02, 0x23}, 0,
                      "size 3 bytes is not a multiple of 4"));
}

TEST(ReaderErrorsTest, SizeNotMultipleOfFour) {
  std::vector<uint8_t> bytes = Kernel().Bytes();
  const size_t words = bytes.size() / 4;
  bytes.push_back(0);
  bytes.push_back(0);
  EXPECT_TRUE(FailsAt(bytes, words, "is not a multiple of 4"));
}

TEST(ReaderErrorsTest, ShortHeader) {
  std::vector<uint8_t> bytes = Kernel().Bytes();
  bytes.resize(16);
  EXPECT_TRUE(FailsAt(bytes, 4, "needs a 5-word (20-byte) header, got 4"));
  EXPECT_TRUE(FailsAt(std::vector<uint32_t>{kMagicNumber, 0x10200}, 2,
                      "needs a 5-word (20-byte) header, got 2"));
  EXPECT_TRUE(FailsAt(std::vector<uint32_t>{kMagicNumber}, 1,
                      "needs a 5-word (20-byte) header, got 1"));
}

TEST(ReaderErrorsTest, BadMagic) {
  RawModule r = Kernel();
  r.words()[0] = 0xDEADBEEF;
  EXPECT_TRUE(FailsAt(r.words(), 0, "bad magic number 0x"));
  EXPECT_TRUE(FailsAt(r.Bytes(), 0, "bad magic number 0xdeadbeef"));
}

TEST(ReaderErrorsTest, ReadModuleWordsChecksMagic) {
  // Host-order words whose magic is byte-swapped were not converted.
  RawModule r = Kernel();
  r.words()[0] = __builtin_bswap32(kMagicNumber);
  auto m = ReadModuleWords(r.words());
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), ::testing::HasSubstr("word 0 ("));
  EXPECT_THAT(m.status().message(), ::testing::HasSubstr("magic"));
}

TEST(ReaderErrorsTest, BoundZero) {
  EXPECT_TRUE(FailsAt(Kernel({}, 0).words(), 3, "id bound is 0"));
}

TEST(ReaderErrorsTest, BoundOverUniversalLimit) {
  EXPECT_TRUE(FailsAt(Kernel({}, kMaxIdBound + 1).words(), 3,
                      "exceeds the SPIR-V universal limit"));
  EXPECT_TRUE(ReadModule(Kernel({}, kMaxIdBound).Bytes()).ok());
}

TEST(ReaderErrorsTest, WordCountZero) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.AddWord(U(Op::OpCapability));  // count 0
  r.AddWord(U(spv::Capability::Int8));
  EXPECT_TRUE(FailsAt(r.words(), at, "word count is 0"));
}

TEST(ReaderErrorsTest, WordCountPastTheEnd) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.AddWord((5u << 16) | U(Op::OpCapability));
  r.AddWord(U(spv::Capability::Int8));
  EXPECT_TRUE(FailsAt(r.words(), at,
                      "word count 5 runs past the end of the module (2 words "
                      "left)"));
}

TEST(ReaderErrorsTest, ResultIdZero) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.Add(Op::OpTypeVoid, {0});
  EXPECT_TRUE(FailsAt(r.words(), at + 1,
                      "OpTypeVoid: result id %0 is not a "
                      "valid id"));
}

TEST(ReaderErrorsTest, ResultIdAtBound) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.Add(Op::OpTypeVoid, {100});
  EXPECT_TRUE(FailsAt(r.words(), at + 1,
                      "result id %100 is not below the id bound 100"));
}

TEST(ReaderErrorsTest, ResultTypeIdOverBound) {
  const size_t at = Kernel().size() - 2;  // where the body starts
  RawModule r = Kernel([](RawModule& r) { r.Add(Op::OpUndef, {5000, kFree}); });
  EXPECT_TRUE(FailsAt(r.words(), at + 1,
                      "OpUndef: result type %5000 is not below the id bound"));
}

TEST(ReaderErrorsTest, OperandIdOverBound) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.Add(Op::OpTypePointer,
                          {kFree, U(spv::StorageClass::CrossWorkgroup), 200});
  EXPECT_TRUE(FailsAt(r.words(), at + 3,
                      "OpTypePointer: operand %200 is not below the id bound "
                      "100"));
}

TEST(ReaderErrorsTest, OperandIdZero) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.Add(Op::OpDecorate, {0, U(spv::Decoration::Restrict)});
  EXPECT_TRUE(FailsAt(r.words(), at + 1, "operand %0 is not a valid id"));
}

TEST(ReaderErrorsTest, UnknownOpcode) {
  ASSERT_EQ(FindOpcode(999), nullptr);
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.Add(static_cast<Op>(999), {1, 2});
  EXPECT_TRUE(FailsAt(r.words(), at, "unknown opcode 999"));
}

TEST(ReaderErrorsTest, UnknownValueEnum) {
  RawModule r(100);
  r.KernelPrologue();
  r.Add(Op::OpTypeInt, {kUint, 32, 0});
  const size_t at = r.Add(Op::OpTypePointer, {kFree, 999, kUint});
  EXPECT_TRUE(FailsAt(r.words(), at + 2,
                      "OpTypePointer: 999 is not a valid StorageClass"));
}

TEST(ReaderErrorsTest, BadBitEnumBit) {
  RawModule r(100);
  r.KernelPrologue();
  r.Add(Op::OpTypeVoid, {kVoid});
  r.Add(Op::OpTypeFunction, {kFnTy, kVoid});
  const size_t at = r.Add(Op::OpFunction, {kVoid, kMain, 0x40000000, kFnTy});
  EXPECT_TRUE(FailsAt(r.words(), at + 3,
                      "OpFunction: bit 0x40000000 is not a valid "
                      "FunctionControl"));
}

TEST(ReaderErrorsTest, BitEnumParameterMissing) {
  const size_t at = Kernel().size() - 2;
  RawModule r = Kernel([](RawModule& r) {
    r.Add(Op::OpVariable, {kFree, kFree + 1, U(spv::StorageClass::Function)});
    // Aligned needs a literal; the instruction ends after the mask.
    r.Add(Op::OpStore,
          {kFree + 1, kFree + 1, U(spv::MemoryAccessMask::Aligned)});
  });
  // The OpVariable's result type is undeclared, which the reader does not
  // check (spirv-val does); the OpStore after it is 4 words long.
  EXPECT_TRUE(FailsAt(r.words(), at + 4,
                      "OpStore is missing a LiteralInteger operand required "
                      "by a preceding operand"));
}

TEST(ReaderErrorsTest, ValueEnumParameterMissing) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at =
      r.Add(Op::OpDecorate, {kFree, U(spv::Decoration::Alignment)});
  EXPECT_TRUE(FailsAt(r.words(), at, "missing a LiteralInteger operand"));
}

TEST(ReaderErrorsTest, TruncatedStringLiteral) {
  RawModule r(100);
  r.KernelPrologue();
  // "abcd" fills its word; the nul word that must follow is missing.
  const size_t at = r.Add(Op::OpSourceExtension, {0x64636261});
  EXPECT_TRUE(FailsAt(r.words(), at,
                      "OpSourceExtension: string literal is not "
                      "nul-terminated"));
}

TEST(ReaderErrorsTest, MissingRequiredOperand) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.Add(Op::OpTypeInt, {kUint, 32});
  EXPECT_TRUE(
      FailsAt(r.words(), at, "OpTypeInt is missing its operand 'Signedness'"));
}

TEST(ReaderErrorsTest, ExtraWords) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.Add(Op::OpTypeVoid, {kVoid, 7, 8});
  EXPECT_TRUE(FailsAt(r.words(), at,
                      "OpTypeVoid has 2 word(s) beyond its "
                      "operands"));
}

TEST(ReaderErrorsTest, RedefinedId) {
  RawModule r(100);
  r.KernelPrologue();
  r.Add(Op::OpTypeVoid, {kVoid});
  const size_t at = r.Add(Op::OpTypeBool, {kVoid});
  EXPECT_TRUE(FailsAt(r.words(), at, "OpTypeBool redefines id %1"));
}

TEST(ReaderErrorsTest, FunctionNotEnded) {
  RawModule r = Kernel();
  r.words().pop_back();  // drop OpFunctionEnd
  EXPECT_TRUE(FailsAt(r.words(), r.size(),
                      "module ends inside a function (missing "
                      "OpFunctionEnd)"));
}

TEST(ReaderErrorsTest, FunctionInsideFunction) {
  const size_t at = Kernel().size() - 2;
  RawModule r = Kernel([](RawModule& r) {
    r.Add(Op::OpFunction, {kVoid, kFree, 0, kFnTy});
  });
  EXPECT_TRUE(FailsAt(r.words(), at, "OpFunction inside a function"));
}

TEST(ReaderErrorsTest, FunctionParameterAfterLabel) {
  const size_t at = Kernel().size() - 2;
  RawModule r = Kernel([](RawModule& r) {
    r.Add(Op::OpFunctionParameter, {kUint, kFree});
  });
  EXPECT_TRUE(FailsAt(r.words(), at,
                      "OpFunctionParameter after the function's first block"));
}

TEST(ReaderErrorsTest, InstructionBeforeFirstLabel) {
  RawModule r(100);
  r.KernelPrologue();
  r.Add(Op::OpTypeVoid, {kVoid});
  r.Add(Op::OpTypeFunction, {kFnTy, kVoid});
  r.Add(Op::OpFunction, {kVoid, kMain, 0, kFnTy});
  const size_t at = r.Add(Op::OpReturn, {});
  r.Add(Op::OpFunctionEnd, {});
  EXPECT_TRUE(
      FailsAt(r.words(), at, "OpReturn before the function's first OpLabel"));
}

TEST(ReaderErrorsTest, FunctionBodyInstructionAtModuleScope) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.Add(Op::OpReturn, {});
  EXPECT_TRUE(FailsAt(r.words(), at, "OpReturn outside a function body"));
}

TEST(ReaderErrorsTest, OutOfLayoutOrder) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.Add(Op::OpCapability, {U(spv::Capability::Int8)});
  EXPECT_TRUE(FailsAt(r.words(), at,
                      "OpCapability belongs to the capabilities section but "
                      "follows the memory model section"));
}

TEST(ReaderErrorsTest, TypeAfterFunction) {
  RawModule r = Kernel();
  const size_t at = r.Add(Op::OpTypeBool, {kFree});
  EXPECT_TRUE(FailsAt(r.words(), at, "follows the functions section"));
}

TEST(ReaderErrorsTest, LineBetweenFunctionsIsNotRepresentable) {
  // Valid SPIR-V, but the module model has no place to keep it, and
  // moving it would break the word-for-word round trip.
  RawModule r = Kernel();
  // OpString "" goes in the debug section, just before the first type.
  const auto types = std::find(r.words().begin(), r.words().end(),
                               (2u << 16) | U(Op::OpTypeVoid));
  ASSERT_NE(types, r.words().end());
  r.words().insert(types, {(3u << 16) | U(Op::OpString), kFree, 0});
  ASSERT_TRUE(ReadModuleWords(r.words()).ok())
      << ReadModuleWords(r.words()).status();
  const size_t at = r.Add(Op::OpLine, {kFree, 1, 1});
  r.Add(Op::OpFunction, {kVoid, kFree + 1, 0, kFnTy});
  r.Add(Op::OpFunctionEnd, {});
  EXPECT_TRUE(FailsAt(r.words(), at, "OpLine between functions"));
}

TEST(ReaderErrorsTest, ConstantOfUndeclaredType) {
  RawModule r(100);
  r.KernelPrologue();
  const size_t at = r.Add(Op::OpConstant, {7, kFree, 5});
  EXPECT_TRUE(FailsAt(r.words(), at,
                      "OpConstant: type %7 of a numeric literal is not a "
                      "previously declared OpTypeInt or OpTypeFloat"));
}

TEST(ReaderErrorsTest, ConstantOfNonNumericType) {
  RawModule r(100);
  r.KernelPrologue();
  r.Add(Op::OpTypeBool, {7});
  const size_t at = r.Add(Op::OpConstant, {7, kFree, 1});
  EXPECT_TRUE(FailsAt(r.words(), at, "type %7 of a numeric literal"));
}

TEST(ReaderErrorsTest, SwitchOnSelectorOfUnknownType) {
  const size_t at = Kernel().size() - 2;
  RawModule r = Kernel([](RawModule& r) {
    // The selector is a label: it has no type, so case literals have no
    // width.
    r.Add(Op::OpSwitch, {kEntry, kEntry, 1, kEntry});
  });
  EXPECT_TRUE(FailsAt(r.words(), at, "OpSwitch: type %0 of a numeric literal"));
}

TEST(ReaderErrorsTest, SixtyFourBitLiteralCutShort) {
  RawModule r(100);
  r.KernelPrologue();
  r.Add(Op::OpTypeInt, {kUlong, 64, 0});
  const size_t at = r.Add(Op::OpConstant, {kUlong, kFree, 5});
  EXPECT_TRUE(FailsAt(r.words(), at,
                      "a 64-bit literal needs 2 words but the instruction "
                      "ends"));
}

TEST(ReaderErrorsTest, SixtyFourBitSwitchCaseCutShort) {
  const size_t at = Kernel().size() - 2 + 3;  // after the OpUndef
  RawModule r = Kernel([](RawModule& r) {
    r.Add(Op::OpUndef, {kUlong, kFree});
    r.Add(Op::OpSwitch, {kFree, kEntry, 1, 0, kEntry, 2});
  });
  EXPECT_TRUE(FailsAt(r.words(), at, "64-bit literal needs 2 words"));
}

TEST(ReaderErrorsTest, UnknownOpenClStdInstruction) {
  RawModule r(100);
  r.KernelPrologue();
  // OpExtInstImport goes before the memory model: rebuild the prologue.
  r.words().resize(5 + 2 * 3);
  r.Add(Op::OpExtInstImport, Cat({{kFree}, StringWords("OpenCL.std")}));
  r.Add(Op::OpMemoryModel,
        {U(spv::AddressingModel::Physical64), U(spv::MemoryModel::OpenCL)});
  r.Add(Op::OpTypeInt, {kUint, 32, 0});
  r.Add(Op::OpConstant, {kUint, kFree + 1, 3});
  r.Add(Op::OpTypeVoid, {kVoid});
  r.Add(Op::OpTypeFunction, {kFnTy, kVoid});
  r.Add(Op::OpFunction, {kVoid, kMain, 0, kFnTy});
  r.Add(Op::OpLabel, {kEntry});
  const std::vector<uint32_t> prefix = r.words();

  const size_t at =
      r.Add(Op::OpExtInst, {kUint, kFree + 2, kFree, 9999, kFree + 1});
  r.Add(Op::OpReturn, {});
  r.Add(Op::OpFunctionEnd, {});
  EXPECT_TRUE(FailsAt(r.words(), at,
                      "OpExtInst: 9999 is not an OpenCL.std instruction"));

  // fma with two of its three operands.
  RawModule fma;
  fma.words() = prefix;
  const size_t fma_at = fma.Add(
      Op::OpExtInst, {kUint, kFree + 2, kFree, 26, kFree + 1, kFree + 1});
  fma.Add(Op::OpReturn, {});
  fma.Add(Op::OpFunctionEnd, {});
  EXPECT_TRUE(FailsAt(fma.words(), fma_at,
                      "OpExtInst OpenCL.std fma is missing operand 'c'"));

  // s_abs with an extra operand.
  RawModule abs;
  abs.words() = prefix;
  const size_t abs_at = abs.Add(
      Op::OpExtInst, {kUint, kFree + 2, kFree, 141, kFree + 1, kFree + 1});
  abs.Add(Op::OpReturn, {});
  abs.Add(Op::OpFunctionEnd, {});
  EXPECT_TRUE(FailsAt(abs.words(), abs_at,
                      "OpExtInst OpenCL.std s_abs has 1 word(s) beyond its "
                      "operands"));
}

TEST(ReaderErrorsTest, NestedSpecConstantOpIsRejected) {
  // OpSpecConstantOp cannot compute another OpSpecConstantOp; accepting
  // the nesting would let one instruction recurse 65535 levels deep.
  RawModule r(100);
  r.KernelPrologue();
  r.Add(Op::OpTypeInt, {kUint, 32, 0});
  std::vector<uint32_t> operands = {kUint, kFree};
  for (int i = 0; i < 20000; ++i) operands.push_back(U(Op::OpSpecConstantOp));
  const size_t at = r.Add(Op::OpSpecConstantOp, operands);
  EXPECT_TRUE(FailsAt(r.words(), at, "OpSpecConstantOp: opcode "));
}

TEST(ReaderErrorsTest, SpecConstantOpWithUnknownOpcode) {
  RawModule r(100);
  r.KernelPrologue();
  r.Add(Op::OpTypeInt, {kUint, 32, 0});
  const size_t at = r.Add(Op::OpSpecConstantOp, {kUint, kFree, 999, kUint});
  EXPECT_TRUE(FailsAt(r.words(), at, "OpSpecConstantOp: unknown opcode 999"));
}

// Every truncation and every single-word corruption of a valid module is
// either read or rejected with a word offset: never a crash (the ASan build
// runs this too).
TEST(ReaderErrorsTest, EveryTruncationAndCorruptionIsHandled) {
  for (const std::string& name : test::HandWrittenModuleNames()) {
    auto words = test::AssembleHandWritten(name);
    ASSERT_TRUE(words.ok()) << words.status();
    for (size_t n = 0; n < words->size(); ++n) {
      std::vector<uint32_t> cut(words->begin(), words->begin() + n);
      auto m = ReadModule(HostBytes(cut));
      if (!m.ok()) {
        EXPECT_THAT(m.status().message(), ::testing::HasSubstr("word "));
      } else {
        EXPECT_EQ(EncodeModule(*m), cut);
      }
    }
    for (size_t i = 0; i < words->size(); ++i) {
      for (uint32_t flip : {0u, 0xFFFFFFFFu, 0x00010000u, 1u, 0x80000000u}) {
        std::vector<uint32_t> bad = *words;
        bad[i] = flip == 0 ? 0 : bad[i] ^ flip;
        auto m = ReadModule(HostBytes(bad));
        if (!m.ok()) {
          EXPECT_THAT(m.status().message(), ::testing::HasSubstr("word "))
              << name << " word " << i;
        } else {
          EXPECT_EQ(EncodeModule(*m), bad) << name << " word " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace l0spv::spirv
