// Recursion rule ("Validation Rules"): the static call graph of an entry
// point must not contain cycles. Depth-first search with an explicit stack:
// a hostile module can chain millions of calls, and the lint must not
// exhaust the native stack on it.
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "oracles/validity/rule_context.h"

namespace l0spv::oracles::validity_internal {
namespace {

using spirv::Instruction;
using spv::Op;

struct Edge {
  size_t callee;
  const Instruction* call;
};

struct CallGraph {
  std::vector<const spirv::Function*> functions;
  std::vector<std::vector<Edge>> edges;
  absl::flat_hash_map<uint32_t, size_t> index_of;
};

CallGraph BuildCallGraph(const spirv::Module& module) {
  CallGraph g;
  for (const spirv::Function& fn : module.functions) {
    g.index_of.emplace(fn.id(), g.functions.size());
    g.functions.push_back(&fn);
  }
  g.edges.resize(g.functions.size());
  for (size_t i = 0; i < g.functions.size(); ++i) {
    for (const spirv::BasicBlock& bb : g.functions[i]->blocks) {
      for (const Instruction& inst : bb.instructions) {
        if (static_cast<Op>(inst.opcode()) != Op::OpFunctionCall) continue;
        auto callee = OperandWord(inst, 0);
        if (!callee) continue;
        auto it = g.index_of.find(*callee);
        if (it != g.index_of.end()) g.edges[i].push_back({it->second, &inst});
      }
    }
  }
  return g;
}

// "%4 -> %9 -> %4", eliding the middle of long cycles.
std::string CyclePath(const RuleContext& ctx, const CallGraph& g,
                      const std::vector<size_t>& cycle) {
  constexpr size_t kMaxShown = 8;
  std::string out;
  for (size_t i = 0; i < cycle.size(); ++i) {
    if (cycle.size() > kMaxShown && i == kMaxShown / 2) {
      absl::StrAppend(&out, "... (", cycle.size() - kMaxShown, " more) -> ");
      i = cycle.size() - kMaxShown / 2;
    }
    absl::StrAppend(&out, ctx.IdName(g.functions[cycle[i]]->id()), " -> ");
  }
  absl::StrAppend(&out, ctx.IdName(g.functions[cycle.front()]->id()));
  return out;
}

}  // namespace

void CheckCallGraphRules(RuleContext& ctx) {
  const CallGraph g = BuildCallGraph(ctx.module());
  enum Color : uint8_t { kWhite, kGray, kBlack };
  // Colors persist across entry points: a cycle is reported once, for the
  // first entry point that reaches it.
  std::vector<Color> color(g.functions.size(), kWhite);
  std::vector<size_t> stack_pos(g.functions.size(), 0);
  for (const Instruction& ep : ctx.module().entry_points) {
    auto fn_id = OperandWord(ep, 1);
    if (!fn_id) continue;
    auto root = g.index_of.find(*fn_id);
    if (root == g.index_of.end() || color[root->second] != kWhite) continue;
    const std::string kernel =
        ep.NumOperands() > 2 ? ep.operand(2).AsString() : "";
    // Frames: (function, index of the next edge to follow).
    std::vector<std::pair<size_t, size_t>> stack = {{root->second, 0}};
    color[root->second] = kGray;
    stack_pos[root->second] = 0;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next == g.edges[node].size()) {
        color[node] = kBlack;
        stack.pop_back();
        continue;
      }
      const Edge edge = g.edges[node][next++];
      if (color[edge.callee] == kWhite) {
        color[edge.callee] = kGray;
        stack_pos[edge.callee] = stack.size();
        stack.push_back({edge.callee, 0});
      } else if (color[edge.callee] == kGray) {
        std::vector<size_t> cycle;
        for (size_t i = stack_pos[edge.callee]; i < stack.size(); ++i) {
          cycle.push_back(stack[i].first);
        }
        ctx.Report(
            kRuleRecursion, edge.call,
            absl::StrCat(ctx.Describe(*edge.call), " calls ",
                         ctx.IdName(g.functions[edge.callee]->id()),
                         ", closing the call cycle ", CyclePath(ctx, g, cycle),
                         " reachable from kernel \"", kernel,
                         "\"; Level Zero does not support recursion"));
      }
    }
  }
}

}  // namespace l0spv::oracles::validity_internal
