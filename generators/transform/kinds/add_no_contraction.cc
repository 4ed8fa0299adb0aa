// Decorates a float arithmetic result NoContraction where no contraction
// was possible anyway: the instruction neither takes an operand from, nor
// gives its result to, another float arithmetic instruction (or a copy,
// phi or select that could hide one). Contraction fuses a multiply with a
// neighbouring add; with no such neighbour, forbidding it changes nothing,
// on any consumer, whatever its FP_CONTRACT choice.
//
// Record: {"target": result id}.
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::transform {
namespace {

using spv::Op;

bool IsFloatArithmetic(Op op) {
  switch (op) {
    case Op::OpFAdd:
    case Op::OpFSub:
    case Op::OpFMul:
    case Op::OpFDiv:
    case Op::OpFRem:
    case Op::OpFMod:
    case Op::OpFNegate:
    case Op::OpVectorTimesScalar:
      return true;
    default:
      return false;
  }
}

// Instructions a contraction could look through or into.
bool IsContractionNeighbour(Op op) {
  return IsFloatArithmetic(op) || op == Op::OpCopyObject || op == Op::OpPhi ||
         op == Op::OpSelect || op == Op::OpExtInst || op == Op::OpDot;
}

bool HasNoContraction(const spirv::Module& m, uint32_t id) {
  for (const spirv::Instruction& a : m.annotations)
    if (OpOf(a) == Op::OpDecorate && a.word(0) == id &&
        a.word(1) == static_cast<uint32_t>(spv::Decoration::NoContraction))
      return true;
  return false;
}

// Ids of float arithmetic results with no contraction neighbour, in module
// order.
std::vector<uint32_t> Isolated(TransformContext& ctx) {
  absl::flat_hash_set<uint32_t> neighbour_results, used_by_neighbour;
  std::vector<const spirv::Instruction*> candidates;
  for (const spirv::Function& fn : ctx.module().functions)
    for (const spirv::BasicBlock& bb : fn.blocks)
      for (const spirv::Instruction& inst : bb.instructions) {
        if (!IsContractionNeighbour(OpOf(inst))) continue;
        neighbour_results.insert(inst.result_id());
        inst.ForEachInId([&](uint32_t id) { used_by_neighbour.insert(id); });
        if (IsFloatArithmetic(OpOf(inst))) candidates.push_back(&inst);
      }
  std::vector<uint32_t> out;
  for (const spirv::Instruction* inst : candidates) {
    if (used_by_neighbour.contains(inst->result_id())) continue;
    bool ok = true;
    inst->ForEachInId([&](uint32_t id) {
      if (neighbour_results.contains(id)) ok = false;
    });
    if (ok && !HasNoContraction(ctx.module(), inst->result_id()))
      out.push_back(inst->result_id());
  }
  return out;
}

class AddNoContractionKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_no_contraction"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> ids = Isolated(ctx);
    if (ids.empty()) return std::nullopt;
    return Record{{"target", ids[rng.Below(static_cast<uint32_t>(ids.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    const uint32_t target = r.at("target").get<uint32_t>();
    const std::vector<uint32_t> ids = Isolated(ctx);
    if (std::find(ids.begin(), ids.end(), target) == ids.end())
      return absl::FailedPreconditionError(absl::StrCat(
          "%", target,
          " is not an undecorated float arithmetic result without "
          "contraction neighbours"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    ctx.module().annotations.push_back(spirv::Instruction(
        U(Op::OpDecorate), 0, 0,
        {spirv::IdOperand(r.at("target").get<uint32_t>()),
         spirv::EnumOperand(
             spirv::OperandKind::kDecoration,
             static_cast<uint32_t>(spv::Decoration::NoContraction))}));
  }
};

}  // namespace

const Transformation* AddNoContraction() {
  static const AddNoContractionKind* t = new AddNoContractionKind;
  return t;
}

}  // namespace l0spv::transform
