// The generator's gates of the bugs of Intel's OpenCL CPU runtime, each
// counted over generated cases: ungated the construct is generated (so each
// count can fail), gated never — and the gates hold only for that runtime
// (a campaign on PoCL or IGC still sends the constructs).
//  - intel_cpu_linear_id_builtins: no LocalInvocationIndex, GlobalLinearId
//    or EnqueuedWorkgroupSize variable.
//  - intel_cpu_mul_extended: no OpSMulExtended / OpUMulExtended.
//  - intel_cpu_insert_dynamic_across_barrier: no OpVectorInsertDynamic (the
//    insert is built lane by lane).
#include "gtest/gtest.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/target_kinds.h"
#include "spirv/unified1/spirv.hpp11"
#include "tests/generator/count_generated.h"

namespace l0spv::generators::kernel {
namespace {

using spv::BuiltIn;
using spv::Op;

int LinearIdBuiltIns(uint64_t seeds, uint32_t avoid) {
  return SumOverGenerated(seeds, avoid, [](const spirv::Module& module) {
    int count = 0;
    for (const auto& [id, builtin] : DecoratedBuiltIns(module)) {
      count += builtin == BuiltIn::LocalInvocationIndex ||
               builtin == BuiltIn::GlobalLinearId ||
               builtin == BuiltIn::EnqueuedWorkgroupSize;
    }
    return count;
  });
}

int MulExtended(uint64_t seeds, uint32_t avoid) {
  return CountGenerated(
      seeds, avoid, [](const spirv::TypeTable&, const spirv::Instruction& i) {
        const Op op = static_cast<Op>(i.opcode());
        return op == Op::OpSMulExtended || op == Op::OpUMulExtended;
      });
}

const uint32_t kIntel = oracles::ConsumersOfTarget("opencl:Intel(R) OpenCL");

TEST(IntelCpuGates, TheRuntimeIsAFamilyOfItsOwn) {
  EXPECT_EQ(kIntel, oracles::kConsumerIntelCpu);
}

TEST(IntelCpuGates, NoLinearIdBuiltInWhileTheRuntimeIsAvoided) {
  EXPECT_GT(LinearIdBuiltIns(200, 0), 0) << "the seeds must hold such loads";
  EXPECT_EQ(LinearIdBuiltIns(200, kIntel), 0);
  // Another consumer's campaign still sends them.
  EXPECT_GT(LinearIdBuiltIns(200, oracles::ConsumersOfTarget("ocloc:tgllp")),
            0);
}

TEST(IntelCpuGates, NoExtendedMultiplyWhileTheRuntimeIsAvoided) {
  EXPECT_GT(MulExtended(400, 0), 0) << "the seeds must hold such multiplies";
  EXPECT_EQ(MulExtended(400, kIntel), 0);
}

int InsertDynamic(uint64_t seeds, uint32_t avoid) {
  return CountGenerated(
      seeds, avoid, [](const spirv::TypeTable&, const spirv::Instruction& i) {
        return static_cast<Op>(i.opcode()) == Op::OpVectorInsertDynamic;
      });
}

TEST(IntelCpuGates, NoDynamicInsertWhileTheRuntimeIsAvoided) {
  EXPECT_GT(InsertDynamic(400, 0), 0) << "the seeds must hold such inserts";
  EXPECT_EQ(InsertDynamic(400, kIntel), 0);
  EXPECT_GT(InsertDynamic(400, oracles::ConsumersOfTarget("spirv-opt")), 0);
}

}  // namespace
}  // namespace l0spv::generators::kernel
