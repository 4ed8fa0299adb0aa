#include "bench/reference/bench_kernels.h"

#include "spirv/spirv_tools.h"
#include "tests/spirv/image_kernel_prelude.h"

namespace l0spv::bench {
namespace {

constexpr char kPrelude[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid %lid_var
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %lid_var BuiltIn LocalInvocationId
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v3ulong = OpTypeVector %ulong 3
%ptr_in = OpTypePointer Input %v3ulong
%gid = OpVariable %ptr_in Input
%lid_var = OpVariable %ptr_in Input
%ptr_g_uint = OpTypePointer CrossWorkgroup %uint
%ptr_l_uint = OpTypePointer Workgroup %uint
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_264 = OpConstant %uint 264
%uint_1000 = OpConstant %uint 1000
%uint_64 = OpConstant %uint 64
%uint_63 = OpConstant %uint 63
%ulong_64 = OpConstant %ulong 64
%ulong_4096 = OpConstant %ulong 4096
%float_1 = OpConstant %float 1.0001
%float_h = OpConstant %float 0.5
)";

// ALU: 1000 iterations of integer and float arithmetic per work-item.
constexpr char kAlu[] = R"(
%kfn = OpTypeFunction %void %ptr_g_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gv 0
%x32 = OpUConvert %uint %x
OpBranch %loop
%loop = OpLabel
%i = OpPhi %uint %uint_0 %entry %i2 %loop
%a = OpPhi %uint %x32 %entry %a3 %loop
%f = OpPhi %float %float_1 %entry %f2 %loop
%a1 = OpIMul %uint %a %uint_3
%a2 = OpBitwiseXor %uint %a1 %i
%a3 = OpShiftRightLogical %uint %a2 %uint_1
%f1 = OpFMul %float %f %float_1
%f2 = OpFAdd %float %f1 %float_h
%i2 = OpIAdd %uint %i %uint_1
%c = OpULessThan %bool %i2 %uint_1000
OpLoopMerge %exit %loop None
OpBranchConditional %c %loop %exit
%exit = OpLabel
%fb = OpConvertFToU %uint %f2
%r = OpIAdd %uint %a3 %fb
%p = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %p %r Aligned 4
OpReturn
OpFunctionEnd
)";

// Memory: each of 4096 work-items sums 64 words of `in` (one per row of a
// 64 x 4096 matrix: neighbouring work-items touch neighbouring words) and
// stores every partial sum into `out`. Two loads/stores per 11 instructions;
// the launch is as large as the other kernels' so that the fixed cost of a
// run (decode, allocation) does not dominate (a 64-item launch measured
// the set-up, not the memory path).
constexpr char kMemory[] = R"(
%kfn = OpTypeFunction %void %ptr_g_uint %ptr_g_uint
%k = OpFunction %void None %kfn
%in = OpFunctionParameter %ptr_g_uint
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gv 0
OpBranch %loop
%loop = OpLabel
%i = OpPhi %uint %uint_0 %entry %i2 %loop
%s = OpPhi %uint %uint_0 %entry %s2 %loop
%il = OpUConvert %ulong %i
%row = OpIMul %ulong %il %ulong_4096
%idx = OpIAdd %ulong %row %x
%p = OpInBoundsPtrAccessChain %ptr_g_uint %in %idx
%v = OpLoad %uint %p Aligned 4
%s2 = OpIAdd %uint %s %v
%q = OpInBoundsPtrAccessChain %ptr_g_uint %out %idx
OpStore %q %s2 Aligned 4
%i2 = OpIAdd %uint %i %uint_1
%c = OpULessThan %bool %i2 %uint_64
OpLoopMerge %exit %loop None
OpBranchConditional %c %loop %exit
%exit = OpLabel
OpReturn
OpFunctionEnd
)";

// Barriers: 64 rounds of write-local / barrier / read-neighbour / barrier.
constexpr char kBarrier[] = R"(
%kfn = OpTypeFunction %void %ptr_g_uint %ptr_l_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%loc = OpFunctionParameter %ptr_l_uint
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gv 0
%lv = OpLoad %v3ulong %lid_var Aligned 32
%l = OpCompositeExtract %ulong %lv 0
%l32 = OpUConvert %uint %l
%mine = OpInBoundsPtrAccessChain %ptr_l_uint %loc %l
%n1 = OpIAdd %uint %l32 %uint_1
%n = OpBitwiseAnd %uint %n1 %uint_63
%nl = OpUConvert %ulong %n
%theirs = OpInBoundsPtrAccessChain %ptr_l_uint %loc %nl
OpBranch %loop
%loop = OpLabel
%i = OpPhi %uint %uint_0 %entry %i2 %loop
%v = OpPhi %uint %l32 %entry %v2 %loop
OpStore %mine %v Aligned 4
OpControlBarrier %uint_2 %uint_2 %uint_264
%t = OpLoad %uint %theirs Aligned 4
%v2 = OpIAdd %uint %t %i
OpControlBarrier %uint_2 %uint_2 %uint_264
%i2 = OpIAdd %uint %i %uint_1
%c = OpULessThan %bool %i2 %uint_64
OpLoopMerge %exit %loop None
OpBranchConditional %c %loop %exit
%exit = OpLabel
%p = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %p %v2 Aligned 4
OpReturn
OpFunctionEnd
)";

spirv::KernelArg Buffer(size_t bytes) {
  spirv::KernelArg a;
  a.kind = spirv::KernelArg::Kind::kBuffer;
  a.bytes.assign(bytes, 1);
  a.is_result = true;
  return a;
}

// Image: 128 sampled reads per work-item (normalised coordinates, nearest,
// clamp-to-edge) from a 64x64 RGBA UnormInt8 image, summed, written to a
// 64x64 RGBA Float image and to a buffer. After the shared image prelude
// (tests/spirv/image_kernel_prelude.h), not kPrelude: images need their own
// capabilities; vectors are built with OpCompositeInsert because
// llvm-spirv-14 -r crashes on OpCompositeConstruct of run-time values (known
// bug composite_construct_runtime). Nearest filtering keeps every consumer's
// result exact (unorm8 -> float is c / 255 correctly rounded, summed in one
// order).
constexpr char kImage[] = R"(
%ptr_g_float = OpTypePointer CrossWorkgroup %float
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_7 = OpConstant %uint 7
%uint_13 = OpConstant %uint 13
%uint_63 = OpConstant %uint 63
%uint_64 = OpConstant %uint 64
%uint_128 = OpConstant %uint 128
%float_0 = OpConstant %float 0
%float_half = OpConstant %float 0.5
%float_inv64 = OpConstant %float 0.015625
%v4float_0 = OpConstantComposite %v4float %float_0 %float_0 %float_0 %float_0
%v2float_0 = OpConstantComposite %v2float %float_0 %float_0
%v2uint_0 = OpConstantComposite %v2uint %uint_0 %uint_0
%kfn = OpTypeFunction %void %ptr_g_float %img_ro %smp %img_wo
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_float
%src = OpFunctionParameter %img_ro
%sampler = OpFunctionParameter %smp
%dst = OpFunctionParameter %img_wo
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x64 = OpCompositeExtract %ulong %gv 0
%x = OpUConvert %uint %x64
%si = OpSampledImage %simg %src %sampler
OpBranch %loop
%loop = OpLabel
%i = OpPhi %uint %uint_0 %entry %i2 %loop
%acc = OpPhi %v4float %v4float_0 %entry %acc2 %loop
%t0 = OpIMul %uint %i %uint_7
%t1 = OpIAdd %uint %t0 %x
%cx = OpBitwiseAnd %uint %t1 %uint_63
%t2 = OpIMul %uint %i %uint_13
%t3 = OpShiftRightLogical %uint %x %uint_1
%t4 = OpIAdd %uint %t2 %t3
%cy = OpBitwiseAnd %uint %t4 %uint_63
%fx = OpConvertUToF %float %cx
%fy = OpConvertUToF %float %cy
%ux = OpFAdd %float %fx %float_half
%uy = OpFAdd %float %fy %float_half
%nx = OpFMul %float %ux %float_inv64
%ny = OpFMul %float %uy %float_inv64
%coord0 = OpCompositeInsert %v2float %nx %v2float_0 0
%coord = OpCompositeInsert %v2float %ny %coord0 1
%texel = OpImageSampleExplicitLod %v4float %si %coord Lod %float_0
%acc2 = OpFAdd %v4float %acc %texel
%i2 = OpIAdd %uint %i %uint_1
%more = OpULessThan %bool %i2 %uint_128
OpLoopMerge %done %loop None
OpBranchConditional %more %loop %done
%done = OpLabel
%wx = OpBitwiseAnd %uint %x %uint_63
%wy0 = OpShiftRightLogical %uint %x %uint_1
%wy1 = OpShiftRightLogical %uint %wy0 %uint_1
%wy2 = OpShiftRightLogical %uint %wy1 %uint_1
%wy3 = OpShiftRightLogical %uint %wy2 %uint_1
%wy4 = OpShiftRightLogical %uint %wy3 %uint_1
%wy = OpShiftRightLogical %uint %wy4 %uint_1
%wc0 = OpCompositeInsert %v2uint %wx %v2uint_0 0
%wc = OpCompositeInsert %v2uint %wy %wc0 1
OpImageWrite %dst %wc %acc2
%r = OpCompositeExtract %float %acc2 0
%p = OpInBoundsPtrAccessChain %ptr_g_float %out %x64
OpStore %p %r Aligned 4
OpReturn
OpFunctionEnd
)";

}  // namespace

const char* BenchKernelName(BenchKernel kernel) {
  switch (kernel) {
    case BenchKernel::kAlu:
      return "alu";
    case BenchKernel::kMemory:
      return "memory";
    case BenchKernel::kBarrier:
      return "barrier";
    case BenchKernel::kImage:
      return "image";
  }
  return "?";
}

absl::StatusOr<spirv::TestCase> KernelCase(BenchKernel kernel) {
  spirv::TestCase tc;
  std::string text = kPrelude;
  uint64_t global = 4096;
  switch (kernel) {
    case BenchKernel::kAlu:
      text += kAlu;
      tc.args = {Buffer(4096 * 4)};
      break;
    case BenchKernel::kMemory:
      text += kMemory;
      tc.args = {Buffer(64 * 4096 * 4), Buffer(64 * 4096 * 4)};
      break;
    case BenchKernel::kBarrier: {
      text += kBarrier;
      spirv::KernelArg local;
      local.kind = spirv::KernelArg::Kind::kLocal;
      local.local_bytes = 64 * 4;
      tc.args = {Buffer(4096 * 4), local};
      break;
    }
    case BenchKernel::kImage: {
      text = spirv::test::ImageKernelModule(kImage);
      spirv::KernelArg src, sampler, dst;
      src.kind = dst.kind = spirv::KernelArg::Kind::kImage;
      src.image.width = src.image.height = 64;
      src.bytes = spirv::ImageTexelsFromSeed(src.image, 1);
      sampler.kind = spirv::KernelArg::Kind::kSampler;
      sampler.sampler.normalized = true;
      dst.image = src.image;
      dst.image.type = spirv::channel_type::kFloat;
      dst.image.access = spirv::ImageAccess::kWriteOnly;
      dst.bytes.assign(spirv::ImageBytes(dst.image), 0);
      dst.is_result = true;
      tc.args = {Buffer(4096 * 4), src, sampler, dst};
      break;
    }
  }
  auto words = spirv::Assemble(text);
  if (!words.ok()) return words.status();
  tc.module_words = *std::move(words);
  tc.entry_point = std::string(1, 'k');  // (GCC 12 -Wrestrict false positive)
  tc.nd_range.global[0] = global;
  tc.nd_range.local = std::array<uint64_t, 3>{64, 1, 1};
  return tc;
}

}  // namespace l0spv::bench
