// tests/support/linkage_modules.h — the two-module program the linkage
// tests share (spirv/link, the targets, the CLI): kernel `k` stores
// add1(gid.x) to out[gid.x] through its buffer argument, add1 imported.
#pragma once

#include <string>

#include "spirv/test_case.h"

namespace l0spv::test_support {

// The launch of kernel `k` these modules share: 4 work-items, one 16-byte
// result buffer `out` (out[gid.x] is written).
inline void SetKernelKLaunch(spirv::TestCase& tc) {
  tc.entry_point = "k";
  tc.nd_range.dims = 1;
  tc.nd_range.global = {4, 1, 1};
  spirv::KernelArg out;
  out.kind = spirv::KernelArg::Kind::kBuffer;
  out.bytes.assign(16, 0);
  out.is_result = true;
  tc.args.push_back(out);
}

// The capabilities every module of these tests declares.
inline constexpr char kLinkagePreamble[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpCapability Int64
)";

// The kernel module after the preamble.
inline constexpr char kImportsAdd1Body[] = R"(
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
OpName %add1 "add1"
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
OpDecorate %add1 LinkageAttributes "add1" Import
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%pv3 = OpTypePointer Input %v3ulong
%gptr = OpTypePointer CrossWorkgroup %uint
%kfn = OpTypeFunction %void %gptr
%ufn = OpTypeFunction %uint %uint
%gid = OpVariable %pv3 Input
%add1 = OpFunction %uint None %ufn
%x = OpFunctionParameter %uint
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

// The whole kernel module.
inline std::string ImportsAdd1() {
  return std::string(kLinkagePreamble) + kImportsAdd1Body;
}

}  // namespace l0spv::test_support
