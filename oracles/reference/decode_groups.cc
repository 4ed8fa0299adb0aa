// oracles/reference/decode_groups.cc — the Barrier, Atomic, Group and
// Non-Uniform instruction classes: barriers, atomics, work-group and
// subgroup collectives (the executor runs them in workgroup.cc).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "oracles/reference/decode_state.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference::decoder {

using spv::Op;

absl::Status DecodeState::TranslateGroups(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  switch (op) {
    case Op::OpMemoryBarrier: {
      // Only image fences matter to the interpreter (read-write images);
      // a non-constant semantics value is taken as fencing everything.
      std::optional<uint64_t> sem;
      if (inst.NumOperands() >= 2) sem = ConstantInt(inst.word(1));
      const bool image = !sem || (*sem & kImageMemorySemantics) != 0;
      Emit(Inst{image ? Op_::kImageFence : Op_::kNop}, inst);
      return absl::OkStatus();
    }
    case Op::OpControlBarrier:
      return ControlBarrier(inst);
    case Op::OpAtomicLoad:
      return Atomic(inst, Op_::kAtomicLoad);
    case Op::OpAtomicStore:
      return Atomic(inst, Op_::kAtomicStore);
    case Op::OpAtomicExchange:
      return Atomic(inst, Op_::kAtomicExchange);
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak:  // the same semantics (SPIR-V 3.37.18)
      return Atomic(inst, Op_::kAtomicCompareExchange);
    case Op::OpAtomicIIncrement:
      return Atomic(inst, Op_::kAtomicIIncrement);
    case Op::OpAtomicIDecrement:
      return Atomic(inst, Op_::kAtomicIDecrement);
    case Op::OpAtomicIAdd:
      return Atomic(inst, Op_::kAtomicIAdd);
    case Op::OpAtomicISub:
      return Atomic(inst, Op_::kAtomicISub);
    case Op::OpAtomicSMin:
      return Atomic(inst, Op_::kAtomicSMin);
    case Op::OpAtomicUMin:
      return Atomic(inst, Op_::kAtomicUMin);
    case Op::OpAtomicSMax:
      return Atomic(inst, Op_::kAtomicSMax);
    case Op::OpAtomicUMax:
      return Atomic(inst, Op_::kAtomicUMax);
    case Op::OpAtomicAnd:
      return Atomic(inst, Op_::kAtomicAnd);
    case Op::OpAtomicOr:
      return Atomic(inst, Op_::kAtomicOr);
    case Op::OpAtomicXor:
      return Atomic(inst, Op_::kAtomicXor);
    case Op::OpAtomicFAddEXT:
      return Atomic(inst, Op_::kAtomicFAdd);
    case Op::OpAtomicFMinEXT:
      return Atomic(inst, Op_::kAtomicFMin);
    case Op::OpAtomicFMaxEXT:
      return Atomic(inst, Op_::kAtomicFMax);
    case Op::OpAtomicFlagTestAndSet:
      return Atomic(inst, Op_::kAtomicFlagTestAndSet);
    case Op::OpAtomicFlagClear:
      return Atomic(inst, Op_::kAtomicFlagClear);
    case Op::OpGroupAll:
      return Group(inst, GroupOp::kAll, false);
    case Op::OpGroupAny:
      return Group(inst, GroupOp::kAny, false);
    case Op::OpGroupBroadcast:
      return Group(inst, GroupOp::kBroadcast, false);
    case Op::OpGroupIAdd:
      return Group(inst, GroupOp::kIAdd, true);
    case Op::OpGroupFAdd:
      return Group(inst, GroupOp::kFAdd, true);
    case Op::OpGroupFMin:
      return Group(inst, GroupOp::kFMin, true);
    case Op::OpGroupUMin:
      return Group(inst, GroupOp::kUMin, true);
    case Op::OpGroupSMin:
      return Group(inst, GroupOp::kSMin, true);
    case Op::OpGroupFMax:
      return Group(inst, GroupOp::kFMax, true);
    case Op::OpGroupUMax:
      return Group(inst, GroupOp::kUMax, true);
    case Op::OpGroupSMax:
      return Group(inst, GroupOp::kSMax, true);
    case Op::OpSubgroupShuffleINTEL:
      return IntelSubgroup(inst, GroupOp::kShuffle);
    case Op::OpSubgroupShuffleDownINTEL:
      return IntelSubgroup(inst, GroupOp::kShuffleDown);
    case Op::OpSubgroupShuffleUpINTEL:
      return IntelSubgroup(inst, GroupOp::kShuffleUp);
    case Op::OpSubgroupShuffleXorINTEL:
      return IntelSubgroup(inst, GroupOp::kShuffleXor);
    case Op::OpSubgroupBlockReadINTEL:
      return IntelSubgroup(inst, GroupOp::kBlockRead);
    case Op::OpSubgroupBlockWriteINTEL:
      return IntelSubgroup(inst, GroupOp::kBlockWrite);
    case Op::OpGroupNonUniformElect:
      return NonUniform(inst, GroupOp::kElect);
    case Op::OpGroupNonUniformAll:
      return NonUniform(inst, GroupOp::kAll);
    case Op::OpGroupNonUniformAny:
      return NonUniform(inst, GroupOp::kAny);
    case Op::OpGroupNonUniformAllEqual:
      return NonUniform(inst, GroupOp::kAllEqual);
    case Op::OpGroupNonUniformBroadcast:
      return NonUniform(inst, GroupOp::kBroadcast);
    case Op::OpGroupNonUniformBroadcastFirst:
      return NonUniform(inst, GroupOp::kBroadcastFirst);
    case Op::OpGroupNonUniformBallot:
      return NonUniform(inst, GroupOp::kBallot);
    case Op::OpGroupNonUniformInverseBallot:
      return NonUniform(inst, GroupOp::kInverseBallot);
    case Op::OpGroupNonUniformBallotBitExtract:
      return NonUniform(inst, GroupOp::kBallotBitExtract);
    case Op::OpGroupNonUniformBallotBitCount:
      return NonUniform(inst, GroupOp::kBallotBitCount);
    case Op::OpGroupNonUniformBallotFindLSB:
      return NonUniform(inst, GroupOp::kBallotFindLSB);
    case Op::OpGroupNonUniformBallotFindMSB:
      return NonUniform(inst, GroupOp::kBallotFindMSB);
    case Op::OpGroupNonUniformShuffle:
      return NonUniform(inst, GroupOp::kNuShuffle);
    case Op::OpGroupNonUniformShuffleXor:
      return NonUniform(inst, GroupOp::kNuShuffleXor);
    case Op::OpGroupNonUniformShuffleUp:
      return NonUniform(inst, GroupOp::kNuShuffleUp);
    case Op::OpGroupNonUniformShuffleDown:
      return NonUniform(inst, GroupOp::kNuShuffleDown);
    case Op::OpGroupNonUniformIAdd:
      return NonUniform(inst, GroupOp::kIAdd);
    case Op::OpGroupNonUniformFAdd:
      return NonUniform(inst, GroupOp::kFAdd);
    case Op::OpGroupNonUniformIMul:
      return NonUniform(inst, GroupOp::kIMul);
    case Op::OpGroupNonUniformFMul:
      return NonUniform(inst, GroupOp::kFMul);
    case Op::OpGroupNonUniformSMin:
      return NonUniform(inst, GroupOp::kSMin);
    case Op::OpGroupNonUniformUMin:
      return NonUniform(inst, GroupOp::kUMin);
    case Op::OpGroupNonUniformFMin:
      return NonUniform(inst, GroupOp::kFMin);
    case Op::OpGroupNonUniformSMax:
      return NonUniform(inst, GroupOp::kSMax);
    case Op::OpGroupNonUniformUMax:
      return NonUniform(inst, GroupOp::kUMax);
    case Op::OpGroupNonUniformFMax:
      return NonUniform(inst, GroupOp::kFMax);
    case Op::OpGroupNonUniformBitwiseAnd:
      return NonUniform(inst, GroupOp::kBitwiseAnd);
    case Op::OpGroupNonUniformBitwiseOr:
      return NonUniform(inst, GroupOp::kBitwiseOr);
    case Op::OpGroupNonUniformBitwiseXor:
      return NonUniform(inst, GroupOp::kBitwiseXor);
    case Op::OpGroupNonUniformLogicalAnd:
      return NonUniform(inst, GroupOp::kLogicalAnd);
    case Op::OpGroupNonUniformLogicalOr:
      return NonUniform(inst, GroupOp::kLogicalOr);
    case Op::OpGroupNonUniformLogicalXor:
      return NonUniform(inst, GroupOp::kLogicalXor);
    case Op::OpGroupAsyncCopy:
      return AsyncCopy(inst);
    case Op::OpGroupWaitEvents:
      return WaitEvents(inst);
    default:
      return Unsupported(inst, kNotImplemented);
  }
}

absl::Status DecodeState::ControlBarrier(const Instruction& inst) {
  L0SPV_DECODE_TRY(scope, ScopeOf(inst, 0));
  if (*scope != 2 && *scope != 3)
    return Unimpl(
        "with an execution scope other than Workgroup or "
        "Subgroup");
  Inst i{Op_::kBarrier};
  i.a = *scope;
  // Memory semantics (which storage classes the barrier fences, for
  // race detection); a non-constant value is taken as fencing all.
  i.b = 0x300 | kImageMemorySemantics;
  if (inst.NumOperands() >= 3) {
    if (auto sem = ConstantInt(inst.word(2))) i.b = static_cast<uint32_t>(*sem);
  }
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::Atomic(const Instruction& inst, Op_ op) {
  // Operand layouts: Load(p, scope, sem); Store(p, scope, sem, v);
  // CompareExchange(p, scope, eq, neq, v, cmp); IIncrement/IDecrement
  // (p, scope, sem); others (p, scope, sem, v).
  auto p = Id(inst, 0);
  if (!p.ok()) return p.status();
  auto pt = TypeOfValue(*p);
  if (!pt.ok()) return pt.status();
  const TypeDesc* ptd = Type(*pt);
  if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
    return Bad("atomic on a non-pointer");
  auto vs = ShapeOf(ptd->elem);
  if (!vs.ok()) return vs.status();
  const bool float_op = op == Op_::kAtomicFAdd || op == Op_::kAtomicFMin ||
                        op == Op_::kAtomicFMax;
  const bool bit_copy = op == Op_::kAtomicLoad || op == Op_::kAtomicStore ||
                        op == Op_::kAtomicExchange;
  Kind k = vs->k;
  if (vs->n != 1) {
    k = kAgg;
  } else if (float_op) {
    if (k != kF16 && k != kF32 && k != kF64) k = kAgg;
  } else if (op == Op_::kAtomicFlagTestAndSet || op == Op_::kAtomicFlagClear) {
    if (k != kI32) k = kAgg;
  } else if (bit_copy && (k == kF32 || k == kF64)) {
    // Load/store/exchange of a float move its bits.
    k = k == kF32 ? kI32 : kI64;
  } else if (k != kI32 && k != kI64) {
    k = kAgg;
  }
  if (k == kAgg)
    return Unimpl(absl::StrCat(OpName(inst.opcode()),
                               float_op ? " on a type other than a float "
                                          "scalar"
                                        : " on a type other than 32/64-bit "
                                          "integer (or float for "
                                          "load/store/exchange)"));
  Inst i{op};
  i.k = k;
  auto a = Slot(*p);
  if (!a.ok()) return a.status();
  i.a = *a;
  if (inst.result_id() != 0) {
    auto r = Slot(inst.result_id());
    if (!r.ok()) return r.status();
    i.r = *r;
  }
  size_t value_index = 0, cmp_index = 0;
  if (op == Op_::kAtomicCompareExchange) {
    value_index = 4;
    cmp_index = 5;
  } else if (op != Op_::kAtomicLoad && op != Op_::kAtomicIIncrement &&
             op != Op_::kAtomicIDecrement && op != Op_::kAtomicFlagTestAndSet &&
             op != Op_::kAtomicFlagClear) {
    value_index = 3;
  }
  if (value_index) {
    auto v = Id(inst, value_index);
    if (!v.ok()) return v.status();
    auto s = Slot(*v);
    if (!s.ok()) return s.status();
    i.b = *s;
  }
  if (cmp_index) {
    auto v = Id(inst, cmp_index);
    if (!v.ok()) return v.status();
    auto s = Slot(*v);
    if (!s.ok()) return s.status();
    i.c = *s;
  }
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::Group(const Instruction& inst, GroupOp op,
                                bool has_mode) {
  GroupCall g;
  g.op = op;
  auto scope = ScopeOf(inst, 0);
  if (!scope.ok()) return scope.status();
  if (*scope != 2 && *scope != 3)
    return Unimpl(absl::StrCat(OpName(inst.opcode()),
                               " with a scope other than Workgroup/Subgroup"));
  g.scope = *scope;
  size_t next = 1;
  if (has_mode) {
    if (inst.NumOperands() < 2) return Bad("group operation missing");
    const uint32_t mode = inst.word(1);
    if (mode > 2)
      return Unimpl(absl::StrCat(OpName(inst.opcode()),
                                 " with an unsupported GroupOperation"));
    g.mode = static_cast<GroupMode>(mode);
    next = 2;
  }
  auto v = Id(inst, next);
  if (!v.ok()) return v.status();
  auto vs = Slot(*v);
  if (!vs.ok()) return vs.status();
  g.value = *vs;
  if (op == GroupOp::kBroadcast) {
    auto l = Id(inst, next + 1);
    if (!l.ok()) return l.status();
    auto ls = Slot(*l);
    if (!ls.ok()) return ls.status();
    auto lt = TypeOfValue(*l);
    if (!lt.ok()) return lt.status();
    auto lsh = ShapeOf(*lt);
    if (!lsh.ok()) return lsh.status();
    if (lsh->k < kI8 || lsh->k > kI64) return Bad("broadcast id not integer");
    g.local_id = *ls;
    g.local_id_lanes = lsh->n;
    g.local_id_bytes = KindBytes(lsh->k);
  }
  auto rs = ShapeOf(inst.type_id());
  if (!rs.ok()) return rs.status();
  if (auto s = NeedBytes(*v, rs->bytes); !s.ok()) return s;
  if (rs->n != 1 && op != GroupOp::kBroadcast)
    return Unimpl(absl::StrCat(OpName(inst.opcode()), " on a vector"));
  if (rs->k == kAgg && op != GroupOp::kBroadcast)
    return Unimpl(absl::StrCat(OpName(inst.opcode()), " on a composite"));
  return EmitGroupCall(inst, std::move(g), *rs);
}

absl::Status DecodeState::EmitGroupCall(const Instruction& inst, GroupCall g,
                                        const Shape& shape) {
  auto r = Slot(inst.result_id());
  if (!r.ok()) return r.status();
  Inst i{Op_::kGroup};
  i.r = *r;
  i.k = shape.k;
  i.n = shape.n;
  i.d = static_cast<uint32_t>(prog_.groups.size());
  i.c = shape.bytes;
  prog_.groups.push_back(std::move(g));
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::IntelSubgroup(const Instruction& inst, GroupOp op) {
  GroupCall g;
  g.op = op;
  g.scope = 3;
  auto slot = [&](size_t i) -> absl::StatusOr<uint32_t> {
    auto id = Id(inst, i);
    if (!id.ok()) return id.status();
    return Slot(*id);
  };
  // The shape the instruction moves: its result, or the written data.
  const bool write = op == GroupOp::kBlockWrite;
  uint32_t shape_type = inst.type_id();
  if (write) {
    auto data = Id(inst, 1);
    if (!data.ok()) return data.status();
    auto t = TypeOfValue(*data);
    if (!t.ok()) return t.status();
    shape_type = *t;
  }
  auto rs = ShapeOf(shape_type);
  if (!rs.ok()) return rs.status();
  if (rs->k == kAgg || rs->k == kBool)
    return Unimpl(absl::StrCat(OpName(inst.opcode()),
                               " on a type other than an integer or float "
                               "scalar or vector"));
  auto v = slot(0);
  if (!v.ok()) return v.status();
  g.value = *v;
  if (op == GroupOp::kBlockRead || op == GroupOp::kBlockWrite) {
    auto pid = Id(inst, 0);
    if (!pid.ok()) return pid.status();
    auto pt = TypeOfValue(*pid);
    if (!pt.ok()) return pt.status();
    const TypeDesc* ptd = Type(*pt);
    if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
      return Bad("subgroup block read/write through a non-pointer");
    if (rs->k >= kF16)
      return Unimpl(absl::StrCat(OpName(inst.opcode()), " of floats"));
    if (write) {
      auto d = slot(1);
      if (!d.ok()) return d.status();
      g.value2 = *d;
    }
  } else {
    const bool two_values =
        op == GroupOp::kShuffleDown || op == GroupOp::kShuffleUp;
    if (auto st = NeedBytes(inst.word(0), rs->bytes); !st.ok()) return st;
    if (two_values) {
      auto v2 = slot(1);
      if (!v2.ok()) return v2.status();
      if (auto st = NeedBytes(inst.word(1), rs->bytes); !st.ok()) return st;
      g.value2 = *v2;
    }
    const size_t index_operand = two_values ? 2 : 1;
    auto ix = slot(index_operand);
    if (!ix.ok()) return ix.status();
    if (auto st = NeedBytes(inst.word(index_operand), 4); !st.ok()) return st;
    g.index = *ix;
  }
  Inst i{Op_::kGroup};
  if (!write) {
    auto r = Slot(inst.result_id());
    if (!r.ok()) return r.status();
    i.r = *r;
  }
  i.k = rs->k;
  i.n = rs->n;
  i.d = static_cast<uint32_t>(prog_.groups.size());
  i.c = rs->bytes;
  prog_.groups.push_back(g);
  Emit(i, inst);
  return absl::OkStatus();
}

// OpGroupNonUniform* (SPIR-V 1.3). The types and scopes are the ones the
// Level Zero SPIR-V programming guide ("Extended Subgroups") requires;
// anything else traps as unsupported when reached.
absl::Status DecodeState::NonUniform(const Instruction& inst, GroupOp op) {
  GroupCall g;
  g.op = op;
  g.scope = 3;
  g.non_uniform = true;
  auto scope = ScopeOf(inst, 0);
  if (!scope.ok()) return scope.status();
  if (*scope != 3) {
    const spirv::EnumerantInfo* e =
        spirv::FindEnumerant(spirv::OperandKind::kScope, *scope);
    return Unimpl(absl::StrCat(
        "Execution scope ", e ? std::string(e->name) : absl::StrCat(*scope),
        " is not supported: the Level Zero programming guide allows only "
        "Subgroup for OpGroupNonUniform* instructions"));
  }
  const bool ballot_in =
      op == GroupOp::kInverseBallot || op == GroupOp::kBallotBitExtract ||
      op == GroupOp::kBallotBitCount || op == GroupOp::kBallotFindLSB ||
      op == GroupOp::kBallotFindMSB;
  const bool arithmetic = (op >= GroupOp::kIAdd && op <= GroupOp::kSMax) ||
                          (op >= GroupOp::kIMul && op <= GroupOp::kLogicalXor);
  const bool has_mode = arithmetic || op == GroupOp::kBallotBitCount;
  size_t next = 1;
  if (has_mode) {
    if (inst.NumOperands() < 2)
      return Bad(
          absl::StrCat(OpName(inst.opcode()), ": group operation missing"));
    const uint32_t mode = inst.word(1);
    if (mode > 3 || (mode == 3 && !arithmetic))
      return Unimpl(absl::StrCat("GroupOperation ", mode,
                                 " is not supported (Reduce, InclusiveScan, "
                                 "ExclusiveScan",
                                 arithmetic ? ", ClusteredReduce" : "", ")"));
    g.mode = static_cast<GroupMode>(mode);
    next = 2;
  }
  auto rs = ShapeOf(inst.type_id());
  if (!rs.ok()) return rs.status();
  auto is_num = [](const Shape& s) { return s.k >= kI8 && s.k <= kF64; };
  auto is_int = [](const Shape& s) { return s.k >= kI8 && s.k <= kI64; };
  auto is_uvec4 = [](const Shape& s) { return s.k == kI32 && s.n == 4; };
  auto is_bool = [](const Shape& s) { return s.k == kBool && s.n == 1; };
  auto unsupported_type = [&](const Shape& s, absl::string_view what,
                              absl::string_view allowed) {
    return Unimpl(absl::StrCat(what, " of type ", ShapeName(s),
                               " is not supported (the Level Zero "
                               "programming guide lists ",
                               allowed, ")"));
  };
  // Value operand.
  if (op != GroupOp::kElect) {
    auto v = Id(inst, next);
    if (!v.ok()) return v.status();
    auto vt = TypeOfValue(*v);
    if (!vt.ok()) return vt.status();
    auto vs = ShapeOf(*vt);
    if (!vs.ok()) return vs.status();
    const bool pred_in =
        op == GroupOp::kAll || op == GroupOp::kAny || op == GroupOp::kBallot;
    const bool logical =
        op >= GroupOp::kLogicalAnd && op <= GroupOp::kLogicalXor;
    const bool float_op = op == GroupOp::kFAdd || op == GroupOp::kFMul ||
                          op == GroupOp::kFMin || op == GroupOp::kFMax;
    if (pred_in || logical) {
      if (!is_bool(*vs)) return unsupported_type(*vs, "Value", "bool");
    } else if (ballot_in) {
      if (!is_uvec4(*vs))
        return unsupported_type(*vs, "Value", "a vector of four 32-bit uint");
    } else if (op == GroupOp::kBroadcast) {
      if (!is_num(*vs))
        return unsupported_type(*vs, "Value",
                                "integer and float scalars and vectors");
    } else if (arithmetic && float_op) {
      if (vs->n != 1 || vs->k < kF16 || vs->k > kF64)
        return unsupported_type(*vs, "Value", "float scalars");
    } else if (arithmetic) {
      if (vs->n != 1 || !is_int(*vs))
        return unsupported_type(*vs, "Value", "integer scalars");
    } else if (vs->n != 1 || !is_num(*vs)) {
      return unsupported_type(*vs, "Value", "integer and float scalars");
    }
    auto slot = Slot(*v);
    if (!slot.ok()) return slot.status();
    g.value = *slot;
    g.value_kind = vs->k;
    g.value_lanes = vs->n;
    const bool same_type = !pred_in && !ballot_in && op != GroupOp::kAllEqual;
    if (same_type && (rs->k != vs->k || rs->n != vs->n))
      return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                              ": result type differs from the Value's"));
    ++next;
  }
  // Result type of the operations whose result is not the Value's type.
  switch (op) {
    case GroupOp::kElect:
    case GroupOp::kAll:
    case GroupOp::kAny:
    case GroupOp::kAllEqual:
    case GroupOp::kInverseBallot:
    case GroupOp::kBallotBitExtract:
      if (!is_bool(*rs)) return unsupported_type(*rs, "Result", "bool");
      break;
    case GroupOp::kBallot:
      if (!is_uvec4(*rs))
        return unsupported_type(*rs, "Result", "a vector of four 32-bit uint");
      break;
    case GroupOp::kBallotBitCount:
    case GroupOp::kBallotFindLSB:
    case GroupOp::kBallotFindMSB:
      if (rs->n != 1 || !is_int(*rs))
        return unsupported_type(*rs, "Result", "an integer scalar");
      break;
    default:
      break;
  }
  // Id / Index / Mask / Delta operand: an integer scalar.
  const bool has_index =
      op == GroupOp::kBroadcast || op == GroupOp::kBallotBitExtract ||
      (op >= GroupOp::kNuShuffle && op <= GroupOp::kNuShuffleDown);
  if (has_index) {
    auto ix = Id(inst, next);
    if (!ix.ok()) return ix.status();
    auto it = TypeOfValue(*ix);
    if (!it.ok()) return it.status();
    auto is = ShapeOf(*it);
    if (!is.ok()) return is.status();
    if (is->n != 1 || !is_int(*is))
      return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                              ": the id/index operand is not an integer "
                              "scalar"));
    auto slot = Slot(*ix);
    if (!slot.ok()) return slot.status();
    g.index = *slot;
    g.index_bytes = KindBytes(is->k);
    ++next;
  }
  // ClusterSize: only (and always) with ClusteredReduce.
  const bool has_cluster = inst.NumOperands() > next;
  if (has_mode && g.mode == GroupMode::kClusteredReduce) {
    if (!has_cluster)
      return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                              ": ClusteredReduce without a ClusterSize"));
    auto c = ConstantInt(inst.word(next));
    if (!c) return Unimpl("ClusterSize is not an integer constant");
    g.cluster = *c;
  } else if (has_cluster) {
    return Bad(absl::StrCat(OpName(inst.opcode()), " %", inst.result_id(),
                            ": too many operands"));
  }
  return EmitGroupCall(inst, std::move(g), *rs);
}

absl::Status DecodeState::AsyncCopy(const Instruction& inst) {
  // Operands: Execution, Destination, Source, NumElements, Stride, Event.
  auto scope = ScopeOf(inst, 0);
  if (!scope.ok()) return scope.status();
  if (*scope != 2)
    return Unimpl("OpGroupAsyncCopy with a scope other than Workgroup");
  GroupCall g;
  g.op = GroupOp::kAsyncCopy;
  g.scope = 2;
  auto int_operand = [&](size_t i, uint32_t* slot,
                         uint32_t* bytes) -> absl::Status {
    auto id = Id(inst, i);
    if (!id.ok()) return id.status();
    auto t = TypeOfValue(*id);
    if (!t.ok()) return t.status();
    auto sh = ShapeOf(*t);
    if (!sh.ok()) return sh.status();
    if (sh->k < kI8 || sh->k > kI64 || sh->n != 1)
      return Bad("OpGroupAsyncCopy count/stride is not an integer scalar");
    auto sl = Slot(*id);
    if (!sl.ok()) return sl.status();
    *slot = *sl;
    *bytes = KindBytes(sh->k);
    return absl::OkStatus();
  };
  auto dst = Id(inst, 1);
  if (!dst.ok()) return dst.status();
  auto dt = TypeOfValue(*dst);
  if (!dt.ok()) return dt.status();
  const TypeDesc* dtd = Type(*dt);
  if (dtd == nullptr || dtd->cls != TypeDesc::kPointer)
    return Bad("OpGroupAsyncCopy destination is not a pointer");
  const TypeDesc* et = Type(dtd->elem);
  if (et == nullptr || !et->sized || et->size == 0 || et->size > 256)
    return Unimpl("OpGroupAsyncCopy of an unsized or large element type");
  g.element_bytes = static_cast<uint32_t>(et->size);
  g.gather = dtd->storage == kScWorkgroup;
  auto ds = Slot(*dst);
  if (!ds.ok()) return ds.status();
  g.value = *ds;
  auto src = Id(inst, 2);
  if (!src.ok()) return src.status();
  auto ss = Slot(*src);
  if (!ss.ok()) return ss.status();
  g.value2 = *ss;
  if (auto st = int_operand(3, &g.index, &g.index_bytes); !st.ok()) return st;
  if (auto st = int_operand(4, &g.local_id, &g.stride_bytes); !st.ok())
    return st;
  auto ev = Id(inst, 5);
  if (!ev.ok()) return ev.status();
  if (auto st = NeedBytes(*ev, 8); !st.ok()) return st;
  auto es = Slot(*ev);
  if (!es.ok()) return es.status();
  g.event = *es;
  auto r = Slot(inst.result_id());
  if (!r.ok()) return r.status();
  Inst i{Op_::kGroup};
  i.r = *r;
  i.k = kI64;
  i.c = 8;
  i.d = static_cast<uint32_t>(prog_.groups.size());
  prog_.groups.push_back(g);
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::WaitEvents(const Instruction& inst) {
  // Operands: Execution, NumEvents, EventsList.
  auto scope = ScopeOf(inst, 0);
  if (!scope.ok()) return scope.status();
  if (*scope != 2)
    return Unimpl("OpGroupWaitEvents with a scope other than Workgroup");
  GroupCall g;
  g.op = GroupOp::kWaitEvents;
  g.scope = 2;
  auto n = Id(inst, 1);
  if (!n.ok()) return n.status();
  auto nt = TypeOfValue(*n);
  if (!nt.ok()) return nt.status();
  auto ns = ShapeOf(*nt);
  if (!ns.ok()) return ns.status();
  if (ns->k < kI8 || ns->k > kI64 || ns->n != 1)
    return Bad("OpGroupWaitEvents: NumEvents is not an integer scalar");
  auto nslot = Slot(*n);
  if (!nslot.ok()) return nslot.status();
  g.index = *nslot;
  g.index_bytes = KindBytes(ns->k);
  auto list = Id(inst, 2);
  if (!list.ok()) return list.status();
  if (auto st = NeedBytes(*list, 8); !st.ok()) return st;
  auto ls = Slot(*list);
  if (!ls.ok()) return ls.status();
  g.value = *ls;
  Inst i{Op_::kGroup};
  i.k = kI64;
  i.c = 0;
  i.d = static_cast<uint32_t>(prog_.groups.size());
  prog_.groups.push_back(g);
  Emit(i, inst);
  return absl::OkStatus();
}

}  // namespace l0spv::oracles::reference::decoder
