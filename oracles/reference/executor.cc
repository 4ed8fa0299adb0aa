#include "oracles/reference/executor.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "oracles/reference/numeric.h"
#include "oracles/reference/race.h"
#include "oracles/reference/scalar_ops.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference {
namespace {

// Register access through memcpy: no alignment or aliasing assumptions.
template <typename T>
inline T Ld(const uint8_t* R, uint32_t off, int lane = 0) {
  T v;
  std::memcpy(&v, R + off + lane * sizeof(T), sizeof(T));
  return v;
}
template <typename T>
inline void St(uint8_t* R, uint32_t off, int lane, T v) {
  std::memcpy(R + off + lane * sizeof(T), &v, sizeof(T));
}

// Copies n bytes; the common scalar sizes become one load and one store
// instead of a libc call (loads, stores, copies and phi moves are most of a
// memory-bound kernel's instructions; a variable-size memcpy call cost a
// fifth of its run time).
inline void CopyValue(uint8_t* dst, const uint8_t* src, uint32_t n) {
  switch (n) {
    case 1:
      *dst = *src;
      return;
    case 2:
      std::memcpy(dst, src, 2);
      return;
    case 4:
      std::memcpy(dst, src, 4);
      return;
    case 8:
      std::memcpy(dst, src, 8);
      return;
    case 16:
      std::memcpy(dst, src, 16);
      return;
    default:
      std::memcpy(dst, src, n);
  }
}

// An integer lane of 1, 2, 4 or 8 bytes, zero-extended; and its store.
inline uint64_t LoadIntLane(const uint8_t* p, uint32_t bytes) {
  switch (bytes) {
    case 1:
      return *p;
    case 2: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
  }
}
inline void StoreIntLane(uint8_t* p, uint64_t v, uint32_t bytes) {
  switch (bytes) {
    case 1:
      *p = static_cast<uint8_t>(v);
      return;
    case 2: {
      const uint16_t w = static_cast<uint16_t>(v);
      std::memcpy(p, &w, 2);
      return;
    }
    case 4: {
      const uint32_t w = static_cast<uint32_t>(v);
      std::memcpy(p, &w, 4);
      return;
    }
    default:
      std::memcpy(p, &v, 8);
  }
}

using scalar::FloatLane;
using scalar::Half;
using scalar::IntOp;
using scalar::IsNormalLane;
using scalar::Negate;
using scalar::Signed;

template <bool kFtz, typename C>
inline C Ftz(C v) {
  if constexpr (kFtz && !std::is_same_v<C, double>) {
    return FlushDenormal(v);
  } else {
    return v;
  }
}

// NoSignedWrap / NoUnsignedWrap (kNoWrapCheck's d: the SPIR-V opcode, bit
// 16 signed, bit 17 unsigned) on `bits`-bit lanes a and b: the violated
// decoration's name, or nullptr when the exact result fits.
const char* NoWrapViolation(uint32_t d, uint64_t a, uint64_t b, uint32_t bits) {
  const auto op = static_cast<spv::Op>(d & 0xffff);
  const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const int sh = 64 - static_cast<int>(bits);
  const __int128 sa = static_cast<int64_t>(a << sh) >> sh;
  const __int128 sb = static_cast<int64_t>(b << sh) >> sh;
  const __int128 ua = a & mask, ub = b & mask;
  const __int128 smin = -(static_cast<__int128>(1) << (bits - 1));
  const __int128 smax = (static_cast<__int128>(1) << (bits - 1)) - 1;
  const __int128 umax = static_cast<__int128>(mask);
  __int128 s = 0, u = 0;
  switch (op) {
    case spv::Op::OpIAdd:
      s = sa + sb;
      u = ua + ub;
      break;
    case spv::Op::OpISub:
      s = sa - sb;
      u = ua - ub;
      break;
    case spv::Op::OpIMul:
      s = sa * sb;
      u = ua * ub;
      break;
    case spv::Op::OpSNegate:
      s = -sa;
      u = -ua;
      break;
    case spv::Op::OpShiftLeftLogical:
      if (ub >= bits) return nullptr;  // the shift's own rule applies
      s = sa * (static_cast<__int128>(1) << static_cast<int>(ub));
      u = ua * (static_cast<__int128>(1) << static_cast<int>(ub));
      break;
    default:
      return nullptr;
  }
  if ((d & (1u << 16)) != 0 && (s < smin || s > smax)) return "NoSignedWrap";
  if ((d & (1u << 17)) != 0 && (u < 0 || u > umax)) return "NoUnsignedWrap";
  return nullptr;
}

}  // namespace

Executor::Executor(RunState& state)
    : state_(state), prog_(*state.program), mem_(*state.memory) {
  ext_.self = this;
  ext_.printf_output = &state_.printf_output;
  ext_.flush_denormals = state_.flush_denormals;
  checks_ = state_.races != nullptr || state_.check_uninitialized;
  size_t scratch = 0;
  for (const Edge& e : prog_.edges) {
    if (!e.parallel) continue;
    size_t bytes = 0;
    for (uint32_t i = 0; i < e.nmoves; ++i)
      bytes += prog_.moves[e.moves + i].bytes;
    scratch = std::max(scratch, bytes);
  }
  scratch_.resize(scratch);
}

std::string Executor::Where(const Invocation& inv, uint32_t pc) const {
  std::string where = absl::StrFormat(
      "work-item global id (%d, %d, %d) (local (%d, %d, %d), work-group "
      "(%d, %d, %d))",
      inv.global_id[0], inv.global_id[1], inv.global_id[2], inv.local_id[0],
      inv.local_id[1], inv.local_id[2], state_.group_id[0], state_.group_id[1],
      state_.group_id[2]);
  if (pc < prog_.origins.size()) {
    const InstOrigin& o = prog_.origins[pc];
    const spirv::OpcodeInfo* info = spirv::FindOpcode(o.spv_opcode);
    absl::StrAppend(&where, ", function ",
                    o.function < prog_.functions.size()
                        ? prog_.functions[o.function].name
                        : std::string("?"),
                    ", instruction ", info ? info->name : "?");
    if (o.result_id != 0) absl::StrAppend(&where, " %", o.result_id);
  }
  return where;
}

Executor::Stop Executor::Error(const Invocation& inv, uint32_t pc,
                               ExecutionStatus status, absl::string_view check,
                               absl::string_view detail) {
  if (state_.status == ExecutionStatus::kOk) {
    state_.status = status;
    state_.message = absl::StrCat(check, " in ", Where(inv, pc));
    if (!detail.empty()) absl::StrAppend(&state_.message, ": ", detail);
  }
  return Stop::kError;
}

Executor::Stop Executor::MemoryFault(const Invocation& inv, uint32_t pc,
                                     Fault fault, const char* access,
                                     uint64_t pointer, uint64_t bytes,
                                     uint32_t align) {
  std::string check;
  switch (fault) {
    case Fault::kOutOfBounds:
      check = absl::StrCat("out-of-bounds ", access);
      break;
    case Fault::kMisaligned:
      check = absl::StrCat("misaligned ", access);
      break;
    default:
      check = absl::StrCat(FaultName(fault), " (", access, ")");
      break;
  }
  std::string detail =
      absl::StrFormat("%d bytes at %s", bytes, mem_.Describe(pointer));
  if (fault == Fault::kMisaligned)
    absl::StrAppend(&detail, ", required alignment ", align);
  return Error(inv, pc, ExecutionStatus::kUbDetected, check, detail);
}

bool Executor::ShadowAccess(const Invocation& inv, uint32_t pc,
                            uint64_t pointer, uint64_t bytes, Access access,
                            bool atomic, bool aggregate) {
  Allocation& a = mem_.record(PointerId(pointer));
  const uint32_t off = PointerOffset(pointer);
  if (a.init != nullptr && bytes != 0) {
    uint8_t* shadow = a.init + off;
    if (access != Access::kWrite) {
      const uint8_t* first =
          static_cast<const uint8_t*>(std::memchr(shadow, 0, bytes));
      const bool bad = first != nullptr &&
                       (!aggregate || std::find(shadow, shadow + bytes,
                                                uint8_t{1}) == shadow + bytes);
      if (bad) {
        Error(inv, pc, ExecutionStatus::kUbDetected,
              "read of uninitialised memory",
              absl::StrFormat("%d bytes at %s; byte %d was never written",
                              bytes, mem_.Describe(pointer), first - shadow));
        return false;
      }
    }
    if (access != Access::kRead) std::memset(shadow, 1, bytes);
  }
  if (a.race != nullptr && !atomic) {
    const RaceClass cls =
        a.storage_class == kScWorkgroup ? kRaceLocal : kRaceGlobal;
    RaceConflict c;
    if (!state_.races->Check(a.race + off, bytes, cls, access != Access::kRead,
                             inv, &c)) {
      std::string other = c.several ? std::string("several work-items")
                                    : state_.races->DescribeTag(c.other_tag);
      Error(inv, pc, ExecutionStatus::kUbDetected,
            absl::StrCat("data race (", c.kind, ")"),
            absl::StrFormat(
                "%d bytes at %s (conflict at byte %d); the other access is "
                "by %s, %s",
                bytes, mem_.Describe(pointer), c.byte, other,
                c.other_group ? "in an earlier work-group (global memory is "
                                "not ordered between work-groups)"
                              : "with no barrier fencing this memory in "
                                "between"));
      return false;
    }
  }
  return true;
}

bool Executor::ShadowCopy(const Invocation& inv, uint32_t pc, uint64_t dst,
                          uint64_t src, uint64_t bytes) {
  Allocation& s = mem_.record(PointerId(src));
  Allocation& d = mem_.record(PointerId(dst));
  if (d.init != nullptr) {
    uint8_t* to = d.init + PointerOffset(dst);
    if (s.init != nullptr) {
      std::memmove(to, s.init + PointerOffset(src), bytes);
    } else {
      std::memset(to, 1, bytes);
    }
  }
  // Initialisation was handled above: only the race part remains.
  uint8_t* const saved_init[2] = {s.init, d.init};
  s.init = nullptr;
  d.init = nullptr;
  const bool ok =
      ShadowAccess(inv, pc, src, bytes, Access::kRead, false, false) &&
      ShadowAccess(inv, pc, dst, bytes, Access::kWrite, false, false);
  s.init = saved_init[0];
  d.init = saved_init[1];
  return ok;
}

uint8_t* Executor::CheckedAccess(const Invocation& inv, uint32_t pc,
                                 uint64_t pointer, uint64_t bytes,
                                 uint32_t align, bool write, bool shadows) {
  Fault fault = Fault::kNone;
  uint8_t* p = mem_.Resolve(pointer, bytes, align, write, inv.tag, &fault);
  if (p == nullptr) {
    MemoryFault(inv, pc, fault, write ? "store" : "load", pointer, bytes,
                align);
    return nullptr;
  }
  if (shadows && checks_ &&
      !ShadowAccess(inv, pc, pointer, bytes,
                    write ? Access::kWrite : Access::kRead, false, false))
    return nullptr;
  return p;
}

bool Executor::Enter(Invocation& inv, uint32_t function) {
  const FunctionInfo& fn = prog_.functions[function];
  CallFrame f;
  f.function = function;
  f.pc = fn.entry_pc;
  f.mark = inv.stack.GetMark();
  f.live_begin = static_cast<uint32_t>(inv.live.size());
  f.regs = inv.stack.Push(fn.frame_bytes, mem_);
  if (f.regs == nullptr) {
    Error(inv, fn.entry_pc, ExecutionStatus::kUnsupported,
          "memory limit exceeded", "no room for a call frame");
    return false;
  }
  std::memcpy(f.regs, fn.frame_template.data(), fn.frame_bytes);
  inv.frames.push_back(f);
  return true;
}

void Executor::PopFrame(Invocation& inv) {
  const CallFrame& f = inv.frames.back();
  for (size_t i = f.live_begin; i < inv.live.size(); ++i)
    mem_.Kill(inv.live[i]);
  inv.live.resize(f.live_begin);
  inv.stack.Pop(f.mark);
  inv.frames.pop_back();
}

uint8_t* Executor::Ext::Access(uint64_t pointer, uint64_t bytes, uint32_t align,
                               bool write) {
  Fault fault = Fault::kNone;
  uint8_t* p =
      self->mem_.Resolve(pointer, bytes, align, write, inv->tag, &fault);
  if (p == nullptr) {
    self->MemoryFault(*inv, pc, fault, write ? "store" : "load", pointer, bytes,
                      align);
    return nullptr;
  }
  if (self->checks_ &&
      !self->ShadowAccess(*inv, pc, pointer, bytes,
                          write ? Access::kWrite : Access::kRead, false, false))
    return nullptr;
  return p;
}

bool Executor::Ext::Fail(ExecutionStatus status, absl::string_view check,
                         absl::string_view detail) {
  self->Error(*inv, pc, status, check, detail);
  return false;
}

bool Executor::Ext::ReadCString(uint64_t pointer, std::string* out) {
  out->clear();
  for (;;) {
    Fault fault = Fault::kNone;
    const uint8_t* p =
        self->mem_.Resolve(pointer, 1, 1, false, inv->tag, &fault);
    if (p == nullptr) {
      self->MemoryFault(*inv, pc, fault, "string read", pointer, 1, 1);
      return false;
    }
    // Read the rest of the allocation in one go.
    const Allocation& a = self->mem_.record(PointerId(pointer));
    const uint64_t avail = a.size - PointerOffset(pointer);
    const void* nul = std::memchr(p, 0, avail);
    if (nul != nullptr) {
      out->append(reinterpret_cast<const char*>(p),
                  static_cast<const uint8_t*>(nul) - p);
      return true;
    }
    self->MemoryFault(*inv, pc, Fault::kOutOfBounds, "string read",
                      pointer + avail, 1, 1);
    return false;
  }
}

Executor::Stop Executor::Run(Invocation& inv) {
  return state_.flush_denormals ? RunImpl<true>(inv) : RunImpl<false>(inv);
}

template <bool kFtz>
Executor::Stop Executor::RunImpl(Invocation& inv) {
  const Inst* const code = prog_.insts.data();
  CallFrame* frame = &inv.frames.back();
  uint8_t* R = frame->regs;
  uint32_t pc = frame->pc;
  uint64_t steps = state_.steps;
  const uint64_t budget = state_.step_budget;
  const uint32_t tag = inv.tag;

#define L0SPV_SYNC()      \
  do {                    \
    state_.steps = steps; \
    frame->pc = pc;       \
  } while (0)
#define L0SPV_FAIL(status, check, detail)         \
  do {                                            \
    L0SPV_SYNC();                                 \
    return Error(inv, pc, status, check, detail); \
  } while (0)
#define L0SPV_UB(check, detail) \
  L0SPV_FAIL(ExecutionStatus::kUbDetected, check, detail)
#define L0SPV_RESOLVE(var, ptr, bytes, align, write, what)          \
  uint8_t* var;                                                     \
  {                                                                 \
    Fault fault_ = Fault::kNone;                                    \
    var = mem_.Resolve(ptr, bytes, align, write, tag, &fault_);     \
    if (var == nullptr) {                                           \
      L0SPV_SYNC();                                                 \
      return MemoryFault(inv, pc, fault_, what, ptr, bytes, align); \
    }                                                               \
  }
#define L0SPV_SHADOW(ptr, bytes, access, atomic, aggregate)            \
  if (checks_ &&                                                       \
      !ShadowAccess(inv, pc, ptr, bytes, access, atomic, aggregate)) { \
    L0SPV_SYNC();                                                      \
    return Stop::kError;                                               \
  }

  for (;;) {
    const Inst& I = code[pc];
    if (steps >= budget) {
      L0SPV_FAIL(ExecutionStatus::kTimedOut, "step budget exhausted",
                 absl::StrCat(budget, " instructions executed"));
    }
    ++steps;
    switch (I.op) {
      // ---------------- integer families ----------------
#define L0SPV_INT_CASES(name, BODY) \
  case Op::k##name##8: {            \
    using U = uint8_t;              \
    BODY                            \
  } break;                          \
  case Op::k##name##16: {           \
    using U = uint16_t;             \
    BODY                            \
  } break;                          \
  case Op::k##name##32: {           \
    using U = uint32_t;             \
    BODY                            \
  } break;                          \
  case Op::k##name##64: {           \
    using U = uint64_t;             \
    BODY                            \
  } break;
// Lane semantics and undefined-behaviour checks: scalar_ops.h (shared
// with the decoder's constant folder).
#define L0SPV_BIN(name)                                                      \
  L0SPV_INT_CASES(                                                           \
      name, for (int l = 0; l < I.n; ++l) {                                  \
        const U a = Ld<U>(R, I.a, l);                                        \
        const U b = Ld<U>(R, I.b, l);                                        \
        if (const char* check_ = scalar::IntUndefined<IntOp::k##name>(a, b)) \
          L0SPV_UB(check_, scalar::IntUndefinedDetail<IntOp::k##name>(b));   \
        St<U>(R, I.r, l, scalar::IntLane<IntOp::k##name>(a, b));             \
      } ++pc;)
      L0SPV_REF_INT_BIN(L0SPV_BIN)
#undef L0SPV_BIN
#define L0SPV_UN(name)                                              \
  L0SPV_INT_CASES(                                                  \
      name, for (int l = 0; l < I.n; ++l) {                         \
        const U a = Ld<U>(R, I.a, l);                               \
        St<U>(R, I.r, l, scalar::IntLane<IntOp::k##name>(a, U{0})); \
      } ++pc;)
      L0SPV_REF_INT_UN(L0SPV_UN)
#undef L0SPV_UN
#define L0SPV_CMP(name)                                                \
  L0SPV_INT_CASES(                                                     \
      name, for (int l = 0; l < I.n; ++l) {                            \
        const U a = Ld<U>(R, I.a, l);                                  \
        const U b = Ld<U>(R, I.b, l);                                  \
        R[I.r + l] = scalar::IntCompare<IntOp::k##name>(a, b) ? 1 : 0; \
      } ++pc;)
      L0SPV_REF_INT_CMP(L0SPV_CMP)
#undef L0SPV_CMP
#undef L0SPV_INT_CASES

      // ---------------- float families ----------------
#define L0SPV_F_CASES(name, BODY) \
  case Op::k##name##16: {         \
    using FL = FloatLane<Half>;   \
    BODY                          \
  } break;                        \
  case Op::k##name##32: {         \
    using FL = FloatLane<float>;  \
    BODY                          \
  } break;                        \
  case Op::k##name##64: {         \
    using FL = FloatLane<double>; \
    BODY                          \
  } break;
#define L0SPV_FBIN(name)                                                      \
  L0SPV_F_CASES(                                                              \
      name, for (int l = 0; l < I.n; ++l) {                                   \
        using C = typename FL::Compute;                                       \
        const C a = Ftz<kFtz>(FL::Load(Ld<typename FL::Storage>(R, I.a, l))); \
        const C b = Ftz<kFtz>(FL::Load(Ld<typename FL::Storage>(R, I.b, l))); \
        St<typename FL::Storage>(                                             \
            R, I.r, l,                                                        \
            FL::Store(Ftz<kFtz>(                                              \
                scalar::FloatBinary<scalar::FloatOp::k##name>(a, b))));       \
      } ++pc;)
      L0SPV_REF_F_BIN(L0SPV_FBIN)
#undef L0SPV_FBIN
      L0SPV_F_CASES(
          FNeg, for (int l = 0; l < I.n; ++l) {
            using S = typename FL::Storage;
            St<S>(R, I.r, l, Negate(Ld<S>(R, I.a, l)));
          } ++pc;)
#define L0SPV_FCMP(name, EXPR)                                                \
  L0SPV_F_CASES(                                                              \
      name, for (int l = 0; l < I.n; ++l) {                                   \
        using C = typename FL::Compute;                                       \
        const C a = Ftz<kFtz>(FL::Load(Ld<typename FL::Storage>(R, I.a, l))); \
        const C b = Ftz<kFtz>(FL::Load(Ld<typename FL::Storage>(R, I.b, l))); \
        const bool un = std::isnan(a) || std::isnan(b);                       \
        (void)un;                                                             \
        R[I.r + l] = (EXPR) ? 1 : 0;                                          \
      } ++pc;)
      L0SPV_FCMP(FOrdEq, a == b)
      L0SPV_FCMP(FUnordEq, un || a == b)
      L0SPV_FCMP(FOrdNe, !un && a != b)
      L0SPV_FCMP(FUnordNe, a != b)
      L0SPV_FCMP(FOrdLt, a < b)
      L0SPV_FCMP(FUnordLt, un || a < b)
      L0SPV_FCMP(FOrdGt, a > b)
      L0SPV_FCMP(FUnordGt, un || a > b)
      L0SPV_FCMP(FOrdLe, a <= b)
      L0SPV_FCMP(FUnordLe, un || a <= b)
      L0SPV_FCMP(FOrdGe, a >= b)
      L0SPV_FCMP(FUnordGe, un || a >= b)
      L0SPV_FCMP(LessOrGreater, a < b || a > b)
      L0SPV_FCMP(Ordered, !un)
      L0SPV_FCMP(Unordered, un)
#undef L0SPV_FCMP
#define L0SPV_FTEST(name, EXPR)                                               \
  L0SPV_F_CASES(                                                              \
      name, for (int l = 0; l < I.n; ++l) {                                   \
        using C = typename FL::Compute;                                       \
        const C a = Ftz<kFtz>(FL::Load(Ld<typename FL::Storage>(R, I.a, l))); \
        R[I.r + l] = (EXPR) ? 1 : 0;                                          \
      } ++pc;)
      L0SPV_FTEST(IsNan, std::isnan(a))
      L0SPV_FTEST(IsInf, std::isinf(a))
      L0SPV_FTEST(IsFinite, std::isfinite(a))
      L0SPV_FTEST(SignBitSet, std::signbit(a))
#undef L0SPV_FTEST
      L0SPV_F_CASES(
          IsNormal, for (int l = 0; l < I.n; ++l) {
            using S = typename FL::Storage;
            R[I.r + l] = IsNormalLane(Ld<S>(R, I.a, l)) ? 1 : 0;
          } ++pc;)
#undef L0SPV_F_CASES

      // ---------------- moves and composites ----------------
      case Op::kCopy:
        CopyValue(R + I.r, R + I.a, I.d);
        ++pc;
        break;
      case Op::kZero:
        std::memset(R + I.r, 0, I.d);
        ++pc;
        break;
      case Op::kConstruct: {
        const uint32_t* t = prog_.extra.data() + I.b;
        for (uint32_t k = 0; k < I.c; ++k, t += 3)
          std::memmove(R + I.r + t[1], R + t[0], t[2]);
        ++pc;
        break;
      }
      case Op::kInsert: {
        const uint32_t* t = prog_.extra.data() + I.c;
        std::memmove(R + I.r, R + I.a, I.d);
        std::memmove(R + I.r + t[0], R + I.b, t[1]);
        ++pc;
        break;
      }
      case Op::kShuffle: {
        const uint32_t eb = KindBytes(I.k);
        const uint32_t* src = prog_.extra.data() + I.b;
        uint8_t tmp[128];
        for (int l = 0; l < I.n; ++l) {
          if (src[l] == kNoSlot) {
            std::memset(tmp + l * eb, 0, eb);
          } else {
            std::memcpy(tmp + l * eb, R + src[l], eb);
          }
        }
        std::memcpy(R + I.r, tmp, I.n * eb);
        ++pc;
        break;
      }
      case Op::kExtractDyn:
      case Op::kInsertDyn: {
        const bool ins = I.op == Op::kInsertDyn;
        const uint32_t idx_slot = ins ? I.c : I.b;
        const uint32_t idx_bytes = ins ? I.d : I.c;
        uint64_t idx = 0;
        std::memcpy(&idx, R + idx_slot, idx_bytes);
        const uint32_t eb = KindBytes(I.k);
        if (idx >= I.n)
          L0SPV_UB("vector component index out of range",
                   absl::StrCat("index ", idx, " into a ", int{I.n},
                                "-component vector"));
        if (ins) {
          uint8_t tmp[128];
          std::memcpy(tmp, R + I.a, I.n * eb);
          std::memcpy(tmp + idx * eb, R + I.b, eb);
          std::memcpy(R + I.r, tmp, I.n * eb);
        } else {
          std::memmove(R + I.r, R + I.a + idx * eb, eb);
        }
        ++pc;
        break;
      }
      case Op::kSelectScalar:
        std::memmove(R + I.r, R + (R[I.a] ? I.b : I.c), I.d);
        ++pc;
        break;
      case Op::kSelectVector: {
        const uint32_t eb = KindBytes(I.k);
        uint8_t tmp[128];
        for (int l = 0; l < I.n; ++l)
          std::memcpy(tmp + l * eb, R + (R[I.a + l] ? I.b : I.c) + l * eb, eb);
        std::memcpy(R + I.r, tmp, I.n * eb);
        ++pc;
        break;
      }
      case Op::kLogicalAnd:
        for (int l = 0; l < I.n; ++l)
          R[I.r + l] = (R[I.a + l] && R[I.b + l]) ? 1 : 0;
        ++pc;
        break;
      case Op::kLogicalOr:
        for (int l = 0; l < I.n; ++l)
          R[I.r + l] = (R[I.a + l] || R[I.b + l]) ? 1 : 0;
        ++pc;
        break;
      case Op::kLogicalEq:
        for (int l = 0; l < I.n; ++l)
          R[I.r + l] = ((R[I.a + l] != 0) == (R[I.b + l] != 0)) ? 1 : 0;
        ++pc;
        break;
      case Op::kLogicalNe:
        for (int l = 0; l < I.n; ++l)
          R[I.r + l] = ((R[I.a + l] != 0) != (R[I.b + l] != 0)) ? 1 : 0;
        ++pc;
        break;
      case Op::kLogicalNot:
        for (int l = 0; l < I.n; ++l) R[I.r + l] = R[I.a + l] ? 0 : 1;
        ++pc;
        break;
      case Op::kAny:
      case Op::kAll: {
        bool any = false, all = true;
        for (int l = 0; l < I.n; ++l) {
          any |= R[I.a + l] != 0;
          all &= R[I.a + l] != 0;
        }
        R[I.r] = (I.op == Op::kAny ? any : all) ? 1 : 0;
        ++pc;
        break;
      }
      case Op::kUConvert:
      case Op::kSConvert: {
        const Kind from = static_cast<Kind>(I.c);
        const uint32_t sb = KindBytes(from), db = KindBytes(I.k);
        const bool sext = I.op == Op::kSConvert;
        uint64_t lanes[16];
        for (int l = 0; l < I.n; ++l) {
          const uint64_t v = LoadIntLane(R + I.a + l * sb, sb);
          lanes[l] = sext ? scalar::SignExtend(v, sb) : v;
        }
        for (int l = 0; l < I.n; ++l)
          StoreIntLane(R + I.r + l * db, lanes[l], db);
        ++pc;
        break;
      }
      case Op::kConvert: {
        const ConvertSpec& spec = prog_.converts[I.d];
        if (IsHardwareIntToFloat(spec)) {
          // The common case, straight into the result registers (no lane
          // can be out of range).
          HardwareIntToFloatLanes(spec, R + I.a, R + I.r, I.n);
          ++pc;
          break;
        }
        uint8_t tmp[128];
        const int bad = ConvertLanes(spec, R + I.a, tmp, I.n, kFtz);
        if (bad >= 0)
          L0SPV_UB("float to integer conversion out of range",
                   absl::StrCat("lane ", bad,
                                " does not fit the integer type and the "
                                "conversion is not saturating"));
        std::memcpy(R + I.r, tmp, I.n * KindBytes(spec.to));
        ++pc;
        break;
      }
      case Op::kDot:
      case Op::kVecTimesScalar: {
        // Dot is accumulated left to right in the lane format's compute
        // type (OpenCL leaves the order and intermediate precision open;
        // the comparison applies a tolerance).
        auto run = [&](auto tag) {
          using FL = decltype(tag);
          using S = typename FL::Storage;
          using C = typename FL::Compute;
          if (I.op == Op::kDot) {
            C acc = 0;
            for (int l = 0; l < I.n; ++l)
              acc += FL::Load(Ld<S>(R, I.a, l)) * FL::Load(Ld<S>(R, I.b, l));
            St<S>(R, I.r, 0, FL::Store(acc));
          } else {
            const C s = FL::Load(Ld<S>(R, I.b, 0));
            S out[16];
            for (int l = 0; l < I.n; ++l)
              out[l] = FL::Store(FL::Load(Ld<S>(R, I.a, l)) * s);
            std::memcpy(R + I.r, out, I.n * sizeof(S));
          }
        };
        if (I.k == kF16) {
          run(FloatLane<Half>{});
        } else if (I.k == kF32) {
          run(FloatLane<float>{});
        } else {
          run(FloatLane<double>{});
        }
        ++pc;
        break;
      }
      case Op::kNoWrapCheck: {
        const uint32_t eb = KindBytes(I.k);
        for (int l = 0; l < I.n; ++l) {
          uint64_t a = 0, b = 0;
          std::memcpy(&a, R + I.a + l * eb, eb);
          if (I.b != kNoSlot) std::memcpy(&b, R + I.b + l * eb, eb);
          if (const char* wrap = NoWrapViolation(I.d, a, b, eb * 8))
            L0SPV_UB(wrap, absl::StrCat("the decorated operation wraps on ", a,
                                        " and ", b, " (", eb * 8, "-bit lane ",
                                        l, ")"));
        }
        ++pc;
        break;
      }
      case Op::kIAddCarry:
      case Op::kISubBorrow:
      case Op::kUMulExtended:
      case Op::kSMulExtended: {
        const uint32_t eb = KindBytes(I.k);
        const int bits = static_cast<int>(eb) * 8;
        uint64_t lo[16], hi[16];
        for (int l = 0; l < I.n; ++l) {
          uint64_t a = 0, b = 0;
          std::memcpy(&a, R + I.a + l * eb, eb);
          std::memcpy(&b, R + I.b + l * eb, eb);
          const uint64_t mask =
              bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
          if (I.op == Op::kIAddCarry) {
            const unsigned __int128 s = (unsigned __int128)a + b;
            lo[l] = static_cast<uint64_t>(s) & mask;
            hi[l] = static_cast<uint64_t>(s >> bits) & 1;
          } else if (I.op == Op::kISubBorrow) {
            lo[l] = (a - b) & mask;
            hi[l] = a < b ? 1 : 0;
          } else if (I.op == Op::kUMulExtended) {
            const unsigned __int128 p = (unsigned __int128)a * b;
            lo[l] = static_cast<uint64_t>(p) & mask;
            hi[l] = static_cast<uint64_t>(p >> bits) & mask;
          } else {
            const int sh = 64 - bits;
            const __int128 sa = static_cast<int64_t>(a << sh) >> sh;
            const __int128 sb = static_cast<int64_t>(b << sh) >> sh;
            const __int128 p = sa * sb;
            lo[l] = static_cast<uint64_t>(p) & mask;
            hi[l] = static_cast<uint64_t>(p >> bits) & mask;
          }
        }
        for (int l = 0; l < I.n; ++l) {
          std::memcpy(R + I.r + l * eb, &lo[l], eb);
          std::memcpy(R + I.r + I.d + l * eb, &hi[l], eb);
        }
        ++pc;
        break;
      }

      // ---------------- memory ----------------
      case Op::kVariable: {
        // Under check_uninitialized the variable's shadow bytes follow its
        // data on the stack (zero: not written yet).
        const bool shadow = state_.check_uninitialized;
        uint8_t* data = inv.stack.Push(shadow ? uint64_t{I.d} * 2 : I.d, mem_);
        const uint32_t id =
            data ? mem_.Add(data, I.d, kScFunction, tag, false) : 0;
        if (id == 0)
          L0SPV_FAIL(
              ExecutionStatus::kUnsupported, "memory limit exceeded",
              absl::StrCat("allocating a ", I.d, "-byte private variable"));
        inv.live.push_back(id);
        if (shadow) {
          mem_.record(id).init = data + I.d;
          if (I.a != kNoSlot) std::memset(data + I.d, 1, I.d);
        }
        if (I.a != kNoSlot) std::memcpy(data, R + I.a, I.d);
        St<uint64_t>(R, I.r, 0, MakePointer(id, 0));
        ++pc;
        break;
      }
      case Op::kLoad: {
        const uint64_t p = Ld<uint64_t>(R, I.a);
        L0SPV_RESOLVE(host, p, I.d, I.c, false, "load");
        L0SPV_SHADOW(p, I.d, Access::kRead, false, I.k == kAgg);
        CopyValue(R + I.r, host, I.d);
        ++pc;
        break;
      }
      case Op::kStore: {
        const uint64_t p = Ld<uint64_t>(R, I.a);
        L0SPV_RESOLVE(host, p, I.d, I.c, true, "store");
        L0SPV_SHADOW(p, I.d, Access::kWrite, false, false);
        CopyValue(host, R + I.b, I.d);
        ++pc;
        break;
      }
      case Op::kAccessChain: {
        const uint32_t* t = prog_.extra.data() + I.b;
        uint64_t delta = uint64_t{t[0]} | (uint64_t{t[1]} << 32);
        t += 2;
        for (uint32_t k = 0; k < I.c; ++k, t += 3) {
          uint64_t idx = 0;
          std::memcpy(&idx, R + t[0], t[1]);
          if (t[1] < 8) {
            const uint64_t sign = uint64_t{1} << (t[1] * 8 - 1);
            idx = (idx ^ sign) - sign;
          }
          delta += idx * t[2];
        }
        const uint64_t p = Ld<uint64_t>(R, I.a);
        St<uint64_t>(R, I.r, 0,
                     (p & 0xFFFFFFFF00000000ull) |
                         static_cast<uint32_t>(PointerOffset(p) + delta));
        ++pc;
        break;
      }
      case Op::kCopyMemory:
      case Op::kCopyMemorySized: {
        uint64_t bytes = I.c;
        if (I.op == Op::kCopyMemorySized) {
          bytes = 0;
          std::memcpy(&bytes, R + I.c, KindBytes(I.k));
        }
        if (bytes != 0) {
          const uint64_t dp = Ld<uint64_t>(R, I.a);
          const uint64_t sp = Ld<uint64_t>(R, I.b);
          L0SPV_RESOLVE(src, sp, bytes, 1, false, "load (copy source)");
          L0SPV_RESOLVE(dst, dp, bytes, 1, true, "store (copy target)");
          if (checks_ && !ShadowCopy(inv, pc, dp, sp, bytes)) {
            L0SPV_SYNC();
            return Stop::kError;
          }
          std::memmove(dst, src, bytes);
        }
        ++pc;
        break;
      }
      case Op::kGenericCastToPtr:
      case Op::kGenericCastToPtrExplicit: {
        uint64_t p = Ld<uint64_t>(R, I.a);
        const uint32_t id = PointerId(p);
        if (id != 0 && id < mem_.size() &&
            mem_.record(id).storage_class != I.c) {
          if (I.op == Op::kGenericCastToPtr)
            L0SPV_UB("generic pointer cast to the wrong storage class",
                     mem_.Describe(p));
          p = 0;
        }
        St<uint64_t>(R, I.r, 0, p);
        ++pc;
        break;
      }
      case Op::kPtrDiff: {
        const uint64_t a = Ld<uint64_t>(R, I.a), b = Ld<uint64_t>(R, I.b);
        if (PointerId(a) != PointerId(b))
          L0SPV_UB("OpPtrDiff of pointers into different allocations",
                   absl::StrCat(mem_.Describe(a), " and ", mem_.Describe(b)));
        const int64_t diff = (static_cast<int64_t>(PointerOffset(a)) -
                              static_cast<int64_t>(PointerOffset(b))) /
                             static_cast<int64_t>(I.c);
        std::memcpy(R + I.r, &diff, KindBytes(I.k));
        ++pc;
        break;
      }
      case Op::kPtrEqual:
      case Op::kPtrNotEqual: {
        const bool eq = Ld<uint64_t>(R, I.a) == Ld<uint64_t>(R, I.b);
        R[I.r] = (eq == (I.op == Op::kPtrEqual)) ? 1 : 0;
        ++pc;
        break;
      }
      case Op::kAtomicLoad:
      case Op::kAtomicStore:
      case Op::kAtomicExchange:
      case Op::kAtomicCompareExchange:
      case Op::kAtomicIIncrement:
      case Op::kAtomicIDecrement:
      case Op::kAtomicIAdd:
      case Op::kAtomicISub:
      case Op::kAtomicSMin:
      case Op::kAtomicUMin:
      case Op::kAtomicSMax:
      case Op::kAtomicUMax:
      case Op::kAtomicAnd:
      case Op::kAtomicOr:
      case Op::kAtomicXor: {
        // Work-items run one at a time, so every read-modify-write is
        // trivially atomic.
        const uint32_t bytes = KindBytes(I.k);
        const uint64_t p = Ld<uint64_t>(R, I.a);
        L0SPV_RESOLVE(host, p, bytes, bytes, I.op != Op::kAtomicLoad,
                      "atomic access");
        L0SPV_SHADOW(p, bytes,
                     I.op == Op::kAtomicLoad    ? Access::kRead
                     : I.op == Op::kAtomicStore ? Access::kWrite
                                                : Access::kReadWrite,
                     true, false);
        auto rmw = [&](auto zero) {
          using U = decltype(zero);
          using S = Signed<U>;
          U old;
          std::memcpy(&old, host, sizeof(U));
          const U v = I.b != kNoSlot ? Ld<U>(R, I.b) : U{0};
          U out = old;
          switch (I.op) {
            case Op::kAtomicStore:
            case Op::kAtomicExchange:
              out = v;
              break;
            case Op::kAtomicCompareExchange:
              if (old == Ld<U>(R, I.c)) out = v;
              break;
            case Op::kAtomicIIncrement:
              out = static_cast<U>(old + 1);
              break;
            case Op::kAtomicIDecrement:
              out = static_cast<U>(old - 1);
              break;
            case Op::kAtomicIAdd:
              out = static_cast<U>(old + v);
              break;
            case Op::kAtomicISub:
              out = static_cast<U>(old - v);
              break;
            case Op::kAtomicSMin:
              out = static_cast<S>(v) < static_cast<S>(old) ? v : old;
              break;
            case Op::kAtomicUMin:
              out = v < old ? v : old;
              break;
            case Op::kAtomicSMax:
              out = static_cast<S>(v) > static_cast<S>(old) ? v : old;
              break;
            case Op::kAtomicUMax:
              out = v > old ? v : old;
              break;
            case Op::kAtomicAnd:
              out = old & v;
              break;
            case Op::kAtomicOr:
              out = old | v;
              break;
            case Op::kAtomicXor:
              out = old ^ v;
              break;
            default:
              break;
          }
          if (I.op != Op::kAtomicLoad) std::memcpy(host, &out, sizeof(U));
          if (I.r != kNoSlot) St<U>(R, I.r, 0, old);
        };
        if (I.k == kI32) {
          rmw(uint32_t{0});
        } else {
          rmw(uint64_t{0});
        }
        ++pc;
        break;
      }

      case Op::kAtomicFAdd:
      case Op::kAtomicFMin:
      case Op::kAtomicFMax: {
        // The old value is returned; the new one is rounded to the lane
        // format (half through float: one rounding of an exact sum).
        const uint32_t bytes = KindBytes(I.k);
        const uint64_t p = Ld<uint64_t>(R, I.a);
        L0SPV_RESOLVE(host, p, bytes, bytes, true, "atomic access");
        L0SPV_SHADOW(p, bytes, Access::kReadWrite, true, false);
        auto op = [&](auto tag) {
          using FL = decltype(tag);
          using S = typename FL::Storage;
          using C = typename FL::Compute;
          S old;
          std::memcpy(&old, host, sizeof(S));
          const C a = Ftz<kFtz>(FL::Load(old));
          const C v = Ftz<kFtz>(FL::Load(Ld<S>(R, I.b)));
          C out;
          if (I.op == Op::kAtomicFAdd) {
            out = Ftz<kFtz>(static_cast<C>(a + v));
          } else if (I.op == Op::kAtomicFMin) {
            out = std::fmin(a, v);
          } else {
            out = std::fmax(a, v);
          }
          const S stored = FL::Store(out);
          std::memcpy(host, &stored, sizeof(S));
          if (I.r != kNoSlot) St<S>(R, I.r, 0, old);
        };
        if (I.k == kF16) {
          op(FloatLane<Half>{});
        } else if (I.k == kF32) {
          op(FloatLane<float>{});
        } else {
          op(FloatLane<double>{});
        }
        ++pc;
        break;
      }
      case Op::kAtomicFlagTestAndSet:
      case Op::kAtomicFlagClear: {
        const uint64_t p = Ld<uint64_t>(R, I.a);
        L0SPV_RESOLVE(host, p, 4, 4, true, "atomic flag access");
        const bool set = I.op == Op::kAtomicFlagTestAndSet;
        L0SPV_SHADOW(p, 4, set ? Access::kReadWrite : Access::kWrite, true,
                     false);
        uint32_t old;
        std::memcpy(&old, host, 4);
        const uint32_t now = set ? 1 : 0;
        std::memcpy(host, &now, 4);
        if (set && I.r != kNoSlot) R[I.r] = old != 0 ? 1 : 0;
        ++pc;
        break;
      }

      // ---------------- control ----------------
      case Op::kBranch:
      case Op::kBranchCond:
      case Op::kSwitch: {
        uint32_t edge_index;
        if (I.op == Op::kBranch) {
          edge_index = I.a;
        } else if (I.op == Op::kBranchCond) {
          edge_index = R[I.a] ? I.b : I.c;
        } else {
          const uint32_t sb = KindBytes(I.k);
          uint64_t sel = 0;
          std::memcpy(&sel, R + I.a, sb);
          const uint64_t mask =
              sb == 8 ? ~uint64_t{0} : (uint64_t{1} << (sb * 8)) - 1;
          edge_index = I.d;
          const uint32_t* t = prog_.extra.data() + I.b;
          for (uint32_t k = 0; k < I.c; ++k, t += 3) {
            const uint64_t lit = (uint64_t{t[0]} | (uint64_t{t[1]} << 32));
            if ((lit & mask) == sel) {
              edge_index = t[2];
              break;
            }
          }
        }
        const Edge& e = prog_.edges[edge_index];
        const PhiMove* mv = prog_.moves.data() + e.moves;
        if (!e.parallel) {
          for (uint32_t k = 0; k < e.nmoves; ++k)
            CopyValue(R + mv[k].dst, R + mv[k].src, mv[k].bytes);
        } else {
          size_t off = 0;
          for (uint32_t k = 0; k < e.nmoves; ++k) {
            CopyValue(scratch_.data() + off, R + mv[k].src, mv[k].bytes);
            off += mv[k].bytes;
          }
          off = 0;
          for (uint32_t k = 0; k < e.nmoves; ++k) {
            CopyValue(R + mv[k].dst, scratch_.data() + off, mv[k].bytes);
            off += mv[k].bytes;
          }
        }
        pc = e.pc;
        break;
      }
      case Op::kReturn:
      case Op::kReturnValue: {
        const uint8_t* value = R + I.a;
        const uint32_t bytes = I.op == Op::kReturnValue ? I.d : 0;
        const uint32_t ret_slot = frame->ret_slot;
        uint8_t tmp_small[128];
        std::vector<uint8_t> tmp_big;
        uint8_t* tmp = tmp_small;
        if (bytes > sizeof(tmp_small)) {
          tmp_big.resize(bytes);
          tmp = tmp_big.data();
        }
        if (bytes) std::memcpy(tmp, value, bytes);
        PopFrame(inv);
        if (inv.frames.empty()) {
          state_.steps = steps;
          return Stop::kDone;
        }
        frame = &inv.frames.back();
        R = frame->regs;
        pc = frame->pc;
        if (bytes && ret_slot != kNoSlot) std::memcpy(R + ret_slot, tmp, bytes);
        break;
      }
      case Op::kUnreachable:
        L0SPV_UB("OpUnreachable reached", "");
      case Op::kCall: {
        const FunctionInfo& callee = prog_.functions[I.d];
        if (inv.frames.size() >= prog_.max_call_depth)
          L0SPV_UB("call depth limit exceeded",
                   absl::StrCat(inv.frames.size(), " nested calls"));
        for (const CallFrame& f : inv.frames) {
          if (f.function == I.d)
            L0SPV_UB("recursion",
                     absl::StrCat("function ", callee.name,
                                  " is called while it is active"));
        }
        frame->pc = pc + 1;
        CallFrame f;
        f.function = I.d;
        f.pc = callee.entry_pc;
        f.ret_slot = I.r;
        f.mark = inv.stack.GetMark();
        f.live_begin = static_cast<uint32_t>(inv.live.size());
        f.regs = inv.stack.Push(callee.frame_bytes, mem_);
        if (f.regs == nullptr)
          L0SPV_FAIL(ExecutionStatus::kUnsupported, "memory limit exceeded",
                     "no room for a call frame");
        std::memcpy(f.regs, callee.frame_template.data(), callee.frame_bytes);
        const uint32_t* args = prog_.extra.data() + I.b;
        for (uint32_t k = 0; k < I.c; ++k)
          std::memcpy(f.regs + callee.param_slots[k], R + args[k],
                      callee.param_bytes[k]);
        inv.frames.push_back(f);
        frame = &inv.frames.back();
        R = frame->regs;
        pc = frame->pc;
        break;
      }
      case Op::kBarrier:
      case Op::kGroup:
        // Suspend; the scheduler resumes after the collective completes.
        inv.wait_pc = pc;
        ++pc;
        L0SPV_SYNC();
        return Stop::kWaiting;
      case Op::kExtInst: {
        const ExtCall& call = prog_.ext_calls[I.d];
        ext_.regs = R;
        ext_.inv = &inv;
        ext_.pc = pc;
        if (!call.handler(ext_, call)) {
          L0SPV_SYNC();
          return Stop::kError;
        }
        ++pc;
        break;
      }
      case Op::kImage:
        if (!ImageOp(inv, pc, R, prog_.image_calls[I.d])) {
          L0SPV_SYNC();
          return Stop::kError;
        }
        ++pc;
        break;
      case Op::kImageFence:
        ++inv.image_fence;
        ++pc;
        break;
      case Op::kNop:
        ++pc;
        break;
      case Op::kTrapUnsupported:
        L0SPV_FAIL(ExecutionStatus::kUnsupported, "unsupported instruction",
                   prog_.messages[I.d]);
      default:
        L0SPV_FAIL(ExecutionStatus::kUnsupported, "unsupported instruction",
                   absl::StrCat("internal opcode ", static_cast<int>(I.op)));
    }
  }
#undef L0SPV_SYNC
#undef L0SPV_FAIL
#undef L0SPV_UB
#undef L0SPV_RESOLVE
#undef L0SPV_SHADOW
}

template Executor::Stop Executor::RunImpl<true>(Invocation&);
template Executor::Stop Executor::RunImpl<false>(Invocation&);

}  // namespace l0spv::oracles::reference
