// oracles/reference/decode_composite.cc — the Composite instruction
// class: constructing, extracting from and inserting into vectors, arrays
// and structs, shuffles and dynamic vector indexing.
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

absl::Status DecodeState::TranslateComposite(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  switch (op) {
    case Op::OpCompositeConstruct:
      return CompositeConstruct(inst);
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
      return CompositeAccess(inst);
    case Op::OpVectorShuffle:
      return VectorShuffle(inst);
    case Op::OpVectorExtractDynamic:
    case Op::OpVectorInsertDynamic:
      return VectorDynamic(inst);
    case Op::OpCopyObject:
      return BitCopy(inst);
    default:
      return Unsupported(inst, kNotImplemented);
  }
}

absl::Status DecodeState::CompositeConstruct(const Instruction& inst) {
  const TypeDesc* t = Type(inst.type_id());
  L0SPV_DECODE_TRY(s, ShapeOf(inst.type_id()));
  std::vector<uint32_t> triples;
  uint64_t off = 0;
  for (size_t k = 0; k < inst.NumOperands(); ++k) {
    const uint32_t cid = inst.word(k);
    L0SPV_DECODE_TRY(ct, TypeOfValue(cid));
    L0SPV_DECODE_TRY(cs, ShapeOf(*ct));
    L0SPV_DECODE_TRY(src, Slot(cid));
    uint64_t dst;
    uint32_t bytes;
    if (t->cls == TypeDesc::kVector) {
      dst = off;
      bytes = cs->n * KindBytes(cs->k);
      off += bytes;
    } else if (t->cls == TypeDesc::kArray) {
      dst = k * Type(t->elem)->size;
      bytes = cs->bytes;
    } else if (t->cls == TypeDesc::kStruct && k < t->offsets.size()) {
      dst = t->offsets[k];
      bytes = cs->bytes;
    } else {
      return Bad("OpCompositeConstruct of a non-composite");
    }
    if (dst > s->bytes || bytes > s->bytes - dst)
      return Bad("OpCompositeConstruct constituents overflow the result");
    triples.push_back(*src);
    triples.push_back(static_cast<uint32_t>(dst));
    triples.push_back(bytes);
  }
  L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
  Inst i{Op_::kConstruct};
  i.r = *r;
  i.b = static_cast<uint32_t>(prog_.extra.size());
  i.c = static_cast<uint32_t>(triples.size() / 3);
  i.d = s->bytes;
  prog_.extra.insert(prog_.extra.end(), triples.begin(), triples.end());
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::CompositeAccess(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  const bool insert = op == Op::OpCompositeInsert;
  const size_t comp_index = insert ? 1 : 0;
  L0SPV_DECODE_TRY(cid, Id(inst, comp_index));
  L0SPV_DECODE_TRY(ct, TypeOfValue(*cid));
  uint32_t cur = *ct;
  uint64_t off = 0;
  for (size_t k = comp_index + 1; k < inst.NumOperands(); ++k) {
    const TypeDesc* t = Type(cur);
    const uint32_t idx = inst.word(k);
    if (t == nullptr) return Bad("composite index into unknown type");
    if (t->cls == TypeDesc::kVector || t->cls == TypeDesc::kArray) {
      const uint64_t n = t->cls == TypeDesc::kVector ? t->lanes : t->count;
      if (idx >= n) return Bad("composite index out of range");
      off += idx * Type(t->elem)->size;
      cur = t->elem;
    } else if (t->cls == TypeDesc::kStruct) {
      if (idx >= t->members.size()) return Bad("member index out of range");
      off += t->offsets[idx];
      cur = t->members[idx];
    } else {
      return Bad("composite index into a non-composite");
    }
  }
  L0SPV_DECODE_TRY(part, ShapeOf(cur));
  L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
  L0SPV_DECODE_TRY(c, Slot(*cid));
  if (!insert) {
    Inst i{Op_::kCopy};
    i.r = *r;
    i.a = *c + static_cast<uint32_t>(off);
    i.d = part->bytes;
    Emit(i, inst);
    return absl::OkStatus();
  }
  L0SPV_DECODE_TRY(s, ShapeOf(inst.type_id()));
  L0SPV_DECODE_TRY(obj, SlotOf(inst, 0));
  if (auto st = NeedBytes(inst.word(0), part->bytes); !st.ok()) return st;
  Inst i{Op_::kInsert};
  i.r = *r;
  i.a = *c;
  i.b = *obj;
  i.c = static_cast<uint32_t>(prog_.extra.size());
  i.d = s->bytes;
  prog_.extra.push_back(static_cast<uint32_t>(off));
  prog_.extra.push_back(part->bytes);
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::VectorShuffle(const Instruction& inst) {
  L0SPV_DECODE_TRY(v1, Id(inst, 0));
  L0SPV_DECODE_TRY(v2, Id(inst, 1));
  L0SPV_DECODE_TRY(t1, TypeOfValue(*v1));
  L0SPV_DECODE_TRY(t2, TypeOfValue(*v2));
  L0SPV_DECODE_TRY(s1, ShapeOf(*t1));
  L0SPV_DECODE_TRY(s2, ShapeOf(*t2));
  L0SPV_DECODE_TRY(s, ShapeOf(inst.type_id()));
  L0SPV_DECODE_TRY(a, Slot(*v1));
  L0SPV_DECODE_TRY(b, Slot(*v2));
  const uint32_t eb = KindBytes(s->k);
  Inst i{Op_::kShuffle};
  i.k = s->k;
  i.n = s->n;
  i.b = static_cast<uint32_t>(prog_.extra.size());
  if (inst.NumOperands() - 2 != s->n) return Bad("shuffle lane count");
  for (size_t k = 2; k < inst.NumOperands(); ++k) {
    const uint32_t lane = inst.word(k);
    if (lane == 0xFFFFFFFFu) {
      prog_.extra.push_back(kNoSlot);
    } else if (lane < s1->n) {
      prog_.extra.push_back(*a + lane * eb);
    } else if (lane - s1->n < s2->n) {
      prog_.extra.push_back(*b + (lane - s1->n) * eb);
    } else {
      return Bad("shuffle component out of range");
    }
  }
  L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
  i.r = *r;
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::VectorDynamic(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  const bool ins = op == Op::OpVectorInsertDynamic;
  L0SPV_DECODE_TRY(vid, Id(inst, 0));
  L0SPV_DECODE_TRY(vt, TypeOfValue(*vid));
  L0SPV_DECODE_TRY(vs, ShapeOf(*vt));
  L0SPV_DECODE_TRY(iid, Id(inst, ins ? 2 : 1));
  L0SPV_DECODE_TRY(it, TypeOfValue(*iid));
  L0SPV_DECODE_TRY(is, ShapeOf(*it));
  if (is->k < kI8 || is->k > kI64) return Bad("vector index not integer");
  L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
  L0SPV_DECODE_TRY(v, Slot(*vid));
  L0SPV_DECODE_TRY(idx, Slot(*iid));
  Inst i{ins ? Op_::kInsertDyn : Op_::kExtractDyn};
  i.k = vs->k;
  i.n = vs->n;
  i.r = *r;
  i.a = *v;
  if (ins) {
    L0SPV_DECODE_TRY(comp, SlotOf(inst, 1));
    i.b = *comp;
    i.c = *idx;
    i.d = KindBytes(is->k);
  } else {
    i.b = *idx;
    i.c = KindBytes(is->k);
  }
  Emit(i, inst);
  return absl::OkStatus();
}

}  // namespace l0spv::oracles::reference::decoder
