// Inserts OpControlBarrier(Workgroup, Workgroup, WorkgroupMemory |
// SequentiallyConsistent) — what the generator emits — into a block of the
// kernel function that every work-item executes exactly once: the block
// post-dominates the entry (no path from the entry reaches a function exit
// or an OpUnreachable without passing it) and lies on no cycle. A barrier
// there is reached uniformly and only orders memory accesses the program
// already performs, so no result changes. Never in helper functions (their
// call sites may be non-uniform).
#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "generators/transform/ir_util.h"
#include "generators/transform/kinds/cfg_util.h"
#include "generators/transform/kinds/kinds.h"

namespace l0spv::generators::transform {
namespace {

using spv::Op;

constexpr uint32_t kScopeWorkgroup = 2;
constexpr uint32_t kSemantics = 0x110;  // WorkgroupMemory | SeqCst

// Whether every path from the entry to an exit passes block `label`, and
// `label` is on no cycle.
bool ExecutedOnce(const spirv::Function& fn, const Dominators& dom,
                  uint32_t label) {
  if (!dom.IsReachable(label)) return false;
  // Exits reachable from the entry while avoiding `label`?
  std::vector<uint32_t> work;
  absl::flat_hash_set<uint32_t> seen;
  if (fn.blocks[0].id() != label) {
    work.push_back(fn.blocks[0].id());
    seen.insert(fn.blocks[0].id());
  }
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    if (dom.Successors(b).empty()) return false;  // an exit avoids the block
    for (uint32_t s : dom.Successors(b))
      if (s != label && seen.insert(s).second) work.push_back(s);
  }
  // On a cycle: `label` reachable from its own successors.
  work.assign(dom.Successors(label).begin(), dom.Successors(label).end());
  seen.clear();
  for (uint32_t s : work) seen.insert(s);
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    if (b == label) return false;
    for (uint32_t s : dom.Successors(b))
      if (seen.insert(s).second) work.push_back(s);
  }
  return true;
}

class AddBarrierKind : public Transformation {
 public:
  std::string_view kind() const override { return "add_barrier"; }

  std::optional<Record> Propose(TransformContext& ctx,
                                Rng& rng) const override {
    const int32_t k = ctx.entry_function();
    if (k < 0) return std::nullopt;
    const spirv::Function& fn = ctx.module().functions[k];
    const Dominators& dom = ctx.dominators(k);
    std::vector<InstPos> options;
    for (size_t b = 0; b < fn.blocks.size(); ++b) {
      if (!ExecutedOnce(fn, dom, fn.blocks[b].id())) continue;
      const size_t lo = TransformContext::FirstInsertionIndex(fn.blocks[b]);
      const size_t hi = TransformContext::LastInsertionIndex(fn.blocks[b]);
      for (size_t i = lo; i <= hi; ++i)
        options.push_back({static_cast<size_t>(k), b, i});
    }
    auto pos = PickPosition(options, rng);
    if (!pos) return std::nullopt;
    return Record{{"before", ToJson(ctx.Describe(*pos))}};
  }

  absl::Status Check(TransformContext& ctx, const Record& r) const override {
    auto pos = ResolveField(ctx, r, "before");
    if (!pos.ok()) return pos.status();
    if (static_cast<int32_t>(pos->function) != ctx.entry_function())
      return absl::FailedPreconditionError(
          "barriers are added to the kernel function only");
    const spirv::Function& fn = ctx.module().functions[pos->function];
    const spirv::BasicBlock& bb = fn.blocks[pos->block];
    if (pos->index < TransformContext::FirstInsertionIndex(bb) ||
        pos->index > TransformContext::LastInsertionIndex(bb))
      return absl::FailedPreconditionError(
          "cannot insert among phis, variables or the merge and terminator");
    if (!ExecutedOnce(fn, ctx.dominators(pos->function), bb.id()))
      return absl::FailedPreconditionError(absl::StrCat(
          "block %", bb.id(),
          " is not executed exactly once by every work-item (it does not "
          "post-dominate the entry, or lies on a cycle)"));
    return absl::OkStatus();
  }

  void Apply(TransformContext& ctx, const Record& r) const override {
    const InstPos pos = *ResolveField(ctx, r, "before");
    spirv::ModuleBuilder& mb = ctx.builder();
    const uint32_t u32 = mb.IntType(32);
    const uint32_t scope = mb.IntConstant(u32, kScopeWorkgroup);
    const uint32_t semantics = mb.IntConstant(u32, kSemantics);
    InsertBefore(ctx, pos,
                 spirv::Instruction(
                     U(Op::OpControlBarrier), 0, 0,
                     {spirv::Operand{spirv::OperandKind::kIdScope, {scope}},
                      spirv::Operand{spirv::OperandKind::kIdScope, {scope}},
                      spirv::Operand{spirv::OperandKind::kIdMemorySemantics,
                                     {semantics}}}));
  }
};

}  // namespace

const Transformation* AddBarrier() {
  static const AddBarrierKind* t = new AddBarrierKind;
  return t;
}

}  // namespace l0spv::generators::transform
