// oracles/compare/compare.h — compares what a target produced with what the
// reference produced for the same TestCase: statuses, every result buffer
// and the printf output.
//
// Contract:
//  - Two kOk executions are equal when every buffer argument marked
//    `is_result` has the same size and bytes, except where a FloatTolerance
//    covers an element: there the two values (f16/f32/f64, little-endian)
//    must be within `ulp` ulps OR within `relative` × max(|a|, |b|) OR within
//    `absolute` of each other; NaN equals NaN whatever the payload (unless
//    compare_nan_payloads); a NaN never equals a number. Elements a skip
//    entry covers are not compared. printf output is compared as a multiset
//    of canonical lines (compare_printf.h: work-items interleave).
//  - Result images (kImage arguments marked `is_result`) are compared texel
//    by texel with the conversion tolerances of compare_image.h.
//  - Executions whose statuses differ, or that are not both kOk, are equal
//    only when both have the same non-ok status (the messages may differ).
//  - `explanation` names the argument, the element index and byte range, the
//    expected (reference) and actual values in decimal and hex, the
//    tolerance applied and how many elements differ in total.
//  - `signature_kind` is a short stable word for dedup: "status", "size",
//    "bytes", "float-f16"/"float-f32"/"float-f64", "nan", "printf", "image"
//    (empty when equal).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracles/execution.h"
#include "spirv/test_case.h"

namespace l0spv::oracles {

enum class FloatType { kF16, kF32, kF64 };
const char* FloatTypeName(FloatType type);  // "f16", "f32", "f64"
size_t FloatTypeBytes(FloatType type);

struct FloatTolerance {
  size_t arg = 0;  // argument index (a result buffer)
  FloatType type = FloatType::kF32;
  double ulp = 0;
  double relative = 0;
  double absolute = 0;
  // Elements are grouped in records of `record` elements (e.g. one row per
  // work-item); `fields` lists the element positions inside a record this
  // entry covers. record 0 or empty fields = every element of the buffer.
  uint64_t record = 0;
  std::vector<uint64_t> fields;
  bool skip = false;   // covered elements are not compared at all
  std::string reason;  // why (shown in explanations)
};

struct CompareOptions {
  // The first entry that covers an element applies to it.
  std::vector<FloatTolerance> tolerances;
  bool compare_nan_payloads = false;
};

struct CompareResult {
  bool equal = true;
  std::string explanation;
  std::string signature_kind;
};

// The comparison options a test case asks for: its recorded per-result
// tolerances (TestCase::tolerances), converted.
CompareOptions CompareOptionsFor(const spirv::TestCase& test_case);

CompareResult CompareExecutions(const spirv::TestCase& test_case,
                                const Execution& reference,
                                const Execution& other,
                                const CompareOptions& options);

// Distance in ulps between two finite-or-infinite values of `type` given as
// raw bits (ordered-integer distance; +0 and -0 are 0 apart).
uint64_t UlpDistance(FloatType type, uint64_t a_bits, uint64_t b_bits);

}  // namespace l0spv::oracles
