// The generator's gates of PoCL's bugs, each counted over generated cases:
// ungated the construct is generated (so each count can fail), gated never.
//  - pocl_context_builtin_bitcast: no integer OpBitcast takes a component
//    loaded straight from a built-in PoCL keeps in its work-group context
//    (GenContext::work_group_context).
//  - pocl_vstorea_half3_fourth_lane: no vstorea_halfn of a 3-lane vector.
//  - pocl_vstore_half_wide_crash: no half store of 8 or 16 lanes.
//  - pocl_pow_nan: every pow/powr/native_powr/half_powr exponent is made
//    finite.
//  - pocl_s_abs_diff_overflow: s_abs_diff operands are halved.
//  - pocl_vector_div_select_zero_lane: guarded vector divisions run lane by
//    lane.
//  - pocl_loop_bound_narrow_vector_lane: no data-dependent loop bound from a
//    lane of a vector narrower than 32 bits.
#include "absl/container/flat_hash_map.h"
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

// Integer OpBitcasts of a context built-in's component in `seeds` cases.
int ContextBitcasts(uint64_t seeds, uint32_t avoid) {
  return SumOverGenerated(seeds, avoid, [&](const spirv::Module& generated) {
    int count = 0;
    const spirv::Module* module = &generated;
    absl::flat_hash_set<uint32_t> variables;  // the context built-ins
    for (const auto& [id, builtin] : DecoratedBuiltIns(*module)) {
      switch (builtin) {
        case BuiltIn::LocalInvocationId:
        case BuiltIn::WorkgroupId:
        case BuiltIn::NumWorkgroups:
        case BuiltIn::EnqueuedWorkgroupSize:
        case BuiltIn::WorkgroupSize:
        case BuiltIn::GlobalOffset:
        case BuiltIn::WorkDim:
          variables.insert(id);
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
          if (op == Op::OpBitcast &&
              (components.contains(i.operand(0).AsId()) ||
               loads.contains(i.operand(0).AsId())))  // WorkDim is scalar
            ++count;
        }
      }
    }
    return count;
  });
}

TEST(PoclContextBitcastGate, NoBitcastOfAContextBuiltInWhilePoclIsAvoided) {
  EXPECT_GT(ContextBitcasts(400, 0), 0) << "the seeds must hold such casts";
  EXPECT_EQ(ContextBitcasts(400, oracles::ConsumersOfTarget("opencl:Portable")),
            0);
}

// Half stores (vstore_halfn, vstorea_halfn and their _r forms) in `seeds`
// cases whose data has lanes `match` accepts, aligned ones only if
// `aligned_only`.
int HalfStores(uint64_t seeds, uint32_t avoid, bool aligned_only,
               bool (*match)(uint32_t lanes)) {
  return SumOverGenerated(seeds, avoid, [&](const spirv::Module& generated) {
    int count = 0;
    const spirv::Module* module = &generated;
    const spirv::TypeTable types(*module);
    absl::flat_hash_map<uint32_t, uint32_t> type_of;  // value id -> type id
    for (const spirv::Instruction& i : module->types_values)
      if (i.result_id() != 0) type_of[i.result_id()] = i.type_id();
    for (const spirv::Function& fn : module->functions) {
      for (const spirv::BasicBlock& bb : fn.blocks) {
        for (const spirv::Instruction& i : bb.instructions) {
          if (i.result_id() != 0) type_of[i.result_id()] = i.type_id();
          if (static_cast<Op>(i.opcode()) != Op::OpExtInst ||
              i.NumOperands() < 3)
            continue;
          const uint32_t number = i.operand(1).AsLiteral();
          const bool aligned = number == OpenCLLIB::Vstorea_halfn ||
                               number == OpenCLLIB::Vstorea_halfn_r;
          const bool unaligned = number == OpenCLLIB::Vstore_halfn ||
                                 number == OpenCLLIB::Vstore_halfn_r;
          if (!aligned && !(unaligned && !aligned_only)) continue;
          const spirv::TypeInfo* data = types.Get(type_of[i.operand(2).AsId()]);
          if (data != nullptr && data->op == spv::Op::OpTypeVector &&
              match(data->count))
            ++count;
        }
      }
    }
    return count;
  });
}

TEST(PoclVstoreaHalf3Gate, NoVstoreaHalf3WhilePoclIsAvoided) {
  const auto three = [](uint32_t lanes) { return lanes == 3; };
  EXPECT_GT(HalfStores(400, 0, true, three), 0)
      << "the seeds must hold such stores";
  EXPECT_EQ(HalfStores(400, oracles::ConsumersOfTarget("opencl:Portable"), true,
                       three),
            0);
}

// pocl_vstore_half_wide_crash: half stores of 8 or 16 lanes.
TEST(PoclVstoreHalfWideGate, NoWideHalfStoresWhilePoclIsAvoided) {
  const auto wide = [](uint32_t lanes) { return lanes >= 8; };
  EXPECT_GT(HalfStores(400, 0, false, wide), 0)
      << "the seeds must hold such stores";
  EXPECT_EQ(HalfStores(400, oracles::ConsumersOfTarget("opencl:Portable"),
                       false, wide),
            0);
}

// pocl_pow_nan: pow/powr whose y operand is not made finite (an OpSelect
// on OpIsFinite of it), in `seeds` cases.
int UnfilteredPowExponents(uint64_t seeds, uint32_t avoid) {
  return SumOverGenerated(seeds, avoid, [](const spirv::Module& module) {
    int count = 0;
    absl::flat_hash_set<uint32_t> finite_checks, made_finite;
    for (const spirv::Function& fn : module.functions) {
      for (const spirv::BasicBlock& bb : fn.blocks) {
        for (const spirv::Instruction& i : bb.instructions) {
          const Op op = static_cast<Op>(i.opcode());
          if (op == Op::OpIsFinite) finite_checks.insert(i.result_id());
          if (op == Op::OpSelect && finite_checks.contains(i.operand(0).AsId()))
            made_finite.insert(i.result_id());
          if (op != Op::OpExtInst || i.NumOperands() < 4) continue;
          const uint32_t number = i.operand(1).AsLiteral();
          if ((number == OpenCLLIB::Pow || number == OpenCLLIB::Powr ||
               number == OpenCLLIB::Native_powr ||
               number == OpenCLLIB::Half_powr) &&
              !made_finite.contains(i.operand(3).AsId()))
            ++count;
        }
      }
    }
    return count;
  });
}

TEST(PoclPowNanGate, PowExponentsAreFiniteWhilePoclIsAvoided) {
  EXPECT_GT(UnfilteredPowExponents(400, 0), 0)
      << "the seeds must hold such calls";
  EXPECT_EQ(UnfilteredPowExponents(
                400, oracles::ConsumersOfTarget("opencl:Portable")),
            0);
}

// pocl_s_abs_diff_overflow: s_abs_diff calls whose operands are not halved
// (OpShiftRightArithmetic results), in `seeds` cases.
int UnhalvedAbsDiffs(uint64_t seeds, uint32_t avoid) {
  return SumOverGenerated(seeds, avoid, [](const spirv::Module& module) {
    int count = 0;
    absl::flat_hash_set<uint32_t> halved;
    for (const spirv::Function& fn : module.functions) {
      for (const spirv::BasicBlock& bb : fn.blocks) {
        for (const spirv::Instruction& i : bb.instructions) {
          const Op op = static_cast<Op>(i.opcode());
          if (op == Op::OpShiftRightArithmetic) halved.insert(i.result_id());
          if (op == Op::OpExtInst && i.NumOperands() == 4 &&
              i.operand(1).AsLiteral() == OpenCLLIB::SAbs_diff &&
              !(halved.contains(i.operand(2).AsId()) &&
                halved.contains(i.operand(3).AsId())))
            ++count;
        }
      }
    }
    return count;
  });
}

TEST(PoclSAbsDiffGate, AbsDiffOperandsAreHalvedWhilePoclIsAvoided) {
  EXPECT_GT(UnhalvedAbsDiffs(400, 0), 0) << "the seeds must hold such calls";
  EXPECT_EQ(
      UnhalvedAbsDiffs(400, oracles::ConsumersOfTarget("opencl:Portable")), 0);
}

// pocl_vector_div_select_zero_lane: vector divisions and remainders whose
// divisor is an OpSelect (the division guard), in `seeds` cases.
int VectorDivisionsBySelect(uint64_t seeds, uint32_t avoid) {
  return SumOverGenerated(seeds, avoid, [](const spirv::Module& module) {
    int count = 0;
    const spirv::TypeTable types(module);
    absl::flat_hash_set<uint32_t> selects;
    for (const spirv::Function& fn : module.functions) {
      for (const spirv::BasicBlock& bb : fn.blocks) {
        for (const spirv::Instruction& i : bb.instructions) {
          const Op op = static_cast<Op>(i.opcode());
          if (op == Op::OpSelect) selects.insert(i.result_id());
          const bool division = op == Op::OpSDiv || op == Op::OpUDiv ||
                                op == Op::OpSRem || op == Op::OpUMod ||
                                op == Op::OpSMod;
          const spirv::TypeInfo* type = types.Get(i.type_id());
          if (division && type != nullptr && type->op == Op::OpTypeVector &&
              selects.contains(i.operand(1).AsId()))
            ++count;
        }
      }
    }
    return count;
  });
}

TEST(PoclVectorDivisionGate, NoVectorDivisionBySelectWhilePoclIsAvoided) {
  EXPECT_GT(VectorDivisionsBySelect(400, 0), 0)
      << "the seeds must hold such divisions";
  EXPECT_EQ(VectorDivisionsBySelect(
                400, oracles::ConsumersOfTarget("opencl:Portable")),
            0);
}

// Loop bounds (lane % trips) + 1 compared by OpULessThan, where the lane is
// a converted component of a vector narrower than 32 bits, in `seeds` cases.
int NarrowLaneLoopBounds(uint64_t seeds, uint32_t avoid) {
  return SumOverGenerated(seeds, avoid, [&](const spirv::Module& module) {
    int count = 0;
    const spirv::TypeTable types(module);
    absl::flat_hash_map<uint32_t, uint32_t> type_of;  // value id -> type id
    for (const spirv::Instruction& i : module.types_values)
      if (i.result_id() != 0) type_of[i.result_id()] = i.type_id();
    absl::flat_hash_set<uint32_t> lanes, converted, remainders, bounds;
    for (const spirv::Function& fn : module.functions) {
      for (const spirv::Instruction& p : fn.parameters)
        type_of[p.result_id()] = p.type_id();
      for (const spirv::BasicBlock& bb : fn.blocks) {
        for (const spirv::Instruction& i : bb.instructions) {
          if (i.result_id() != 0) type_of[i.result_id()] = i.type_id();
          if (i.NumOperands() < 1) continue;
          const uint32_t a = i.operand(0).AsId();
          switch (static_cast<Op>(i.opcode())) {
            case Op::OpCompositeExtract: {
              const spirv::TypeInfo* t = types.Get(type_of[a]);
              if (t != nullptr && t->op == Op::OpTypeVector &&
                  types.ScalarWidth(t->id) < 32)
                lanes.insert(i.result_id());
              break;
            }
            case Op::OpUConvert:
            case Op::OpSConvert:
              if (lanes.contains(a)) converted.insert(i.result_id());
              break;
            case Op::OpUMod:
              if (converted.contains(a)) remainders.insert(i.result_id());
              break;
            case Op::OpIAdd:
              if (remainders.contains(a)) bounds.insert(i.result_id());
              break;
            case Op::OpULessThan:
              if (i.NumOperands() > 1 && bounds.contains(i.operand(1).AsId()))
                ++count;
              break;
            default:
              break;
          }
        }
      }
    }
    return count;
  });
}

TEST(PoclLoopBoundGate, NoLoopBoundFromANarrowLaneWhilePoclIsAvoided) {
  EXPECT_GT(NarrowLaneLoopBounds(600, 0), 0)
      << "the seeds must hold such bounds";
  EXPECT_EQ(
      NarrowLaneLoopBounds(600, oracles::ConsumersOfTarget("opencl:Portable")),
      0);
}

}  // namespace
}  // namespace l0spv::generators::kernel
