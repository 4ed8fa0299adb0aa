// Tests of oracles/verdict: every verdict kind and stable signatures.
#include "oracles/verdict/verdict.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

spirv::TestCase OneResultBuffer() {
  spirv::TestCase tc;
  spirv::KernelArg a;
  a.kind = spirv::KernelArg::Kind::kBuffer;
  a.bytes = {1, 2, 3, 4};
  a.is_result = true;
  tc.args.push_back(a);
  return tc;
}

Execution Ok(std::vector<uint8_t> bytes) {
  Execution e;
  e.buffers = {std::move(bytes)};
  return e;
}

TEST(VerdictTest, EqualResultsAreOk) {
  const auto tc = OneResultBuffer();
  const Verdict v =
      Judge(tc, Ok({1, 2, 3, 4}), "opencl:PoCL", true, Ok({1, 2, 3, 4}));
  EXPECT_EQ(v.kind, VerdictKind::kOk);
  EXPECT_FALSE(v.IsFinding());
  EXPECT_TRUE(v.signature.empty());
}

TEST(VerdictTest, DifferentBytesAreAMismatch) {
  const auto tc = OneResultBuffer();
  const Verdict v =
      Judge(tc, Ok({1, 2, 3, 4}), "opencl:Portable Computing Language", true,
            Ok({1, 2, 9, 4}));
  EXPECT_EQ(v.kind, VerdictKind::kMismatch);
  EXPECT_EQ(v.signature, "mismatch:opencl-portable:bytes");
  EXPECT_THAT(v.explanation, HasSubstr("arg"));
}

TEST(VerdictTest, CompileOnlyTargetsAreNotCompared) {
  const auto tc = OneResultBuffer();
  Execution accepted;  // kOk, no buffers
  EXPECT_EQ(Judge(tc, Ok({1, 2, 3, 4}), "ocloc:tgllp", false, accepted).kind,
            VerdictKind::kOk);
}

TEST(VerdictTest, CrashSignatureIgnoresNumbersAndPaths) {
  const auto tc = OneResultBuffer();
  Execution a, b;
  a.status = b.status = ExecutionStatus::kCrashed;
  a.message = "signal 6 (Aborted)";
  b.message = "signal 6 (Aborted)";
  a.log = "/usr/lib/x/libigc.so: assertion 'x' failed at 0x7f001234 %17\n";
  b.log = "/opt/y/libigc.so: assertion 'y' failed at 0x7f00ffff %99\n";
  const Verdict va = Judge(tc, Ok({1}), "ocloc:dg2", false, a);
  const Verdict vb = Judge(tc, Ok({1}), "ocloc:dg2", false, b);
  EXPECT_EQ(va.kind, VerdictKind::kCrash);
  EXPECT_EQ(va.signature, vb.signature);
  EXPECT_THAT(va.signature, StartsWith("crash:ocloc-dg2:"));
  // A different message is a different bug.
  b.log = "segfault in the register allocator\n";
  EXPECT_NE(va.signature, Judge(tc, Ok({1}), "ocloc:dg2", false, b).signature);
}

TEST(VerdictTest, RejectionUsesFirstMeaningfulLogLine) {
  const auto tc = OneResultBuffer();
  Execution e;
  e.status = ExecutionStatus::kBuildFailed;
  e.log =
      "Compilation from IR - skipping loading of FCL\n"
      "error: Double type is not supported on this platform.\n"
      "error: backend compiler failed build.\n";
  const Verdict v = Judge(tc, Ok({1}), "ocloc:tgllp", false, e);
  EXPECT_EQ(v.kind, VerdictKind::kRejectedValid);
  EXPECT_EQ(v.signature,
            "rejected-valid:ocloc-tgllp:error-double-type-is-not-supported-on-"
            "this-platform.");
  // ocloc link's success line precedes the compile's error.
  e.log =
      "Linker execution has succeeded!\n"
      "Compilation from IR - skipping loading of FCL\n"
      "error: Parsing llvm module failed!\n";
  EXPECT_EQ(Judge(tc, Ok({1}), "ocloc:tgllp", false, e).signature,
            "rejected-valid:ocloc-tgllp:error-parsing-llvm-module-failed");
  e.log = "";
  e.message = "";
  EXPECT_EQ(Judge(tc, Ok({1}), "ocloc:tgllp", false, e).signature,
            "rejected-valid:ocloc-tgllp:no-message");
}

TEST(VerdictTest, TimeoutTargetUbAndSkipped) {
  const auto tc = OneResultBuffer();
  Execution e;
  e.status = ExecutionStatus::kTimedOut;
  EXPECT_EQ(Judge(tc, Ok({1}), "oclgrind", true, e).signature,
            "timeout:oclgrind");
  e.status = ExecutionStatus::kUbDetected;
  e.message = "Invalid read of size 4 at global memory address 0x1000000000010";
  const Verdict ub = Judge(tc, Ok({1}), "oclgrind", true, e);
  EXPECT_EQ(ub.kind, VerdictKind::kTargetUb);
  EXPECT_EQ(ub.signature,
            "target-ub:oclgrind:invalid-read-of-size-4-at-global-"
            "memory-address-n");
  e.status = ExecutionStatus::kUnsupported;
  EXPECT_EQ(Judge(tc, Ok({1}), "gpu", true, e).kind, VerdictKind::kSkipped);
  // Nothing is judged when the reference did not run.
  Execution ref_failed;
  ref_failed.status = ExecutionStatus::kTimedOut;
  EXPECT_EQ(Judge(tc, ref_failed, "gpu", true, Ok({1})).kind,
            VerdictKind::kSkipped);
}

TEST(VerdictTest, ReferenceUbIsAGeneratorBug) {
  Execution ref;
  ref.status = ExecutionStatus::kUbDetected;
  ref.message = "integer division by zero: work-item (3,0,0), function %5";
  const Verdict v = JudgeReference(ref);
  EXPECT_EQ(v.kind, VerdictKind::kUb);
  EXPECT_EQ(v.signature, "ub:ref:integer-division-by-zero");
  EXPECT_THAT(v.explanation, HasSubstr("generator bug"));
  ref.status = ExecutionStatus::kOk;
  EXPECT_EQ(JudgeReference(ref).kind, VerdictKind::kOk);
  ref.status = ExecutionStatus::kUnsupported;
  EXPECT_EQ(JudgeReference(ref).kind, VerdictKind::kSkipped);
}

TEST(VerdictTest, SignaturesAreBoundedAndSafe) {
  const auto tc = OneResultBuffer();
  Execution e;
  e.status = ExecutionStatus::kCrashed;
  e.message = std::string(500, 'x') + " / \\ $ ` ; | & *";
  const Verdict v = Judge(tc, Ok({1}), "spirv-opt:-O", true, e);
  EXPECT_LE(v.signature.size(), 120u);
  EXPECT_EQ(
      v.signature.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789:._-"),
      std::string::npos);
}

TEST(VerdictTest, NormalizeMessage) {
  EXPECT_EQ(NormalizeMessage("id %123 at 0x7fff in /a/b.cc:42 'foo'"),
            "id N at N in P:N Q");
  // Short numbers that name something survive; long ones do not.
  EXPECT_EQ(NormalizeMessage("Unimplemented opcode 149"),
            "Unimplemented opcode 149");
  EXPECT_EQ(NormalizeMessage("index 123456 of 4x"), "index N of N");
  // Positions move with every module: never part of a signature.
  EXPECT_EQ(NormalizeMessage("Invalid instruction OpConstant starting at "
                             "word 446: stated word count is 5"),
            NormalizeMessage("Invalid instruction OpConstant starting at "
                             "word 387: stated word count is 5"));
  EXPECT_EQ(NormalizeMessage("error at line 12"), "error at line N");
}

// Two OpenCL platforms are two consumers: their findings never share a
// signature, while two spellings of one platform do.
TEST(VerdictTest, SignaturesNameTheOpenClPlatform) {
  EXPECT_EQ(TargetKindForSignature("opencl"), "opencl");
  EXPECT_EQ(TargetKindForSignature("opencl:Portable Computing Language"),
            "opencl-portable");
  EXPECT_EQ(TargetKindForSignature("opencl:Intel(R) OpenCL"), "opencl-intel");
  EXPECT_EQ(TargetKindForSignature("opencl:Intel"), "opencl-intel");
  EXPECT_EQ(TargetKindForSignature("opencl:Intel@2024.2.1"),
            "opencl-intel-2024.2.1");
  EXPECT_EQ(TargetKindForSignature("ocloc:tgllp"), "ocloc-tgllp");
  EXPECT_EQ(TargetKindForSignature("spirv-opt:ccp"), "spirv-opt");
  EXPECT_EQ(TargetKindForSignature("spirv-opt@2025.5"), "spirv-opt-2025.5");
}

TEST(VerdictTest, TargetFileStemIsShortSafeAndDistinct) {
  EXPECT_EQ(TargetFileStem("ocloc:tgllp"), "ocloc_tgllp");
  EXPECT_EQ(TargetFileStem("opencl:Portable Computing Language"),
            "opencl_Portable_Computing_Language");
  // A spirv-opt pass list can be thousands of characters: the stem stays a
  // valid file name, and two lists sharing a long prefix stay distinct.
  std::string passes = "spirv-opt:";
  for (int i = 0; i < 60; ++i) passes += "eliminate-dead-code-aggressive,";
  const std::string a = TargetFileStem(passes + "ccp");
  const std::string b = TargetFileStem(passes + "cfg-cleanup");
  EXPECT_LE(a.size(), 100u);
  EXPECT_NE(a, b);
  EXPECT_EQ(a.find_first_of("/: "), std::string::npos);
  EXPECT_EQ(a, TargetFileStem(passes + "ccp"));
}

}  // namespace
}  // namespace l0spv::oracles
