// Replaces an OpPhi by a Function variable: each predecessor stores its
// incoming value just before its terminator (and merge instruction), and
// the phi's block loads the variable where the phi was; the load keeps the
// phi's result id, so no use changes. Every path into the block passes
// through exactly one predecessor's store last, so the load reads the value
// the phi would have chosen. Bool and pointer phis are left alone (no memory
// representation for some consumers / pointer variables), as are phis with
// an OpUndef input or an unreachable predecessor.
//
// Record: {"phi": result id}.
#include "absl/strings/str_cat.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

absl::Status CheckPhi(TransformContext& ctx, uint32_t phi) {
  const std::optional<InstPos> pos = ctx.PosOfDef(phi);
  if (!pos || OpOf(ctx.At(*pos)) != Op::OpPhi)
    return absl::FailedPreconditionError(
        absl::StrCat("%", phi, " is not an OpPhi"));
  const spirv::Instruction& inst = ctx.At(*pos);
  if (!IsPlainDataType(ctx, inst.type_id()))
    return absl::FailedPreconditionError(
        "only int and float scalar/vector phis become variables");
  const Dominators& dom = ctx.dominators(pos->function);
  if (!dom.IsReachable(ctx.BlockAt(*pos).id()))
    return absl::FailedPreconditionError("the phi's block is unreachable");
  for (size_t i = 0; i + 1 < inst.NumOperands(); i += 2) {
    const uint32_t value = inst.word(i), pred = inst.word(i + 1);
    auto where = ctx.FindBlock(pred);
    if (!where || where->first != pos->function || !dom.IsReachable(pred))
      return absl::FailedPreconditionError(absl::StrCat(
          "predecessor %", pred, " is not a reachable block of the function"));
    const spirv::BasicBlock& bb =
        ctx.module().functions[where->first].blocks[where->second];
    const InstPos end{where->first, where->second,
                      TransformContext::LastInsertionIndex(bb)};
    if (IsUndef(ctx, value) || !ctx.IsAvailableAt(value, end))
      return absl::FailedPreconditionError(
          absl::StrCat("incoming value %", value,
                       " cannot be stored at the end of %", pred));
  }
  return absl::OkStatus();
}

class PhiToVariableKind : public Transformation {
 public:
  std::string_view kind() const override { return "phi_to_variable"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> phis;
    FindPositions(ctx, [&](const spirv::Instruction& inst, const InstPos&) {
      if (OpOf(inst) == Op::OpPhi && CheckPhi(ctx, inst.result_id()).ok())
        phis.push_back(inst.result_id());
      return false;
    });
    if (phis.empty()) return std::nullopt;
    return Record{{"phi", phis[rng.Below(static_cast<uint32_t>(phis.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    return CheckPhi(ctx, Field<uint32_t>(r, "phi"));
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const uint32_t phi_id = Field<uint32_t>(r, "phi");
    const InstPos pos = *ctx.PosOfDef(phi_id);
    const spirv::Instruction phi = ctx.At(pos);
    spirv::Function& fn = ctx.module().functions[pos.function];
    const uint32_t block_label = fn.blocks[pos.block].id();
    const uint32_t ptr =
        ctx.builder().PointerType(spv::StorageClass::Function, phi.type_id());
    const uint32_t var = ctx.NewId();
    // Edits from here on; blocks keep their indices, instructions are found
    // again by scanning.
    auto& entry = fn.blocks.front().instructions;
    entry.insert(
        entry.begin() + static_cast<ptrdiff_t>(VariableInsertionIndex(fn)),
        spirv::Instruction(
            U(Op::OpVariable), ptr, var,
            {spirv::EnumOperand(
                spirv::OperandKind::kStorageClass,
                static_cast<uint32_t>(spv::StorageClass::Function))}));
    for (size_t i = 0; i + 1 < phi.NumOperands(); i += 2) {
      for (spirv::BasicBlock& bb : fn.blocks) {
        if (bb.id() != phi.word(i + 1)) continue;
        bb.instructions.insert(
            bb.instructions.begin() +
                static_cast<ptrdiff_t>(
                    TransformContext::LastInsertionIndex(bb)),
            spirv::Instruction(
                U(Op::OpStore), 0, 0,
                {spirv::IdOperand(var), spirv::IdOperand(phi.word(i))}));
      }
    }
    for (spirv::BasicBlock& bb : fn.blocks) {
      if (bb.id() != block_label) continue;
      auto& insts = bb.instructions;
      for (size_t i = 0; i < insts.size(); ++i) {
        if (insts[i].result_id() != phi_id) continue;
        insts.erase(insts.begin() + static_cast<ptrdiff_t>(i));
        break;
      }
      insts.insert(
          insts.begin() +
              static_cast<ptrdiff_t>(TransformContext::FirstInsertionIndex(bb)),
          spirv::Instruction(U(Op::OpLoad), phi.type_id(), phi_id,
                             {spirv::IdOperand(var)}));
    }
  }
};

}  // namespace

const Transformation* PhiToVariable() {
  static const PhiToVariableKind* t = new PhiToVariableKind;
  return t;
}

}  // namespace l0spv::generators::transform
