// Tests of oracles/compare: exact buffers, float tolerances, NaN, printf,
// statuses and the explanations.
#include "oracles/compare/compare.h"

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

TEST(CompareExecutions, PrintfIsComparedExactly) {
  const auto tc = CaseWith({});
  const CompareResult r =
      CompareExecutions(tc, Ok({}, "a 1\nb 2\n"), Ok({}, "a 1\nb 3\n"), {});
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.signature_kind, "printf");
  EXPECT_THAT(r.explanation, HasSubstr("expected line \"b 2\""));
  EXPECT_THAT(r.explanation, HasSubstr("actual line \"b 3\""));
  EXPECT_FALSE(CompareExecutions(tc, Ok({}, "x\n"), Ok({}, "x\r\n"), {}).equal);
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
