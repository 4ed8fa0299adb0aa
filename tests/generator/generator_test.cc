// Tests of generators/kernel: determinism, validity by construction, clean
// reference runs, profiles, tolerances and the coverage table.
#include "generators/kernel/generator.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "generators/kernel/opcode_stats.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/compare/compare.h"
#include "oracles/reference/interpreter.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"
#include "spirv/type_table.h"
#include "spirv/unified1/OpenCL.std.h"
#include "spirv/unified1/spirv.hpp11"
#include "tests/generator/count_generated.h"
#include "tests/generator/same_results.h"

namespace l0spv::generators::kernel {
namespace {

using ::testing::HasSubstr;

spirv::TestCase Generate(uint64_t seed, const std::string& profile = "full") {
  GeneratorOptions options;
  options.seed = seed;
  options.profile = profile;
  auto tc = GenerateTestCase(options);
  EXPECT_TRUE(tc.ok()) << tc.status();
  return tc.ok() ? *tc : spirv::TestCase{};
}

TEST(GeneratorTest, SameSeedGivesIdenticalCase) {
  for (uint64_t seed : {0u, 7u, 12345u}) {
    const spirv::TestCase a = Generate(seed);
    const spirv::TestCase b = Generate(seed);
    EXPECT_EQ(a.module_words, b.module_words);
    EXPECT_EQ(spirv::TestCaseToJson(a), spirv::TestCaseToJson(b));
    ASSERT_EQ(a.args.size(), b.args.size());
    for (size_t i = 0; i < a.args.size(); ++i)
      EXPECT_EQ(a.args[i].bytes, b.args[i].bytes);
  }
}

TEST(GeneratorTest, DifferentSeedsGiveDifferentModules) {
  EXPECT_NE(Generate(1).module_words, Generate(2).module_words);
}

TEST(GeneratorTest, UnknownProfileIsInvalidArgument) {
  GeneratorOptions options;
  options.profile = "no-such-device";
  auto tc = GenerateTestCase(options);
  ASSERT_FALSE(tc.ok());
  EXPECT_EQ(tc.status().code(), absl::StatusCode::kInvalidArgument);
}

// Every module passes spirv-val and the Level Zero rules of its profile.
void ExpectValid(const std::string& profile_name, uint64_t first,
                 uint64_t count) {
  auto profile = oracles::FindDeviceProfile(profile_name);
  ASSERT_TRUE(profile.ok());
  for (uint64_t seed = first; seed < first + count; ++seed) {
    const spirv::TestCase tc = Generate(seed, profile_name);
    auto module = spirv::ReadModuleWords(tc.module_words);
    ASSERT_TRUE(module.ok()) << "seed " << seed << ": " << module.status();
    const oracles::LintReport report = oracles::LintModule(*module, *profile);
    EXPECT_TRUE(report.ok())
        << "seed " << seed << " profile " << profile_name << "\n"
        << report.ToText();
  }
}

TEST(GeneratorTest, ModulesAreValidForFullProfile) {
  ExpectValid("full", 0, 300);
}
TEST(GeneratorTest, ModulesAreValidForBaselineProfile) {
  ExpectValid("baseline", 1000, 150);
}
TEST(GeneratorTest, ModulesAreValidForDeviceProfiles) {
  ExpectValid("tgllp", 2000, 60);
  ExpectValid("pvc", 3000, 60);
}

TEST(GeneratorTest, BaselineNeverUsesOptionalCapabilities) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const spirv::TestCase tc = Generate(seed, "baseline");
    auto module = spirv::ReadModuleWords(tc.module_words);
    ASSERT_TRUE(module.ok());
    for (const spirv::Instruction& cap : module->capabilities) {
      const auto c = static_cast<spv::Capability>(cap.word(0));
      EXPECT_NE(c, spv::Capability::Float16) << "seed " << seed;
      EXPECT_NE(c, spv::Capability::Float64) << "seed " << seed;
      EXPECT_NE(c, spv::Capability::Int64Atomics) << "seed " << seed;
    }
  }
}

// Every case runs to completion on the reference with no undefined
// behaviour, and the reference is deterministic on it.
TEST(GeneratorTest, CasesRunCleanOnReference) {
  oracles::reference::ReferenceOptions options;
  options.check_races = true;
  options.check_uninitialized = true;
  for (uint64_t seed = 500; seed < 700; ++seed) {
    const spirv::TestCase tc = Generate(seed);
    const oracles::Execution a = oracles::reference::RunReference(tc, options);
    ASSERT_EQ(a.status, oracles::ExecutionStatus::kOk)
        << "seed " << seed << ": " << a.message;
    // A permuted schedule gives the same results: no order dependence.
    options.schedule_seed = seed;
    const oracles::Execution b = oracles::reference::RunReference(tc, options);
    options.schedule_seed.reset();
    const oracles::CompareResult r =
        oracles::CompareExecutions(tc, a, b, oracles::CompareOptionsFor(tc));
    EXPECT_TRUE(r.equal) << "seed " << seed << ": " << r.explanation;
  }
}

// Subgroup operations are emitted only in forms whose results do not depend
// on the device's subgroup size: every case that uses one gives the same
// buffers with subgroups of 1, 4, 8, 16 and 32 work-items.
TEST(GeneratorTest, SubgroupResultsDoNotDependOnTheSubgroupSize) {
  int with_subgroup_ops = 0;
  int with_non_uniform = 0;  // SPIR-V 1.3's OpGroupNonUniform*
  for (uint64_t seed = 0;
       seed < 2000 && (with_subgroup_ops < 25 || with_non_uniform < 10);
       ++seed) {
    GeneratorOptions g;
    g.seed = seed;
    g.avoid_known_bugs = 0;
    auto tc = GenerateTestCase(g);
    ASSERT_TRUE(tc.ok()) << tc.status();
    auto m = spirv::ReadModuleWords(tc->module_words);
    ASSERT_TRUE(m.ok());
    bool uses = false;
    bool non_uniform = false;
    for (const spirv::Function& f : m->functions)
      for (const spirv::BasicBlock& b : f.blocks)
        for (const spirv::Instruction& inst : b.instructions) {
          const std::string_view name = inst.name();
          non_uniform = non_uniform || name.starts_with("OpGroupNonUniform");
          uses = uses || name.find("SubgroupShuffle") != name.npos;
          if (name.rfind("OpGroup", 0) == 0 && inst.NumOperands() > 0) {
            // Scope operand: a constant 3 (Subgroup).
            for (const spirv::Instruction& c : m->types_values)
              if (c.result_id() == inst.word(0) && c.NumOperands() == 1 &&
                  c.word(0) == 3)
                uses = true;
          }
        }
    if (!uses) continue;
    if (with_subgroup_ops >= 25 && !non_uniform) continue;
    ++with_subgroup_ops;
    if (non_uniform) ++with_non_uniform;
    oracles::reference::ReferenceOptions options;
    options.subgroup_size = 1;
    std::vector<std::pair<std::string, oracles::reference::ReferenceOptions>>
        sizes;
    for (uint32_t size : {4u, 8u, 16u, 32u}) {
      oracles::reference::ReferenceOptions o;
      o.subgroup_size = size;
      sizes.emplace_back(absl::StrCat("subgroup size ", size), o);
    }
    ExpectSameResults(*tc, absl::StrCat("seed ", seed), options, sizes);
  }
  EXPECT_GE(with_subgroup_ops, 25);
  EXPECT_GE(with_non_uniform, 10);
}

// The swarm features that shape the kernel's interface and CFG appear:
// a __constant (UniformConstant) input buffer, a struct argument by value
// (FuncParamAttr ByVal pointer) whose bytes fill the struct, and
// conditional branches without a merge instruction (unstructured CFG).
TEST(GeneratorTest, InterfaceAndCfgFeaturesAppear) {
  int constant_inputs = 0, struct_args = 0, merge_less_branches = 0;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const spirv::TestCase tc = Generate(seed);
    auto module = spirv::ReadModuleWords(tc.module_words);
    ASSERT_TRUE(module.ok());
    absl::flat_hash_map<uint32_t, uint32_t> pointer_storage;
    for (const spirv::Instruction& inst : module->types_values) {
      if (inst.opcode() == static_cast<uint32_t>(spv::Op::OpTypePointer))
        pointer_storage[inst.result_id()] = inst.word(0);
    }
    for (const spirv::Instruction& d : module->annotations) {
      if (d.opcode() == static_cast<uint32_t>(spv::Op::OpDecorate) &&
          d.word(1) == static_cast<uint32_t>(spv::Decoration::FuncParamAttr) &&
          d.word(2) == 2 /* ByVal */)
        ++struct_args;
    }
    ASSERT_FALSE(module->entry_points.empty());
    const spirv::Function* kernel =
        module->FindFunction(module->entry_points[0].word(1));
    ASSERT_NE(kernel, nullptr);
    for (size_t i = 0; i < kernel->parameters.size(); ++i) {
      const spirv::Instruction& p = kernel->parameters[i];
      if (pointer_storage[p.type_id()] ==
          static_cast<uint32_t>(spv::StorageClass::UniformConstant))
        ++constant_inputs;
      if (tc.args[i].type == "struct") {
        EXPECT_EQ(tc.args[i].kind, spirv::KernelArg::Kind::kScalar);
        EXPECT_EQ(pointer_storage[p.type_id()],
                  static_cast<uint32_t>(spv::StorageClass::Function));
      }
    }
    for (const spirv::Function& f : module->functions) {
      for (const spirv::BasicBlock& b : f.blocks) {
        const auto& insts = b.instructions;
        if (insts.empty() ||
            insts.back().opcode() !=
                static_cast<uint32_t>(spv::Op::OpBranchConditional))
          continue;
        const uint32_t before =
            insts.size() > 1 ? insts[insts.size() - 2].opcode() : 0;
        if (before != static_cast<uint32_t>(spv::Op::OpSelectionMerge) &&
            before != static_cast<uint32_t>(spv::Op::OpLoopMerge))
          ++merge_less_branches;
      }
    }
  }
  EXPECT_GT(constant_inputs, 0);
  EXPECT_GT(struct_args, 0);
  EXPECT_GT(merge_less_branches, 0);
}

TEST(GeneratorTest, FloatResultsCarryTolerances) {
  size_t with_tolerances = 0;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const spirv::TestCase tc = Generate(seed);
    for (const spirv::ResultTolerance& t : tc.tolerances) {
      ++with_tolerances;
      ASSERT_LT(t.arg, tc.args.size());
      EXPECT_TRUE(tc.args[t.arg].is_result);
      EXPECT_GT(t.record, 0u);
      EXPECT_FALSE(t.fields.empty());
      for (uint64_t f : t.fields) EXPECT_LT(f, t.record);
      EXPECT_GT(t.absolute, 0);  // flush-to-zero allowance
    }
  }
  EXPECT_GT(with_tolerances, 0u);
}

// OpFRem and OpFMod are undefined for a zero divisor: every divisor the
// generator gives them is an OpSelect of `divisor == 0` (and 1 in its
// place), and there are such instructions to check.
TEST(GeneratorTest, FloatRemainderDivisorsAreNeverZero) {
  int remainders = 0;
  int unguarded = SumOverGenerated(300, 0, [&](const spirv::Module& module) {
    int bad = 0;
    for (const spirv::Function& fn : module.functions) {
      absl::flat_hash_map<uint32_t, const spirv::Instruction*> def;
      for (const spirv::BasicBlock& bb : fn.blocks)
        for (const spirv::Instruction& i : bb.instructions)
          if (i.result_id() != 0) def[i.result_id()] = &i;
      const auto is = [&](uint32_t id, spv::Op op) {
        const auto at = def.find(id);
        return at != def.end() && spirv::Is(*at->second, op);
      };
      for (const spirv::BasicBlock& bb : fn.blocks)
        for (const spirv::Instruction& i : bb.instructions) {
          if (!spirv::Is(i, spv::Op::OpFRem) && !spirv::Is(i, spv::Op::OpFMod))
            continue;
          ++remainders;
          const uint32_t y = i.operand(1).AsId();
          if (!is(y, spv::Op::OpSelect) ||
              !is(def[y]->operand(0).AsId(), spv::Op::OpFOrdEqual))
            ++bad;
        }
    }
    return bad;
  });
  EXPECT_GT(remainders, 0) << "the seeds must hold OpFRem or OpFMod";
  EXPECT_EQ(unguarded, 0);
}

bool IsVectorOf(const spirv::TypeTable& types, uint32_t type_id,
                uint32_t min_bits) {
  const spirv::TypeInfo* t = types.Get(type_id);
  const spirv::TypeInfo* e = t ? types.Get(t->element) : nullptr;
  return t && e && t->op == spv::Op::OpTypeVector &&
         t->count * std::max(e->width, 1u) >= min_bits;
}

// remquo / sincos calls whose value is a vector of 512 bits or more
// (pocl_wide_vector_math).
int WideOutPointerCalls(uint64_t seeds, uint32_t avoid) {
  return CountGenerated(
      seeds, avoid,
      [](const spirv::TypeTable& types, const spirv::Instruction& i) {
        if (!spirv::Is(i, spv::Op::OpExtInst)) return false;
        const uint32_t n = i.operand(1).AsLiteral();
        return (n == OpenCLLIB::Remquo || n == OpenCLLIB::Sincos) &&
               IsVectorOf(types, i.type_id(), 512);
      });
}

TEST(GeneratorTest, WideRemquoAndSincosOnlyWhenPoclIsNotAvoided) {
  EXPECT_EQ(WideOutPointerCalls(1000, oracles::kAllConsumers), 0);
  EXPECT_GT(WideOutPointerCalls(1000, 0), 0);
}

// oclgrind_bool_vector_not: a vector OpLogicalNot only when Oclgrind's bugs
// are allowed (IGC's logical_not gates every OpLogicalNot, so it stays
// allowed here).
TEST(GeneratorTest, VectorLogicalNotOnlyWhenOclgrindIsNotAvoided) {
  const auto vector_not = [](const spirv::TypeTable& types,
                             const spirv::Instruction& i) {
    return spirv::Is(i, spv::Op::OpLogicalNot) &&
           IsVectorOf(types, i.type_id(), 2);
  };
  EXPECT_EQ(CountGenerated(1000, oracles::kConsumerOclgrind, vector_not), 0);
  EXPECT_GT(CountGenerated(1000, 0, vector_not), 0);
}

// pocl_switch_store_before_barrier: no switch beside a barrier while PoCL
// is avoided; with nothing avoided the pair occurs.
// Cases (of `seeds`) with both an `op` instruction and a work-group barrier.
int BesideBarriers(uint64_t seeds, uint32_t avoid, spv::Op op) {
  int cases = 0;
  for (uint64_t seed = 0; seed < seeds; ++seed) {
    bool has_op = false, has_barrier = false;
    CountGenerated(
        1, avoid,
        [&](const spirv::TypeTable&, const spirv::Instruction& i) {
          has_op |= spirv::Is(i, op);
          has_barrier |= spirv::Is(i, spv::Op::OpControlBarrier);
          return false;
        },
        seed);
    if (has_op && has_barrier) ++cases;
  }
  return cases;
}

TEST(GeneratorTest, NoSwitchBesideABarrierWhilePoclIsAvoided) {
  EXPECT_EQ(BesideBarriers(400, oracles::kConsumerPocl, spv::Op::OpSwitch), 0);
  EXPECT_GT(BesideBarriers(400, 0, spv::Op::OpSwitch), 0);
}

// pocl_loop_phi_across_barrier: no (structured) loops beside barriers either.
TEST(GeneratorTest, NoLoopBesideABarrierWhilePoclIsAvoided) {
  EXPECT_EQ(BesideBarriers(400, oracles::kConsumerPocl, spv::Op::OpLoopMerge),
            0);
  EXPECT_GT(BesideBarriers(400, 0, spv::Op::OpLoopMerge), 0);
}

// The version swarm: every version the profile accepts occurs, a fixed
// version or range is kept, and what a version adds appears only from it on.
TEST(GeneratorTest, VersionSwarmDrawsEveryVersionOfTheRange) {
  std::map<uint32_t, int> versions;
  for (uint64_t seed = 0; seed < 200; ++seed)
    ++versions[Generate(seed).module_words[1]];
  EXPECT_THAT(versions, ::testing::SizeIs(5));  // full: 1.0 to 1.4
  EXPECT_EQ(versions.begin()->first, 0x00010000u);
  EXPECT_EQ(versions.rbegin()->first, 0x00010400u);
  for (uint64_t seed = 0; seed < 50; ++seed) {
    EXPECT_LE(Generate(seed, "baseline").module_words[1], 0x00010200u);
    GeneratorOptions options;
    options.seed = seed;
    options.min_spirv_version = 0x00010100;
    options.max_spirv_version = 0x00010300;
    auto tc = GenerateTestCase(options);
    ASSERT_TRUE(tc.ok()) << tc.status();
    EXPECT_GE(tc->module_words[1], 0x00010100u);
    EXPECT_LE(tc->module_words[1], 0x00010300u);
  }
  GeneratorOptions bad;
  bad.profile = "baseline";
  bad.min_spirv_version = 0x00010300;
  auto tc = GenerateTestCase(bad);
  ASSERT_FALSE(tc.ok());
  EXPECT_EQ(tc.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(tc.status().message(), HasSubstr("1.3"));
}

TEST(GeneratorTest, VersionFeaturesAppearOnlyFromTheirVersion) {
  // Opcode -> the oldest version words that used it, over cases with
  // nothing avoided (the pointer forms are IGC/llvm-spirv gated).
  std::map<spv::Op, uint32_t> oldest;
  for (uint64_t seed = 0; seed < 600; ++seed) {
    GeneratorOptions options;
    options.seed = seed;
    options.avoid_known_bugs = 0;
    auto tc = GenerateTestCase(options);
    ASSERT_TRUE(tc.ok());
    auto module = spirv::ReadModuleWords(tc->module_words);
    ASSERT_TRUE(module.ok());
    const uint32_t v = tc->module_words[1];
    module->ForEachInstruction([&](const spirv::Instruction& i) {
      const spv::Op op = spirv::OpOf(i);
      auto [it, fresh] = oldest.emplace(op, v);
      if (!fresh) it->second = std::min(it->second, v);
    });
    if (v < 0x00010100) {
      EXPECT_TRUE(module->debug_module_processed.empty()) << "seed " << seed;
    }
  }
  ASSERT_TRUE(oldest.contains(spv::Op::OpSizeOf));
  EXPECT_GE(oldest[spv::Op::OpSizeOf], 0x00010100u);
  for (spv::Op op :
       {spv::Op::OpPtrEqual, spv::Op::OpPtrNotEqual, spv::Op::OpPtrDiff}) {
    ASSERT_TRUE(oldest.contains(op)) << static_cast<int>(op);
    EXPECT_EQ(oldest[op], 0x00010400u);
  }
  // SPIR-V 1.3's extended subgroups (OpGroupNonUniformElect ..
  // OpGroupNonUniformShuffleDown), in several kinds.
  size_t non_uniform_kinds = 0;
  for (const auto& [op, version] : oldest) {
    if (op < spv::Op::OpGroupNonUniformElect ||
        op > spv::Op::OpGroupNonUniformQuadSwap)
      continue;
    ++non_uniform_kinds;
    EXPECT_GE(version, 0x00010300u) << static_cast<int>(op);
  }
  EXPECT_GE(non_uniform_kinds, 8u);
  // With every consumer avoided, none of them.
  EXPECT_EQ(
      CountGenerated(300, oracles::kAllConsumers,
                     [](const spirv::TypeTable&, const spirv::Instruction& i) {
                       return spirv::Is(i, spv::Op::OpSizeOf) ||
                              spirv::Is(i, spv::Op::OpPtrDiff) ||
                              spirv::Is(i, spv::Op::OpPtrEqual);
                     }),
      0);
}

TEST(GeneratorTest, CaseRoundTripsThroughDisk) {
  const spirv::TestCase tc = Generate(42);
  const std::string dir =
      ::testing::TempDir() + "/generator_roundtrip_" + std::to_string(getpid());
  ASSERT_TRUE(spirv::WriteTestCase(tc, dir).ok());
  auto back = spirv::ReadTestCase(dir);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->module_words, tc.module_words);
  EXPECT_EQ(spirv::TestCaseToJson(*back), spirv::TestCaseToJson(tc));
  std::filesystem::remove_all(dir);
}

TEST(OpcodeStatsTest, CountsModulesAndOccurrences) {
  OpcodeStats stats;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    auto module = spirv::ReadModuleWords(Generate(seed).module_words);
    ASSERT_TRUE(module.ok());
    stats.Add(*module);
  }
  EXPECT_EQ(stats.modules(), 50u);
  EXPECT_GT(stats.DistinctOpcodes(), 60u);
  EXPECT_GT(stats.DistinctExtInsts(), 10u);
  EXPECT_GT(stats.MedianInstructions(), 50u);
  const nlohmann::json j = stats.ToJson();
  EXPECT_EQ(j["opcodes"]["OpEntryPoint"]["modules"], 50);
  EXPECT_THAT(stats.ToText(), HasSubstr("OpEntryPoint"));
}

}  // namespace
}  // namespace l0spv::generators::kernel
