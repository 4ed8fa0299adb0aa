// oracles/reference/decode_memory.cc — module-scope variables and the
// Memory instruction class (variables, loads, stores, access chains,
// memory copies, pointer comparisons).
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

absl::Status DecodeState::DecodeGlobalVariable(const Instruction& inst) {
  const uint32_t id = inst.result_id();
  const TypeDesc* pt = Type(inst.type_id());
  if (pt == nullptr || pt->cls != TypeDesc::kPointer || inst.NumOperands() < 1)
    return Bad(absl::StrCat("global variable %", id, " has no pointer type"));
  const uint32_t sc = inst.word(0);
  StaticAlloc a;
  a.storage_class = sc;
  const Decorations* d = Deco(id);
  if (sc == kScInput) {
    if (d == nullptr || d->builtin < 0)
      return Unimpl(
          absl::StrCat("Input variable %", id, " is not a supported BuiltIn"));
    const TypeDesc* vt = Type(pt->elem);
    const TypeDesc* st =
        vt && vt->cls == TypeDesc::kVector ? Type(vt->elem) : vt;
    // The subgroup masks are uvec4; every other builtin is a 32/64-bit
    // integer or a 3-vector of them.
    const bool mask =
        d->builtin >= static_cast<int>(spv::BuiltIn::SubgroupEqMask) &&
        d->builtin <= static_cast<int>(spv::BuiltIn::SubgroupLtMask);
    if (st == nullptr || st->cls != TypeDesc::kInt ||
        (st->width != 32 && st->width != 64) ||
        (mask &&
         (vt->cls != TypeDesc::kVector || vt->lanes != 4 || st->width != 32)) ||
        (!mask && vt->cls == TypeDesc::kVector && vt->lanes != 3))
      return Unimpl(
          absl::StrCat("BuiltIn variable %", id, " has an unsupported type"));
    static constexpr std::pair<spv::BuiltIn, Builtin> kMap[] = {
        {spv::BuiltIn::GlobalInvocationId, Builtin::kGlobalInvocationId},
        {spv::BuiltIn::LocalInvocationId, Builtin::kLocalInvocationId},
        {spv::BuiltIn::WorkgroupId, Builtin::kWorkgroupId},
        {spv::BuiltIn::NumWorkgroups, Builtin::kNumWorkgroups},
        {spv::BuiltIn::GlobalSize, Builtin::kGlobalSize},
        {spv::BuiltIn::WorkgroupSize, Builtin::kWorkgroupSize},
        {spv::BuiltIn::EnqueuedWorkgroupSize, Builtin::kEnqueuedWorkgroupSize},
        {spv::BuiltIn::GlobalOffset, Builtin::kGlobalOffset},
        {spv::BuiltIn::WorkDim, Builtin::kWorkDim},
        {spv::BuiltIn::GlobalLinearId, Builtin::kGlobalLinearId},
        {spv::BuiltIn::LocalInvocationIndex, Builtin::kLocalInvocationIndex},
        {spv::BuiltIn::SubgroupSize, Builtin::kSubgroupSize},
        {spv::BuiltIn::SubgroupMaxSize, Builtin::kSubgroupMaxSize},
        {spv::BuiltIn::NumSubgroups, Builtin::kNumSubgroups},
        {spv::BuiltIn::NumEnqueuedSubgroups, Builtin::kNumEnqueuedSubgroups},
        {spv::BuiltIn::SubgroupId, Builtin::kSubgroupId},
        {spv::BuiltIn::SubgroupLocalInvocationId,
         Builtin::kSubgroupLocalInvocationId},
        {spv::BuiltIn::SubgroupEqMask, Builtin::kSubgroupEqMask},
        {spv::BuiltIn::SubgroupGeMask, Builtin::kSubgroupGeMask},
        {spv::BuiltIn::SubgroupGtMask, Builtin::kSubgroupGtMask},
        {spv::BuiltIn::SubgroupLeMask, Builtin::kSubgroupLeMask},
        {spv::BuiltIn::SubgroupLtMask, Builtin::kSubgroupLtMask},
    };
    bool found = false;
    for (const auto& [spv_b, b] : kMap) {
      if (static_cast<int>(spv_b) == d->builtin) {
        a.builtin = b;
        found = true;
      }
    }
    if (!found)
      return Unimpl(absl::StrCat(
          "BuiltIn ",
          std::string(spirv::EnumerantName(spirv::OperandKind::kBuiltIn,
                                           static_cast<uint32_t>(d->builtin))),
          " is not supported by the reference interpreter"));
    a.kind = AllocKind::kBuiltin;
    a.read_only = true;
    a.builtin_lanes =
        static_cast<uint8_t>(vt->cls == TypeDesc::kVector ? vt->lanes : 1);
    a.builtin_lane_bytes = static_cast<uint8_t>(st->width / 8);
    a.bytes = vt->size;
    a.builtin_offset = prog_.builtin_block_bytes;
    prog_.builtin_block_bytes += 32;
  } else if (sc == kScUniformConstant || sc == kScCrossWorkgroup ||
             sc == kScWorkgroup) {
    const TypeDesc* vt = Type(pt->elem);
    if (vt != nullptr) {
      if (auto s = CheckObjectSize(
              *vt,
              absl::StrCat("the ", sc == kScWorkgroup ? "Workgroup" : "global",
                           " variable %", id));
          !s.ok())
        return s;
    }
    if (vt == nullptr || !vt->sized)
      return Unimpl(
          absl::StrCat("global variable %", id, " has a type without storage"));
    a.kind = sc == kScWorkgroup ? AllocKind::kWorkgroupVariable
                                : AllocKind::kGlobalVariable;
    a.bytes = vt->size;
    a.read_only = sc == kScUniformConstant;
    if (inst.NumOperands() >= 2) {
      auto init = values_.find(inst.word(1));
      if (init == values_.end())
        return Bad(absl::StrCat("global variable %", id,
                                ": initializer is not a constant"));
      a.init = init->second.bytes;
      a.init.resize(a.bytes, 0);
    }
  } else {
    return Unimpl(absl::StrCat("global variable %", id, " in storage class ",
                               std::string(spirv::EnumerantName(
                                   spirv::OperandKind::kStorageClass, sc)),
                               " is not supported"));
  }
  prog_.static_allocs.push_back(std::move(a));
  ModValue v;
  v.type = inst.type_id();
  v.bytes.resize(8);
  const uint64_t p = uint64_t{static_cast<uint32_t>(prog_.static_allocs.size())}
                     << 32;
  std::memcpy(v.bytes.data(), &p, 8);
  values_[id] = std::move(v);
  return absl::OkStatus();
}

absl::Status DecodeState::TranslateMemory(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  switch (op) {
    case Op::OpVariable:
      return Variable(inst);
    case Op::OpLoad:
    case Op::OpStore:
      return LoadStore(inst);
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
      return AccessChain(inst, false);
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
      return AccessChain(inst, true);
    case Op::OpCopyMemory:
    case Op::OpCopyMemorySized:
      return CopyMemory(inst);
    case Op::OpPtrDiff:
    case Op::OpPtrEqual:
    case Op::OpPtrNotEqual:
      return PointerCompare(inst);
    default:
      return Unsupported(inst, kNotImplemented);
  }
}

absl::Status DecodeState::Variable(const Instruction& inst) {
  const TypeDesc* pt = Type(inst.type_id());
  if (pt == nullptr || pt->cls != TypeDesc::kPointer || inst.NumOperands() < 1)
    return Bad("OpVariable without a pointer type");
  if (inst.word(0) != kScFunction)
    return Bad("OpVariable in a function must be Function storage");
  const TypeDesc* vt = Type(pt->elem);
  if (vt != nullptr) {
    if (auto s = CheckObjectSize(
            *vt, absl::StrCat("the Function variable %", inst.result_id()));
        !s.ok())
      return s;
  }
  if (vt == nullptr || !vt->sized || vt->size > 0xFFFFFFFFu)
    return Unimpl("OpVariable of a type without storage");
  Inst i{Op_::kVariable};
  L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
  i.r = *r;
  i.d = static_cast<uint32_t>(vt->size);
  i.c = static_cast<uint32_t>(vt->align);
  if (inst.NumOperands() >= 2) {
    L0SPV_DECODE_TRY(init, SlotOf(inst, 1));
    if (auto st = NeedBytes(inst.word(1), i.d); !st.ok()) return st;
    i.a = *init;
  }
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::LoadStore(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  const bool load = op == Op::OpLoad;
  L0SPV_DECODE_TRY(pid, Id(inst, 0));
  L0SPV_DECODE_TRY(pt, TypeOfValue(*pid));
  const TypeDesc* ptd = Type(*pt);
  if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
    return Bad("load/store through a non-pointer");
  L0SPV_DECODE_TRY(s, ShapeOf(ptd->elem));
  const TypeDesc* vt = Type(ptd->elem);
  Inst i{load ? Op_::kLoad : Op_::kStore};
  i.k = s->k;  // kAgg: the uninitialised-read rule for aggregates
  L0SPV_DECODE_TRY(p, Slot(*pid));
  i.a = *p;
  i.d = s->access;
  i.c = static_cast<uint32_t>(vt->align);
  const size_t mem_index = load ? 1 : 2;
  if (inst.NumOperands() > mem_index) {
    const uint32_t mask = inst.word(mem_index);
    if (mask & static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)) {
      if (inst.NumOperands() <= mem_index + 1)
        return Bad("Aligned memory operand without a value");
      const uint32_t align = inst.word(mem_index + 1);
      if (align == 0 || (align & (align - 1)) != 0)
        return Bad("Aligned memory operand is not a power of two");
      i.c = align;
    }
  }
  if (load) {
    L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
    L0SPV_DECODE_TRY(rs, ShapeOf(inst.type_id()));
    if (rs->bytes < i.d) return Bad("OpLoad result smaller than pointee");
    i.r = *r;
  } else {
    L0SPV_DECODE_TRY(v, SlotOf(inst, 1));
    if (auto st = NeedBytes(inst.word(1), i.d); !st.ok()) return st;
    i.b = *v;
  }
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::AccessChain(const Instruction& inst, bool ptr_chain) {
  auto base_id = Id(inst, 0);
  if (!base_id.ok()) return base_id.status();
  auto bt = TypeOfValue(*base_id);
  if (!bt.ok()) return bt.status();
  const TypeDesc* pt = Type(*bt);
  if (pt == nullptr || pt->cls != TypeDesc::kPointer)
    return Bad(absl::StrCat(OpName(inst.opcode()), ": base is not a pointer"));
  // The constant part of the offset, in wrapping (two's complement)
  // arithmetic: hostile indices may overflow, and pointer offsets wrap
  // anyway (memory.h).
  uint64_t constant = 0;
  std::vector<uint32_t> triples;
  uint32_t cur = pt->elem;
  auto add_index = [&](uint32_t index_id, uint64_t stride) -> absl::Status {
    auto value = values_.find(index_id);
    auto it = ConstantInt(index_id);
    if (value != values_.end() && it) {
      const TypeDesc* itd = Type(value->second.type);
      int64_t v = static_cast<int64_t>(*it);
      // Bool constants (width 0, possible only without validation) are
      // used as they are.
      if (itd && itd->width > 0 && itd->width < 64) {
        const int sh = 64 - static_cast<int>(itd->width);
        v = static_cast<int64_t>(static_cast<uint64_t>(v) << sh) >> sh;
      }
      constant += static_cast<uint64_t>(v) * stride;
      return absl::OkStatus();
    }
    auto ty = TypeOfValue(index_id);
    if (!ty.ok()) return ty.status();
    auto s = ShapeOf(*ty);
    if (!s.ok()) return s.status();
    if (s->k < kI8 || s->k > kI64 || s->n != 1)
      return Bad("access chain index is not a scalar integer");
    auto slot = Slot(index_id);
    if (!slot.ok()) return slot.status();
    if (stride > 0xFFFFFFFFu) return Unimpl("access chain stride over 4 GiB");
    triples.push_back(*slot);
    triples.push_back(KindBytes(s->k));
    triples.push_back(static_cast<uint32_t>(stride));
    return absl::OkStatus();
  };
  size_t first = 1;
  if (ptr_chain) {
    auto el = Id(inst, 1);
    if (!el.ok()) return el.status();
    const TypeDesc* pointee = Type(pt->elem);
    uint64_t stride = pt->array_stride;
    if (stride == 0) {
      if (pointee == nullptr || !pointee->sized)
        return Unimpl("OpPtrAccessChain over a pointee without a size");
      stride = pointee->size;
    }
    if (auto s = add_index(*el, stride); !s.ok()) return s;
    first = 2;
  }
  for (size_t i = first; i < inst.NumOperands(); ++i) {
    const TypeDesc* t = Type(cur);
    if (t == nullptr) return Bad("access chain through an unknown type");
    if (auto s = CheckObjectSize(*t, "the object an access chain indexes");
        !s.ok())
      return s;
    const uint32_t index_id = inst.word(i);
    if (t->cls == TypeDesc::kStruct) {
      auto c = ConstantInt(index_id);
      if (!c || *c >= t->members.size())
        return Bad("struct index is not a constant member number");
      constant += static_cast<uint64_t>(t->offsets[*c]);
      cur = t->members[*c];
    } else if (t->cls == TypeDesc::kArray || t->cls == TypeDesc::kVector) {
      const TypeDesc* e = Type(t->elem);
      if (e == nullptr || !e->sized) return Bad("array of unsized elements");
      if (auto s = add_index(index_id, e->size); !s.ok()) return s;
      cur = t->elem;
    } else {
      return Bad("access chain indexes a non-composite type");
    }
  }
  auto r = Slot(inst.result_id());
  auto a = Slot(*base_id);
  if (!r.ok()) return r.status();
  if (!a.ok()) return a.status();
  Inst i{Op_::kAccessChain};
  i.r = *r;
  i.a = *a;
  i.b = static_cast<uint32_t>(prog_.extra.size());
  i.c = static_cast<uint32_t>(triples.size() / 3);
  prog_.extra.push_back(static_cast<uint32_t>(constant));
  prog_.extra.push_back(static_cast<uint32_t>(constant >> 32));
  prog_.extra.insert(prog_.extra.end(), triples.begin(), triples.end());
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::CopyMemory(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  L0SPV_DECODE_TRY(t, SlotOf(inst, 0));
  L0SPV_DECODE_TRY(s, SlotOf(inst, 1));
  Inst i{op == Op::OpCopyMemory ? Op_::kCopyMemory : Op_::kCopyMemorySized};
  i.a = *t;
  i.b = *s;
  if (op == Op::OpCopyMemory) {
    L0SPV_DECODE_TRY(pid, Id(inst, 0));
    L0SPV_DECODE_TRY(pt, TypeOfValue(*pid));
    const TypeDesc* ptd = Type(*pt);
    if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
      return Bad("OpCopyMemory through a non-pointer");
    L0SPV_DECODE_TRY(vs, ShapeOf(ptd->elem));
    i.c = vs->access;
  } else {
    L0SPV_DECODE_TRY(sid, Id(inst, 2));
    L0SPV_DECODE_TRY(st, TypeOfValue(*sid));
    L0SPV_DECODE_TRY(ss, ShapeOf(*st));
    if (ss->k < kI8 || ss->k > kI64) return Bad("copy size not integer");
    L0SPV_DECODE_TRY(size, Slot(*sid));
    i.c = *size;
    i.k = ss->k;
  }
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::PointerCompare(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  if (m_.header.version < 0x00010400) return Unimpl("(needs SPIR-V 1.4)");
  L0SPV_DECODE_TRY(aid, Id(inst, 0));
  L0SPV_DECODE_TRY(at, TypeOfValue(*aid));
  const TypeDesc* ptd = Type(*at);
  if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
    return Bad("pointer comparison of non-pointers");
  Inst i{op == Op::OpPtrDiff    ? Op_::kPtrDiff
         : op == Op::OpPtrEqual ? Op_::kPtrEqual
                                : Op_::kPtrNotEqual};
  L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
  L0SPV_DECODE_TRY(a, Slot(*aid));
  L0SPV_DECODE_TRY(b, SlotOf(inst, 1));
  i.r = *r;
  i.a = *a;
  i.b = *b;
  if (op == Op::OpPtrDiff) {
    const TypeDesc* e = Type(ptd->elem);
    if (e == nullptr || !e->sized || e->size == 0)
      return Unimpl("OpPtrDiff over an unsized pointee");
    i.c = static_cast<uint32_t>(e->size);
    L0SPV_DECODE_TRY(s, ShapeOf(inst.type_id()));
    i.k = s->k;
  }
  Emit(i, inst);
  return absl::OkStatus();
}

}  // namespace l0spv::oracles::reference::decoder
