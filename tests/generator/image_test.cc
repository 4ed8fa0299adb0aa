// Tests of the generator's image kernels (generators/kernel/images.h): what
// --images=on emits, validity, profiles without images, determinism, the
// default (off) and clean reference runs.
#include <map>
#include <set>
#include <utility>
#include <vector>

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

// For every image read, write and sample of the module: whether its image
// is 3D or a 2D array, and the lane count of its coordinate.
std::vector<std::pair<bool, uint32_t>> CoordinateLanes(const spirv::Module& m) {
  std::map<uint32_t, const spirv::Instruction*> def;
  for (const spirv::Instruction& i : m.types_values) def[i.result_id()] = &i;
  for (const spirv::Function& fn : m.functions) {
    for (const spirv::Instruction& p : fn.parameters) def[p.result_id()] = &p;
    for (const spirv::BasicBlock& bb : fn.blocks)
      for (const spirv::Instruction& i : bb.instructions)
        if (i.result_id() != 0) def[i.result_id()] = &i;
  }
  std::vector<std::pair<bool, uint32_t>> out;
  for (const spirv::Function& fn : m.functions)
    for (const spirv::BasicBlock& bb : fn.blocks)
      for (const spirv::Instruction& i : bb.instructions) {
        const Op op = static_cast<Op>(i.opcode());
        if (op != Op::OpImageRead && op != Op::OpImageWrite &&
            op != Op::OpImageSampleExplicitLod)
          continue;
        const spirv::Instruction* image = def.at(i.operand(0).AsId());
        if (static_cast<Op>(image->opcode()) == Op::OpSampledImage)
          image = def.at(image->operand(0).AsId());
        const spirv::Instruction* type = def.at(image->type_id());
        const auto dim = static_cast<spv::Dim>(type->operand(1).AsLiteral());
        const bool arrayed = type->operand(3).AsLiteral() != 0;
        const spirv::Instruction* coordinate_type =
            def.at(def.at(i.operand(1).AsId())->type_id());
        const uint32_t lanes =
            static_cast<Op>(coordinate_type->opcode()) == Op::OpTypeVector
                ? coordinate_type->operand(1).AsLiteral()
                : 1;
        out.emplace_back(
            dim == spv::Dim::Dim3D || (dim == spv::Dim::Dim2D && arrayed),
            lanes);
      }
  return out;
}

TEST(GeneratorImageTest, ImagesOnEmitsImageTypesAndEveryOperation) {
  std::set<Op> seen;
  std::set<uint32_t> addressing, filters, dims;
  bool image_barrier = false;
  bool three_lanes = false;  // llvm_spirv_image_coord3's construct
  for (uint64_t seed = 0; seed < 120; ++seed) {
    // No consumer avoided: every construct is allowed.
    const spirv::TestCase tc = Generate(seed, ImageMode::kOn, "full", 0);
    const spirv::Module m = Read(tc);
    const std::multiset<Op> ops = Opcodes(m);
    for (const auto& [deep, lanes] : CoordinateLanes(m))
      three_lanes |= deep && lanes == 3;
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
  EXPECT_TRUE(three_lanes) << "3D / 2D-array coordinates of three lanes";
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

// Consumer bugs and limitations, avoided: PoCL's R images
// (pocl_image_r_alpha, pocl_image_r_half), its missing RG formats, integer
// writes of 3D / 2D-array images (pocl_write_imagei_3d) and queries of 1D
// buffer images (pocl_image1d_buffer_query, the only users of
// OpImageQuerySize); llvm-spirv's 3-lane coordinates of 3D / 2D-array
// images (llvm_spirv_image_coord3: four lanes instead) and the CL_* offset
// in a query's later uses (llvm_spirv_image_query_offset); Oclgrind stops on
// unsigned images read through llvm-spirv, reports a race across an
// image-only fence and zeroes linear reads with addressing None.
TEST(GeneratorImageTest, AvoidedConsumersGetNoImageFormsTheyFail) {
  bool rw = false, deep = false, buffer = false;
  for (uint64_t seed = 0; seed < 150; ++seed) {
    const spirv::TestCase tc = Generate(seed, ImageMode::kOn);
    for (const spirv::KernelArg& a : tc.args) {
      if (a.kind != spirv::KernelArg::Kind::kImage) continue;
      const bool deep_dim = a.image.dim == spirv::ImageDim::k3D ||
                            a.image.dim == spirv::ImageDim::k2DArray;
      deep |= deep_dim;
      buffer |= a.image.dim == spirv::ImageDim::k1DBuffer;
      const spirv::ChannelClass c = spirv::ClassOfChannelType(a.image.type);
      if (deep_dim && a.image.access == spirv::ImageAccess::kWriteOnly) {
        EXPECT_NE(c, spirv::ChannelClass::kSigned) << "seed " << seed;
      }
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
    EXPECT_EQ(Opcodes(m).count(Op::OpImageQuerySize), 0u) << "seed " << seed;
    for (const auto& [deep_image, lanes] : CoordinateLanes(m)) {
      if (deep_image) {
        EXPECT_EQ(lanes, 4u) << "seed " << seed;
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
  EXPECT_TRUE(deep) << "3D / 2D-array images stay, with padded coordinates";
  EXPECT_TRUE(buffer);
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
