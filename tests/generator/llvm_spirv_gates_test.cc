// The generator's gates of llvm-spirv's bugs, each counted over generated
// cases: ungated the construct is generated (so each count can fail), gated
// never.
//  - llvm_spirv_phi_rounding_conversion: no OpPhi reads a conversion
//    decorated FPRoundingMode or SaturatedConversion that is defined in a
//    later block (a loop header's back edge): the round trip drops that
//    definition (GenContext::decorated_conversions).
//  - llvm_spirv_dpcpp_vector_from_vectors: no vector OpCompositeConstruct
//    has a vector constituent while llvm-spirv is avoided.
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "gtest/gtest.h"
#include "oracles/known_bugs/consumers.h"
#include "oracles/targets/target_kinds.h"
#include "spirv/type_table.h"
#include "spirv/unified1/spirv.hpp11"
#include "tests/generator/count_generated.h"

namespace l0spv::generators::kernel {
namespace {

using spv::Decoration;
using spv::Op;

// OpPhi operands, in `seeds` cases, naming a conversion decorated
// FPRoundingMode or SaturatedConversion defined in a later block, from
// seed `first` on.
int PhisReadingLaterDecoratedConversions(uint64_t seeds, uint32_t avoid,
                                         uint64_t first) {
  return SumOverGenerated(
      seeds, avoid,
      [](const spirv::Module& module) {
        absl::flat_hash_set<uint32_t> decorated;
        for (const spirv::Instruction& i : module.annotations) {
          if (static_cast<Op>(i.opcode()) != Op::OpDecorate ||
              i.NumOperands() < 2)
            continue;
          const auto d = static_cast<Decoration>(i.operand(1).AsLiteral());
          if (d == Decoration::FPRoundingMode ||
              d == Decoration::SaturatedConversion)
            decorated.insert(i.operand(0).AsId());
        }
        int count = 0;
        for (const spirv::Function& fn : module.functions) {
          absl::flat_hash_map<uint32_t, size_t> block_of;  // result -> block
          for (size_t b = 0; b < fn.blocks.size(); ++b)
            for (const spirv::Instruction& i : fn.blocks[b].instructions)
              if (i.result_id() != 0) block_of[i.result_id()] = b;
          for (size_t b = 0; b < fn.blocks.size(); ++b) {
            for (const spirv::Instruction& i : fn.blocks[b].instructions) {
              if (static_cast<Op>(i.opcode()) != Op::OpPhi) continue;
              for (size_t k = 0; k + 1 < i.NumOperands(); k += 2) {
                const uint32_t value = i.operand(k).AsId();
                const auto at = block_of.find(value);
                if (decorated.contains(value) && at != block_of.end() &&
                    at->second > b)
                  ++count;
              }
            }
          }
        }
        return count;
      },
      first);
}

TEST(LlvmSpirvPhiConversionGate, NoPhiReadsALaterDecoratedConversion) {
  // The construct is rare (about 1 case in 1,400): seeds 2000..5999 hold 5.
  EXPECT_GT(PhisReadingLaterDecoratedConversions(4000, 0, 2000), 0)
      << "the seeds must hold such phis";
  EXPECT_EQ(PhisReadingLaterDecoratedConversions(
                4000, oracles::ConsumersOfTarget("llvm-spirv"), 2000),
            0);
}

// Vector OpCompositeConstructs with a vector constituent in `seeds` cases.
int VectorsFromVectors(uint64_t seeds, uint32_t avoid) {
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
    const auto is_vector = [&](uint32_t type) {
      const spirv::TypeInfo* info = types.Get(type);
      return info != nullptr && info->op == Op::OpTypeVector;
    };
    int count = 0;
    for (const spirv::Function& fn : module.functions)
      for (const spirv::BasicBlock& bb : fn.blocks)
        for (const spirv::Instruction& i : bb.instructions) {
          if (static_cast<Op>(i.opcode()) != Op::OpCompositeConstruct ||
              !is_vector(i.type_id()))
            continue;
          for (size_t k = 0; k < i.NumOperands(); ++k) {
            const auto at = type_of.find(i.operand(k).AsId());
            if (at != type_of.end() && is_vector(at->second)) {
              ++count;
              break;
            }
          }
        }
    return count;
  });
}

TEST(LlvmSpirvDpcppVectorFromVectorsGate, NoVectorBuiltFromVectors) {
  EXPECT_GT(VectorsFromVectors(300, 0), 0) << "the seeds must hold them";
  EXPECT_EQ(VectorsFromVectors(300, oracles::ConsumersOfTarget("llvm-spirv")),
            0);
  // Intel's CPU runtime reads SPIR-V with the same translator.
  EXPECT_EQ(VectorsFromVectors(
                300, oracles::ConsumersOfTarget("opencl:Intel(R) OpenCL")),
            0);
  // Another consumer's cases keep the construct.
  EXPECT_GT(VectorsFromVectors(300, oracles::ConsumersOfTarget("spirv-opt")),
            0);
}

}  // namespace
}  // namespace l0spv::generators::kernel
