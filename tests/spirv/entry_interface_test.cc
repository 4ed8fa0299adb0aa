// SPIR-V 1.4 entry-point interfaces: every module-scope variable of the call
// tree is listed (spirv-val rejects the module before, accepts it after);
// older modules and complete lists are left alone.
#include "spirv/entry_interface.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/binary.h"
#include "spirv/spirv_tools.h"
#include "spirv/unified1/spirv.hpp11"

namespace l0spv::spirv {
namespace {

// Kernel %k calls %helper, which stores into the Workgroup variable %shared;
// %unused is never referenced. The interface lists only the Input built-in.
constexpr char kModule[] = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpDecorate %gid BuiltIn GlobalLinearId
               OpDecorate %gid Constant
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_0 = OpConstant %uint 0
   %ptr_in = OpTypePointer Input %ulong
   %ptr_wg = OpTypePointer Workgroup %uint
        %gid = OpVariable %ptr_in Input
     %shared = OpVariable %ptr_wg Workgroup
     %unused = OpVariable %ptr_wg Workgroup
         %fn = OpTypeFunction %void
     %helper = OpFunction %void None %fn
          %h = OpLabel
               OpStore %shared %uint_0
               OpReturn
               OpFunctionEnd
          %k = OpFunction %void None %fn
          %l = OpLabel
          %x = OpLoad %ulong %gid
          %c = OpFunctionCall %void %helper
               OpReturn
               OpFunctionEnd
)";

Module AssembleAt(spv_target_env env) {
  auto words = Assemble(kModule, env);
  EXPECT_TRUE(words.ok()) << words.status();
  auto m = ReadModuleWords(*words);
  EXPECT_TRUE(m.ok()) << m.status();
  return *m;
}

std::vector<uint32_t> InterfaceOf(const Module& m) {
  std::vector<uint32_t> ids;
  for (size_t i = 3; i < m.entry_points[0].NumOperands(); ++i)
    ids.push_back(m.entry_points[0].word(i));
  return ids;
}

TEST(EntryInterface, ListsTheCallTreesGlobalsFromSpirv14On) {
  Module m = AssembleAt(SPV_ENV_UNIVERSAL_1_4);
  std::vector<uint32_t> variables;  // %gid, %shared, %unused
  for (const Instruction& i : m.types_values)
    if (i.opcode() == static_cast<uint32_t>(spv::Op::OpVariable))
      variables.push_back(i.result_id());
  ASSERT_EQ(variables.size(), 3u);
  const uint32_t gid = variables[0], shared = variables[1];
  ASSERT_THAT(InterfaceOf(m), ::testing::ElementsAre(gid));
  EXPECT_FALSE(Validate(EncodeModule(m), SPV_ENV_UNIVERSAL_1_4).ok());
  CompleteEntryPointInterfaces(m);
  // %unused is not referenced: not listed.
  EXPECT_THAT(InterfaceOf(m), ::testing::ElementsAre(gid, shared));
  EXPECT_TRUE(Validate(EncodeModule(m), SPV_ENV_UNIVERSAL_1_4).ok());
  // Complete already: unchanged.
  const std::vector<uint32_t> before = EncodeModule(m);
  CompleteEntryPointInterfaces(m);
  EXPECT_EQ(EncodeModule(m), before);
}

TEST(EntryInterface, LeavesModulesBeforeSpirv14Alone) {
  Module m = AssembleAt(SPV_ENV_UNIVERSAL_1_3);
  const std::vector<uint32_t> before = EncodeModule(m);
  CompleteEntryPointInterfaces(m);
  EXPECT_EQ(EncodeModule(m), before);
  EXPECT_TRUE(Validate(before, SPV_ENV_UNIVERSAL_1_3).ok());
}

}  // namespace
}  // namespace l0spv::spirv
