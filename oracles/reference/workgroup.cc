#include "oracles/reference/workgroup.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>

#include "absl/strings/str_cat.h"
#include "oracles/reference/numeric.h"
#include "oracles/reference/race.h"

namespace l0spv::oracles::reference {
namespace {

uint64_t SplitMix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void Shuffle(std::vector<uint32_t>& order, uint64_t& rng) {
  for (size_t i = order.size(); i > 1; --i) {
    const size_t j = SplitMix(rng) % i;
    std::swap(order[i - 1], order[j]);
  }
}

// One lane value as a double / int64 / uint64 for the reductions.
struct Scalar {
  Kind k;
  double AsDouble(const uint8_t* p) const {
    switch (k) {
      case kF16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        return HalfToFloat(h);
      }
      case kF32: {
        float f;
        std::memcpy(&f, p, 4);
        return f;
      }
      default: {
        double d;
        std::memcpy(&d, p, 8);
        return d;
      }
    }
  }
  // Rounds to the lane format.
  void StoreDouble(uint8_t* p, double v) const {
    switch (k) {
      case kF16: {
        const uint16_t h = DoubleToHalf(v);
        std::memcpy(p, &h, 2);
        break;
      }
      case kF32: {
        const float f = static_cast<float>(v);
        std::memcpy(p, &f, 4);
        break;
      }
      default:
        std::memcpy(p, &v, 8);
        break;
    }
  }
  uint64_t AsBits(const uint8_t* p) const {
    uint64_t v = 0;
    std::memcpy(&v, p, KindBytes(k));
    return v;
  }
  int64_t AsSigned(const uint8_t* p) const {
    const uint32_t b = KindBytes(k);
    uint64_t v = AsBits(p);
    if (b < 8) {
      const uint64_t sign = uint64_t{1} << (b * 8 - 1);
      v = (v ^ sign) - sign;
    }
    return static_cast<int64_t>(v);
  }
};

bool IsFloatOp(GroupOp op) {
  return op == GroupOp::kFAdd || op == GroupOp::kFMul || op == GroupOp::kFMin ||
         op == GroupOp::kFMax;
}

// The identity of an arithmetic group operation (the ExclusiveScan result
// of the first invocation): 0 for add/or/xor, 1 for mul, +inf / INT_MAX /
// UINT_MAX for min, -inf / INT_MIN / 0 for max, all ones for and, true for
// LogicalAnd.
void SetIdentity(GroupOp op, Kind k, uint8_t* acc) {
  const Scalar s{k};
  const uint32_t eb = KindBytes(k);
  std::memset(acc, 0, 8);
  if (eb == 0) return;  // never decoded: guarded for safety
  switch (op) {
    case GroupOp::kFAdd:
      s.StoreDouble(acc, 0.0);
      break;
    case GroupOp::kFMul:
      s.StoreDouble(acc, 1.0);
      break;
    case GroupOp::kIMul:
    case GroupOp::kLogicalAnd:
      acc[0] = 1;
      break;
    case GroupOp::kFMin:
      s.StoreDouble(acc, std::numeric_limits<double>::infinity());
      break;
    case GroupOp::kFMax:
      s.StoreDouble(acc, -std::numeric_limits<double>::infinity());
      break;
    case GroupOp::kUMin:
    case GroupOp::kBitwiseAnd:
      std::memset(acc, 0xFF, eb);
      break;
    case GroupOp::kSMin: {
      const uint64_t v = (uint64_t{1} << (eb * 8 - 1)) - 1;
      std::memcpy(acc, &v, eb);
      break;
    }
    case GroupOp::kSMax: {
      const uint64_t v = uint64_t{1} << (eb * 8 - 1);
      std::memcpy(acc, &v, eb);
      break;
    }
    default:
      break;
  }
}

// a = a op b for one lane of kind k. Floats are computed in double and
// rounded to the lane format after every step: correctly rounded, as
// double rounding is innocuous for one add or multiply of half/float
// operands (double has at least 2p + 2 bits). FMin/FMax return the other
// operand when one is NaN.
void Combine(GroupOp op, Kind k, uint8_t* a, const uint8_t* b) {
  const Scalar s{k};
  const uint32_t eb = KindBytes(k);
  if (IsFloatOp(op)) {
    const double x = s.AsDouble(a), y = s.AsDouble(b);
    double r;
    if (op == GroupOp::kFAdd) {
      r = x + y;
    } else if (op == GroupOp::kFMul) {
      r = x * y;
    } else if (op == GroupOp::kFMin) {
      r = std::isnan(x) ? y : std::isnan(y) ? x : std::min(x, y);
    } else {
      r = std::isnan(x) ? y : std::isnan(y) ? x : std::max(x, y);
    }
    s.StoreDouble(a, r);
    return;
  }
  uint64_t r = 0;
  switch (op) {
    case GroupOp::kIAdd:
      r = s.AsBits(a) + s.AsBits(b);
      break;
    case GroupOp::kIMul:
      r = s.AsBits(a) * s.AsBits(b);
      break;
    case GroupOp::kUMin:
      r = std::min(s.AsBits(a), s.AsBits(b));
      break;
    case GroupOp::kUMax:
      r = std::max(s.AsBits(a), s.AsBits(b));
      break;
    case GroupOp::kSMin:
      r = static_cast<uint64_t>(std::min(s.AsSigned(a), s.AsSigned(b)));
      break;
    case GroupOp::kSMax:
      r = static_cast<uint64_t>(std::max(s.AsSigned(a), s.AsSigned(b)));
      break;
    case GroupOp::kBitwiseAnd:
      r = s.AsBits(a) & s.AsBits(b);
      break;
    case GroupOp::kBitwiseOr:
      r = s.AsBits(a) | s.AsBits(b);
      break;
    case GroupOp::kBitwiseXor:
      r = s.AsBits(a) ^ s.AsBits(b);
      break;
    case GroupOp::kLogicalAnd:
      r = (a[0] != 0) && (b[0] != 0);
      break;
    case GroupOp::kLogicalOr:
      r = (a[0] != 0) || (b[0] != 0);
      break;
    case GroupOp::kLogicalXor:
      r = (a[0] != 0) != (b[0] != 0);
      break;
    default:
      break;
  }
  std::memcpy(a, &r, eb);
}

// SPV_INTEL_subgroups: shuffles among the invocations that reached the
// instruction (`members`, a subset of one subgroup) and block reads/writes
// (the whole subgroup, uniform pointer).
bool CompleteIntel(WorkgroupContext& ctx, const Inst& inst, uint32_t pc,
                   std::span<Invocation* const> members) {
  const GroupCall& g = ctx.state->program->groups[inst.d];
  const uint32_t sg = std::max<uint32_t>(1, ctx.geometry->subgroup_size);
  auto regs = [](Invocation* m) { return m->frames.back().regs; };
  auto lane_id = [&](Invocation* m) { return m->local_index % sg; };
  if (g.op == GroupOp::kBlockRead || g.op == GroupOp::kBlockWrite) {
    const bool write = g.op == GroupOp::kBlockWrite;
    uint64_t ptr = 0;
    std::memcpy(&ptr, regs(members[0]) + g.value, 8);
    for (Invocation* m : members) {
      uint64_t p = 0;
      std::memcpy(&p, regs(m) + g.value, 8);
      if (p != ptr) {
        ctx.executor->Error(*m, pc, ExecutionStatus::kUbDetected,
                            "non-uniform subgroup block pointer",
                            "work-items of the subgroup pass different "
                            "pointers");
        return false;
      }
    }
    // Ptr must be 4-byte aligned for reads and 16-byte aligned for writes
    // (Level Zero environment, SPV_INTEL_subgroups restrictions).
    const uint32_t need = write ? 16 : 4;
    if ((PointerOffset(ptr) & (need - 1)) != 0) {
      ctx.executor->Error(
          *members[0], pc, ExecutionStatus::kUbDetected,
          write ? "misaligned subgroup block write"
                : "misaligned subgroup block read",
          absl::StrCat("the pointer must be ", need, "-byte aligned"));
      return false;
    }
    const uint32_t eb = KindBytes(inst.k);
    for (Invocation* m : members) {
      for (uint32_t j = 0; j < inst.n; ++j) {
        const uint64_t element = uint64_t{j} * sg + lane_id(m);
        const uint64_t at =
            (ptr & 0xFFFFFFFF00000000ull) |
            static_cast<uint32_t>(PointerOffset(ptr) + element * eb);
        uint8_t* host = ctx.executor->CheckedAccess(*m, pc, at, eb, eb, write);
        if (host == nullptr) return false;
        if (write) {
          std::memcpy(host, regs(m) + g.value2 + j * eb, eb);
        } else {
          std::memcpy(regs(m) + inst.r + j * eb, host, eb);
        }
      }
    }
    return true;
  }
  std::vector<Invocation*> by_lane(sg, nullptr);
  for (Invocation* m : members) by_lane[lane_id(m)] = m;
  // Gather every source first: a result slot is never an operand slot of
  // the same frame, but gather-then-scatter keeps that out of the argument.
  std::vector<uint8_t> out(members.size() * inst.c);
  for (size_t i = 0; i < members.size(); ++i) {
    Invocation* m = members[i];
    uint32_t index = 0;
    std::memcpy(&index, regs(m) + g.index, 4);
    const uint64_t lid = lane_id(m);
    uint64_t src = 0;
    uint32_t slot = g.value;
    bool ok = true;
    switch (g.op) {
      case GroupOp::kShuffle:
        src = index;
        break;
      case GroupOp::kShuffleXor:
        src = lid ^ index;
        break;
      case GroupOp::kShuffleDown: {
        const uint64_t j = lid + index;
        if (j < sg) {
          src = j;
        } else {
          src = j - sg;
          slot = g.value2;
        }
        break;
      }
      case GroupOp::kShuffleUp:
        if (index > sg) {
          ok = false;
        } else if (index <= lid) {
          src = lid - index;
          slot = g.value2;
        } else {
          src = lid + sg - index;
        }
        break;
      default:
        break;
    }
    if (!ok || src >= sg || by_lane[src] == nullptr) {
      ctx.executor->Error(
          *m, pc, ExecutionStatus::kUbDetected, "subgroup shuffle out of range",
          absl::StrCat("index ", index, " names subgroup invocation ",
                       ok ? absl::StrCat(src) : std::string("(none)"),
                       ", which ",
                       ok && src < sg ? "did not reach this shuffle"
                                      : "is outside the subgroup"));
      return false;
    }
    std::memcpy(out.data() + i * inst.c, regs(by_lane[src]) + slot, inst.c);
  }
  for (size_t i = 0; i < members.size(); ++i)
    std::memcpy(regs(members[i]) + inst.r, out.data() + i * inst.c, inst.c);
  return true;
}

// Reads an integer of `bytes` bytes (zero-extended).
uint64_t ReadUint(const uint8_t* p, uint32_t bytes) {
  uint64_t v = 0;
  std::memcpy(&v, p, std::min<uint32_t>(bytes, 8));
  return v;
}

// Does one recorded async copy, element by element, through checked
// accesses attributed to `lead`. The copy is ordered with every access by
// the wait (a collective), so it refreshes the race records of what it
// writes instead of checking them; the uninitialised-read shadow travels
// with the bytes.
bool DoCopy(WorkgroupContext& ctx, const PendingCopy& c, Invocation& lead,
            uint32_t pc) {
  Memory& mem = *ctx.state->memory;
  const uint32_t eb = c.element_bytes;
  auto step = [](uint64_t p, uint64_t bytes) {
    return (p & 0xFFFFFFFF00000000ull) |
           static_cast<uint32_t>(PointerOffset(p) + bytes);
  };
  for (uint64_t i = 0; i < c.count; ++i) {
    const uint64_t s = step(c.src, (c.gather ? i * c.stride : i) * eb);
    const uint64_t d = step(c.dst, (c.gather ? i : i * c.stride) * eb);
    const uint8_t* from =
        ctx.executor->CheckedAccess(lead, pc, s, eb, 1, false, false);
    if (from == nullptr) return false;
    uint8_t* to = ctx.executor->CheckedAccess(lead, pc, d, eb, 1, true, false);
    if (to == nullptr) return false;
    std::memmove(to, from, eb);
    const Allocation& sa = mem.record(PointerId(s));
    Allocation& da = mem.record(PointerId(d));
    if (da.init != nullptr) {
      if (sa.init != nullptr) {
        std::memmove(da.init + PointerOffset(d), sa.init + PointerOffset(s),
                     eb);
      } else {
        std::memset(da.init + PointerOffset(d), 1, eb);
      }
    }
    if (da.race != nullptr) {
      for (uint32_t b = 0; b < eb; ++b) da.race[PointerOffset(d) + b] = {};
    }
  }
  return true;
}

bool CompleteAsync(WorkgroupContext& ctx, const Inst& inst, uint32_t pc,
                   std::span<Invocation* const> members) {
  const GroupCall& g = ctx.state->program->groups[inst.d];
  auto regs = [](Invocation* m) { return m->frames.back().regs; };
  auto non_uniform = [&](Invocation* m, const char* what) {
    ctx.executor->Error(*m, pc, ExecutionStatus::kUbDetected,
                        absl::StrCat("non-uniform ", what),
                        "the work-items of the work-group pass different "
                        "values");
    return false;
  };
  if (g.op == GroupOp::kAsyncCopy) {
    PendingCopy c;
    Invocation* lead = members[0];
    c.dst = ReadUint(regs(lead) + g.value, 8);
    c.src = ReadUint(regs(lead) + g.value2, 8);
    c.count = ReadUint(regs(lead) + g.index, g.index_bytes);
    c.stride = ReadUint(regs(lead) + g.local_id, g.stride_bytes);
    c.event = ReadUint(regs(lead) + g.event, 8);
    c.element_bytes = g.element_bytes;
    c.gather = g.gather;
    c.pc = pc;
    for (Invocation* m : members) {
      if (ReadUint(regs(m) + g.value, 8) != c.dst ||
          ReadUint(regs(m) + g.value2, 8) != c.src ||
          ReadUint(regs(m) + g.index, g.index_bytes) != c.count ||
          ReadUint(regs(m) + g.local_id, g.stride_bytes) != c.stride ||
          ReadUint(regs(m) + g.event, 8) != c.event)
        return non_uniform(m, "OpGroupAsyncCopy arguments");
    }
    // Events are 1-based copy numbers; a given event joins that copy's
    // event (the copy completes with it).
    if (c.event == 0 || c.event > ctx.async_copies.size())
      c.event = ctx.async_copies.size() + 1;
    ctx.async_copies.push_back(c);
    for (Invocation* m : members) std::memcpy(regs(m) + inst.r, &c.event, 8);
    return true;
  }
  // OpGroupWaitEvents: every work-item names the same events.
  Invocation* lead = members[0];
  const uint64_t n = ReadUint(regs(lead) + g.index, g.index_bytes);
  if (n > (uint64_t{1} << 16)) {
    ctx.executor->Error(*lead, pc, ExecutionStatus::kUnsupported,
                        "OpGroupWaitEvents on too many events",
                        absl::StrCat(n, " events"));
    return false;
  }
  std::vector<uint64_t> events(n);
  for (Invocation* m : members) {
    if (ReadUint(regs(m) + g.index, g.index_bytes) != n)
      return non_uniform(m, "OpGroupWaitEvents event count");
    const uint64_t list = ReadUint(regs(m) + g.value, 8);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t at = (list & 0xFFFFFFFF00000000ull) |
                          static_cast<uint32_t>(PointerOffset(list) + i * 8);
      const uint8_t* p = ctx.executor->CheckedAccess(*m, pc, at, 8, 8, false);
      if (p == nullptr) return false;
      const uint64_t e = ReadUint(p, 8);
      if (m == lead) {
        events[i] = e;
      } else if (events[i] != e) {
        return non_uniform(m, "OpGroupWaitEvents events");
      }
    }
  }
  for (PendingCopy& c : ctx.async_copies) {
    if (c.done ||
        std::find(events.begin(), events.end(), c.event) == events.end())
      continue;
    if (!DoCopy(ctx, c, *lead, pc)) return false;
    c.done = true;
  }
  return true;
}

using Ballot = std::array<uint32_t, 4>;

bool BallotBit(const Ballot& b, uint64_t bit) {
  return bit < 128 && ((b[bit / 32] >> (bit % 32)) & 1u) != 0;
}

// OpGroupNonUniform*: `members` are the active invocations of one subgroup
// (those waiting at the instruction together), in LocalInvocationIndex
// order, so lane order. Reading an invocation that is not active, or an
// id outside the subgroup, is UB; so are the other undefined results the
// SPIR-V specification names (see the README).
bool CompleteNonUniform(WorkgroupContext& ctx, const Inst& inst, uint32_t pc,
                        std::span<Invocation* const> members) {
  const GroupCall& g = ctx.state->program->groups[inst.d];
  Executor& exec = *ctx.executor;
  const uint32_t sg = std::max<uint32_t>(1, ctx.geometry->subgroup_size);
  const std::array<uint64_t, 3> gs =
      GroupSize(*ctx.geometry, ctx.state->group_id);
  const uint64_t items = gs[0] * gs[1] * gs[2];
  // Invocations in this subgroup (the last one may be partial).
  const uint32_t size = static_cast<uint32_t>(
      std::min<uint64_t>(sg, items - uint64_t{members[0]->subgroup} * sg));
  auto regs = [](Invocation* m) { return m->frames.back().regs; };
  auto value = [&](Invocation* m) { return regs(m) + g.value; };
  auto result = [&](Invocation* m) { return regs(m) + inst.r; };
  auto lane = [&](const Invocation* m) { return m->local_index % sg; };
  auto index = [&](Invocation* m) {
    return ReadUint(regs(m) + g.index, g.index_bytes);
  };
  auto ballot = [&](Invocation* m) {
    Ballot b;
    std::memcpy(b.data(), value(m), 16);
    return b;
  };
  auto ub = [&](Invocation* m, absl::string_view check,
                absl::string_view detail) {
    exec.Error(*m, pc, ExecutionStatus::kUbDetected, check, detail);
    return false;
  };
  auto set_bool = [&](Invocation* m, bool v) { *result(m) = v ? 1 : 0; };
  auto set_uint = [&](Invocation* m, uint64_t v) {
    std::memcpy(result(m), &v, KindBytes(inst.k));
  };
  std::vector<Invocation*> by_lane(sg, nullptr);
  for (Invocation* m : members) by_lane[lane(m)] = m;
  // Why lane `src` cannot be read (empty: it can).
  auto unreadable = [&](uint64_t src) -> std::string {
    if (src >= size) return "is outside the subgroup";
    if (by_lane[src] == nullptr) return "is not active (did not reach it)";
    return "";
  };

  switch (g.op) {
    case GroupOp::kElect:
      for (Invocation* m : members) set_bool(m, m == members[0]);
      return true;
    case GroupOp::kAll:
    case GroupOp::kAny: {
      bool all = true, any = false;
      for (Invocation* m : members) {
        all &= *value(m) != 0;
        any |= *value(m) != 0;
      }
      for (Invocation* m : members)
        set_bool(m, g.op == GroupOp::kAll ? all : any);
      return true;
    }
    case GroupOp::kAllEqual: {
      // Integers compare bits; floats compare with IEEE == (a NaN is never
      // equal, -0 == +0), as FOrdEqual.
      const Scalar s{g.value_kind};
      const uint32_t eb = KindBytes(g.value_kind);
      const bool is_float = g.value_kind >= kF16;
      bool equal = true;
      for (Invocation* m : members) {
        equal &= is_float
                     ? s.AsDouble(value(m)) == s.AsDouble(value(members[0]))
                     : std::memcmp(value(m), value(members[0]), eb) == 0;
      }
      for (Invocation* m : members) set_bool(m, equal);
      return true;
    }
    case GroupOp::kBroadcast:
    case GroupOp::kBroadcastFirst: {
      uint64_t src = lane(members[0]);
      if (g.op == GroupOp::kBroadcast) {
        src = index(members[0]);
        for (Invocation* m : members) {
          if (index(m) != src)
            return ub(m, "non-uniform broadcast id",
                      absl::StrCat("this work-item broadcasts from subgroup "
                                   "invocation ",
                                   index(m), ", the first active one from ",
                                   src, " (Id must be dynamically uniform)"));
        }
        if (std::string why = unreadable(src); !why.empty())
          return ub(members[0], "broadcast from an inactive invocation",
                    absl::StrCat("Id ", src, " names subgroup invocation ", src,
                                 ", which ", why));
      }
      std::vector<uint8_t> v(value(by_lane[src]), value(by_lane[src]) + inst.c);
      for (Invocation* m : members) std::memcpy(result(m), v.data(), inst.c);
      return true;
    }
    case GroupOp::kBallot: {
      Ballot b{0, 0, 0, 0};
      for (Invocation* m : members)
        if (*value(m) != 0) b[lane(m) / 32] |= 1u << (lane(m) % 32);
      for (Invocation* m : members) std::memcpy(result(m), b.data(), 16);
      return true;
    }
    case GroupOp::kInverseBallot: {
      const Ballot first = ballot(members[0]);
      for (Invocation* m : members) {
        if (ballot(m) != first)
          return ub(m, "non-uniform ballot value",
                    "OpGroupNonUniformInverseBallot needs the same Value in "
                    "every active invocation");
      }
      for (Invocation* m : members) set_bool(m, BallotBit(first, lane(m)));
      return true;
    }
    case GroupOp::kBallotBitExtract:
      for (Invocation* m : members) {
        const uint64_t bit = index(m);
        if (bit >= sg)
          return ub(m, "ballot bit index out of range",
                    absl::StrCat("Index ", bit,
                                 " is not below the subgroup size ", sg));
        set_bool(m, BallotBit(ballot(m), bit));
      }
      return true;
    case GroupOp::kBallotBitCount:
      // Only the bits of the subgroup's invocations count.
      for (Invocation* m : members) {
        const Ballot b = ballot(m);
        uint64_t end = size;
        if (g.mode == GroupMode::kInclusiveScan) end = lane(m) + 1;
        if (g.mode == GroupMode::kExclusiveScan) end = lane(m);
        uint64_t n = 0;
        for (uint64_t bit = 0; bit < end; ++bit) n += BallotBit(b, bit);
        set_uint(m, n);
      }
      return true;
    case GroupOp::kBallotFindLSB:
    case GroupOp::kBallotFindMSB:
      for (Invocation* m : members) {
        const Ballot b = ballot(m);
        int64_t found = -1;
        for (uint64_t bit = 0; bit < size; ++bit) {
          if (!BallotBit(b, bit)) continue;
          found = static_cast<int64_t>(bit);
          if (g.op == GroupOp::kBallotFindLSB) break;
        }
        if (found < 0)
          return ub(m, "ballot find of an empty mask",
                    absl::StrCat("no bit of the subgroup's ", size,
                                 " invocations is set in Value, so the "
                                 "result is undefined"));
        set_uint(m, static_cast<uint64_t>(found));
      }
      return true;
    case GroupOp::kNuShuffle:
    case GroupOp::kNuShuffleXor:
    case GroupOp::kNuShuffleUp:
    case GroupOp::kNuShuffleDown: {
      std::vector<uint8_t> out(members.size() * inst.c);
      for (size_t i = 0; i < members.size(); ++i) {
        Invocation* m = members[i];
        const uint64_t ix = index(m);
        const uint64_t lid = lane(m);
        uint64_t src = ix;
        std::string why;
        std::string name;  // the lane named, when it does not fit a uint64
        if (g.op == GroupOp::kNuShuffleXor) src = lid ^ ix;
        if (g.op == GroupOp::kNuShuffleDown) {
          if (ix >= size) {  // also keeps lid + ix from wrapping around
            why = "is outside the subgroup";
            name = absl::StrCat(lid, " + ", ix);
          } else {
            src = lid + ix;
          }
        }
        if (g.op == GroupOp::kNuShuffleUp) {
          if (ix > lid) {
            why = "is below the subgroup's first invocation";
            name = absl::StrCat(lid, " - ", ix);
          } else {
            src = lid - ix;
          }
        }
        if (why.empty()) why = unreadable(src);
        if (!why.empty())
          return ub(m, "subgroup shuffle out of range",
                    absl::StrCat(g.op == GroupOp::kNuShuffle      ? "Id "
                                 : g.op == GroupOp::kNuShuffleXor ? "Mask "
                                                                  : "Delta ",
                                 ix, " names subgroup invocation ",
                                 name.empty() ? absl::StrCat(src) : name,
                                 ", which ", why));
        std::memcpy(out.data() + i * inst.c, value(by_lane[src]), inst.c);
      }
      for (size_t i = 0; i < members.size(); ++i)
        std::memcpy(result(members[i]), out.data() + i * inst.c, inst.c);
      return true;
    }
    default:
      break;
  }
  // Arithmetic: lane order, each step rounded (floats), so FAdd/FMul are
  // deterministic.
  const uint32_t eb = KindBytes(inst.k);
  uint64_t cluster = size;  // Reduce and scans: the whole subgroup
  if (g.mode == GroupMode::kClusteredReduce) {
    cluster = g.cluster;
    if (cluster == 0 || (cluster & (cluster - 1)) != 0 || cluster > sg)
      return ub(members[0], "invalid ClusterSize",
                absl::StrCat("ClusterSize ", g.cluster,
                             " is not a power of two no larger than the "
                             "subgroup size ",
                             sg));
  }
  const bool minmax_f = g.op == GroupOp::kFMin || g.op == GroupOp::kFMax;
  const Scalar fs{inst.k};
  std::vector<uint8_t> out(members.size() * 8);
  for (size_t i = 0; i < members.size();) {
    // One cluster: members i .. j-1.
    size_t j = i;
    const uint64_t c = lane(members[i]) / cluster;
    while (j < members.size() && lane(members[j]) / cluster == c) ++j;
    uint8_t acc[8];
    SetIdentity(g.op, inst.k, acc);
    bool number = false;  // FMin/FMax: some value combined is not NaN
    size_t used = 0;
    auto check = [&](size_t at) {
      if (!minmax_f || used == 0 || number) return true;
      return ub(members[at], "undefined group result",
                "every value combined for this work-item is NaN, so the "
                "result is undefined");
    };
    for (size_t k = i; k < j; ++k) {
      uint8_t* r = out.data() + k * 8;
      if (g.mode == GroupMode::kExclusiveScan) {
        if (!check(k)) return false;
        std::memcpy(r, acc, eb);
      }
      Combine(g.op, inst.k, acc, value(members[k]));
      number |= minmax_f && !std::isnan(fs.AsDouble(value(members[k])));
      ++used;
      if (g.mode == GroupMode::kInclusiveScan) {
        if (!check(k)) return false;
        std::memcpy(r, acc, eb);
      }
    }
    if (g.mode == GroupMode::kReduce || g.mode == GroupMode::kClusteredReduce) {
      if (!check(i)) return false;
      for (size_t k = i; k < j; ++k) std::memcpy(out.data() + k * 8, acc, eb);
    }
    i = j;
  }
  for (size_t i = 0; i < members.size(); ++i)
    std::memcpy(result(members[i]), out.data() + i * 8, eb);
  return true;
}

// Computes a collective for `members` (in LocalInvocationIndex order).
bool Complete(WorkgroupContext& ctx, const Inst& inst, uint32_t pc,
              std::span<Invocation* const> members, bool subgroup) {
  const Program& prog = *ctx.state->program;
  if (inst.op == Op::kBarrier) {
    if (ctx.state->races != nullptr)
      ctx.state->races->Barrier(members.data(), members.size(), inst.b,
                                !subgroup);
    if (inst.b & kImageMemorySemantics) {
      for (Invocation* m : members) {
        ++m->image_fence;
        ++m->image_sync;
        if (!subgroup) ++m->image_wg_sync;
      }
    }
    return true;
  }
  const GroupCall& g = prog.groups[inst.d];
  if (g.non_uniform) return CompleteNonUniform(ctx, inst, pc, members);
  const uint32_t eb = inst.k == kAgg ? inst.c : KindBytes(inst.k);
  auto value = [&](Invocation* m) { return m->frames.back().regs + g.value; };
  auto result = [&](Invocation* m) { return m->frames.back().regs + inst.r; };

  if (g.op == GroupOp::kAll || g.op == GroupOp::kAny) {
    bool all = true, any = false;
    for (Invocation* m : members) {
      all &= *value(m) != 0;
      any |= *value(m) != 0;
    }
    for (Invocation* m : members)
      *result(m) = (g.op == GroupOp::kAll ? all : any) ? 1 : 0;
    return true;
  }
  if (g.op == GroupOp::kBroadcast) {
    std::array<uint64_t, 3> want{0, 0, 0};
    for (size_t i = 0; i < members.size(); ++i) {
      std::array<uint64_t, 3> id{0, 0, 0};
      const uint8_t* p = members[i]->frames.back().regs + g.local_id;
      for (uint32_t l = 0; l < g.local_id_lanes && l < 3; ++l)
        std::memcpy(&id[l], p + l * g.local_id_bytes, g.local_id_bytes);
      if (i == 0) {
        want = id;
      } else if (id != want) {
        ctx.executor->Error(*members[i], pc, ExecutionStatus::kUbDetected,
                            "non-uniform broadcast id",
                            "work-items of the group broadcast from "
                            "different work-items");
        return false;
      }
    }
    Invocation* source = nullptr;
    for (Invocation* m : members) {
      const bool match =
          subgroup
              ? (m->local_index %
                 std::max<uint32_t>(1, ctx.geometry->subgroup_size)) == want[0]
              : m->local_id == want;
      if (match) source = m;
    }
    if (source == nullptr) {
      ctx.executor->Error(
          *members[0], pc, ExecutionStatus::kUbDetected,
          "broadcast from a work-item outside the group",
          absl::StrCat("id (", want[0], ", ", want[1], ", ", want[2], ")"));
      return false;
    }
    std::vector<uint8_t> v(value(source), value(source) + inst.c);
    for (Invocation* m : members) std::memcpy(result(m), v.data(), inst.c);
    return true;
  }
  if (IsShuffle(g.op) || g.op == GroupOp::kBlockRead ||
      g.op == GroupOp::kBlockWrite)
    return CompleteIntel(ctx, inst, pc, members);
  if (g.op == GroupOp::kAsyncCopy || g.op == GroupOp::kWaitEvents)
    return CompleteAsync(ctx, inst, pc, members);
  // Arithmetic reductions and scans, accumulated in member order.
  uint8_t acc[8] = {0};
  SetIdentity(g.op, inst.k, acc);
  auto combine = [&](uint8_t* a, const uint8_t* b) {
    Combine(g.op, inst.k, a, b);
  };
  if (g.mode == GroupMode::kReduce) {
    for (Invocation* m : members) combine(acc, value(m));
    for (Invocation* m : members) std::memcpy(result(m), acc, eb);
    return true;
  }
  for (Invocation* m : members) {
    uint8_t v[8];
    std::memcpy(v, value(m), eb);
    if (g.mode == GroupMode::kExclusiveScan) std::memcpy(result(m), acc, eb);
    combine(acc, v);
    if (g.mode == GroupMode::kInclusiveScan) std::memcpy(result(m), acc, eb);
  }
  return true;
}

}  // namespace

bool RunWorkgroup(WorkgroupContext& ctx, const std::array<uint64_t, 3>& group,
                  std::vector<std::unique_ptr<Invocation>>& pool,
                  uint32_t* next_tag) {
  RunState& state = *ctx.state;
  const Program& prog = *state.program;
  Memory& mem = *state.memory;
  Executor& exec = *ctx.executor;
  const Geometry& geo = *ctx.geometry;
  state.group_id = group;
  const std::array<uint64_t, 3> size = GroupSize(geo, group);
  const uint32_t items = static_cast<uint32_t>(size[0] * size[1] * size[2]);
  while (pool.size() < items) pool.push_back(std::make_unique<Invocation>());

  ctx.async_copies.clear();
  const uint32_t first_tag = *next_tag;
  for (uint32_t i = 0; i < items; ++i) {
    Invocation& inv = *pool[i];
    inv.tag = (*next_tag)++;
    inv.frames.clear();
    inv.live.clear();
    inv.stack.Reset();
    inv.state = Invocation::State::kReady;
    InitWorkItem(prog, geo, group, i, inv);
  }
  std::vector<Invocation*> members;
  if (state.races != nullptr) {
    for (uint32_t i = 0; i < items; ++i) members.push_back(pool[i].get());
    state.races->StartGroup(group, first_tag, items, members.data());
  }
  auto select = [&](Invocation& inv) {
    for (const auto& [id, off] : ctx.builtin_allocs)
      mem.record(id).data = inv.builtins.data() + off;
  };
  // Entry frames are pushed lazily, right before a work-item first runs, so
  // that the builtin pointers and private allocations are its own.
  std::vector<bool> started(items, false);
  std::vector<uint32_t> order(items);
  for (uint32_t i = 0; i < items; ++i) order[i] = i;
  uint64_t rng = 0;
  if (ctx.schedule_seed) {
    rng = *ctx.schedule_seed ^
          (group[0] * 0x100000001B3ull + group[1] * 0xC2B2AE3D27D4EB4Full +
           group[2] * 0x165667B19E3779F9ull);
    Shuffle(order, rng);
  }
  const uint32_t sg = std::max<uint32_t>(1, geo.subgroup_size);
  uint32_t done = 0;
  for (;;) {
    for (uint32_t idx : order) {
      Invocation& inv = *pool[idx];
      if (inv.state != Invocation::State::kReady) continue;
      select(inv);
      if (!started[idx]) {
        started[idx] = true;
        if (!ctx.start(inv)) return false;
      }
      switch (exec.Run(inv)) {
        case Executor::Stop::kDone:
          inv.state = Invocation::State::kDone;
          ++done;
          break;
        case Executor::Stop::kWaiting:
          inv.state = Invocation::State::kWaiting;
          break;
        case Executor::Stop::kError:
          return false;
      }
    }
    if (done == items) {
      for (const PendingCopy& c : ctx.async_copies) {
        if (c.done) continue;
        exec.Error(*pool[0], c.pc, ExecutionStatus::kUbDetected,
                   "async copy never waited for",
                   "the work-group finished without an OpGroupWaitEvents "
                   "on this copy's event");
        return false;
      }
      return true;
    }
    // Every work-item waits or is done: complete what can be completed.
    bool progressed = false;
    for (uint32_t first = 0; first < items; first += sg) {
      const uint32_t last = std::min(items, first + sg);
      Invocation& lead = *pool[first];
      if (lead.state != Invocation::State::kWaiting) continue;
      const Inst& inst = prog.insts[lead.wait_pc];
      const uint32_t scope =
          inst.op == Op::kBarrier ? inst.a : prog.groups[inst.d].scope;
      if (scope != 3) continue;
      bool all = true;
      for (uint32_t i = first; i < last; ++i)
        all &= pool[i]->state == Invocation::State::kWaiting &&
               pool[i]->wait_pc == lead.wait_pc;
      if (!all) continue;
      members.clear();
      for (uint32_t i = first; i < last; ++i) members.push_back(pool[i].get());
      if (!Complete(ctx, inst, lead.wait_pc, members, true)) return false;
      for (Invocation* m : members) m->state = Invocation::State::kReady;
      progressed = true;
    }
    if (!progressed) {
      // Shuffles and OpGroupNonUniform* in non-uniform control flow: when
      // nothing else can move, the invocations of a subgroup that wait at
      // the same such instruction (the active ones) complete it among
      // themselves (the first such instruction in LocalInvocationIndex
      // order, so the choice is deterministic).
      for (uint32_t first = 0; first < items && !progressed; first += sg) {
        const uint32_t last = std::min(items, first + sg);
        for (uint32_t i = first; i < last && !progressed; ++i) {
          const Invocation& w = *pool[i];
          if (w.state != Invocation::State::kWaiting) continue;
          const Inst& inst = prog.insts[w.wait_pc];
          if (inst.op != Op::kGroup || !RunsNonUniform(prog.groups[inst.d]))
            continue;
          members.clear();
          for (uint32_t j = first; j < last; ++j) {
            if (pool[j]->state == Invocation::State::kWaiting &&
                pool[j]->wait_pc == w.wait_pc)
              members.push_back(pool[j].get());
          }
          const uint32_t at = w.wait_pc;
          if (!Complete(ctx, inst, at, members, true)) return false;
          for (Invocation* m : members) m->state = Invocation::State::kReady;
          progressed = true;
        }
      }
    }
    if (!progressed) {
      Invocation& lead = *pool[0];
      bool all = done == 0;
      for (uint32_t i = 0; i < items && all; ++i)
        all = pool[i]->state == Invocation::State::kWaiting &&
              pool[i]->wait_pc == lead.wait_pc;
      if (all) {
        const Inst& inst = prog.insts[lead.wait_pc];
        const uint32_t scope =
            inst.op == Op::kBarrier ? inst.a : prog.groups[inst.d].scope;
        if (scope == 2) {
          members.clear();
          for (uint32_t i = 0; i < items; ++i) members.push_back(pool[i].get());
          if (!Complete(ctx, inst, lead.wait_pc, members, false)) return false;
          for (Invocation* m : members) m->state = Invocation::State::kReady;
          progressed = true;
        }
      }
    }
    if (!progressed) {
      // Nobody can go on: find two work-items that disagree.
      const Invocation* waiting = nullptr;
      const Invocation* other = nullptr;
      for (uint32_t i = 0; i < items && !waiting; ++i)
        if (pool[i]->state == Invocation::State::kWaiting)
          waiting = pool[i].get();
      for (uint32_t i = 0; i < items && !other; ++i) {
        const Invocation* c = pool[i].get();
        if (c->state == Invocation::State::kDone ||
            c->wait_pc != waiting->wait_pc)
          other = c;
      }
      std::string detail =
          "not every work-item of the scope reached this "
          "barrier/collective";
      if (other != nullptr) {
        absl::StrAppend(&detail, "; work-item (", other->global_id[0], ", ",
                        other->global_id[1], ", ", other->global_id[2], ") ",
                        other->state == Invocation::State::kDone
                            ? "has returned from the kernel"
                            : "waits at " + exec.Where(*other, other->wait_pc));
      }
      exec.Error(*waiting, waiting->wait_pc, ExecutionStatus::kUbDetected,
                 "barrier divergence", detail);
      return false;
    }
    if (ctx.schedule_seed) Shuffle(order, rng);
  }
}

}  // namespace l0spv::oracles::reference
