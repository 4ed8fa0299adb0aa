// oracles/reference/decode_ext_inst.cc — the Extension instruction class:
// OpExtInst of OpenCL.std (math, vload/vstore, printf; opencl_std.h
// resolves the call).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "oracles/reference/decode_state.h"
#include "oracles/reference/opencl_std.h"
#include "spirv/grammar.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::oracles::reference::decoder {

using spv::Op;

absl::Status DecodeState::TranslateExtInst(const Instruction& inst) {
  // The class's other instructions (OpExtension, OpExtInstImport) are
  // module-level: inside a function they trap like any unknown one.
  if (static_cast<Op>(inst.opcode()) != Op::OpExtInst)
    return Unsupported(inst, kNotImplemented);
  auto set = Id(inst, 0);
  if (!set.ok()) return set.status();
  if (inst.NumOperands() < 2) return Bad("OpExtInst without a number");
  const uint32_t number = inst.word(1);
  const spirv::ExtInstInfo* info = spirv::FindOpenClStd(number);
  if (*set != opencl_std_ || opencl_std_ == 0)
    return Unimpl(
        "OpExtInst from an extended instruction set other than "
        "OpenCL.std");
  const std::string name =
      absl::StrCat("OpenCL.std ", info ? info->name : std::to_string(number));
  ExtCall call;
  call.number = number;
  const TypeDesc* rt = Type(inst.type_id());
  if (rt != nullptr && rt->cls != TypeDesc::kVoid) {
    auto rs = ShapeOf(inst.type_id());
    if (!rs.ok()) return Unimpl(absl::StrCat(name, ": result type"));
    auto r = Slot(inst.result_id());
    if (!r.ok()) return r.status();
    call.result = *r;
    call.kind = rs->k;
    call.lanes = rs->n;
    call.result_bytes = rs->bytes;
  } else {
    call.result = kNoSlot;
    call.kind = kAgg;
    call.lanes = 1;
    call.result_bytes = 0;
  }
  for (size_t i = 2; i < inst.NumOperands(); ++i) {
    const spirv::Operand& op = inst.operand(i);
    ExtArg arg{};
    if (!op.IsId()) {
      // Literal operands (vloadn's n, vstore_half_r's rounding mode).
      arg.slot = kNoSlot;
      arg.kind = kAgg;
      arg.lanes = 1;
      arg.bytes = op.AsLiteral();
      call.args.push_back(arg);
      continue;
    }
    auto ty = TypeOfValue(op.AsId());
    if (!ty.ok()) return ty.status();
    auto slot = Slot(op.AsId());
    if (!slot.ok()) return slot.status();
    auto s = ShapeOf(*ty);
    if (!s.ok()) return Unimpl(absl::StrCat(name, ": operand type"));
    arg.slot = *slot;
    arg.kind = s->k;
    arg.lanes = s->n;
    arg.bytes = s->bytes;
    const TypeDesc* t = Type(*ty);
    if (t->cls == TypeDesc::kPointer) {
      arg.pointee_type = t->elem;
      const TypeDesc* pe = Type(t->elem);
      arg.pointee_bytes = pe && pe->sized ? static_cast<uint32_t>(pe->size) : 0;
      // Remember the pointee's scalar kind for vload/vstore/printf.
      if (pe) {
        auto ps = ShapeOf(t->elem);
        if (ps.ok()) {
          arg.kind = ps->k;
          arg.lanes = ps->n;
        }
      }
    }
    call.args.push_back(arg);
  }
  std::string why;
  if (!ResolveOpenClStd(&call, &why))
    return Unimpl(absl::StrCat(name, why.empty() ? "" : ": ", why));
  Inst i{Op_::kExtInst};
  i.d = static_cast<uint32_t>(prog_.ext_calls.size());
  prog_.ext_calls.push_back(std::move(call));
  Emit(i, inst);
  return absl::OkStatus();
}

}  // namespace l0spv::oracles::reference::decoder
