// Tests of the generator's image kernels (generators/kernel/images.h): what
// --images=on emits, validity, profiles without images, determinism, the
// default (off) and clean reference runs.
#include <set>

#include "generators/kernel/generator.h"
#include "gtest/gtest.h"
#include "oracles/reference/interpreter.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"
#include "spirv/image_format.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::generators::kernel {
namespace {

using spv::Op;

spirv::TestCase Generate(uint64_t seed, ImageMode images,
                         const std::string& profile = "full",
                         uint32_t avoid = oracles::kAllConsumers) {
  GeneratorOptions options;
  options.seed = seed;
  options.profile = profile;
  options.images = images;
  options.avoid_known_bugs = avoid;
  auto tc = GenerateTestCase(options);
  EXPECT_TRUE(tc.ok()) << tc.status();
  return tc.ok() ? *tc : spirv::TestCase{};
}

spirv::Module Read(const spirv::TestCase& tc) {
  auto module = spirv::ReadModuleWords(tc.module_words);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *module : spirv::Module{};
}

// Every opcode of the module (declarations and function bodies).
std::multiset<Op> Opcodes(const spirv::Module& m) {
  std::multiset<Op> ops;
  for (const spirv::Instruction& i : m.types_values)
    ops.insert(static_cast<Op>(i.opcode()));
  for (const spirv::Function& fn : m.functions)
    for (const spirv::BasicBlock& bb : fn.blocks)
      for (const spirv::Instruction& i : bb.instructions)
        ops.insert(static_cast<Op>(i.opcode()));
  return ops;
}

bool HasImageArg(const spirv::TestCase& tc) {
  for (const spirv::KernelArg& a : tc.args)
    if (a.kind == spirv::KernelArg::Kind::kImage ||
        a.kind == spirv::KernelArg::Kind::kSampler)
      return true;
  return false;
}

TEST(GeneratorImageTest, ImagesOnEmitsImageTypesAndEveryOperation) {
  std::set<Op> seen;
  std::set<uint32_t> addressing, filters, dims;
  bool image_barrier = false;
  for (uint64_t seed = 0; seed < 120; ++seed) {
    // No consumer avoided: every construct is allowed.
    const spirv::TestCase tc = Generate(seed, ImageMode::kOn, "full", 0);
    const spirv::Module m = Read(tc);
    const std::multiset<Op> ops = Opcodes(m);
    ASSERT_TRUE(ops.count(Op::OpTypeImage)) << "seed " << seed;
    ASSERT_TRUE(HasImageArg(tc)) << "seed " << seed;
    for (Op op : ops) seen.insert(op);
    for (const spirv::KernelArg& a : tc.args) {
      if (a.kind == spirv::KernelArg::Kind::kImage) {
        dims.insert(static_cast<uint32_t>(a.image.dim));
        EXPECT_TRUE(spirv::ValidateImageDesc(a.image, 1 << 20).ok())
            << "seed " << seed << ": " << spirv::DescribeImage(a.image);
        EXPECT_EQ(a.bytes.size(), spirv::ImageBytes(a.image));
      }
      if (a.kind == spirv::KernelArg::Kind::kSampler) {
        EXPECT_TRUE(spirv::ValidateSamplerDesc(a.sampler).ok());
        addressing.insert(static_cast<uint32_t>(a.sampler.addressing));
        filters.insert(static_cast<uint32_t>(a.sampler.filter));
      }
    }
    for (const spirv::Instruction& i : m.types_values) {
      if (static_cast<Op>(i.opcode()) != Op::OpConstantSampler) continue;
      addressing.insert(i.operand(0).AsLiteral());
      filters.insert(i.operand(2).AsLiteral());
      // Unnormalised coordinates only with none / clamp / clamp to edge.
      if (i.operand(1).AsLiteral() == 0) {
        EXPECT_LE(i.operand(0).AsLiteral(), 2u);
      }
    }
    for (const spirv::Function& fn : m.functions)
      for (const spirv::BasicBlock& bb : fn.blocks)
        for (const spirv::Instruction& i : bb.instructions)
          if (static_cast<Op>(i.opcode()) == Op::OpControlBarrier) {
            // Semantics is a constant id; look its value up.
            const uint32_t id = i.operand(2).AsId();
            for (const spirv::Instruction& c : m.types_values)
              if (c.result_id() == id && c.NumOperands() == 1 &&
                  (c.operand(0).AsLiteral() & 0x800))
                image_barrier = true;
          }
  }
  for (Op op :
       {Op::OpTypeSampler, Op::OpTypeSampledImage, Op::OpSampledImage,
        Op::OpImageSampleExplicitLod, Op::OpImageRead, Op::OpImageWrite,
        Op::OpConstantSampler, Op::OpImageQuerySizeLod, Op::OpImageQuerySize,
        Op::OpImageQueryFormat, Op::OpImageQueryOrder})
    EXPECT_TRUE(seen.count(op))
        << "never emitted: opcode " << static_cast<uint32_t>(op);
  EXPECT_EQ(addressing.size(), 5u) << "every addressing mode";
  EXPECT_EQ(filters.size(), 2u) << "nearest and linear";
  EXPECT_EQ(dims.size(), 6u) << "every dimensionality";
  EXPECT_TRUE(image_barrier) << "read-write phases need an image barrier";
}

// The semantics of every OpControlBarrier of the module.
std::vector<uint32_t> BarrierSemantics(const spirv::Module& m) {
  std::vector<uint32_t> out;
  for (const spirv::Function& fn : m.functions)
    for (const spirv::BasicBlock& bb : fn.blocks)
      for (const spirv::Instruction& i : bb.instructions) {
        if (static_cast<Op>(i.opcode()) != Op::OpControlBarrier) continue;
        for (const spirv::Instruction& c : m.types_values)
          if (c.result_id() == i.operand(2).AsId() && c.NumOperands() == 1)
            out.push_back(c.operand(0).AsLiteral());
      }
  return out;
}

// Consumer limitations: PoCL has no 3D / 2D-array image built-ins, no RG
// formats and no queries of 1D buffer images (not checked here: only with
// the module's parameter types),
// Oclgrind stops on unsigned images read through llvm-spirv, reports a race
// across an image-only fence and zeroes linear reads with addressing None,
// llvm-spirv keeps the CL_* offset in a query's later uses (registry
// entries named in images.cc).
TEST(GeneratorImageTest, AvoidedConsumersGetNoImageFormsTheyFail) {
  bool rw = false;
  for (uint64_t seed = 0; seed < 150; ++seed) {
    const spirv::TestCase tc = Generate(seed, ImageMode::kOn);
    for (const spirv::KernelArg& a : tc.args) {
      if (a.kind != spirv::KernelArg::Kind::kImage) continue;
      EXPECT_NE(a.image.dim, spirv::ImageDim::k3D) << "seed " << seed;
      EXPECT_NE(a.image.dim, spirv::ImageDim::k2DArray) << "seed " << seed;
      const spirv::ChannelClass c = spirv::ClassOfChannelType(a.image.type);
      EXPECT_NE(c, spirv::ChannelClass::kUnsigned) << "seed " << seed;
      EXPECT_NE(a.image.order, spirv::channel_order::kRG) << "seed " << seed;
      EXPECT_NE(a.image.order, spirv::channel_order::kR) << "seed " << seed;
      rw |= a.image.access == spirv::ImageAccess::kReadWrite;
    }
    const spirv::Module m = Read(tc);
    for (uint32_t semantics : BarrierSemantics(m)) {
      if (semantics & 0x800) {
        EXPECT_TRUE(semantics & 0x200) << "seed " << seed;
      }
    }
    // oclgrind_image_linear_none: no Linear sampler with addressing None.
    for (const spirv::KernelArg& a : tc.args) {
      if (a.kind == spirv::KernelArg::Kind::kSampler &&
          a.sampler.filter == spirv::FilterMode::kLinear) {
        EXPECT_NE(a.sampler.addressing, spirv::AddressingMode::kNone)
            << "seed " << seed;
      }
    }
    for (const spirv::Instruction& i : m.types_values) {
      if (static_cast<Op>(i.opcode()) == Op::OpConstantSampler &&
          i.operand(2).AsLiteral() == 1) {                           // Linear
        EXPECT_NE(i.operand(0).AsLiteral(), 0u) << "seed " << seed;  // None
      }
    }
    // llvm_spirv_image_query_offset: a format/order query has one use.
    std::multiset<uint32_t> uses;
    std::set<uint32_t> queries;
    for (const spirv::Function& fn : m.functions)
      for (const spirv::BasicBlock& bb : fn.blocks)
        for (const spirv::Instruction& i : bb.instructions) {
          const Op op = static_cast<Op>(i.opcode());
          if (op == Op::OpImageQueryFormat || op == Op::OpImageQueryOrder)
            queries.insert(i.result_id());
          for (uint32_t k = 0; k < i.NumOperands(); ++k)
            if (i.operand(k).IsId()) uses.insert(i.operand(k).AsId());
        }
    for (uint32_t q : queries) EXPECT_EQ(uses.count(q), 1u) << "seed " << seed;
  }
  EXPECT_TRUE(rw);
}

TEST(GeneratorImageTest, ImageModulesAreLintClean) {
  for (const char* name : {"full", "tgllp", "pvc"}) {
    auto profile = oracles::FindDeviceProfile(name);
    ASSERT_TRUE(profile.ok());
    for (uint64_t seed = 0; seed < 100; ++seed) {
      const spirv::Module m =
          Read(Generate(seed, ImageMode::kOn, name,
                        seed % 2 ? uint32_t{oracles::kAllConsumers} : 0u));
      const oracles::LintReport report = oracles::LintModule(m, *profile);
      EXPECT_TRUE(report.ok()) << "seed " << seed << " profile " << name << "\n"
                               << report.ToText();
    }
  }
}

TEST(GeneratorImageTest, NeverForAProfileWithoutImages) {
  auto profile = oracles::FindDeviceProfile("baseline");
  ASSERT_TRUE(profile.ok());
  ASSERT_FALSE(profile->images);
  for (uint64_t seed = 0; seed < 60; ++seed) {
    const spirv::TestCase tc = Generate(seed, ImageMode::kOn, "baseline");
    EXPECT_FALSE(HasImageArg(tc)) << "seed " << seed;
    EXPECT_EQ(Opcodes(Read(tc)).count(Op::OpTypeImage), 0u) << "seed " << seed;
    // And the case is the one images=off gives.
    EXPECT_EQ(tc.module_words,
              Generate(seed, ImageMode::kOff, "baseline").module_words);
  }
}

TEST(GeneratorImageTest, OffByDefaultAndSwarmMixes) {
  uint32_t with = 0;
  for (uint64_t seed = 0; seed < 80; ++seed) {
    GeneratorOptions defaults;
    defaults.seed = seed;
    auto tc = GenerateTestCase(defaults);
    ASSERT_TRUE(tc.ok());
    EXPECT_FALSE(HasImageArg(*tc)) << "seed " << seed;
    with += HasImageArg(Generate(seed, ImageMode::kSwarm));
  }
  // A quarter of the cases, give or take.
  EXPECT_GT(with, 5u);
  EXPECT_LT(with, 40u);
}

TEST(GeneratorImageTest, SameSeedGivesIdenticalImageCase) {
  for (uint64_t seed : {3u, 17u, 4242u}) {
    const spirv::TestCase a = Generate(seed, ImageMode::kOn);
    const spirv::TestCase b = Generate(seed, ImageMode::kOn);
    EXPECT_EQ(a.module_words, b.module_words);
    EXPECT_EQ(spirv::TestCaseToJson(a), spirv::TestCaseToJson(b));
  }
}

// Written images have exactly one texel per work-item (each owns one);
// linear-filtered reads carry an absolute tolerance that says why.
TEST(GeneratorImageTest, WrittenImagesAndLinearTolerances) {
  bool linear_tolerance = false;
  for (uint64_t seed = 0; seed < 120; ++seed) {
    const spirv::TestCase tc = Generate(seed, ImageMode::kOn);
    uint64_t work_items = 1;
    for (uint64_t g : tc.nd_range.global) work_items *= g;
    for (const spirv::KernelArg& a : tc.args) {
      if (a.kind != spirv::KernelArg::Kind::kImage) continue;
      // OpenCL: a 3D image's depth is more than 1.
      if (a.image.dim == spirv::ImageDim::k3D) {
        EXPECT_GE(a.image.depth, 2u) << "seed " << seed;
      }
      EXPECT_EQ(a.is_result, a.image.access != spirv::ImageAccess::kReadOnly);
      if (a.is_result) {
        EXPECT_EQ(spirv::TexelCount(a.image), work_items) << "seed " << seed;
      }
    }
    for (const spirv::ResultTolerance& t : tc.tolerances) {
      if (t.reason.find("linear filtering") == std::string::npos) continue;
      linear_tolerance = true;
      EXPECT_GE(t.absolute, 1.0 / 256) << t.reason;
      EXPECT_NE(t.reason.find("8 bits"), std::string::npos);
    }
  }
  EXPECT_TRUE(linear_tolerance);
}

// UB-free on the reference, with every check on. Until the reference
// interpreter knows images it answers unsupported, and this test skips.
TEST(GeneratorImageTest, ImageCasesAreUbFreeOnTheReference) {
  uint32_t ran = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    const spirv::TestCase tc = Generate(seed, ImageMode::kOn);
    oracles::reference::ReferenceOptions ref;
    ref.check_races = true;
    ref.check_uninitialized = true;
    const oracles::Execution e = oracles::reference::RunReference(tc, ref);
    if (e.status == oracles::ExecutionStatus::kUnsupported) continue;
    ++ran;
    EXPECT_EQ(e.status, oracles::ExecutionStatus::kOk)
        << "seed " << seed << ": " << e.message;
  }
  if (ran == 0) GTEST_SKIP() << "the reference interpreter has no images yet";
}

}  // namespace
}  // namespace l0spv::generators::kernel
