#include "oracles/compare/compare.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "oracles/compare/compare_image.h"
#include "oracles/compare/compare_printf.h"
#include "oracles/compare/float_bits.h"

namespace l0spv::oracles {
namespace {

using compare_internal::Describe;
using compare_internal::IsNan;
using compare_internal::LoadBits;
using compare_internal::ToDouble;

CompareResult Differ(std::string kind, std::string explanation) {
  return {false, std::move(explanation), std::move(kind)};
}

bool Covers(const FloatTolerance& t, uint64_t element) {
  if (t.record == 0 || t.fields.empty()) return true;
  return std::find(t.fields.begin(), t.fields.end(), element % t.record) !=
         t.fields.end();
}

std::string ToleranceText(const FloatTolerance& t) {
  std::string s = absl::StrCat(FloatTypeName(t.type), " within ");
  std::vector<std::string> parts;
  if (t.ulp > 0) parts.push_back(absl::StrCat(t.ulp, " ulp"));
  if (t.relative > 0) parts.push_back(absl::StrCat("relative ", t.relative));
  if (t.absolute > 0) parts.push_back(absl::StrCat("absolute ", t.absolute));
  if (parts.empty()) parts.push_back("0 ulp");
  absl::StrAppend(&s, absl::StrJoin(parts, " or "));
  if (!t.reason.empty()) absl::StrAppend(&s, " (", t.reason, ")");
  return s;
}

// Result of comparing one toleranced element.
enum class FloatVerdict { kEqual, kNanMismatch, kOutOfTolerance };

FloatVerdict CompareFloat(const FloatTolerance& t, uint64_t a, uint64_t b,
                          bool nan_payloads, uint64_t* ulps) {
  *ulps = 0;
  if (a == b) return FloatVerdict::kEqual;
  const bool an = IsNan(t.type, a), bn = IsNan(t.type, b);
  if (an || bn) {
    if (an && bn && !nan_payloads) return FloatVerdict::kEqual;
    return FloatVerdict::kNanMismatch;
  }
  *ulps = UlpDistance(t.type, a, b);
  if (t.ulp > 0 && static_cast<double>(*ulps) <= t.ulp)
    return FloatVerdict::kEqual;
  const double x = ToDouble(t.type, a), y = ToDouble(t.type, b);
  const double diff = std::fabs(x - y);
  if (t.relative > 0 &&
      diff <= t.relative * std::max(std::fabs(x), std::fabs(y)))
    return FloatVerdict::kEqual;
  if (t.absolute > 0 && diff <= t.absolute) return FloatVerdict::kEqual;
  return FloatVerdict::kOutOfTolerance;
}

std::string HexBytes(const std::vector<uint8_t>& b, size_t from, size_t to) {
  std::string s;
  for (size_t i = from; i < to && i < b.size(); ++i)
    absl::StrAppendFormat(&s, "%02x", b[i]);
  return s;
}

// Compares one result buffer; nullopt-like: equal result when it matches.
CompareResult CompareBuffer(size_t arg, const std::vector<uint8_t>& expected,
                            const std::vector<uint8_t>& actual,
                            const CompareOptions& options) {
  if (expected.size() != actual.size()) {
    return Differ("size",
                  absl::StrFormat("argument %d: buffer has %d bytes on the "
                                  "reference but %d on the target",
                                  arg, expected.size(), actual.size()));
  }
  std::vector<const FloatTolerance*> mine;
  for (const FloatTolerance& t : options.tolerances)
    if (t.arg == arg) mine.push_back(&t);

  // Byte i is covered by at most one tolerance entry (the first covering
  // its element); the rest must match exactly.
  uint64_t differing = 0;
  std::string first, first_kind;
  size_t i = 0;
  while (i < expected.size()) {
    const FloatTolerance* t = nullptr;
    for (const FloatTolerance* c : mine) {
      const size_t width = FloatTypeBytes(c->type);
      if (i % width == 0 && i + width <= expected.size() &&
          Covers(*c, i / width)) {
        t = c;
        break;
      }
    }
    if (t == nullptr) {
      if (expected[i] != actual[i]) {
        ++differing;
        if (first.empty()) {
          const size_t lo = i & ~size_t{7};
          const size_t hi = std::min(lo + 8, expected.size());
          first_kind = "bytes";
          first = absl::StrFormat(
              "argument %d: byte %d differs (bytes %d..%d: expected %s, "
              "actual %s; compared exactly)",
              arg, i, lo, hi - 1, HexBytes(expected, lo, hi),
              HexBytes(actual, lo, hi));
        }
      }
      ++i;
      continue;
    }
    const size_t width = FloatTypeBytes(t->type);
    if (!t->skip) {
      const uint64_t a = LoadBits(t->type, &expected[i]);
      const uint64_t b = LoadBits(t->type, &actual[i]);
      uint64_t ulps = 0;
      const FloatVerdict v =
          CompareFloat(*t, a, b, options.compare_nan_payloads, &ulps);
      if (v != FloatVerdict::kEqual) {
        ++differing;
        if (first.empty()) {
          first_kind = v == FloatVerdict::kNanMismatch
                           ? "nan"
                           : absl::StrCat("float-", FloatTypeName(t->type));
          first = absl::StrFormat(
              "argument %d: %s element %d (bytes %d..%d) expected %s, actual "
              "%s: %s; tolerance %s",
              arg, FloatTypeName(t->type), i / width, i, i + width - 1,
              Describe(t->type, a), Describe(t->type, b),
              v == FloatVerdict::kNanMismatch
                  ? std::string("NaN against a number")
                  : absl::StrCat(ulps, " ulp apart"),
              ToleranceText(*t));
        }
      }
    }
    i += width;
  }
  if (differing == 0) return {};
  return Differ(first_kind,
                absl::StrCat(first, "; ", differing,
                             " differing byte(s)/element(s) in this buffer"));
}

}  // namespace

CompareResult CompareExecutions(const spirv::TestCase& test_case,
                                const Execution& reference,
                                const Execution& other,
                                const CompareOptions& options) {
  if (reference.status != ExecutionStatus::kOk ||
      other.status != ExecutionStatus::kOk) {
    if (reference.status == other.status) return {};
    return Differ(
        "status",
        absl::StrCat("status differs: reference ",
                     ExecutionStatusName(reference.status),
                     reference.message.empty() ? "" : " (", reference.message,
                     reference.message.empty() ? "" : ")", ", target ",
                     ExecutionStatusName(other.status),
                     other.message.empty() ? "" : " (", other.message,
                     other.message.empty() ? "" : ")"));
  }
  for (size_t arg = 0; arg < test_case.args.size(); ++arg) {
    const spirv::KernelArg& a = test_case.args[arg];
    const bool image = a.kind == spirv::KernelArg::Kind::kImage;
    if ((a.kind != spirv::KernelArg::Kind::kBuffer && !image) || !a.is_result)
      continue;
    static const std::vector<uint8_t> kNone;
    const auto& expected =
        arg < reference.buffers.size() ? reference.buffers[arg] : kNone;
    const auto& actual =
        arg < other.buffers.size() ? other.buffers[arg] : kNone;
    CompareResult r = image ? CompareImage(arg, a.image, expected, actual)
                            : CompareBuffer(arg, expected, actual, options);
    if (!r.equal) return r;
  }
  return ComparePrintf(reference.printf_output, other.printf_output);
}

CompareOptions CompareOptionsFor(const spirv::TestCase& test_case) {
  CompareOptions options;
  for (const spirv::ResultTolerance& t : test_case.tolerances) {
    FloatTolerance f;
    f.arg = t.arg;
    f.type = t.type == "f16"   ? FloatType::kF16
             : t.type == "f64" ? FloatType::kF64
                               : FloatType::kF32;
    f.ulp = t.ulp;
    f.relative = t.relative;
    f.absolute = t.absolute;
    f.record = t.record;
    f.fields = t.fields;
    f.skip = t.skip;
    f.reason = t.reason;
    options.tolerances.push_back(std::move(f));
  }
  return options;
}

}  // namespace l0spv::oracles
