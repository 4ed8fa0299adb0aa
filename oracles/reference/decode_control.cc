// oracles/reference/decode_control.cc — function bodies (slots, blocks,
// CFG edges carrying the phi moves) and the Control-Flow, Function,
// Debug and Miscellaneous instruction classes.
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

namespace {

bool IsTerminator(reference::Op op) {
  switch (op) {
    case reference::Op::kBranch:
    case reference::Op::kBranchCond:
    case reference::Op::kSwitch:
    case reference::Op::kReturn:
    case reference::Op::kReturnValue:
    case reference::Op::kUnreachable:
    case reference::Op::kTrapUnsupported:
      return true;
    default:
      return false;
  }
}

}  // namespace

absl::StatusOr<uint32_t> DecodeState::MakeEdge(uint32_t from_label,
                                               uint32_t to_label) {
  auto bi = block_index_.find(to_label);
  if (bi == block_index_.end())
    return Bad(absl::StrCat("branch to %", to_label,
                            ", which is not a block of the function"));
  Edge e;
  e.moves = static_cast<uint32_t>(prog_.moves.size());
  for (const Instruction* phi : block_phis_[bi->second]) {
    bool found = false;
    for (size_t i = 0; i + 1 < phi->NumOperands(); i += 2) {
      if (phi->word(i + 1) != from_label) continue;
      auto src = Slot(phi->word(i));
      if (!src.ok()) return src.status();
      auto dst = Slot(phi->result_id());
      if (!dst.ok()) return dst.status();
      auto shape = ShapeOf(phi->type_id());
      if (!shape.ok()) return shape.status();
      if (auto s = NeedBytes(phi->word(i), shape->bytes); !s.ok()) return s;
      prog_.moves.push_back({*dst, *src, shape->bytes});
      found = true;
      break;
    }
    if (!found)
      return Bad(absl::StrCat("OpPhi %", phi->result_id(),
                              " has no value for predecessor %", from_label));
  }
  e.nmoves = static_cast<uint32_t>(prog_.moves.size()) - e.moves;
  // A move reading a slot that another move of the same edge writes needs
  // the parallel-copy path.
  for (uint32_t i = 0; i < e.nmoves && !e.parallel; ++i) {
    const PhiMove& a = prog_.moves[e.moves + i];
    for (uint32_t j = 0; j < e.nmoves; ++j) {
      const PhiMove& b = prog_.moves[e.moves + j];
      if (i != j && a.src < b.dst + b.bytes && b.dst < a.src + a.bytes) {
        e.parallel = true;
        break;
      }
    }
  }
  const uint32_t index = static_cast<uint32_t>(prog_.edges.size());
  prog_.edges.push_back(e);
  pending_edges_.push_back({index, bi->second});
  return index;
}

absl::Status DecodeState::DecodeFunction(const spirv::Function& f,
                                         uint32_t index) {
  current_function_ = index;
  fn_ = &prog_.functions[index];
  slots_.clear();
  local_types_.clear();
  block_index_.clear();
  block_phis_.clear();
  block_pc_.clear();
  pending_edges_.clear();
  template_writes_.clear();

  const TypeDesc* ft = Type(f.def.NumOperands() >= 2 ? f.def.word(1) : 0);
  if (ft == nullptr || ft->cls != TypeDesc::kFunction)
    return Bad(absl::StrCat("function %", f.id(), " has no function type"));
  // Pass 1: a slot for every value the function defines.
  for (const Instruction& p : f.parameters) {
    auto shape = ShapeOf(p.type_id());
    if (!shape.ok()) return shape.status();
    auto slot = AllocSlot(shape->bytes);
    if (!slot.ok()) return slot.status();
    slots_[p.result_id()] = *slot;
    local_types_[p.result_id()] = p.type_id();
    fn_->param_slots.push_back(*slot);
    fn_->param_bytes.push_back(shape->bytes);
  }
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    block_index_[f.blocks[b].id()] = static_cast<uint32_t>(b);
    block_phis_.emplace_back();
    for (const Instruction& inst : f.blocks[b].instructions) {
      if (static_cast<Op>(inst.opcode()) == Op::OpPhi)
        block_phis_[b].push_back(&inst);
      if (inst.result_id() == 0 || inst.type_id() == 0) continue;
      const TypeDesc* t = Type(inst.type_id());
      if (t == nullptr || t->cls == TypeDesc::kVoid) continue;
      local_types_[inst.result_id()] = inst.type_id();
      auto shape = ShapeOf(inst.type_id());
      // Values of types without storage (events, ...) get no slot; any
      // instruction using them traps as unsupported.
      if (!shape.ok()) continue;
      auto slot = AllocSlot(shape->bytes);
      if (!slot.ok()) return slot.status();
      slots_[inst.result_id()] = *slot;
    }
  }
  // Pass 2: translate.
  fn_->entry_pc = static_cast<uint32_t>(prog_.insts.size());
  for (const spirv::BasicBlock& block : f.blocks) {
    current_label_ = block.id();
    block_pc_.push_back(static_cast<uint32_t>(prog_.insts.size()));
    for (const Instruction& inst : block.instructions) {
      if (auto s = Translate(inst); !s.ok()) {
        if (s.code() != absl::StatusCode::kUnimplemented) return s;
        EmitTrap(inst, absl::StrCat(OpName(inst.opcode()), " %",
                                    inst.result_id(), ": ", s.message()));
      }
    }
    if (prog_.insts.size() == block_pc_.back() ||
        !IsTerminator(prog_.insts.back().op)) {
      // A block must end in a terminator; keep the executor from running
      // off the end of a malformed one.
      Inst t{Op_::kUnreachable};
      Emit(t, block.label);
    }
  }
  if (f.blocks.empty()) return Bad("function without blocks");
  for (const auto& [edge, block] : pending_edges_)
    prog_.edges[edge].pc = block_pc_[block];
  // Tail padding: lane operations move at most 16 lanes of 8 bytes, so a
  // lane operand whose type disagrees with the instruction (possible only in
  // modules that skipped validation) still reads and writes inside the frame.
  fn_->frame_bytes = ((fn_->frame_bytes + 15) & ~15u) + 256;
  fn_->frame_template.assign(fn_->frame_bytes, 0);
  for (const auto& [slot, bytes] : template_writes_)
    std::copy(bytes.begin(), bytes.end(), fn_->frame_template.begin() + slot);
  return absl::OkStatus();
}

absl::Status DecodeState::TranslateControl(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  switch (op) {
    case Op::OpSelectionMerge:
    case Op::OpLoopMerge:
    case Op::OpPhi:  // moves on the incoming edges (MakeEdge)
      return absl::OkStatus();
    case Op::OpLifetimeStart:
    case Op::OpLifetimeStop:
      Emit(Inst{Op_::kNop}, inst);
      return absl::OkStatus();
    case Op::OpBranch: {
      L0SPV_DECODE_TRY(target, Id(inst, 0));
      L0SPV_DECODE_TRY(e, MakeEdge(current_label_, *target));
      Inst i{Op_::kBranch};
      i.a = *e;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpBranchConditional: {
      L0SPV_DECODE_TRY(c, SlotOf(inst, 0));
      L0SPV_DECODE_TRY(t, Id(inst, 1));
      L0SPV_DECODE_TRY(f, Id(inst, 2));
      L0SPV_DECODE_TRY(et, MakeEdge(current_label_, *t));
      L0SPV_DECODE_TRY(ef, MakeEdge(current_label_, *f));
      Inst i{Op_::kBranchCond};
      i.a = *c;
      i.b = *et;
      i.c = *ef;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpSwitch:
      return Switch(inst);
    case Op::OpReturn:
      Emit(Inst{Op_::kReturn}, inst);
      return absl::OkStatus();
    case Op::OpReturnValue: {
      L0SPV_DECODE_TRY(vid, Id(inst, 0));
      L0SPV_DECODE_TRY(vt, TypeOfValue(*vid));
      L0SPV_DECODE_TRY(vs, ShapeOf(*vt));
      L0SPV_DECODE_TRY(v, Slot(*vid));
      if (vs->bytes != fn_->return_bytes)
        return Bad("OpReturnValue of the wrong size");
      Inst i{Op_::kReturnValue};
      i.a = *v;
      i.d = vs->bytes;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpUnreachable:
      Emit(Inst{Op_::kUnreachable}, inst);
      return absl::OkStatus();
    case Op::OpFunctionCall:
      return FunctionCall(inst);
    default:
      return Unsupported(inst, kNotImplemented);
  }
}

absl::Status DecodeState::Switch(const Instruction& inst) {
  L0SPV_DECODE_TRY(sid, Id(inst, 0));
  L0SPV_DECODE_TRY(st, TypeOfValue(*sid));
  L0SPV_DECODE_TRY(ss, ShapeOf(*st));
  if (ss->k < kI8 || ss->k > kI64 || ss->n != 1)
    return Bad("OpSwitch selector is not a scalar integer");
  L0SPV_DECODE_TRY(sel, Slot(*sid));
  L0SPV_DECODE_TRY(def, Id(inst, 1));
  L0SPV_DECODE_TRY(edef, MakeEdge(current_label_, *def));
  std::vector<uint32_t> cases;
  for (size_t k = 2; k + 1 < inst.NumOperands(); k += 2) {
    const auto& lit = inst.operand(k).words;
    const uint64_t lo = lit.empty() ? 0 : lit[0];
    const uint64_t hi = lit.size() > 1 ? lit[1] : 0;
    L0SPV_DECODE_TRY(e, MakeEdge(current_label_, inst.word(k + 1)));
    cases.push_back(static_cast<uint32_t>(lo));
    cases.push_back(static_cast<uint32_t>(hi));
    cases.push_back(*e);
  }
  Inst i{Op_::kSwitch};
  i.k = ss->k;
  i.a = *sel;
  i.b = static_cast<uint32_t>(prog_.extra.size());
  i.c = static_cast<uint32_t>(cases.size() / 3);
  i.d = *edef;
  prog_.extra.insert(prog_.extra.end(), cases.begin(), cases.end());
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::FunctionCall(const Instruction& inst) {
  L0SPV_DECODE_TRY(callee, Id(inst, 0));
  auto fi = function_index_.find(*callee);
  if (fi == function_index_.end())
    return Unimpl(
        absl::StrCat("of %", *callee, ", a function without a body (import)"));
  const FunctionInfo& target = prog_.functions[fi->second];
  if (target.param_bytes.size() + 1 != inst.NumOperands())
    return Bad("OpFunctionCall argument count");
  for (size_t k = 1; k < inst.NumOperands(); ++k) {
    if (auto st = NeedBytes(inst.word(k), target.param_bytes[k - 1]); !st.ok())
      return st;
  }
  Inst i{Op_::kCall};
  i.d = fi->second;
  i.b = static_cast<uint32_t>(prog_.extra.size());
  i.c = static_cast<uint32_t>(inst.NumOperands() - 1);
  for (size_t k = 1; k < inst.NumOperands(); ++k) {
    L0SPV_DECODE_TRY(a, Slot(inst.word(k)));
    prog_.extra.push_back(*a);
  }
  if (inst.type_id() != 0 && Type(inst.type_id()) &&
      Type(inst.type_id())->cls != TypeDesc::kVoid) {
    L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
    L0SPV_DECODE_TRY(rs, ShapeOf(inst.type_id()));
    if (rs->bytes != target.return_bytes)
      return Bad("OpFunctionCall result type differs from the callee's");
    i.r = *r;
  }
  Emit(i, inst);
  return absl::OkStatus();
}

absl::Status DecodeState::TranslateMisc(const Instruction& inst) {
  const auto op = static_cast<Op>(inst.opcode());
  switch (op) {
    case Op::OpNop:
    case Op::OpLine:
    case Op::OpNoLine:
      return absl::OkStatus();
    case Op::OpUndef: {
      // Deterministic: an undefined value reads as zero.
      L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
      L0SPV_DECODE_TRY(s, ShapeOf(inst.type_id()));
      Inst i{Op_::kZero};
      i.r = *r;
      i.d = s->bytes;
      Emit(i, inst);
      return absl::OkStatus();
    }
    case Op::OpSizeOf:
      return SizeOf(inst);
    default:
      return Unsupported(inst, kNotImplemented);
  }
}

absl::Status DecodeState::SizeOf(const Instruction& inst) {
  L0SPV_DECODE_TRY(aid, Id(inst, 0));
  L0SPV_DECODE_TRY(at, TypeOfValue(*aid));
  const TypeDesc* ptd = Type(*at);
  if (ptd == nullptr || ptd->cls != TypeDesc::kPointer)
    return Bad("OpSizeOf of a non-pointer");
  const TypeDesc* e = Type(ptd->elem);
  if (e == nullptr || !e->sized) return Unimpl("of an unsized type");
  L0SPV_DECODE_TRY(s, ShapeOf(inst.type_id()));
  std::vector<uint8_t> bytes(s->bytes, 0);
  const uint64_t size = e->size;
  std::memcpy(bytes.data(), &size, std::min<size_t>(8, bytes.size()));
  L0SPV_DECODE_TRY(c, ConstSlot(bytes));
  L0SPV_DECODE_TRY(r, Slot(inst.result_id()));
  Inst i{Op_::kCopy};
  i.r = *r;
  i.a = *c;
  i.d = s->bytes;
  Emit(i, inst);
  return absl::OkStatus();
}

}  // namespace l0spv::oracles::reference::decoder
