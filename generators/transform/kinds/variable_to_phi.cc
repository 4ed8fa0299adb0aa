// Removes the loads of a Function variable whose value at every load is
// known from its stores — the reverse of phi_to_variable, and store-to-load
// forwarding. The variable %v (OpVariable, Function storage, int/float
// scalar or vector pointee) must be used only as the pointer of OpLoad
// (memory operands Aligned/Volatile at most) and OpStore instructions of
// its function, never stored itself, so its address does not escape. Then,
// with every load and store in reachable blocks:
//  - forward: exactly one store `OpStore %v %x` in block S; every load comes
//    after it in S or sits in a block S strictly dominates. Each load
//    becomes `OpCopyObject %x` (x dominates the store, which dominates the
//    load; the last store executed before a load stored the current x).
//  - phi: every load sits in one block B with no store; B is not its own
//    predecessor; each predecessor P of B holds exactly one store and there
//    are no other stores. A new `%phi = OpPhi [x_P, P]...` heads B and each
//    load becomes `OpCopyObject %phi` (the last store before entering B is
//    the one of the predecessor just left).
// Loads keep their ids; the stores and the variable stay (now dead).
//
// Record: {"variable": id}.
#include "absl/strings/str_cat.h"
#include "generators/kernel/generator.h"
#include "generators/transform/kinds/data_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

struct Access {
  size_t block = 0;  // index in the function
  size_t index = 0;
};

struct Plan {
  size_t function = 0;
  std::vector<Access> loads;
  std::vector<Access> stores;
  bool forward = false;
  uint32_t phi_block = 0;  // the phi pattern's B
};

absl::StatusOr<Plan> MakePlan(TransformContext& ctx, uint32_t variable) {
  const DefSite* d = ctx.Def(variable);
  if (d == nullptr || d->opcode != U(Op::OpVariable) || d->function < 0)
    return absl::FailedPreconditionError(
        absl::StrCat("%", variable, " is not a function variable"));
  const spirv::TypeInfo* t = ctx.types().Get(d->type_id);
  if (t == nullptr || t->storage_class != spv::StorageClass::Function ||
      !IsPlainDataType(ctx, t->element))
    return absl::FailedPreconditionError(
        "only Function variables of int/float scalars or vectors");
  Plan plan;
  plan.function = static_cast<size_t>(d->function);
  const spirv::Function& fn = ctx.module().functions[plan.function];
  const Dominators& dom = ctx.dominators(plan.function);
  for (size_t b = 0; b < fn.blocks.size(); ++b) {
    const auto& insts = fn.blocks[b].instructions;
    for (size_t i = 0; i < insts.size(); ++i) {
      const spirv::Instruction& inst = insts[i];
      size_t uses = 0;
      inst.ForEachInId([&](uint32_t id) { uses += id == variable; });
      if (uses == 0 || inst.result_id() == variable) continue;
      const bool load = OpOf(inst) == Op::OpLoad && uses == 1 &&
                        (inst.NumOperands() == 1 || (inst.word(1) & ~3u) == 0);
      const bool store =
          OpOf(inst) == Op::OpStore && uses == 1 && inst.word(0) == variable;
      if (!load && !store)
        return absl::FailedPreconditionError(absl::StrCat(
            "%", variable, " is used by ", std::string(inst.name()),
            " other than as a load or store pointer"));
      if (!dom.IsReachable(fn.blocks[b].id()))
        return absl::FailedPreconditionError(
            "an access sits in an unreachable block");
      (load ? plan.loads : plan.stores).push_back({b, i});
    }
  }
  if (plan.loads.empty())
    return absl::FailedPreconditionError("the variable is never loaded");
  // Forward pattern.
  if (plan.stores.size() == 1) {
    const Access s = plan.stores[0];
    const uint32_t s_label = fn.blocks[s.block].id();
    bool all = true;
    for (const Access& l : plan.loads)
      all &= l.block == s.block
                 ? l.index > s.index
                 : dom.Dominates(s_label, fn.blocks[l.block].id());
    if (all) {
      plan.forward = true;
      return plan;
    }
  }
  // Phi pattern.
  const size_t b = plan.loads[0].block;
  const uint32_t label = fn.blocks[b].id();
  for (const Access& l : plan.loads)
    if (l.block != b)
      return absl::FailedPreconditionError(
          "the loads are neither dominated by a single store nor in one "
          "block");
  const std::vector<uint32_t>& preds = dom.Predecessors(label);
  if (preds.empty() ||
      std::find(preds.begin(), preds.end(), label) != preds.end())
    return absl::FailedPreconditionError(
        "the loads' block has no predecessors or is its own");
  if (plan.stores.size() != preds.size())
    return absl::FailedPreconditionError(
        "not exactly one store per predecessor of the loads' block");
  for (uint32_t p : preds) {
    if (!dom.IsReachable(p))
      return absl::FailedPreconditionError("an unreachable predecessor");
    size_t n = 0;
    for (const Access& s : plan.stores) n += fn.blocks[s.block].id() == p;
    if (n != 1)
      return absl::FailedPreconditionError(
          absl::StrCat("predecessor %", p, " does not hold exactly one store"));
  }
  plan.phi_block = label;
  return plan;
}

class VariableToPhiKind : public Transformation {
 public:
  std::string_view kind() const override { return "variable_to_phi"; }
  // Generated kernels have no Function variable it can turn back into
  // SSA; phi_to_variable makes them.
  std::vector<std::string_view> enablers() const override {
    return {"phi_to_variable"};
  }
  // Loads become OpCopyObject, which llvm-spirv 14 -r turns into an alloca
  // in place (known-consumer-bugs/llvm_spirv_copy_object_alloca).
  std::vector<oracles::KnownBugId> known_bugs() const override {
    return {oracles::KnownBugId::kLlvmSpirvCopyObjectAlloca};
  }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    std::vector<uint32_t> vars;
    for (const spirv::Function& fn : ctx.module().functions) {
      if (fn.IsDeclaration()) continue;
      for (const spirv::Instruction& inst : fn.blocks.front().instructions)
        if (OpOf(inst) == Op::OpVariable &&
            MakePlan(ctx, inst.result_id()).ok())
          vars.push_back(inst.result_id());
    }
    if (vars.empty()) return std::nullopt;
    return Record{
        {"variable", vars[rng.Below(static_cast<uint32_t>(vars.size()))]}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    return MakePlan(ctx, Field<uint32_t>(r, "variable")).status();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const Plan plan = *MakePlan(ctx, Field<uint32_t>(r, "variable"));
    spirv::Function& fn = ctx.module().functions[plan.function];
    auto stored = [&](const Access& s) {
      return fn.blocks[s.block].instructions[s.index].word(1);
    };
    uint32_t value = 0;
    if (plan.forward) {
      value = stored(plan.stores[0]);
    } else {
      const uint32_t type = fn.blocks[plan.loads[0].block]
                                .instructions[plan.loads[0].index]
                                .type_id();
      std::vector<spirv::Operand> ops;
      for (uint32_t p :
           ctx.dominators(plan.function).Predecessors(plan.phi_block)) {
        for (const Access& s : plan.stores)
          if (fn.blocks[s.block].id() == p) {
            ops.push_back(spirv::IdOperand(stored(s)));
            ops.push_back(spirv::IdOperand(p));
          }
      }
      value = ctx.NewId();
      // Loads keep their indices: rewrite them before inserting the phi.
      for (const Access& l : plan.loads) {
        spirv::Instruction& load = fn.blocks[l.block].instructions[l.index];
        load = spirv::Instruction(U(Op::OpCopyObject), load.type_id(),
                                  load.result_id(), {spirv::IdOperand(value)});
      }
      auto& insts = fn.blocks[plan.loads[0].block].instructions;
      insts.insert(insts.begin(), spirv::Instruction(U(Op::OpPhi), type, value,
                                                     std::move(ops)));
      return;
    }
    for (const Access& l : plan.loads) {
      spirv::Instruction& load = fn.blocks[l.block].instructions[l.index];
      load = spirv::Instruction(U(Op::OpCopyObject), load.type_id(),
                                load.result_id(), {spirv::IdOperand(value)});
    }
  }
};

}  // namespace

const Transformation* VariableToPhi() {
  static const VariableToPhiKind* t = new VariableToPhiKind;
  return t;
}

}  // namespace l0spv::generators::transform
