// The generator's gate of pocl_context_builtin_bitcast: while PoCL's bugs
// are avoided, no integer OpBitcast takes a component loaded straight from
// a built-in PoCL keeps in its work-group context (GenContext::
// work_group_context). Ungated such bitcasts are generated, so the count
// below can fail.
#include "absl/container/flat_hash_set.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/consumers.h"
#include "spirv/unified1/spirv.hpp11"
#include "tests/generator/count_generated.h"

namespace l0spv::generators::kernel {
namespace {

using spv::BuiltIn;
using spv::Op;

// Integer OpBitcasts of a context built-in's component in `seeds` cases.
int ContextBitcasts(uint64_t seeds, uint32_t avoid) {
  int count = 0;
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    GeneratorOptions options;
    options.seed = seed;
    options.avoid_known_bugs = avoid;
    auto tc = GenerateTestCase(options);
    EXPECT_TRUE(tc.ok()) << tc.status();
    if (!tc.ok()) return -1;
    auto module = spirv::ReadModuleWords(tc->module_words);
    EXPECT_TRUE(module.ok()) << module.status();
    if (!module.ok()) return -1;
    absl::flat_hash_set<uint32_t> variables;  // the context built-ins
    for (const spirv::Instruction& i : module->annotations) {
      if (static_cast<Op>(i.opcode()) != Op::OpDecorate ||
          i.NumOperands() < 3 ||
          i.operand(1).AsLiteral() !=
              static_cast<uint32_t>(spv::Decoration::BuiltIn))
        continue;
      switch (static_cast<BuiltIn>(i.operand(2).AsLiteral())) {
        case BuiltIn::LocalInvocationId:
        case BuiltIn::WorkgroupId:
        case BuiltIn::NumWorkgroups:
        case BuiltIn::EnqueuedWorkgroupSize:
        case BuiltIn::WorkgroupSize:
        case BuiltIn::GlobalOffset:
          variables.insert(i.operand(0).AsId());
          break;
        default:
          break;
      }
    }
    absl::flat_hash_set<uint32_t> loads, components;
    for (const spirv::Function& fn : module->functions) {
      for (const spirv::BasicBlock& bb : fn.blocks) {
        for (const spirv::Instruction& i : bb.instructions) {
          const Op op = static_cast<Op>(i.opcode());
          if (op == Op::OpLoad && variables.contains(i.operand(0).AsId()))
            loads.insert(i.result_id());
          if (op == Op::OpCompositeExtract &&
              loads.contains(i.operand(0).AsId()))
            components.insert(i.result_id());
          if (op == Op::OpBitcast && components.contains(i.operand(0).AsId()))
            ++count;
        }
      }
    }
  }
  return count;
}

TEST(PoclContextBitcastGate, NoBitcastOfAContextBuiltInWhilePoclIsAvoided) {
  EXPECT_GT(ContextBitcasts(400, 0), 0) << "the seeds must hold such casts";
  EXPECT_EQ(ContextBitcasts(400, oracles::ConsumersOfTarget("opencl:Portable")),
            0);
}

}  // namespace
}  // namespace l0spv::generators::kernel
