// oracles/reference/scalar_ops.h — the lane semantics of SPIR-V's integer
// and float arithmetic (internal to oracles/reference).
//
// Contract: one implementation of each operation, used both by the
// executor (executor.cc, at run time) and by the decoder's OpSpecConstantOp
// folder (decode_spec_constants.cc, at decode time), so a folded constant
// is exactly what the instruction computes when a work-item runs it. Every
// function is pure and inline (the executor's dispatch loop calls them per
// lane). Integer lanes are unsigned (U is uint8_t .. uint64_t) and wrap.
// IntUndefined names the check a lane fails (division by zero, INT_MIN / -1,
// a shift by the width or more), nullptr when the result is defined; IntLane
// requires a defined lane. Float lanes compute in FloatLane<T>::Compute:
// half in float (one final rounding to half is the correctly rounded half
// result for + - * /, and rem/mod are exact), float in float, double in
// double. Denormal flushing is the caller's (a run-time mode).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "oracles/reference/numeric.h"

namespace l0spv::oracles::reference::scalar {

template <typename U>
using Signed = std::make_signed_t<U>;

template <typename U>
constexpr U kSignedMin = U{1} << (sizeof(U) * 8 - 1);

// `v`'s low `bytes` bytes, sign-extended to 64 bits.
inline uint64_t SignExtend(uint64_t v, uint32_t bytes) {
  if (bytes >= 8) return v;
  const uint64_t sign = uint64_t{1} << (bytes * 8 - 1);
  return ((v & ((sign << 1) - 1)) ^ sign) - sign;
}

// Integer operations; the names are the executor's (program.h families).
enum class IntOp : uint8_t {
  // binary
  kIAdd,
  kISub,
  kIMul,
  kUDiv,
  kSDiv,
  kUMod,
  kSRem,
  kSMod,
  kShl,
  kShr,
  kSar,
  kOr,
  kXor,
  kAnd,
  // unary (b unused)
  kSNeg,
  kNot,
  kBitReverse,
  kBitCount,
  // comparisons (IntCompare)
  kIEq,
  kINe,
  kUGt,
  kSGt,
  kUGe,
  kSGe,
  kULt,
  kSLt,
  kULe,
  kSLe,
};

template <IntOp kOp>
constexpr bool kIsDivision =
    kOp == IntOp::kUDiv || kOp == IntOp::kSDiv || kOp == IntOp::kUMod ||
    kOp == IntOp::kSRem || kOp == IntOp::kSMod;
template <IntOp kOp>
constexpr bool kIsShift =
    kOp == IntOp::kShl || kOp == IntOp::kShr || kOp == IntOp::kSar;

// The undefined-behaviour check lane (a, b) fails, or nullptr.
template <IntOp kOp, typename U>
inline const char* IntUndefined(U a, U b) {
  if constexpr (kIsDivision<kOp>) {
    if (b == 0) return "integer division by zero";
    if constexpr (kOp == IntOp::kSDiv || kOp == IntOp::kSRem ||
                  kOp == IntOp::kSMod) {
      if (a == kSignedMin<U> && b == static_cast<U>(~U{0}))
        return "signed integer division overflow (INT_MIN / -1)";
    }
  } else if constexpr (kIsShift<kOp>) {
    if (b >= sizeof(U) * 8) return "shift amount out of range";
  }
  (void)a;
  (void)b;
  return nullptr;
}

// What the failed check saw, for the report: a string for shifts, an empty
// view when the check says all (no string built on the division paths).
template <IntOp kOp, typename U>
inline auto IntUndefinedDetail(U b) {
  if constexpr (kIsShift<kOp>) {
    return absl::StrCat("shift by ", uint64_t{b}, " of a ", sizeof(U) * 8,
                        "-bit value");
  } else {
    (void)b;
    return absl::string_view();
  }
}

// The result of a binary or unary operation on a defined lane.
template <IntOp kOp, typename U>
inline U IntLane(U a, U b) {
  const Signed<U> sa = static_cast<Signed<U>>(a);
  const Signed<U> sb = static_cast<Signed<U>>(b);
  (void)sa;
  (void)sb;
  if constexpr (kOp == IntOp::kIAdd) {
    return static_cast<U>(a + b);
  } else if constexpr (kOp == IntOp::kISub) {
    return static_cast<U>(a - b);
  } else if constexpr (kOp == IntOp::kIMul) {
    return static_cast<U>(uint64_t{a} * uint64_t{b});
  } else if constexpr (kOp == IntOp::kUDiv) {
    return static_cast<U>(a / b);
  } else if constexpr (kOp == IntOp::kUMod) {
    return static_cast<U>(a % b);
  } else if constexpr (kOp == IntOp::kSDiv) {
    return static_cast<U>(sa / sb);
  } else if constexpr (kOp == IntOp::kSRem) {
    return static_cast<U>(sa % sb);
  } else if constexpr (kOp == IntOp::kSMod) {
    // The remainder takes the divisor's sign.
    const auto r = sa % sb;
    return static_cast<U>((r != 0 && ((r < 0) != (sb < 0))) ? r + sb : r);
  } else if constexpr (kOp == IntOp::kShl) {
    return static_cast<U>(uint64_t{a} << b);
  } else if constexpr (kOp == IntOp::kShr) {
    return static_cast<U>(a >> b);
  } else if constexpr (kOp == IntOp::kSar) {
    return static_cast<U>(sa >> b);
  } else if constexpr (kOp == IntOp::kOr) {
    return static_cast<U>(a | b);
  } else if constexpr (kOp == IntOp::kXor) {
    return static_cast<U>(a ^ b);
  } else if constexpr (kOp == IntOp::kAnd) {
    return static_cast<U>(a & b);
  } else if constexpr (kOp == IntOp::kSNeg) {
    return static_cast<U>(U{0} - a);
  } else if constexpr (kOp == IntOp::kNot) {
    return static_cast<U>(~a);
  } else if constexpr (kOp == IntOp::kBitCount) {
    return static_cast<U>(std::popcount(a));
  } else if constexpr (kOp == IntOp::kBitReverse) {
    U out = 0;
    for (size_t i = 0; i < sizeof(U) * 8; ++i) {
      out = static_cast<U>((out << 1) | (a & 1));
      a = static_cast<U>(a >> 1);
    }
    return out;
  } else {
    static_assert(kOp < IntOp::kIEq, "comparisons are IntCompare's");
  }
}

template <IntOp kOp, typename U>
inline bool IntCompare(U a, U b) {
  const Signed<U> sa = static_cast<Signed<U>>(a);
  const Signed<U> sb = static_cast<Signed<U>>(b);
  (void)sa;
  (void)sb;
  if constexpr (kOp == IntOp::kIEq) {
    return a == b;
  } else if constexpr (kOp == IntOp::kINe) {
    return a != b;
  } else if constexpr (kOp == IntOp::kUGt) {
    return a > b;
  } else if constexpr (kOp == IntOp::kSGt) {
    return sa > sb;
  } else if constexpr (kOp == IntOp::kUGe) {
    return a >= b;
  } else if constexpr (kOp == IntOp::kSGe) {
    return sa >= sb;
  } else if constexpr (kOp == IntOp::kULt) {
    return a < b;
  } else if constexpr (kOp == IntOp::kSLt) {
    return sa < sb;
  } else if constexpr (kOp == IntOp::kULe) {
    return a <= b;
  } else if constexpr (kOp == IntOp::kSLe) {
    return sa <= sb;
  } else {
    static_assert(kOp >= IntOp::kIEq, "not a comparison");
  }
}

// A float lane type: Storage in registers, Compute in arithmetic.
template <typename F>
struct FloatLane {
  using Storage = F;
  using Compute = F;
  static Compute Load(Storage s) { return s; }
  static Storage Store(Compute c) { return c; }
};
struct Half {};
template <>
struct FloatLane<Half> {
  using Storage = uint16_t;
  using Compute = float;
  static Compute Load(Storage s) { return HalfToFloat(s); }
  static Storage Store(Compute c) { return FloatToHalf(c); }
};

enum class FloatOp : uint8_t { kFAdd, kFSub, kFMul, kFDiv, kFRem, kFMod };

// The result of a binary float operation in the Compute type C.
template <FloatOp kOp, typename C>
inline C FloatBinary(C a, C b) {
  if constexpr (kOp == FloatOp::kFAdd) {
    return static_cast<C>(a + b);
  } else if constexpr (kOp == FloatOp::kFSub) {
    return static_cast<C>(a - b);
  } else if constexpr (kOp == FloatOp::kFMul) {
    return static_cast<C>(a * b);
  } else if constexpr (kOp == FloatOp::kFDiv) {
    return static_cast<C>(a / b);
  } else if constexpr (kOp == FloatOp::kFRem) {
    return static_cast<C>(std::fmod(a, b));
  } else {
    static_assert(kOp == FloatOp::kFMod);
    // The remainder takes the divisor's sign.
    C r = std::fmod(a, b);
    if (r != 0 && std::signbit(r) != std::signbit(b)) r += b;
    return r;
  }
}

// Negation flips the sign bit only (NaN payloads kept).
template <typename S>
inline S Negate(S a) {
  return -a;
}
template <>
inline uint16_t Negate(uint16_t a) {
  return static_cast<uint16_t>(a ^ 0x8000u);
}

// Normality in the lane's own format (a half subnormal is a normal float).
template <typename S>
inline bool IsNormalLane(S a) {
  return std::isnormal(a);
}
template <>
inline bool IsNormalLane(uint16_t a) {
  const uint32_t e = (a >> 10) & 0x1F;
  return e != 0 && e != 0x1F;
}

}  // namespace l0spv::oracles::reference::scalar
