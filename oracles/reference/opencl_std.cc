// Resolution of OpenCL.std instructions, the integer, select and shuffle
// handlers, and the accuracy table.
#include "oracles/reference/opencl_std.h"

#include <algorithm>
#include <bit>

#include "absl/strings/str_cat.h"
#include "oracles/reference/opencl_std_lanes.h"
#include "spirv/unified1/OpenCL.std.h"

namespace l0spv::oracles::reference {
namespace {

using namespace OpenCLLIB;  // NOLINT: the instruction numbers
using lanes::Mask;
using lanes::Raw;

bool IsInt(Kind k) { return k >= kI8 && k <= kI64; }
bool IsFloat(Kind k) { return k >= kF16 && k <= kF64; }

bool IdArgsOk(const ExtCall& call, size_t count) {
  if (call.args.size() != count) return false;
  for (const ExtArg& a : call.args) {
    if (a.slot == kNoSlot) return false;
    if (a.lanes != 1 && a.lanes != call.lanes) return false;
  }
  return true;
}

size_t IntArity(uint32_t n) {
  switch (n) {
    case SAbs:
    case UAbs:
    case Clz:
    case Ctz:
    case Popcount:
      return 1;
    case SClamp:
    case UClamp:
    case SMad_hi:
    case UMad_hi:
    case SMad_sat:
    case UMad_sat:
    case SMad24:
    case UMad24:
      return 3;
    default:
      return 2;
  }
}

__int128 SatClamp(__int128 v, Kind k, bool is_signed) {
  const int bits = static_cast<int>(KindBytes(k)) * 8;
  const __int128 lo = is_signed ? -(static_cast<__int128>(1) << (bits - 1)) : 0;
  const __int128 hi = is_signed ? (static_cast<__int128>(1) << (bits - 1)) - 1
                                : (static_cast<__int128>(1) << bits) - 1;
  return std::clamp(v, lo, hi);
}

}  // namespace

bool OpenClIntegerHandler(ExtContext& c, const ExtCall& call) {
  const Kind k = call.args[0].kind;
  const int bits = static_cast<int>(KindBytes(k)) * 8;
  const uint64_t mask = Mask(k);
  const uint32_t n = call.number;
  for (int l = 0; l < call.lanes; ++l) {
    const uint64_t ua = Raw(c, call.args[0], l);
    const int64_t sa = lanes::Signed(c, call.args[0], l);
    const uint64_t ub = call.args.size() > 1 ? Raw(c, call.args[1], l) : 0;
    const int64_t sb =
        call.args.size() > 1 ? lanes::Signed(c, call.args[1], l) : 0;
    const uint64_t uc = call.args.size() > 2 ? Raw(c, call.args[2], l) : 0;
    const int64_t sc =
        call.args.size() > 2 ? lanes::Signed(c, call.args[2], l) : 0;
    __int128 r = 0;
    switch (n) {
      case SAbs:
        r = sa < 0 ? -static_cast<__int128>(sa) : sa;
        break;
      case UAbs:
        r = ua;
        break;
      case SAbs_diff: {
        const __int128 d = static_cast<__int128>(sa) - sb;
        r = d < 0 ? -d : d;
        break;
      }
      case UAbs_diff:
        r = ua > ub ? ua - ub : ub - ua;
        break;
      case SAdd_sat:
        r = SatClamp(static_cast<__int128>(sa) + sb, k, true);
        break;
      case UAdd_sat:
        r = SatClamp(static_cast<__int128>(ua) + ub, k, false);
        break;
      case SSub_sat:
        r = SatClamp(static_cast<__int128>(sa) - sb, k, true);
        break;
      case USub_sat:
        r = SatClamp(static_cast<__int128>(ua) - ub, k, false);
        break;
      case SHadd:
        r = (static_cast<__int128>(sa) + sb) >> 1;
        break;
      case UHadd:
        r = (static_cast<__int128>(ua) + ub) >> 1;
        break;
      case SRhadd:
        r = (static_cast<__int128>(sa) + sb + 1) >> 1;
        break;
      case URhadd:
        r = (static_cast<__int128>(ua) + ub + 1) >> 1;
        break;
      case SClamp:
        if (sb > sc)
          return c.Fail(ExecutionStatus::kUbDetected,
                        "clamp with minval > maxval",
                        absl::StrCat("s_clamp(", sa, ", ", sb, ", ", sc, ")"));
        r = std::min(std::max(sa, sb), sc);
        break;
      case UClamp:
        if (ub > uc)
          return c.Fail(ExecutionStatus::kUbDetected,
                        "clamp with minval > maxval",
                        absl::StrCat("u_clamp(", ua, ", ", ub, ", ", uc, ")"));
        r = std::min(std::max(ua, ub), uc);
        break;
      case Clz:
        r = ua == 0 ? bits : std::countl_zero(ua) - (64 - bits);
        break;
      case Ctz:
        r = ua == 0 ? bits : std::countr_zero(ua);
        break;
      case Popcount:
        r = std::popcount(ua);
        break;
      case SMul_hi:
        r = (static_cast<__int128>(sa) * sb) >> bits;
        break;
      case UMul_hi:
        r = static_cast<__int128>((static_cast<unsigned __int128>(ua) * ub) >>
                                  bits);
        break;
      case SMad_hi:
        r = ((static_cast<__int128>(sa) * sb) >> bits) + sc;
        break;
      case UMad_hi:
        r = static_cast<__int128>((static_cast<unsigned __int128>(ua) * ub) >>
                                  bits) +
            uc;
        break;
      case SMad_sat:
        r = SatClamp(static_cast<__int128>(sa) * sb + sc, k, true);
        break;
      case UMad_sat: {
        const unsigned __int128 p =
            static_cast<unsigned __int128>(ua) * ub + uc;
        const unsigned __int128 hi =
            bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
        r = static_cast<__int128>(p > hi ? hi : p);
        break;
      }
      case SMax:
        r = std::max(sa, sb);
        break;
      case UMax:
        r = std::max(ua, ub);
        break;
      case SMin:
        r = std::min(sa, sb);
        break;
      case UMin:
        r = std::min(ua, ub);
        break;
      case Rotate: {
        const int s = static_cast<int>(ub % static_cast<uint64_t>(bits));
        r = s == 0 ? ua : (((ua << s) | (ua >> (bits - s))) & mask);
        break;
      }
      case S_Upsample:
      case U_Upsample:
        // hi is signed/unsigned of the operand width, lo unsigned.
        r = (static_cast<__int128>(n == S_Upsample ? sa : ua) << bits) | ub;
        break;
      case SMul24:
      case SMad24:
      case UMul24:
      case UMad24: {
        const bool s = n == SMul24 || n == SMad24;
        const bool in_range = s ? (sa >= -(1 << 23) && sa < (1 << 23) &&
                                   sb >= -(1 << 23) && sb < (1 << 23))
                                : (ua < (1u << 24) && ub < (1u << 24));
        if (!in_range)
          return c.Fail(ExecutionStatus::kUbDetected,
                        "mul24/mad24 operand outside the 24-bit range", "");
        r = s ? static_cast<__int128>(sa) * sb : static_cast<__int128>(ua) * ub;
        if (n == SMad24) r += sc;
        if (n == UMad24) r += uc;
        break;
      }
      default:
        return c.Fail(ExecutionStatus::kUnsupported, "unsupported instruction",
                      absl::StrCat("OpenCL.std instruction ", n));
    }
    lanes::StoreRaw(c, call.result, call.kind, l,
                    static_cast<uint64_t>(r) & Mask(call.kind));
  }
  return true;
}

bool OpenClSelectHandler(ExtContext& c, const ExtCall& call) {
  for (int l = 0; l < call.lanes; ++l) {
    const uint64_t a = Raw(c, call.args[0], l);
    const uint64_t b = Raw(c, call.args[1], l);
    const uint64_t m = Raw(c, call.args[2], l);
    uint64_t r;
    if (call.number == Bitselect) {
      r = (a & ~m) | (b & m);
    } else {
      // select: scalar condition tests != 0, vector lanes test the MSB.
      const uint32_t cb = KindBytes(call.args[2].kind);
      const bool take_b =
          call.lanes == 1 ? m != 0 : ((m >> (cb * 8 - 1)) & 1) != 0;
      r = take_b ? b : a;
    }
    lanes::StoreRaw(c, call.result, call.kind, l, r);
  }
  return true;
}

bool OpenClShuffleHandler(ExtContext& c, const ExtCall& call) {
  const bool two = call.number == Shuffle2;
  const ExtArg& x = call.args[0];
  const ExtArg& mask = call.args[two ? 2 : 1];
  const uint32_t n = x.lanes;
  const uint32_t total = two ? 2 * n : n;
  // Only the low bits that can address an input lane are significant.
  uint32_t bits = 0;
  while ((1u << bits) < total) ++bits;
  const uint32_t eb = KindBytes(call.kind);
  uint8_t out[128];
  for (int l = 0; l < call.lanes; ++l) {
    uint32_t sel = static_cast<uint32_t>(Raw(c, mask, l)) & ((1u << bits) - 1);
    if (sel >= total) sel %= total;  // 3-vectors: wrap
    const ExtArg& src = sel < n ? x : call.args[1];
    const uint32_t lane = sel < n ? sel : sel - n;
    std::memcpy(out + l * eb, c.regs + src.slot + lane * eb, eb);
  }
  std::memcpy(c.regs + call.result, out, call.lanes * eb);
  return true;
}

bool OpenClNopHandler(ExtContext&, const ExtCall&) { return true; }

bool ResolveOpenClStd(ExtCall* call, std::string* why) {
  const uint32_t n = call->number;
  auto shapes = [&](size_t count, bool float_result) {
    if (!IdArgsOk(*call, count)) {
      *why = "unexpected operand count or shapes";
      return false;
    }
    if (float_result ? !IsFloat(call->kind) : !IsInt(call->kind)) {
      *why = "unsupported result type";
      return false;
    }
    return true;
  };
  if ((n >= SAbs && n <= UMul24) || (n >= UAbs && n <= UMad_hi)) {
    if (!shapes(IntArity(n), false)) return false;
    for (const ExtArg& a : call->args) {
      if (!IsInt(a.kind)) {
        *why = "non-integer operand";
        return false;
      }
    }
    const bool upsample = n == S_Upsample || n == U_Upsample;
    if (!upsample && call->args[0].kind != call->kind) {
      *why = "operand and result widths differ";
      return false;
    }
    if (upsample &&
        KindBytes(call->kind) != 2 * KindBytes(call->args[0].kind)) {
      *why = "upsample result is not twice the operand width";
      return false;
    }
    if ((n == SMul24 || n == SMad24 || n == UMul24 || n == UMad24) &&
        call->kind != kI32) {
      *why = "mul24/mad24 on a type other than 32-bit";
      return false;
    }
    call->handler = OpenClIntegerHandler;
    return true;
  }
  switch (n) {
    case Bitselect:
    case Select:
      if (!IdArgsOk(*call, 3) || call->kind == kAgg || call->kind == kBool) {
        *why = "unexpected operands";
        return false;
      }
      call->handler = OpenClSelectHandler;
      return true;
    case Shuffle:
    case Shuffle2: {
      const size_t count = n == Shuffle2 ? 3 : 2;
      if (call->args.size() != count || call->kind == kAgg) {
        *why = "unexpected operands";
        return false;
      }
      for (const ExtArg& a : call->args) {
        if (a.slot == kNoSlot || a.kind == kAgg) {
          *why = "unexpected operands";
          return false;
        }
      }
      if (n == Shuffle2 && call->args[1].lanes != call->args[0].lanes) {
        *why = "shuffle2 inputs of different sizes";
        return false;
      }
      if (call->args[0].kind != call->kind ||
          call->args[count - 1].lanes != call->lanes) {
        *why = "unexpected operand types";
        return false;
      }
      call->handler = OpenClShuffleHandler;
      return true;
    }
    case Prefetch:
      call->handler = OpenClNopHandler;
      return true;
    case Printf:
      if (call->args.empty() || call->args[0].slot == kNoSlot ||
          call->kind != kI32) {
        *why = "unexpected operands";
        return false;
      }
      call->handler = OpenClPrintfHandler;
      return true;
    case Vloadn:
    case Vload_half:
    case Vload_halfn:
    case Vloada_halfn:
      call->handler = OpenClVloadHandler;
      break;
    case Vstoren:
    case Vstore_half:
    case Vstore_half_r:
    case Vstore_halfn:
    case Vstore_halfn_r:
    case Vstorea_halfn:
    case Vstorea_halfn_r:
      call->handler = OpenClVstoreHandler;
      break;
    case Frexp:
    case Lgamma_r:
    case Modf:
    case Remquo:
    case Sincos:
    case Fract:
      call->handler = OpenClPointerMathHandler;
      break;
    case Cross:
    case Distance:
    case Length:
    case Normalize:
    case Fast_distance:
    case Fast_length:
    case Fast_normalize:
      call->handler = OpenClGeometricHandler;
      break;
    default:
      if (n <= Sign) {
        call->handler = OpenClMathHandler;
        break;
      }
      *why = "is not implemented by the reference interpreter";
      return false;
  }
  // Shape checks shared by the memory and math handlers.
  for (const ExtArg& a : call->args) {
    if (a.slot != kNoSlot && a.kind == kAgg) {
      *why = "composite operand";
      return false;
    }
  }
  if (call->handler == OpenClVloadHandler) {
    if (call->args.size() < 2 || call->args[0].slot == kNoSlot ||
        call->args[1].slot == kNoSlot || call->args[1].pointee_bytes == 0 ||
        !(IsInt(call->kind) || IsFloat(call->kind))) {
      *why = "unexpected operands";
      return false;
    }
    return true;
  }
  if (call->handler == OpenClVstoreHandler) {
    if (call->args.size() < 3 || call->args[0].slot == kNoSlot ||
        call->args[1].slot == kNoSlot || call->args[2].slot == kNoSlot ||
        call->args[2].pointee_bytes == 0) {
      *why = "unexpected operands";
      return false;
    }
    if (n == Vstore_half_r || n == Vstore_halfn_r || n == Vstorea_halfn_r) {
      if (call->args.size() < 4 || call->args[3].slot != kNoSlot ||
          call->args[3].bytes > 3) {
        *why = "rounding mode operand";
        return false;
      }
      call->mode = static_cast<RoundMode>(call->args[3].bytes);
    }
    return true;
  }
  if (n == Ilogb ? !IsInt(call->kind) : !IsFloat(call->kind)) {
    *why = "unsupported result type";
    return false;
  }
  for (const ExtArg& a : call->args) {
    if (a.slot == kNoSlot) {
      *why = "literal operand";
      return false;
    }
    if (a.pointee_type == 0 && a.lanes != 1 && a.lanes != call->lanes &&
        call->handler != OpenClGeometricHandler) {
      *why = "operand and result lane counts differ";
      return false;
    }
  }
  return true;
}

double UlpTolerance(uint32_t number, Kind kind) {
  const bool half = kind == kF16;
  switch (number) {
    // Correctly rounded / exact.
    case Ceil:
    case Copysign:
    case Fabs:
    case Fdim:
    case Floor:
    case Fma:
    case Fmax:
    case Fmin:
    case Fmod:
    case Fract:
    case Frexp:
    case Ilogb:
    case Ldexp:
    case Logb:
    case Modf:
    case Nan:
    case Nextafter:
    case Remainder:
    case Remquo:
    case Rint:
    case Round:
    case Trunc:
    case Sqrt:
    case FClamp:
    case FMax_common:
    case FMin_common:
    case Step:
    case Sign:
    case Maxmag:
    case Minmag:
      return 0;
    case Mad:
      return -1;  // any precision allowed
    case Cbrt:
    case Cos:
    case Cosh:
    case Cospi:
    case Sin:
    case Sinh:
    case Sinpi:
    case Sincos:
    case Erfc:
    case Erf:
    case Hypot:
    case Lgamma:
    case Lgamma_r:
    case Asinpi:
    case Acospi:
    case Atanpi:
    case Expm1:
    case Log1p:
      return half ? 2 : 4;
    case Acos:
    case Acosh:
    case Asin:
    case Asinh:
    case Atan:
    case Atanh:
    case Exp:
    case Exp2:
    case Exp10:
    case Log:
    case Log2:
    case Log10:
    case Rsqrt:
    case Degrees:
    case Radians:
      return half ? 2 : 3;
    case Atan2:
    case Atan2pi:
      return half ? 2 : 6;
    case Tan:
    case Tanh:
    case Tanpi:
      return half ? 2 : 5;
    case Pow:
    case Pown:
    case Powr:
    case Rootn:
    case Tgamma:
      return half ? 4 : 16;
    case Mix:
    case Smoothstep:
    case Cross:
    case Distance:
    case Length:
    case Normalize:
    case Fast_distance:
    case Fast_length:
    case Fast_normalize:
      return -1;  // implementation-defined
    default:
      if (number >= Half_cos && number <= Half_tan) return 8192;
      if (number >= Native_cos && number <= Native_tan) return -1;
      return -1;
  }
}

}  // namespace l0spv::oracles::reference
