#include "tests/level_zero/ze_test_util.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "oracles/reference/level_zero/ze_image_format.h"
#include "spirv/spirv_tools.h"
#include "tests/spirv/image_kernel_prelude.h"

namespace l0spv::zeref_test {

using zeref::ZeImageDescOf;
using zeref::ZeSamplerDescOf;

namespace {
constexpr char kPrelude[] = R"(
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%ptr_in = OpTypePointer Input %v3ulong
%gid = OpVariable %ptr_in Input
%ptr_g_uint = OpTypePointer CrossWorkgroup %uint
%ptr_w_uint = OpTypePointer Workgroup %uint
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%ulong_1000000 = OpConstant %ulong 1000000
)";
}  // namespace

const char kScaleAdd[] = R"(
%kfn = OpTypeFunction %void %ptr_g_uint %ptr_g_uint %uint
%k = OpFunction %void None %kfn
%in = OpFunctionParameter %ptr_g_uint
%out = OpFunctionParameter %ptr_g_uint
%s = OpFunctionParameter %uint
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gv 0
%pi = OpInBoundsPtrAccessChain %ptr_g_uint %in %x
%v = OpLoad %uint %pi Aligned 4
%m = OpIMul %uint %v %uint_3
%r = OpIAdd %uint %m %s
%po = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %po %r Aligned 4
OpReturn
OpFunctionEnd
)";

const char kSpecScale[] = R"(
OpDecorate %sc SpecId 7
%sc = OpSpecConstant %uint 5
%kfn = OpTypeFunction %void %ptr_g_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gv 0
%x32 = OpUConvert %uint %x
%r = OpIMul %uint %x32 %sc
%po = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %po %r Aligned 4
OpReturn
OpFunctionEnd
)";

const char kOutOfBounds[] = R"(
%kfn = OpTypeFunction %void %ptr_g_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gv 0
%far = OpIAdd %ulong %x %ulong_1000000
%po = OpInBoundsPtrAccessChain %ptr_g_uint %out %far
OpStore %po %uint_1 Aligned 4
OpReturn
OpFunctionEnd
)";

const char kLocalCopy[] = R"(
%kfn = OpTypeFunction %void %ptr_g_uint %ptr_w_uint
%k = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_g_uint
%tmp = OpFunctionParameter %ptr_w_uint
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x = OpCompositeExtract %ulong %gv 0
%x32 = OpUConvert %uint %x
OpStore %tmp %x32 Aligned 4
%v = OpLoad %uint %tmp Aligned 4
%po = OpInBoundsPtrAccessChain %ptr_g_uint %out %x
OpStore %po %v Aligned 4
OpReturn
OpFunctionEnd
)";

namespace {
// k(read_only image2d_t src, write_only image2d_t dst, sampler_t s,
//   global uint4* out), on a 4x4 range:
//   dst[x,y] = read_imageui(src, (x,y)) + 1;
//   out[y*4+x] = read_imageui(src, s, (float2)(x - 0.5, y + 0.5));
// (nearest filtering of the texel to the left; clamped at x = 0). After the
// shared image prelude (tests/spirv/image_kernel_prelude.h).
constexpr char kImageKernelBody[] = R"(
%ptr_out = OpTypePointer CrossWorkgroup %v4uint
%uint_1 = OpConstant %uint 1
%ulong_4 = OpConstant %ulong 4
%float_0 = OpConstant %float 0
%float_half = OpConstant %float 0.5
%v4uint_1 = OpConstantComposite %v4uint %uint_1 %uint_1 %uint_1 %uint_1
%fn = OpTypeFunction %void %img_ro %img_wo %smp %ptr_out
%k = OpFunction %void None %fn
%src = OpFunctionParameter %img_ro
%dst = OpFunctionParameter %img_wo
%s = OpFunctionParameter %smp
%out = OpFunctionParameter %ptr_out
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%x64 = OpCompositeExtract %ulong %gv 0
%y64 = OpCompositeExtract %ulong %gv 1
%x = OpUConvert %uint %x64
%y = OpUConvert %uint %y64
%c = OpCompositeConstruct %v2uint %x %y
%t = OpImageRead %v4uint %src %c
%t1 = OpIAdd %v4uint %t %v4uint_1
OpImageWrite %dst %c %t1
%fx = OpConvertUToF %float %x
%fy = OpConvertUToF %float %y
%fxm = OpFSub %float %fx %float_half
%fyp = OpFAdd %float %fy %float_half
%cf = OpCompositeConstruct %v2float %fxm %fyp
%si = OpSampledImage %simg %src %s
%v = OpImageSampleExplicitLod %v4uint %si %cf Lod %float_0
%row = OpIMul %ulong %y64 %ulong_4
%idx = OpIAdd %ulong %row %x64
%p = OpInBoundsPtrAccessChain %ptr_out %out %idx
OpStore %p %v Aligned 16
OpReturn
OpFunctionEnd
)";
}  // namespace

std::string ImageKernel() {
  return spirv::test::ImageKernelModule(kImageKernelBody);
}

spirv::TestCase ImageKernelCase(uint32_t order) {
  spirv::TestCase tc;
  auto words = spirv::Assemble(ImageKernel());
  EXPECT_TRUE(words.ok()) << words.status();
  if (words.ok()) tc.module_words = *words;
  tc.entry_point = "k";
  tc.nd_range.dims = 2;
  tc.nd_range.global = {4, 4, 1};
  tc.nd_range.local = std::array<uint64_t, 3>{2, 2, 1};
  spirv::KernelArg src;
  src.kind = spirv::KernelArg::Kind::kImage;
  src.image.dim = spirv::ImageDim::k2D;
  src.image.order = order;
  src.image.type = spirv::channel_type::kUnsignedInt8;
  src.image.width = 4;
  src.image.height = 4;
  src.image.access = spirv::ImageAccess::kReadOnly;
  src.bytes = spirv::ImageTexelsFromSeed(src.image, 17);
  spirv::KernelArg dst = src;
  dst.image.access = spirv::ImageAccess::kWriteOnly;
  dst.bytes.assign(spirv::ImageBytes(dst.image), 0);
  dst.is_result = true;
  spirv::KernelArg sampler;
  sampler.kind = spirv::KernelArg::Kind::kSampler;
  sampler.sampler = {false, spirv::AddressingMode::kClampToEdge,
                     spirv::FilterMode::kNearest};
  spirv::KernelArg out;
  out.bytes.assign(16 * 16, 0);
  out.is_result = true;
  tc.args = {src, dst, sampler, out};
  return tc;
}

std::vector<uint32_t> Assemble(const std::string& text) {
  std::string full = text;
  // Kernels with annotations put them right after the prelude's decorations.
  const size_t decorate = text.find("OpDecorate");
  std::string annotations;
  if (decorate != std::string::npos) {
    const size_t end = text.find('\n', decorate);
    annotations = text.substr(decorate, end - decorate) + "\n";
    full = text.substr(0, decorate) + text.substr(end + 1);
  }
  std::string prelude = kPrelude;
  const size_t types = prelude.find("%void");
  prelude.insert(types, annotations);
  auto words = spirv::Assemble(prelude + full);
  EXPECT_TRUE(words.ok()) << words.status();
  return words.ok() ? *words : std::vector<uint32_t>{};
}

void ZeTest::SetUp() {
  ASSERT_EQ(zeInit(0), ZE_RESULT_SUCCESS)
      << "the l0spv reference driver did not load; ZE_ENABLE_ALT_DRIVERS="
      << (getenv("ZE_ENABLE_ALT_DRIVERS") ? getenv("ZE_ENABLE_ALT_DRIVERS")
                                          : "(unset)");
  uint32_t count = 1;
  ASSERT_EQ(zeDriverGet(&count, &driver_), ZE_RESULT_SUCCESS);
  count = 1;
  ASSERT_EQ(zeDeviceGet(driver_, &count, &device_), ZE_RESULT_SUCCESS);
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ASSERT_EQ(zeContextCreate(driver_, &desc, &context_), ZE_RESULT_SUCCESS);
}

void ZeTest::TearDown() {
  for (void* p : allocations_)
    EXPECT_EQ(zeMemFree(context_, p), ZE_RESULT_SUCCESS);
  if (context_) {
    EXPECT_EQ(zeContextDestroy(context_), ZE_RESULT_SUCCESS);
  }
}

ze_result_t ZeTest::CreateModule(const std::vector<uint32_t>& words,
                                 ze_module_handle_t* module, std::string* log,
                                 const char* flags,
                                 const ze_module_constants_t* constants) {
  ze_module_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  desc.inputSize = words.size() * 4;
  desc.pInputModule = reinterpret_cast<const uint8_t*>(words.data());
  desc.pBuildFlags = flags;
  desc.pConstants = constants;
  ze_module_build_log_handle_t build_log = nullptr;
  const ze_result_t r =
      zeModuleCreate(context_, device_, &desc, module, &build_log);
  if (build_log) {
    size_t size = 0;
    EXPECT_EQ(zeModuleBuildLogGetString(build_log, &size, nullptr),
              ZE_RESULT_SUCCESS);
    std::string text(size, '\0');
    EXPECT_EQ(zeModuleBuildLogGetString(build_log, &size, text.data()),
              ZE_RESULT_SUCCESS);
    if (!text.empty() && text.back() == '\0') text.pop_back();
    if (log) *log = text;
    EXPECT_EQ(zeModuleBuildLogDestroy(build_log), ZE_RESULT_SUCCESS);
  }
  return r;
}

void* ZeTest::Shared(size_t size) {
  auto dd =
      Desc<ze_device_mem_alloc_desc_t>(ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
  auto hd =
      Desc<ze_host_mem_alloc_desc_t>(ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
  void* p = nullptr;
  EXPECT_EQ(zeMemAllocShared(context_, &dd, &hd, size, 8, device_, &p),
            ZE_RESULT_SUCCESS);
  if (p) allocations_.push_back(p);
  return p;
}

ze_command_list_handle_t ZeTest::NewList() {
  auto desc = Desc<ze_command_list_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC);
  ze_command_list_handle_t list = nullptr;
  EXPECT_EQ(zeCommandListCreate(context_, device_, &desc, &list),
            ZE_RESULT_SUCCESS);
  return list;
}

ze_result_t ZeTest::Execute(ze_command_list_handle_t list) {
  auto desc =
      Desc<ze_command_queue_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
  ze_command_queue_handle_t queue = nullptr;
  EXPECT_EQ(zeCommandQueueCreate(context_, device_, &desc, &queue),
            ZE_RESULT_SUCCESS);
  ze_result_t r = zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr);
  if (r == ZE_RESULT_SUCCESS) r = zeCommandQueueSynchronize(queue, UINT64_MAX);
  EXPECT_EQ(zeCommandQueueDestroy(queue), ZE_RESULT_SUCCESS);
  return r;
}

bool IsNonUniform(const spirv::NdRange& range) {
  if (!range.local) return false;
  for (int d = 0; d < 3; ++d)
    if ((*range.local)[d] != 0 && range.global[d] % (*range.local)[d] != 0)
      return true;
  return false;
}

oracles::Execution RunThroughApi(ze_context_handle_t context,
                                 ze_device_handle_t device,
                                 const spirv::TestCase& tc) {
  oracles::Execution e;
  auto fail = [&e](const char* call, ze_result_t r) {
    e.status = oracles::ExecutionStatus::kCrashed;
    e.message = absl::StrFormat("%s returned 0x%x", call, r);
    return e;
  };
  ze_module_desc_t md{};
  md.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  md.format = ZE_MODULE_FORMAT_IL_SPIRV;
  md.inputSize = tc.module_words.size() * 4;
  md.pInputModule = reinterpret_cast<const uint8_t*>(tc.module_words.data());
  md.pBuildFlags = "";
  ze_module_handle_t module = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  ze_result_t r = zeModuleCreate(context, device, &md, &module, &log);
  if (log) {
    size_t size = 0;
    zeModuleBuildLogGetString(log, &size, nullptr);
    e.log.resize(size);
    zeModuleBuildLogGetString(log, &size, e.log.data());
    zeModuleBuildLogDestroy(log);
  }
  if (r != ZE_RESULT_SUCCESS) return fail("zeModuleCreate", r);
  auto kd = Desc<ze_kernel_desc_t>(ZE_STRUCTURE_TYPE_KERNEL_DESC);
  kd.pKernelName = tc.entry_point.c_str();
  ze_kernel_handle_t kernel = nullptr;
  std::vector<void*> buffers(tc.args.size(), nullptr);
  std::vector<ze_image_handle_t> images(tc.args.size(), nullptr);
  std::vector<ze_sampler_handle_t> samplers(tc.args.size(), nullptr);
  ze_command_list_handle_t list = nullptr;
  ze_command_queue_handle_t queue = nullptr;
  // Image uploads and read-backs: a synchronous immediate list.
  ze_command_list_handle_t copies = nullptr;
  auto cleanup = [&] {
    for (void* p : buffers)
      if (p) zeMemFree(context, p);
    for (ze_image_handle_t i : images)
      if (i) zeImageDestroy(i);
    for (ze_sampler_handle_t s : samplers)
      if (s) zeSamplerDestroy(s);
    if (copies) zeCommandListDestroy(copies);
    if (list) zeCommandListDestroy(list);
    if (queue) zeCommandQueueDestroy(queue);
    if (kernel) zeKernelDestroy(kernel);
    zeModuleDestroy(module);
  };
  r = zeKernelCreate(module, &kd, &kernel);
  if (r != ZE_RESULT_SUCCESS) {
    cleanup();
    return fail("zeKernelCreate", r);
  }
  uint32_t group[3] = {1, 1, 1};
  uint32_t global[3];
  for (int d = 0; d < 3; ++d)
    global[d] = static_cast<uint32_t>(tc.nd_range.global[d]);
  if (tc.nd_range.local) {
    for (int d = 0; d < 3; ++d)
      group[d] = static_cast<uint32_t>((*tc.nd_range.local)[d]);
  } else {
    zeKernelSuggestGroupSize(kernel, global[0], global[1], global[2], &group[0],
                             &group[1], &group[2]);
  }
  for (int d = 0; d < 3; ++d) {
    if (global[d] % group[d] != 0) {
      cleanup();
      e.status = oracles::ExecutionStatus::kUnsupported;
      e.message = "non-uniform work-groups (Level Zero launches whole groups)";
      return e;
    }
  }
  zeKernelSetGroupSize(kernel, group[0], group[1], group[2]);
  for (size_t i = 0; i < tc.args.size(); ++i) {
    const spirv::KernelArg& a = tc.args[i];
    const uint32_t index = static_cast<uint32_t>(i);
    if (a.kind == spirv::KernelArg::Kind::kBuffer) {
      if (!a.bytes.empty()) {
        auto dd = Desc<ze_device_mem_alloc_desc_t>(
            ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
        auto hd = Desc<ze_host_mem_alloc_desc_t>(
            ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
        zeMemAllocShared(context, &dd, &hd, a.bytes.size(), 64, device,
                         &buffers[i]);
        std::memcpy(buffers[i], a.bytes.data(), a.bytes.size());
      }
      r = zeKernelSetArgumentValue(kernel, index, sizeof(void*), &buffers[i]);
    } else if (a.kind == spirv::KernelArg::Kind::kScalar) {
      r = zeKernelSetArgumentValue(kernel, index, a.bytes.size(),
                                   a.bytes.data());
    } else if (a.kind == spirv::KernelArg::Kind::kImage) {
      auto desc = ZeImageDescOf(a.image);
      if (!desc.ok()) {
        cleanup();
        e.status = oracles::ExecutionStatus::kUnsupported;
        e.message = std::string(desc.status().message());
        return e;
      }
      if (!copies) {
        auto qd =
            Desc<ze_command_queue_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
        qd.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
        zeCommandListCreateImmediate(context, device, &qd, &copies);
      }
      r = zeImageCreate(context, device, &*desc, &images[i]);
      if (r == ZE_RESULT_SUCCESS)
        r = zeCommandListAppendImageCopyFromMemory(
            copies, images[i], a.bytes.data(), nullptr, nullptr, 0, nullptr);
      if (r == ZE_RESULT_SUCCESS)
        r = zeKernelSetArgumentValue(kernel, index, sizeof(ze_image_handle_t),
                                     &images[i]);
    } else if (a.kind == spirv::KernelArg::Kind::kSampler) {
      const ze_sampler_desc_t sd = ZeSamplerDescOf(a.sampler);
      r = zeSamplerCreate(context, device, &sd, &samplers[i]);
      if (r == ZE_RESULT_SUCCESS)
        r = zeKernelSetArgumentValue(kernel, index, sizeof(ze_sampler_handle_t),
                                     &samplers[i]);
    } else {
      r = zeKernelSetArgumentValue(kernel, index, a.local_bytes, nullptr);
    }
    if (r != ZE_RESULT_SUCCESS) {
      cleanup();
      return fail("zeKernelSetArgumentValue", r);
    }
  }
  auto ld = Desc<ze_command_list_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC);
  zeCommandListCreate(context, device, &ld, &list);
  auto qd = Desc<ze_command_queue_desc_t>(ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
  zeCommandQueueCreate(context, device, &qd, &queue);
  ze_group_count_t count{global[0] / group[0], global[1] / group[1],
                         global[2] / group[2]};
  r = zeCommandListAppendLaunchKernel(list, kernel, &count, nullptr, 0,
                                      nullptr);
  if (r == ZE_RESULT_SUCCESS) r = zeCommandListClose(list);
  if (r == ZE_RESULT_SUCCESS)
    r = zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr);
  if (r == ZE_RESULT_SUCCESS) r = zeCommandQueueSynchronize(queue, UINT64_MAX);
  if (r != ZE_RESULT_SUCCESS) {
    cleanup();
    return fail("launch", r);
  }
  e.buffers.resize(tc.args.size());
  for (size_t i = 0; i < tc.args.size(); ++i) {
    if (images[i]) {
      e.buffers[i].resize(tc.args[i].bytes.size());
      r = zeCommandListAppendImageCopyToMemory(
          copies, e.buffers[i].data(), images[i], nullptr, nullptr, 0, nullptr);
      if (r != ZE_RESULT_SUCCESS) {
        cleanup();
        return fail("zeCommandListAppendImageCopyToMemory", r);
      }
      continue;
    }
    if (!buffers[i]) continue;
    const auto* p = static_cast<const uint8_t*>(buffers[i]);
    e.buffers[i].assign(p, p + tc.args[i].bytes.size());
  }
  cleanup();
  return e;
}

}  // namespace l0spv::zeref_test
