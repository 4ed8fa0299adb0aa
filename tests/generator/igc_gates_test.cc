// The generator's gates of IGC's bugs. First igc_logical_or_self and
// igc_logical_or_alias:
// while IGC's bugs are avoided, no OpLogicalOr joins two bools with one
// root, where a logical op of x with a constant (x == true, x != false,
// x && true, x || false; an integer comparison of a value with itself,
// x <= x, and a float one, y != y, are constants too), x && x and c ? x : x
// are rooted at x, as IGC folds them (GenContext::BoolRoot). Without the gate
// such ORs are generated, so the count below can fail.
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/target_kinds.h"
#include "spirv/opcode_traits.h"
#include "spirv/type_table.h"
#include "spirv/unified1/spirv.hpp11"
#include "tests/generator/count_generated.h"

namespace l0spv::generators::kernel {
namespace {

using spv::Op;

bool IsLogical(uint32_t opcode) {
  const Op op = static_cast<Op>(opcode);
  return op == Op::OpLogicalOr || op == Op::OpLogicalAnd ||
         op == Op::OpLogicalEqual || op == Op::OpLogicalNotEqual;
}

// Integer and float comparisons: of a value with itself, a constant to
// IGC (or isnan(x), taken as one too).
bool IsCompare(uint32_t opcode) {
  const Op op = static_cast<Op>(opcode);
  return op == Op::OpIEqual || op == Op::OpINotEqual ||
         op == Op::OpUGreaterThan || op == Op::OpSGreaterThan ||
         op == Op::OpUGreaterThanEqual || op == Op::OpSGreaterThanEqual ||
         op == Op::OpULessThan || op == Op::OpSLessThan ||
         op == Op::OpULessThanEqual || op == Op::OpSLessThanEqual ||
         (op >= Op::OpFOrdEqual && op <= Op::OpFUnordGreaterThanEqual) ||
         op == Op::OpLessOrGreater || op == Op::OpOrdered ||
         op == Op::OpUnordered;
}

// OpLogicalOr instructions of `seeds` cases whose operands share a root.
int SameRootOrs(uint64_t seeds, uint32_t avoid) {
  return SumOverGenerated(seeds, avoid, [&](const spirv::Module& generated) {
    int count = 0;
    const spirv::Module* module = &generated;
    absl::flat_hash_set<uint32_t> constants;
    for (const spirv::Instruction& i : module->types_values)
      if (spirv::OpcodeClass(i.opcode()) == "Constant-Creation")
        constants.insert(i.result_id());
    absl::flat_hash_map<uint32_t, uint32_t> roots;
    const auto root = [&](uint32_t id) {
      const auto it = roots.find(id);
      return it == roots.end() ? id : it->second;
    };
    for (const spirv::Function& fn : module->functions) {
      for (const spirv::BasicBlock& bb : fn.blocks) {
        for (const spirv::Instruction& i : bb.instructions) {
          // x <= x, y != y and the like: a constant to IGC.
          if (IsCompare(i.opcode()) &&
              i.operand(0).AsId() == i.operand(1).AsId()) {
            constants.insert(i.result_id());
            continue;
          }
          // c ? x : alias-of-x is x.
          if (static_cast<Op>(i.opcode()) == Op::OpSelect &&
              root(i.operand(1).AsId()) == root(i.operand(2).AsId())) {
            roots[i.result_id()] = root(i.operand(1).AsId());
            continue;
          }
          if (!IsLogical(i.opcode()) || i.NumOperands() != 2) continue;
          const uint32_t a = i.operand(0).AsId(), b = i.operand(1).AsId();
          const bool same = root(a) == root(b);
          const Op op = static_cast<Op>(i.opcode());
          if (op == Op::OpLogicalOr && same) ++count;
          if (constants.contains(b)) {
            roots[i.result_id()] = root(a);
          } else if (constants.contains(a)) {
            roots[i.result_id()] = root(b);
          } else if (same &&
                     (op == Op::OpLogicalAnd || op == Op::OpLogicalOr)) {
            roots[i.result_id()] = root(a);
          }
        }
      }
    }
    return count;
  });
}

TEST(IgcLogicalOrGate, NoOrOfTwoBoolsWithOneRootWhileIgcIsAvoided) {
  EXPECT_GT(SameRootOrs(1000, 0), 0) << "the seeds must hold such ORs ungated";
  EXPECT_EQ(SameRootOrs(3000, oracles::ConsumersOfTarget("ocloc:tgllp")), 0);
}

// Function variables holding arrays of 8-bit vectors
// (igc_pvc_char3_array_store, igc_pvc_int8_vector_array_element_store: ocloc
// -device pvc rejects some uses of them; the gate gives such arrays 16-bit
// lanes).
int Int8VectorArrays(uint64_t seeds, uint32_t avoid) {
  return CountGenerated(
      seeds, avoid,
      [](const spirv::TypeTable& types, const spirv::Instruction& i) {
        if (static_cast<Op>(i.opcode()) != Op::OpVariable) return false;
        const spirv::TypeInfo* ptr = types.Get(i.type_id());
        const spirv::TypeInfo* array = ptr ? types.Get(ptr->element) : nullptr;
        if (array == nullptr || array->op != Op::OpTypeArray) return false;
        const spirv::TypeInfo* element = types.Get(array->element);
        return element != nullptr && element->op == Op::OpTypeVector &&
               types.ScalarWidth(array->element) == 8;
      });
}

TEST(IgcPvcInt8VectorArrayGate, NoArraysOf8BitVectorsWhileIgcIsAvoided) {
  EXPECT_GT(Int8VectorArrays(300, 0), 0) << "the seeds must hold such arrays";
  EXPECT_EQ(Int8VectorArrays(300, oracles::ConsumersOfTarget("ocloc:pvc")), 0);
}

// OpVectorExtractDynamic on a vector of 8-bit (or, with `bools`, bool)
// lanes in `seeds` cases: ocloc -device pvc rejects them (the family of
// igc_pvc_int8_vector_array_element_store; IGC keeps bools in 8 bits).
int DynamicInt8LaneReads(uint64_t seeds, uint32_t avoid, bool bools = false) {
  return CountGenerated(
      seeds, avoid,
      [&](const spirv::TypeTable& types, const spirv::Instruction& i) {
        if (static_cast<Op>(i.opcode()) != Op::OpVectorExtractDynamic)
          return false;
        const spirv::TypeInfo* lane = types.Get(i.type_id());
        if (lane == nullptr) return false;
        if (bools) return lane->op == Op::OpTypeBool;
        return lane->op == Op::OpTypeInt && lane->width == 8;
      });
}

TEST(IgcPvcInt8VectorLaneGate, NoRunTimeLaneOf8BitVectorsWhileIgcIsAvoided) {
  const uint32_t igc = oracles::ConsumersOfTarget("ocloc:pvc");
  EXPECT_GT(DynamicInt8LaneReads(300, 0), 0)
      << "the seeds must hold such reads";
  EXPECT_EQ(DynamicInt8LaneReads(300, igc), 0);
  EXPECT_GT(DynamicInt8LaneReads(600, 0, true), 0)
      << "the seeds must hold bool lane reads";
  EXPECT_EQ(DynamicInt8LaneReads(600, igc, true), 0);
}

// OpDots of vectors of more than 4 components in `seeds` cases:
// igc_dot_wide_vectors (IGC, PoCL and Intel's CPU runtime lack dot()
// beyond 4 components).
int WideDots(uint64_t seeds, uint32_t avoid) {
  return SumOverGenerated(seeds, avoid, [](const spirv::Module& module) {
    const spirv::TypeTable types(module);
    absl::flat_hash_map<uint32_t, uint32_t> type_of;  // result -> type
    const auto note = [&](const spirv::Instruction& i) {
      if (i.result_id() != 0 && i.type_id() != 0)
        type_of[i.result_id()] = i.type_id();
    };
    for (const spirv::Instruction& i : module.types_values) note(i);
    for (const spirv::Function& fn : module.functions) {
      for (const spirv::Instruction& p : fn.parameters) note(p);
      for (const spirv::BasicBlock& bb : fn.blocks)
        for (const spirv::Instruction& i : bb.instructions) note(i);
    }
    int count = 0;
    for (const spirv::Function& fn : module.functions)
      for (const spirv::BasicBlock& bb : fn.blocks)
        for (const spirv::Instruction& i : bb.instructions) {
          if (static_cast<Op>(i.opcode()) != Op::OpDot || i.NumOperands() < 1)
            continue;
          const auto at = type_of.find(i.operand(0).AsId());
          const spirv::TypeInfo* vec =
              at == type_of.end() ? nullptr : types.Get(at->second);
          if (vec != nullptr && vec->count > 4) ++count;
        }
    return count;
  });
}

TEST(IgcDotWideVectorsGate, NoDotBeyondFourComponentsForItsConsumers) {
  EXPECT_GT(WideDots(300, 0), 0) << "the seeds must hold such dots";
  for (const char* target : {"ocloc:tgllp", "opencl", "opencl:Intel(R) OpenCL"})
    EXPECT_EQ(WideDots(300, oracles::ConsumersOfTarget(target)), 0) << target;
  // A consumer without the bug keeps them.
  EXPECT_GT(WideDots(300, oracles::ConsumersOfTarget("spirv-opt")), 0);
}

}  // namespace
}  // namespace l0spv::generators::kernel
