// TypeTable: OpenCL C layout (SPIR 1.2 §2.1.4-2.1.5: every type aligned to
// its size, 3-component vectors sized and aligned as 4, struct members at
// their alignment, struct aligned to its most aligned member and padded to
// a multiple of it), packed structs (incl. through decoration groups),
// integer constants, incremental declaration with caller-supplied array
// lengths; and robustness on hostile type graphs.
#include "spirv/type_table.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"
#include "tests/spirv/test_support.h"

namespace l0spv::spirv {
namespace {

using spv::Op;
using test::RawModule;

constexpr char kTypes[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int16
               OpCapability Int8
               OpCapability Float64
               OpMemoryModel Physical64 OpenCL
               OpDecorate %6 CPacked
               OpDecorate %40 SpecId 0
          %1 = OpTypeInt 8 0
          %2 = OpTypeInt 32 0
          %3 = OpTypeVector %1 3
          %4 = OpTypeVector %2 3
          %5 = OpTypeStruct %1 %2 %3
          %6 = OpTypeStruct %1 %2 %3
          %7 = OpTypeInt 64 0
          %8 = OpTypeInt 16 0
          %9 = OpTypeFloat 32
         %10 = OpTypeFloat 64
         %11 = OpConstant %2 5
         %12 = OpTypeArray %2 %11
         %13 = OpTypeArray %3 %11
         %14 = OpTypePointer CrossWorkgroup %5
         %15 = OpTypeStruct %7 %1
         %16 = OpTypeStruct %1 %15
         %17 = OpTypeVector %9 4
         %18 = OpTypeStruct %1 %17
         %19 = OpTypeVoid
         %20 = OpTypeRuntimeArray %2
         %21 = OpTypeBool
         %22 = OpTypeFunction %19 %14
         %25 = OpTypeVector %7 3
         %26 = OpTypeVector %8 2
         %27 = OpTypeVector %10 16
         %28 = OpConstant %2 2
         %29 = OpTypeArray %15 %28
         %30 = OpTypeStruct %8 %1
         %31 = OpTypeStruct %30 %1
         %32 = OpTypeStruct %1 %6
         %33 = OpTypeEvent
         %34 = OpTypePointer Function %19
         %40 = OpSpecConstant %2 3
         %41 = OpTypeArray %2 %40
         %42 = OpTypeStruct %2 %41
         %50 = OpConstant %1 255
         %51 = OpConstant %8 65535
         %52 = OpConstant %7 0xfffffffffffffffe
         %53 = OpTypeInt 8 1
         %54 = OpConstant %53 -128
         %55 = OpTypeInt 16 1
         %56 = OpConstant %55 -2
         %57 = OpConstantTrue %21
         %58 = OpConstantNull %2
         %59 = OpConstant %9 1.0
)";

class TypeTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto words = Assemble(kTypes);
    ASSERT_TRUE(words.ok()) << words.status();
    auto m = ReadModuleWords(*words);
    ASSERT_TRUE(m.ok()) << m.status();
    module_ = *std::move(m);
    types_ = std::make_unique<TypeTable>(module_);
  }

  // {size, align} of a type, or {0, 0} when it has none.
  std::pair<uint64_t, uint64_t> Layout(uint32_t id) const {
    return {types_->SizeOf(id).value_or(0), types_->AlignOf(id).value_or(0)};
  }
  std::vector<uint64_t> Offsets(uint32_t struct_id, uint32_t members) const {
    std::vector<uint64_t> offsets;
    for (uint32_t i = 0; i < members; ++i)
      offsets.push_back(types_->MemberOffset(struct_id, i).value_or(~0ull));
    return offsets;
  }

  Module module_;
  std::unique_ptr<TypeTable> types_;
};

using Pair = std::pair<uint64_t, uint64_t>;

TEST_F(TypeTableTest, Scalars) {
  EXPECT_EQ(Layout(1), Pair(1, 1));
  EXPECT_EQ(Layout(8), Pair(2, 2));
  EXPECT_EQ(Layout(2), Pair(4, 4));
  EXPECT_EQ(Layout(7), Pair(8, 8));
  EXPECT_EQ(Layout(9), Pair(4, 4));
  EXPECT_EQ(Layout(10), Pair(8, 8));
  EXPECT_EQ(Layout(21), Pair(1, 1));
}

TEST_F(TypeTableTest, VectorsAreAlignedToTheirSizeAndThreeIsFour) {
  EXPECT_EQ(Layout(3), Pair(4, 4)) << "char3";
  EXPECT_EQ(Layout(4), Pair(16, 16)) << "int3";
  EXPECT_EQ(Layout(17), Pair(16, 16)) << "float4";
  EXPECT_EQ(Layout(25), Pair(32, 32)) << "long3";
  EXPECT_EQ(Layout(26), Pair(4, 4)) << "short2";
  EXPECT_EQ(Layout(27), Pair(128, 128)) << "double16";
}

TEST_F(TypeTableTest, StructMembersAtTheirAlignment) {
  // struct { char; int; char3; }
  EXPECT_EQ(Offsets(5, 3), (std::vector<uint64_t>{0, 4, 8}));
  EXPECT_EQ(Layout(5), Pair(12, 4));
  // struct { long; char; } is padded to 16.
  EXPECT_EQ(Offsets(15, 2), (std::vector<uint64_t>{0, 8}));
  EXPECT_EQ(Layout(15), Pair(16, 8));
  // struct { char; struct { long; char; }; }
  EXPECT_EQ(Offsets(16, 2), (std::vector<uint64_t>{0, 8}));
  EXPECT_EQ(Layout(16), Pair(24, 8));
  // struct { char; float4; }
  EXPECT_EQ(Offsets(18, 2), (std::vector<uint64_t>{0, 16}));
  EXPECT_EQ(Layout(18), Pair(32, 16));
  // struct { struct { short; char; }; char; }: the inner struct is 4 bytes.
  EXPECT_EQ(Layout(30), Pair(4, 2));
  EXPECT_EQ(Offsets(31, 2), (std::vector<uint64_t>{0, 4}));
  EXPECT_EQ(Layout(31), Pair(6, 2));
}

TEST_F(TypeTableTest, PackedStructHasNoPadding) {
  const TypeInfo* packed = types_->Get(6);
  ASSERT_NE(packed, nullptr);
  EXPECT_TRUE(packed->packed);
  EXPECT_FALSE(types_->Get(5)->packed);
  EXPECT_EQ(Offsets(6, 3), (std::vector<uint64_t>{0, 1, 5}));
  EXPECT_EQ(Layout(6), Pair(9, 1));
  // A packed struct inside an ordinary one is aligned to 1.
  EXPECT_EQ(Offsets(32, 2), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(Layout(32), Pair(10, 1));
}

TEST_F(TypeTableTest, Arrays) {
  EXPECT_EQ(Layout(12), Pair(20, 4)) << "int[5]";
  EXPECT_EQ(Layout(13), Pair(20, 4)) << "char3[5]";
  EXPECT_EQ(Layout(29), Pair(32, 8)) << "struct{long;char}[2]";
  const TypeInfo* arr = types_->Get(12);
  ASSERT_NE(arr, nullptr);
  EXPECT_EQ(arr->element, 2u);
  EXPECT_EQ(arr->count, 5u);
  EXPECT_TRUE(arr->known_length);
  // Spec-constant length: aligned like its element, size unknown.
  EXPECT_FALSE(types_->Get(41)->known_length);
  EXPECT_EQ(Layout(41), Pair(0, 4));
  EXPECT_EQ(types_->SizeOf(42), std::nullopt);
  EXPECT_EQ(types_->AlignOf(42), 4u);
  EXPECT_EQ(types_->MemberOffset(42, 0), 0u);
  EXPECT_EQ(types_->MemberOffset(42, 1), 4u) << "unsized, but placed";
}

TEST_F(TypeTableTest, PointersAndEventsAreEightBytesUnderPhysical64) {
  EXPECT_EQ(Layout(14), Pair(8, 8));
  EXPECT_EQ(Layout(34), Pair(8, 8));
  EXPECT_EQ(Layout(33), Pair(8, 8));
  const TypeInfo* ptr = types_->Get(14);
  ASSERT_NE(ptr, nullptr);
  EXPECT_EQ(ptr->storage_class, spv::StorageClass::CrossWorkgroup);
  EXPECT_EQ(ptr->element, 5u);
}

TEST_F(TypeTableTest, TypesWithoutStorageHaveNoSize) {
  for (uint32_t id : {19u, 20u, 22u}) {
    EXPECT_NE(types_->Get(id), nullptr) << id;
    EXPECT_EQ(types_->SizeOf(id), std::nullopt) << id;
    EXPECT_EQ(types_->AlignOf(id), std::nullopt) << id;
  }
  EXPECT_EQ(types_->Get(11), nullptr) << "a constant is not a type";
  EXPECT_EQ(types_->SizeOf(999), std::nullopt);
  EXPECT_EQ(types_->MemberOffset(5, 3), std::nullopt);
  EXPECT_EQ(types_->MemberOffset(2, 0), std::nullopt);
  const TypeInfo* fn = types_->Get(22);
  EXPECT_EQ(fn->return_type, 19u);
  EXPECT_THAT(fn->members, ::testing::ElementsAre(14u));
}

TEST_F(TypeTableTest, IntConstants) {
  EXPECT_EQ(types_->IntConstant(11), 5u);
  EXPECT_EQ(types_->IntConstant(50), 255u) << "8-bit";
  EXPECT_EQ(types_->IntConstant(51), 65535u) << "16-bit";
  EXPECT_EQ(types_->IntConstant(52), 0xfffffffffffffffeull) << "64-bit";
  // Narrow signed literals are sign-extended to 32 bits in the binary;
  // IntConstant gives the value's own bits.
  EXPECT_EQ(types_->IntConstant(54), 0x80u);
  EXPECT_EQ(types_->IntConstant(56), 0xfffeu);
  EXPECT_EQ(types_->IntConstant(57), 1u) << "OpConstantTrue";
  EXPECT_EQ(types_->IntConstant(58), 0u) << "OpConstantNull";
  EXPECT_EQ(types_->IntConstant(59), std::nullopt) << "float";
  EXPECT_EQ(types_->IntConstant(2), std::nullopt) << "a type";
  EXPECT_EQ(types_->IntConstant(40), std::nullopt) << "spec constant";
  EXPECT_EQ(types_->IntConstant(40, /*allow_spec=*/true), 3u);
}

TEST_F(TypeTableTest, ScalarQueries) {
  EXPECT_EQ(types_->ScalarOf(4), 2u);
  EXPECT_EQ(types_->ScalarOf(2), 2u);
  EXPECT_EQ(types_->ScalarWidth(4), 32u);
  EXPECT_EQ(types_->ScalarWidth(27), 64u);
  EXPECT_EQ(types_->ScalarWidth(8), 16u);
  EXPECT_EQ(types_->ScalarWidth(5), 0u);
  EXPECT_EQ(types_->ScalarWidth(12345), 0u);
}

TEST(TypeTablePhysical32Test, PointersAreFourBytes) {
  auto words = Assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical32 OpenCL
          %1 = OpTypeInt 8 0
          %2 = OpTypePointer CrossWorkgroup %1
          %3 = OpTypeStruct %1 %2
  )");
  ASSERT_TRUE(words.ok()) << words.status();
  auto m = ReadModuleWords(*words);
  ASSERT_TRUE(m.ok()) << m.status();
  TypeTable types(*m);
  EXPECT_EQ(types.SizeOf(2), 4u);
  EXPECT_EQ(types.SizeOf(3), 8u);
}

TEST(TypeTableGroupDecorationTest, CPackedThroughADecorationGroup) {
  auto words = Assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
               OpDecorate %10 CPacked
         %10 = OpDecorationGroup
               OpGroupDecorate %10 %3
          %1 = OpTypeInt 8 0
          %2 = OpTypeInt 32 0
          %3 = OpTypeStruct %1 %2
          %4 = OpTypeStruct %1 %2
  )");
  ASSERT_TRUE(words.ok()) << words.status();
  auto m = ReadModuleWords(*words);
  ASSERT_TRUE(m.ok()) << m.status();
  TypeTable types(*m);
  EXPECT_EQ(types.SizeOf(3), 5u);
  EXPECT_EQ(types.MemberOffset(3, 1), 1u);
  EXPECT_EQ(types.SizeOf(4), 8u);  // the group packs %3 only
}

// Incremental: the caller declares types in order and supplies array
// lengths (the reference decoder passes its folded spec constants).
TEST(TypeTableIncrementalTest, ArrayLengthsComeFromTheCaller) {
  auto words = Assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical32 OpenCL
          %1 = OpTypeInt 32 0
          %2 = OpSpecConstant %1 3
          %3 = OpTypeArray %1 %2
          %4 = OpTypeStruct %1 %3
          %5 = OpConstant %1 7
          %6 = OpTypeArray %1 %5
          %7 = OpTypePointer CrossWorkgroup %1
  )");
  ASSERT_TRUE(words.ok()) << words.status();
  auto m = ReadModuleWords(*words);
  ASSERT_TRUE(m.ok()) << m.status();
  TypeTable types = TypeTable::Incremental(*m);
  EXPECT_EQ(types.Get(1), nullptr);  // nothing declared yet
  const TypeTable::LengthFn length = [](uint32_t id) {
    return id == 2 ? std::optional<uint64_t>(6) : std::nullopt;
  };
  for (const Instruction& inst : m->types_values) types.Declare(inst, length);
  EXPECT_EQ(types.SizeOf(3), 24u);
  EXPECT_EQ(types.MemberOffset(4, 1), 4u);
  EXPECT_EQ(types.SizeOf(4), 28u);
  // A length the caller does not know: no size (not the module's 7).
  EXPECT_FALSE(types.Get(6)->known_length);
  EXPECT_EQ(types.SizeOf(6), std::nullopt);
  EXPECT_EQ(types.SizeOf(7), 4u);  // the module's addressing model
  // Declare ignores instructions that declare no type.
  types.Declare(m->types_values[1], length);
  EXPECT_EQ(types.Get(2), nullptr);
}

// Hostile type graphs the reader accepts (it does not validate types).
class HostileTypesTest : public ::testing::Test {
 protected:
  Module Read(const RawModule& r) {
    auto m = ReadModuleWords(r.words());
    EXPECT_TRUE(m.ok()) << m.status();
    return m.ok() ? *std::move(m) : Module{};
  }
};

TEST_F(HostileTypesTest, ZeroComponentVectorHasNoLayout) {
  RawModule r(100);
  r.KernelPrologue();
  r.Add(Op::OpTypeInt, {1, 32, 0});
  r.Add(Op::OpTypeVector, {2, 1, 0});
  r.Add(Op::OpTypeStruct, {3, 1, 2});  // would divide by a zero alignment
  r.Add(Op::OpTypeArray, {4, 2, 1});
  const Module m = Read(r);
  TypeTable types(m);
  EXPECT_EQ(types.SizeOf(2), std::nullopt);
  EXPECT_EQ(types.AlignOf(2), std::nullopt);
  EXPECT_EQ(types.SizeOf(3), std::nullopt);
  EXPECT_EQ(types.MemberOffset(3, 1), std::nullopt);
  EXPECT_EQ(types.SizeOf(4), std::nullopt);
}

TEST_F(HostileTypesTest, ForwardAndSelfReferencesAreDropped) {
  RawModule r(100);
  r.KernelPrologue();
  r.Add(Op::OpTypeStruct, {1, 2});  // member declared later
  r.Add(Op::OpTypeInt, {2, 32, 0});
  r.Add(Op::OpTypeStruct, {3, 2, 3});  // itself
  r.Add(Op::OpTypeVector, {4, 4, 2});  // itself
  const Module m = Read(r);
  TypeTable types(m);
  EXPECT_EQ(types.Get(1), nullptr);
  EXPECT_EQ(types.Get(3), nullptr);
  EXPECT_EQ(types.Get(4), nullptr);
  EXPECT_EQ(types.SizeOf(2), 4u);
}

TEST_F(HostileTypesTest, OverflowingSizesHaveNoSize) {
  RawModule r(100);
  r.KernelPrologue();
  r.Add(Op::OpTypeInt, {1, 64, 0});
  r.Add(Op::OpConstant, {1, 2, 0xFFFFFFFF, 0});  // 2^32 - 1
  r.Add(Op::OpTypeInt, {3, 32, 0});
  r.Add(Op::OpConstant, {3, 4, 1u << 20});
  r.Add(Op::OpConstant, {1, 5, 0, 1});  // 2^32: no uint32 array length
  r.Add(Op::OpTypeArray, {10, 1, 2});   // 8 * (2^32 - 1) bytes
  r.Add(Op::OpTypeArray, {11, 10, 4});  // about 2^55 bytes
  r.Add(Op::OpTypeArray, {12, 11, 4});  // about 2^75 bytes: overflows
  r.Add(Op::OpTypeArray, {13, 12, 4});
  r.Add(Op::OpTypeVector, {20, 1, 0xFFFFFFFF});
  r.Add(Op::OpTypeArray, {21, 20, 2});
  std::vector<uint32_t> members = {22};
  members.insert(members.end(), 520, 11);  // 520 * 2^55 overflows
  r.Add(Op::OpTypeStruct, members);
  r.Add(Op::OpTypeArray, {23, 1, 5});
  const Module m = Read(r);
  TypeTable types(m);
  const uint64_t s10 = 0xFFFFFFFFull * 8;
  const uint64_t s11 = s10 << 20;
  EXPECT_EQ(types.SizeOf(10), s10);
  EXPECT_EQ(types.SizeOf(11), s11);
  EXPECT_EQ(types.SizeOf(12), std::nullopt);
  EXPECT_EQ(types.AlignOf(12), 8u);
  EXPECT_EQ(types.SizeOf(13), std::nullopt);
  EXPECT_EQ(types.AlignOf(13), 8u);
  EXPECT_EQ(types.SizeOf(20), s10);
  EXPECT_EQ(types.SizeOf(21), std::nullopt);
  EXPECT_EQ(types.SizeOf(22), std::nullopt);
  EXPECT_EQ(types.AlignOf(22), 8u);
  EXPECT_EQ(types.MemberOffset(22, 1), s11);
  EXPECT_EQ(types.MemberOffset(22, 512), 512 * s11);
  EXPECT_EQ(types.MemberOffset(22, 513), std::nullopt);
  EXPECT_FALSE(types.Get(23)->known_length);
  EXPECT_EQ(types.SizeOf(23), std::nullopt);
}

TEST_F(HostileTypesTest, DeepAndWideNestingIsComputedOnce) {
  // 60,000 nested arrays would overflow the stack of a recursive layout;
  // 40 structs of two copies of the previous one would take 2^40 steps.
  RawModule r(200000);
  r.KernelPrologue();
  r.Add(Op::OpTypeInt, {1, 8, 0});
  r.Add(Op::OpTypeInt, {2, 32, 0});
  r.Add(Op::OpConstant, {2, 3, 1});
  uint32_t id = 10;
  for (int i = 0; i < 60000; ++i, ++id) {
    r.Add(Op::OpTypeArray, {id, i == 0 ? 1u : id - 1, 3});
  }
  const uint32_t deep = id - 1;
  uint32_t prev = 1;
  for (int i = 0; i < 40; ++i, ++id) {
    r.Add(Op::OpTypeStruct, {id, prev, prev});
    prev = id;
  }
  const Module m = Read(r);
  TypeTable types(m);
  EXPECT_EQ(types.SizeOf(deep), 1u);
  EXPECT_EQ(types.SizeOf(prev), uint64_t{1} << 40);
  EXPECT_EQ(types.MemberOffset(prev, 1), uint64_t{1} << 39);
}

}  // namespace
}  // namespace l0spv::spirv
