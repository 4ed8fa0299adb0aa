// Tests of oracles/compare: exact buffers, float tolerances, NaN, printf,
// statuses and the explanations.
#include "oracles/compare/compare.h"
#include "oracles/compare/compare_printf.h"

#include <cstring>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace l0spv::oracles {
namespace {

using ::testing::HasSubstr;

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

spirv::TestCase CaseWith(std::vector<bool> results) {
  spirv::TestCase tc;
  for (bool r : results) {
    spirv::KernelArg a;
    a.kind = spirv::KernelArg::Kind::kBuffer;
    a.is_result = r;
    tc.args.push_back(a);
  }
  return tc;
}

Execution Ok(std::vector<std::vector<uint8_t>> buffers, std::string out = "") {
  Execution e;
  e.buffers = std::move(buffers);
  e.printf_output = std::move(out);
  return e;
}

FloatTolerance Tol(size_t arg, FloatType type, double ulp) {
  FloatTolerance t;
  t.arg = arg;
  t.type = type;
  t.ulp = ulp;
  return t;
}

float NextUp(float f, int n) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += n;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST(CompareExecutions, IdenticalExecutionsAreEqual) {
  const auto tc = CaseWith({true});
  const auto e = Ok({Bytes<uint32_t>({1, 2, 3})}, "hi\n");
  const CompareResult r = CompareExecutions(tc, e, e, {});
  EXPECT_TRUE(r.equal);
  EXPECT_TRUE(r.explanation.empty());
  EXPECT_TRUE(r.signature_kind.empty());
}

TEST(CompareExecutions, IntegerDifferenceNamesArgumentAndBytes) {
  const auto tc = CaseWith({false, true});
  const auto ref = Ok({{}, Bytes<uint32_t>({1, 2, 3, 4})});
  const auto other = Ok({{}, Bytes<uint32_t>({1, 2, 7, 4})});
  const CompareResult r = CompareExecutions(tc, ref, other, {});
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.signature_kind, "bytes");
  EXPECT_THAT(r.explanation, HasSubstr("argument 1: byte 8 differs"));
  EXPECT_THAT(r.explanation, HasSubstr("expected 0300000004000000"));
  EXPECT_THAT(r.explanation, HasSubstr("actual 0700000004000000"));
}

TEST(CompareExecutions, NonResultBuffersAreIgnored) {
  const auto tc = CaseWith({false, true});
  const auto ref = Ok({Bytes<uint32_t>({1}), Bytes<uint32_t>({2})});
  const auto other = Ok({Bytes<uint32_t>({9}), Bytes<uint32_t>({2})});
  EXPECT_TRUE(CompareExecutions(tc, ref, other, {}).equal);
}

TEST(CompareExecutions, SizeMismatch) {
  const auto tc = CaseWith({true});
  const CompareResult r = CompareExecutions(tc, Ok({Bytes<uint32_t>({1, 2})}),
                                            Ok({Bytes<uint32_t>({1})}), {});
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.signature_kind, "size");
}

TEST(CompareExecutions, FloatsWithinUlpToleranceAreEqualBeyondAreNot) {
  const auto tc = CaseWith({true});
  CompareOptions o;
  o.tolerances.push_back(Tol(0, FloatType::kF32, 4));
  const auto ref = Ok({Bytes<float>({1.0f, -3.5f})});
  EXPECT_TRUE(CompareExecutions(tc, ref,
                                Ok({Bytes<float>({NextUp(1.0f, 4), -3.5f})}), o)
                  .equal);
  const CompareResult r = CompareExecutions(
      tc, ref, Ok({Bytes<float>({1.0f, NextUp(-3.5f, 5)})}), o);
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.signature_kind, "float-f32");
  EXPECT_THAT(r.explanation, HasSubstr("f32 element 1 (bytes 4..7)"));
  EXPECT_THAT(r.explanation, HasSubstr("5 ulp apart"));
  EXPECT_THAT(r.explanation, HasSubstr("tolerance f32 within 4 ulp"));
  // Without a tolerance the same floats are compared bit for bit.
  EXPECT_FALSE(CompareExecutions(
                   tc, ref, Ok({Bytes<float>({NextUp(1.0f, 1), -3.5f})}), {})
                   .equal);
}

TEST(CompareExecutions, UlpDistanceCrossesZero) {
  EXPECT_EQ(UlpDistance(FloatType::kF32, 0x00000000, 0x80000000), 0u);
  EXPECT_EQ(UlpDistance(FloatType::kF32, 0x00000001, 0x80000001), 2u);
  EXPECT_EQ(UlpDistance(FloatType::kF16, 0x3c00, 0x3c03), 3u);
  EXPECT_EQ(
      UlpDistance(FloatType::kF64, 0x3ff0000000000000, 0x3ff0000000000010),
      16u);
}

TEST(CompareExecutions, NanEqualsNanRegardlessOfPayloadButNotANumber) {
  const auto tc = CaseWith({true});
  CompareOptions o;
  o.tolerances.push_back(Tol(0, FloatType::kF32, 1));
  const auto ref = Ok({Bytes<uint32_t>({0x7fc00000})});
  EXPECT_TRUE(
      CompareExecutions(tc, ref, Ok({Bytes<uint32_t>({0xffc00001})}), o).equal);
  const CompareResult r =
      CompareExecutions(tc, ref, Ok({Bytes<uint32_t>({0x7f7fffff})}), o);
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.signature_kind, "nan");
  o.compare_nan_payloads = true;
  EXPECT_FALSE(
      CompareExecutions(tc, ref, Ok({Bytes<uint32_t>({0xffc00001})}), o).equal);
}

TEST(CompareExecutions, RecordFieldsLimitTheToleranceOthersStayExact) {
  // Records of 2 elements: field 0 is a float with tolerance, field 1 an
  // integer that must match exactly even if it is "1 ulp" away.
  const auto tc = CaseWith({true});
  CompareOptions o;
  o.tolerances.push_back(Tol(0, FloatType::kF32, 8));
  o.tolerances.back().record = 2;
  o.tolerances.back().fields = {0};
  const auto ref = Ok({Bytes<uint32_t>({0x3f800000, 5, 0x40000000, 6})});
  EXPECT_TRUE(
      CompareExecutions(
          tc, ref, Ok({Bytes<uint32_t>({0x3f800003, 5, 0x3ffffffe, 6})}), o)
          .equal);
  const CompareResult r = CompareExecutions(
      tc, ref, Ok({Bytes<uint32_t>({0x3f800000, 5, 0x40000000, 7})}), o);
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.signature_kind, "bytes");
  EXPECT_THAT(r.explanation, HasSubstr("byte 12 differs"));
}

TEST(CompareExecutions, RelativeAndSkipTolerances) {
  const auto tc = CaseWith({true, true});
  CompareOptions o;
  o.tolerances.push_back(Tol(0, FloatType::kF64, 0));
  o.tolerances.back().relative = 1e-3;
  o.tolerances.push_back(Tol(1, FloatType::kF16, 0));
  o.tolerances.back().skip = true;
  o.tolerances.back().reason = "native_* result";
  const auto ref = Ok({Bytes<double>({1000.0}), Bytes<uint16_t>({0x3c00})});
  EXPECT_TRUE(
      CompareExecutions(tc, ref,
                        Ok({Bytes<double>({1000.9}), Bytes<uint16_t>({0})}), o)
          .equal);
  const CompareResult r = CompareExecutions(
      tc, ref, Ok({Bytes<double>({1001.5}), Bytes<uint16_t>({0})}), o);
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.signature_kind, "float-f64");
  EXPECT_THAT(r.explanation, HasSubstr("relative 0.001"));
}

TEST(CompareExecutions, PrintfLinesMayComeInAnyOrder) {
  const auto tc = CaseWith({});
  EXPECT_TRUE(
      CompareExecutions(tc, Ok({}, "a 1\nb 2\n"), Ok({}, "b 2\na 1\n"), {})
          .equal);
  const CompareResult r =
      CompareExecutions(tc, Ok({}, "a 1\nb 2\n"), Ok({}, "a 1\nb 3\n"), {});
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.signature_kind, "printf");
  EXPECT_THAT(r.explanation,
              HasSubstr("line \"b 2\" printed 1 time(s) by the reference, 0 "
                        "by the target"));
  // The same lines a different number of times.
  const CompareResult twice =
      CompareExecutions(tc, Ok({}, "a 1\na 1\n"), Ok({}, "a 1\n"), {});
  EXPECT_FALSE(twice.equal);
  EXPECT_THAT(twice.explanation, HasSubstr("printed 2 time(s) by the "
                                           "reference, 1 by the target"));
  // Line ends are part of the line.
  EXPECT_FALSE(CompareExecutions(tc, Ok({}, "x\n"), Ok({}, "x\r\n"), {}).equal);
  EXPECT_FALSE(CompareExecutions(tc, Ok({}, "x\n"), Ok({}, "x"), {}).equal);
  EXPECT_FALSE(CompareExecutions(tc, Ok({}, "x\n"), Ok({}, ""), {}).equal);
}

TEST(CompareExecutions, HexFloatsCompareByValueNaNsBySpelling) {
  const auto tc = CaseWith({});
  const auto same = [&](const std::string& a, const std::string& b) {
    return CompareExecutions(tc, Ok({}, a), Ok({}, b), {}).equal;
  };
  // Any normalisation of %a is allowed.
  EXPECT_TRUE(same("v=0x1.8p+0,-0x1p-2\n", "v=0xc.0p-3,-0x8p-5\n"));
  EXPECT_TRUE(same("0X1.8P+0\n", "0X3P-1\n"));
  EXPECT_TRUE(same("+0x1p+0\n", "+0x2p-1\n"));
  // A different value, case or explicit sign is not.
  EXPECT_FALSE(same("0x1.8p+0\n", "0x1.9p+0\n"));
  EXPECT_FALSE(same("0x1p+0\n", "0X1P+0\n"));
  EXPECT_FALSE(same("+0x1p+0\n", "0x1p+0\n"));
  // The style of a NaN is implementation-defined, its case is not.
  EXPECT_TRUE(same("nan -nan\n", "-nan nan(0x7fc00000)\n"));
  EXPECT_FALSE(same("nan\n", "NAN\n"));
  EXPECT_FALSE(same("nan\n", "inf\n"));
  // Only whole tokens: words containing the letters stay as they are.
  EXPECT_EQ(CanonicalPrintfLine("banana nano x0x1p3 0x1f"),
            "banana nano x0x1p3 0x1f");
  EXPECT_EQ(CanonicalPrintfLine("[0xc.0p-3]"), "[0x1.8p+0]");
}

TEST(CompareExecutions, StatusesMustAgree) {
  const auto tc = CaseWith({true});
  Execution failed;
  failed.status = ExecutionStatus::kBuildFailed;
  failed.message = "boom";
  const CompareResult r =
      CompareExecutions(tc, Ok({Bytes<uint32_t>({1})}), failed, {});
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.signature_kind, "status");
  EXPECT_THAT(r.explanation, HasSubstr("target build-failed (boom)"));
  EXPECT_TRUE(CompareExecutions(tc, failed, failed, {}).equal);
}

}  // namespace
}  // namespace l0spv::oracles
