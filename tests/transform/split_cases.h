// tests/transform/split_cases.h — the cases the case-level kinds'
// tests share (split_module, duplicate_linkonce): a kernel with two helper
// functions, the one-buffer launch, and the check that a transformed case
// computes on ref what the whole one computes.
#pragma once

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "oracles/reference/interpreter.h"
#include "spirv/spirv_tools.h"
#include "spirv/test_case.h"
#include "tests/support/linkage_modules.h"

namespace l0spv::generators::transform {

// spirv-val as ref runs it (the universal environment of the version).
inline absl::Status Valid(const std::vector<uint32_t>& words) {
  return spirv::Validate(
      words, spirv::UniversalEnvForVersion(words.size() > 1 ? words[1] : 0));
}

// Kernel k stores add1(gid.x) and twice(gid.x); add1 calls twice.
inline constexpr char kWhole[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
OpName %add1 "add1"
OpName %twice "twice"
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
OpDecorate %x FuncParamAttr Zext
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%one = OpConstant %uint 1
%v3ulong = OpTypeVector %ulong 3
%pv3 = OpTypePointer Input %v3ulong
%gptr = OpTypePointer CrossWorkgroup %uint
%kfn = OpTypeFunction %void %gptr
%ufn = OpTypeFunction %uint %uint
%gid = OpVariable %pv3 Input
%twice = OpFunction %uint None %ufn
%y = OpFunctionParameter %uint
%tb = OpLabel
%y2 = OpIAdd %uint %y %y
OpReturnValue %y2
OpFunctionEnd
%add1 = OpFunction %uint None %ufn
%x = OpFunctionParameter %uint
%ab = OpLabel
%x1 = OpIAdd %uint %x %one
%x2 = OpFunctionCall %uint %twice %x1
OpReturnValue %x2
OpFunctionEnd
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %gptr
%entry = OpLabel
%g = OpLoad %v3ulong %gid
%g0 = OpCompositeExtract %ulong %g 0
%g32 = OpUConvert %uint %g0
%r = OpFunctionCall %uint %add1 %g32
%p = OpInBoundsPtrAccessChain %gptr %out %g0
OpStore %p %r
OpReturn
OpFunctionEnd
)";

inline spirv::TestCase CaseOf(const std::string& text) {
  spirv::TestCase tc;
  auto words = spirv::Assemble(text);
  EXPECT_TRUE(words.ok()) << words.status();
  if (words.ok()) tc.module_words = *words;
  test_support::SetKernelKLaunch(tc);
  return tc;
}

inline void ExpectSameOnRef(const spirv::TestCase& whole,
                            const spirv::TestCase& split) {
  oracles::reference::ReferenceOptions ref;
  const oracles::Execution a = oracles::reference::RunReference(whole, ref);
  const oracles::Execution b = oracles::reference::RunReference(split, ref);
  ASSERT_EQ(a.status, oracles::ExecutionStatus::kOk) << a.message;
  ASSERT_EQ(b.status, oracles::ExecutionStatus::kOk) << b.message;
  EXPECT_EQ(a.buffers, b.buffers);
  EXPECT_EQ(a.printf_output, b.printf_output);
}

}  // namespace l0spv::generators::transform
