// The generator's gates of the bugs of Intel's OpenCL CPU runtime, each
// counted over generated cases: ungated the construct is generated (so each
// count can fail), gated never — and the gates hold only for that runtime
// (a campaign on PoCL or IGC still sends the constructs).
//  - intel_cpu_linear_id_builtins: no LocalInvocationIndex, GlobalLinearId
//    or EnqueuedWorkgroupSize variable.
//  - intel_cpu_mul_extended: no OpSMulExtended / OpUMulExtended.
//  - intel_cpu_insert_dynamic_across_barrier: no OpVectorInsertDynamic (the
//    insert is built lane by lane).
//  - intel_cpu_fnegate_across_barrier: no OpFNegate.
//  - intel_cpu_step_nan_subgroup_kernel: step's operands pass through
//    Finite (a select on OpIsFinite) first.
//  - intel_cpu_zero_array_dynamic_read: no private array variable whose
//    initial value (initializer or stored null) is all zero.
#include "absl/container/flat_hash_set.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/target_kinds.h"
#include "spirv/type_table.h"
#include "spirv/unified1/OpenCL.std.h"
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

int Negations(uint64_t seeds, uint32_t avoid) {
  return CountGenerated(
      seeds, avoid, [](const spirv::TypeTable&, const spirv::Instruction& i) {
        return static_cast<Op>(i.opcode()) == Op::OpFNegate;
      });
}

TEST(IntelCpuGates, NoNegationWhileTheRuntimeIsAvoided) {
  EXPECT_GT(Negations(200, 0), 0) << "the seeds must hold negations";
  EXPECT_EQ(Negations(200, kIntel), 0);
  EXPECT_GT(Negations(200, oracles::ConsumersOfTarget("ocloc:tgllp")), 0);
}

// step calls with an operand that is not select(isfinite(v), v, 0).
int UnguardedSteps(uint64_t seeds, uint32_t avoid) {
  return SumOverGenerated(seeds, avoid, [](const spirv::Module& module) {
    int count = 0;
    absl::flat_hash_set<uint32_t> finite_tests, finite;
    for (const spirv::Function& fn : module.functions) {
      for (const spirv::BasicBlock& bb : fn.blocks) {
        for (const spirv::Instruction& i : bb.instructions) {
          const Op op = static_cast<Op>(i.opcode());
          if (op == Op::OpIsFinite) finite_tests.insert(i.result_id());
          if (op == Op::OpSelect && finite_tests.contains(i.operand(0).AsId()))
            finite.insert(i.result_id());
          if (op == Op::OpExtInst && i.NumOperands() == 4 &&
              i.operand(1).AsLiteral() == OpenCLLIB::Step &&
              (!finite.contains(i.operand(2).AsId()) ||
               !finite.contains(i.operand(3).AsId())))
            ++count;
        }
      }
    }
    return count;
  });
}

TEST(IntelCpuGates, StepOperandsAreFiniteWhileTheRuntimeIsAvoided) {
  EXPECT_GT(UnguardedSteps(600, 0), 0) << "the seeds must hold step calls";
  EXPECT_EQ(UnguardedSteps(600, kIntel), 0);
}

TEST(IntelCpuGates, NoDynamicInsertWhileTheRuntimeIsAvoided) {
  EXPECT_GT(InsertDynamic(400, 0), 0) << "the seeds must hold such inserts";
  EXPECT_EQ(InsertDynamic(400, kIntel), 0);
  EXPECT_GT(InsertDynamic(400, oracles::ConsumersOfTarget("spirv-opt")), 0);
}

// Private arrays that start all zero: an OpStore of an OpConstantNull array
// or a Function OpVariable initialized with one (RandomConstant composites
// are not inspected: the gate makes their first element non-zero).
int ZeroArrays(uint64_t seeds, uint32_t avoid) {
  return SumOverGenerated(seeds, avoid, [](const spirv::Module& module) {
    const spirv::TypeTable types(module);
    absl::flat_hash_set<uint32_t> null_arrays;
    for (const spirv::Instruction& i : module.types_values) {
      if (static_cast<Op>(i.opcode()) != Op::OpConstantNull) continue;
      const spirv::TypeInfo* t = types.Get(i.type_id());
      if (t != nullptr && t->op == Op::OpTypeArray)
        null_arrays.insert(i.result_id());
    }
    int count = 0;
    for (const spirv::Function& fn : module.functions) {
      for (const spirv::BasicBlock& bb : fn.blocks) {
        for (const spirv::Instruction& i : bb.instructions) {
          const Op op = static_cast<Op>(i.opcode());
          if (op == Op::OpStore && null_arrays.contains(i.operand(1).AsId()))
            ++count;
          if (op == Op::OpVariable && i.NumOperands() > 1 &&
              null_arrays.contains(i.operand(1).AsId()))
            ++count;
        }
      }
    }
    return count;
  });
}

TEST(IntelCpuGates, NoZeroPrivateArrayWhileTheRuntimeIsAvoided) {
  EXPECT_GT(ZeroArrays(300, 0), 0) << "the seeds must hold such arrays";
  EXPECT_EQ(ZeroArrays(300, kIntel), 0);
  EXPECT_GT(ZeroArrays(300, oracles::ConsumersOfTarget("ocloc:tgllp")), 0);
}

}  // namespace
}  // namespace l0spv::generators::kernel
