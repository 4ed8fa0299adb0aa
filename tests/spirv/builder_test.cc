// ModuleBuilder: types and constants are unique whether the module had them
// or the builder added them; every new id raises the bound by exactly one;
// and a kernel assembled by hand with it passes spirv-val.
#include "spirv/builder.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"
#include "spirv/type_table.h"

namespace l0spv::spirv {
namespace {

using spv::Op;
using ::testing::ElementsAre;

// Numeric ids so the expectations can name them.
constexpr char kBase[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %20 "k"
               OpDecorate %7 CPacked
          %1 = OpTypeVoid
          %2 = OpTypeInt 32 0
          %3 = OpTypeInt 64 0
          %4 = OpConstant %2 7
          %5 = OpTypePointer CrossWorkgroup %2
          %6 = OpTypeFunction %1 %5
          %7 = OpTypeStruct %2 %3
          %8 = OpConstant %3 0x100000002
         %20 = OpFunction %1 None %6
         %21 = OpFunctionParameter %5
         %22 = OpLabel
               OpReturn
               OpFunctionEnd
)";

Module ReadBase() {
  auto words = Assemble(kBase);
  EXPECT_TRUE(words.ok()) << words.status();
  auto m = ReadModuleWords(*words);
  EXPECT_TRUE(m.ok()) << m.status();
  return *std::move(m);
}

const Instruction* Declaration(const Module& m, uint32_t id) {
  for (const Instruction& inst : m.types_values) {
    if (inst.result_id() == id) return &inst;
  }
  return nullptr;
}

TEST(BuilderTest, ReusesDeclarationsTheModuleAlreadyHas) {
  Module m = ReadBase();
  ASSERT_EQ(m.header.bound, 23u);
  const size_t declarations = m.types_values.size();
  ModuleBuilder b(m);
  EXPECT_EQ(b.VoidType(), 1u);
  EXPECT_EQ(b.IntType(32), 2u);
  EXPECT_EQ(b.IntType(64), 3u);
  EXPECT_EQ(b.IntConstant(2, 7), 4u);
  EXPECT_EQ(b.PointerType(spv::StorageClass::CrossWorkgroup, 2), 5u);
  EXPECT_EQ(b.FunctionType(1, {5}), 6u);
  EXPECT_EQ(b.IntConstant(3, 0x100000002ull), 8u);
  // Truncated to 32 bits, 0x1'0000'0007 is the existing 7.
  EXPECT_EQ(b.IntConstant(2, 0x100000007ull), 4u);
  EXPECT_EQ(m.header.bound, 23u);
  EXPECT_EQ(m.types_values.size(), declarations);
}

TEST(BuilderTest, DecoratedDeclarationsAreNotReused) {
  Module m = ReadBase();
  ModuleBuilder b(m);
  // %7 is CPacked: a plain {uint, ulong} has another layout.
  const uint32_t plain = b.StructType({2, 3});
  EXPECT_NE(plain, 7u);
  EXPECT_EQ(plain, 23u);
  EXPECT_EQ(b.StructType({2, 3}), plain);
}

TEST(BuilderTest, NewIdsComeFromTheBoundOneAtATime) {
  Module m = ReadBase();
  ModuleBuilder b(m);
  const uint32_t ushort = b.IntType(16);
  EXPECT_EQ(ushort, 23u);
  EXPECT_EQ(m.header.bound, 24u);
  const Instruction* decl = Declaration(m, ushort);
  ASSERT_NE(decl, nullptr);
  EXPECT_EQ(decl->opcode(), static_cast<uint32_t>(Op::OpTypeInt));
  EXPECT_EQ(decl->word(0), 16u);
  EXPECT_EQ(decl->word(1), 0u) << "Level Zero wants signedness 0";
  EXPECT_EQ(&m.types_values.back(), decl) << "appended after its uses";

  // Deduplicated against the builder's own additions.
  EXPECT_EQ(b.IntType(16), ushort);
  EXPECT_EQ(m.header.bound, 24u);

  const uint32_t f32 = b.FloatType(32);
  EXPECT_EQ(f32, 24u);
  const uint32_t v4 = b.VectorType(f32, 4);
  EXPECT_EQ(v4, 25u);
  EXPECT_EQ(b.VectorType(f32, 4), v4);
  EXPECT_NE(b.VectorType(f32, 3), v4);
  EXPECT_EQ(m.header.bound, 27u);
  EXPECT_EQ(m.ComputeTightBound(), m.header.bound);
}

TEST(BuilderTest, ArrayTypeAddsItsLengthConstant) {
  Module m = ReadBase();
  ModuleBuilder b(m);
  const uint32_t arr = b.ArrayType(2, 4);
  EXPECT_EQ(m.header.bound, 25u) << "constant 4 and the array";
  const Instruction* decl = Declaration(m, arr);
  ASSERT_NE(decl, nullptr);
  EXPECT_EQ(decl->word(0), 2u);
  EXPECT_EQ(b.IntConstant(2, 4), decl->word(1));
  EXPECT_EQ(b.ArrayType(2, 4), arr);
  EXPECT_EQ(b.ArrayType(2, 7), 25u) << "reuses the existing constant 7";
  EXPECT_EQ(m.header.bound, 26u);
}

TEST(BuilderTest, SixtyFourBitConstantsUseTwoWords) {
  Module m = ReadBase();
  ModuleBuilder b(m);
  const uint32_t big = b.IntConstant(3, 0xfedcba9876543210ull);
  const Instruction* decl = Declaration(m, big);
  ASSERT_NE(decl, nullptr);
  ASSERT_EQ(decl->NumOperands(), 1u);
  EXPECT_EQ(decl->operand(0).kind, OperandKind::kLiteralContextDependentNumber);
  EXPECT_THAT(decl->operand(0).words, ElementsAre(0x76543210u, 0xfedcba98u));
  const uint32_t small = b.IntConstant(3, 2);
  EXPECT_THAT(Declaration(m, small)->operand(0).words, ElementsAre(2u, 0u));
  EXPECT_THAT(Declaration(m, b.IntConstant(2, 2))->operand(0).words,
              ElementsAre(2u));

  const uint32_t ushort = b.IntType(16);
  const uint32_t masked = b.IntConstant(ushort, 0x12345);
  EXPECT_THAT(Declaration(m, masked)->operand(0).words, ElementsAre(0x2345u));
  EXPECT_EQ(b.IntConstant(ushort, 0x2345), masked);

  const uint32_t f64 = b.FloatType(64);
  const uint32_t half = b.FloatConstantBits(f64, 0x3FE0000000000000ull);
  EXPECT_THAT(Declaration(m, half)->operand(0).words,
              ElementsAre(0u, 0x3FE00000u));

  // The result reads back and the constants decode to the same values.
  auto reread = ReadModuleWords(EncodeModule(m));
  ASSERT_TRUE(reread.ok()) << reread.status();
  TypeTable types(*reread);
  EXPECT_EQ(types.IntConstant(big), 0xfedcba9876543210ull);
  EXPECT_EQ(types.IntConstant(masked), 0x2345u);
}

TEST(BuilderTest, BoolNullAndCompositeConstantsAreUnique) {
  Module m = ReadBase();
  ModuleBuilder b(m);
  const uint32_t t = b.BoolConstant(true);
  const uint32_t f = b.BoolConstant(false);
  EXPECT_NE(t, f);
  EXPECT_EQ(b.BoolConstant(true), t);
  EXPECT_EQ(Declaration(m, t)->type_id(), b.BoolType());
  const uint32_t null = b.NullConstant(5);
  EXPECT_EQ(b.NullConstant(5), null);
  const uint32_t v2 = b.VectorType(2, 2);
  const uint32_t c = b.CompositeConstant(v2, {4, 4});
  EXPECT_EQ(b.CompositeConstant(v2, {4, 4}), c);
  EXPECT_NE(b.CompositeConstant(v2, {4, b.IntConstant(2, 5)}), c);
}

// Scalars get a real zero (llvm-spirv 14 aborts on a scalar OpConstantNull),
// everything else OpConstantNull.
TEST(BuilderTest, ZeroConstantIsNeverAScalarNull) {
  Module m = ReadBase();
  ModuleBuilder b(m);
  const uint32_t u32 = b.IntType(32);
  const uint32_t f32 = b.FloatType(32);
  const uint32_t v2 = b.VectorType(u32, 2);
  auto op_of = [&](uint32_t id) {
    return static_cast<spv::Op>(Declaration(m, id)->opcode());
  };
  EXPECT_EQ(op_of(b.ZeroConstant(u32)), spv::Op::OpConstant);
  EXPECT_EQ(b.ZeroConstant(u32), b.IntConstant(u32, 0));
  EXPECT_EQ(op_of(b.ZeroConstant(f32)), spv::Op::OpConstant);
  EXPECT_EQ(b.ZeroConstant(b.BoolType()), b.BoolConstant(false));
  EXPECT_EQ(op_of(b.ZeroConstant(v2)), spv::Op::OpConstantNull);
}

TEST(BuilderTest, CapabilitiesExtensionsAndImportsAreUnique) {
  Module m = ReadBase();
  ModuleBuilder b(m);
  b.AddCapability(spv::Capability::Kernel);
  EXPECT_EQ(m.capabilities.size(), 3u);
  b.AddCapability(spv::Capability::Int8);
  b.AddCapability(spv::Capability::Int8);
  EXPECT_EQ(m.capabilities.size(), 4u);
  b.AddExtension("SPV_KHR_no_integer_wrap_decoration");
  b.AddExtension("SPV_KHR_no_integer_wrap_decoration");
  EXPECT_EQ(m.extensions.size(), 1u);
  const uint32_t bound = m.header.bound;
  const uint32_t ocl = b.ImportExtInstSet("OpenCL.std");
  EXPECT_EQ(ocl, bound);
  EXPECT_EQ(b.ImportExtInstSet("OpenCL.std"), ocl);
  EXPECT_EQ(m.OpenClStdImportId(), ocl);
  EXPECT_EQ(m.header.bound, bound + 1);
  auto reread = ReadModuleWords(EncodeModule(m));
  EXPECT_TRUE(reread.ok()) << reread.status();
}

// Builds `kernel void scale(global uint* p) { p[gid] = p[gid] * 3 + 1; }`
// from nothing and checks spirv-val accepts it.
TEST(BuilderTest, HandBuiltKernelValidates) {
  Module m;
  ModuleBuilder b(m);
  b.AddCapability(spv::Capability::Addresses);
  b.AddCapability(spv::Capability::Kernel);
  b.AddCapability(spv::Capability::Int64);
  m.memory_model.emplace_back(
      static_cast<uint32_t>(Op::OpMemoryModel), 0, 0,
      std::vector<Operand>{
          EnumOperand(OperandKind::kAddressingModel,
                      static_cast<uint32_t>(spv::AddressingModel::Physical64)),
          EnumOperand(OperandKind::kMemoryModel,
                      static_cast<uint32_t>(spv::MemoryModel::OpenCL))});

  const uint32_t void_t = b.VoidType();
  const uint32_t uint_t = b.IntType(32);
  const uint32_t ulong_t = b.IntType(64);
  const uint32_t v3ulong = b.VectorType(ulong_t, 3);
  const uint32_t in_ptr = b.PointerType(spv::StorageClass::Input, v3ulong);
  const uint32_t buf_ptr =
      b.PointerType(spv::StorageClass::CrossWorkgroup, uint_t);
  const uint32_t fn_t = b.FunctionType(void_t, {buf_ptr});
  const uint32_t three = b.IntConstant(uint_t, 3);
  const uint32_t one = b.IntConstant(uint_t, 1);
  const uint32_t gid = b.TakeNextId();
  m.types_values.emplace_back(
      static_cast<uint32_t>(Op::OpVariable), in_ptr, gid,
      std::vector<Operand>{
          EnumOperand(OperandKind::kStorageClass,
                      static_cast<uint32_t>(spv::StorageClass::Input))});
  m.annotations.emplace_back(
      static_cast<uint32_t>(Op::OpDecorate), 0, 0,
      std::vector<Operand>{
          IdOperand(gid),
          EnumOperand(OperandKind::kDecoration,
                      static_cast<uint32_t>(spv::Decoration::BuiltIn)),
          EnumOperand(
              OperandKind::kBuiltIn,
              static_cast<uint32_t>(spv::BuiltIn::GlobalInvocationId))});

  Function fn;
  const uint32_t fn_id = b.TakeNextId();
  fn.def = Instruction(
      static_cast<uint32_t>(Op::OpFunction), void_t, fn_id,
      {EnumOperand(OperandKind::kFunctionControl, 0), IdOperand(fn_t)});
  const uint32_t p = b.TakeNextId();
  fn.parameters.emplace_back(static_cast<uint32_t>(Op::OpFunctionParameter),
                             buf_ptr, p, std::vector<Operand>{});
  BasicBlock entry;
  entry.label =
      Instruction(static_cast<uint32_t>(Op::OpLabel), 0, b.TakeNextId(), {});
  auto emit = [&](Op op, uint32_t type, std::vector<Operand> operands) {
    const uint32_t id = type != 0 ? b.TakeNextId() : 0;
    entry.instructions.emplace_back(static_cast<uint32_t>(op), type, id,
                                    std::move(operands));
    return id;
  };
  const Operand aligned4[] = {
      EnumOperand(OperandKind::kMemoryAccess,
                  static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)),
      LiteralOperand(4)};
  const uint32_t ids = emit(Op::OpLoad, v3ulong, {IdOperand(gid)});
  const uint32_t x = emit(Op::OpCompositeExtract, ulong_t,
                          {IdOperand(ids), LiteralOperand(0)});
  const uint32_t elem =
      emit(Op::OpInBoundsPtrAccessChain, buf_ptr, {IdOperand(p), IdOperand(x)});
  const uint32_t v =
      emit(Op::OpLoad, uint_t, {IdOperand(elem), aligned4[0], aligned4[1]});
  const uint32_t t = emit(Op::OpIMul, uint_t, {IdOperand(v), IdOperand(three)});
  const uint32_t r = emit(Op::OpIAdd, uint_t, {IdOperand(t), IdOperand(one)});
  emit(Op::OpStore, 0,
       {IdOperand(elem), IdOperand(r), aligned4[0], aligned4[1]});
  emit(Op::OpReturn, 0, {});
  fn.blocks.push_back(std::move(entry));
  fn.end = Instruction(static_cast<uint32_t>(Op::OpFunctionEnd), 0, 0, {});
  m.functions.push_back(std::move(fn));
  m.entry_points.emplace_back(
      static_cast<uint32_t>(Op::OpEntryPoint), 0, 0,
      std::vector<Operand>{
          EnumOperand(OperandKind::kExecutionModel,
                      static_cast<uint32_t>(spv::ExecutionModel::Kernel)),
          IdOperand(fn_id), StringOperand("scale"), IdOperand(gid)});

  const std::vector<uint32_t> words = EncodeModule(m);
  const absl::Status valid = Validate(words);
  EXPECT_TRUE(valid.ok()) << valid;
  EXPECT_EQ(m.ComputeTightBound(), m.header.bound);

  auto reread = ReadModuleWords(words);
  ASSERT_TRUE(reread.ok()) << reread.status();
  EXPECT_EQ(EncodeModule(*reread), words);
  EXPECT_EQ(*reread->functions[0].blocks[0].terminator(),
            m.functions[0].blocks[0].instructions.back());
}

}  // namespace
}  // namespace l0spv::spirv
