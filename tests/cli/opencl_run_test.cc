// The stand-alone OpenCL host program `report` writes beside UPSTREAM.md
// (fuzzers/cli/opencl_run_source.h), on image and sampler arguments: built
// with cc, it runs a SPIR module (llvm-spirv-14 -r) on PoCL, and under the
// `oclgrind` wrapper on Oclgrind, with `image:` and `sampler:` arguments in
// the form report_command.cc emits, and prints the result image. Skips when
// cc, llvm-spirv-14 or the platform is missing.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "fuzzers/cli/opencl_run_source.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "oracles/process/subprocess.h"
#include "spirv/file_io.h"
#include "spirv/spirv_tools.h"
#include "tests/spirv/image_kernel_prelude.h"

namespace l0spv::fuzzers::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// dst(x, y) = read_imagef(src, s, (x + 0.5, y + 0.5)). Coordinates are
// built with OpCompositeInsert: llvm-spirv-14 -r crashes on
// OpCompositeConstruct with run-time operands.
// The kernel after the shared image prelude (image_kernel_prelude.h).
constexpr char kCopyKernel[] = R"(
%kfn = OpTypeFunction %void %img_ro %img_wo %smp
%float_0 = OpConstant %float 0
%half = OpConstant %float 0.5
%uf = OpUndef %v2float
%uu = OpUndef %v2uint
%k = OpFunction %void None %kfn
%src = OpFunctionParameter %img_ro
%dst = OpFunctionParameter %img_wo
%s = OpFunctionParameter %smp
%entry = OpLabel
%gv = OpLoad %v3ulong %gid Aligned 32
%gx = OpCompositeExtract %ulong %gv 0
%gy = OpCompositeExtract %ulong %gv 1
%x = OpUConvert %uint %gx
%y = OpUConvert %uint %gy
%xf0 = OpConvertUToF %float %x
%yf0 = OpConvertUToF %float %y
%xf = OpFAdd %float %xf0 %half
%yf = OpFAdd %float %yf0 %half
%c0 = OpCompositeInsert %v2float %xf %uf 0
%c = OpCompositeInsert %v2float %yf %c0 1
%si = OpSampledImage %simg %src %s
%v = OpImageSampleExplicitLod %v4float %si %c Lod %float_0
%i0 = OpCompositeInsert %v2uint %x %uu 0
%i = OpCompositeInsert %v2uint %y %i0 1
OpImageWrite %dst %i %v
OpReturn
OpFunctionEnd
)";

oracles::ChildResult RunTool(const std::vector<std::string>& argv,
                             const std::string& dir) {
  oracles::ChildLimits limits;
  limits.wall_time = std::chrono::seconds(120);
  limits.memory_bytes = 0;
  auto r = oracles::RunCommand(argv, limits, dir);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : oracles::ChildResult{};
}

bool OnPath(const std::string& tool) {
  return RunTool({"sh", "-c", "command -v " + tool}, "/").Succeeded();
}

class OpenClRunImages : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* tool : {"cc", "llvm-spirv-14"})
      if (!OnPath(tool)) GTEST_SKIP() << tool << " not installed";
    dir_ = fs::path(::testing::TempDir()) /
           ("l0spv_opencl_run_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ASSERT_TRUE(
        spirv::WriteTextFile((dir_ / "opencl_run.c").string(), kOpenClRunSource)
            .ok());
    auto words = spirv::Assemble(spirv::test::ImageKernelModule(kCopyKernel));
    ASSERT_TRUE(words.ok()) << words.status();
    std::vector<uint8_t> bytes(words->size() * 4);
    std::memcpy(bytes.data(), words->data(), bytes.size());
    ASSERT_TRUE(
        spirv::WriteFileBytes((dir_ / "module.spv").string(), bytes).ok());
    std::vector<uint8_t> src(32);
    for (size_t i = 0; i < src.size(); ++i)
      src[i] = static_cast<uint8_t>(i * 7);
    ASSERT_TRUE(spirv::WriteFileBytes((dir_ / "arg0.bin").string(), src).ok());
    ASSERT_TRUE(spirv::WriteFileBytes((dir_ / "arg1.bin").string(),
                                      std::vector<uint8_t>(32, 0))
                    .ok());
    const oracles::ChildResult build =
        RunTool({"sh", "-c",
                 "llvm-spirv-14 -r module.spv -o module.bc && "
                 "cc -Wall -Werror opencl_run.c -lOpenCL -o opencl_run"},
                dir_.string());
    ASSERT_TRUE(build.Succeeded()) << build.stderr_text;
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // The arguments as report_command.cc's OpenClRunArgs writes them.
  std::vector<std::string> Args(const std::string& platform) const {
    return {"./opencl_run",
            platform,
            "module.bc",
            "k",
            "4,2",
            "-",
            "image:arg0.bin:2d:RGBA:UnormInt8:4x2x1x1",
            "image:arg1.bin:2d:RGBA:UnormInt8:4x2x1x1:out",
            "sampler:unnormalized:ClampToEdge:Nearest"};
  }

  // The printed result image: arg1 with the source's texels.
  static void ExpectCopied(const oracles::ChildResult& run) {
    ASSERT_TRUE(run.Succeeded()) << run.stdout_text << run.stderr_text;
    EXPECT_THAT(run.stdout_text,
                HasSubstr("arg1:\n  00 07 0e 15 1c 23 2a 31 38 3f 46 4d 54 "
                          "5b 62 69\n  70 77 7e 85 8c 93 9a a1 a8 af b6 bd c4 "
                          "cb d2 d9\n"));
  }

  fs::path dir_;
};

TEST_F(OpenClRunImages, CopiesAnImageThroughASamplerOnPocl) {
  if (!fs::exists("/etc/OpenCL/vendors/pocl.icd"))
    GTEST_SKIP() << "PoCL not installed";
  setenv("OCL_ICD_VENDORS", "/etc/OpenCL/vendors/pocl.icd", 1);
  ExpectCopied(RunTool(Args("Portable"), dir_.string()));
}

TEST_F(OpenClRunImages, CopiesAnImageThroughASamplerUnderOclgrind) {
  if (!OnPath("oclgrind")) GTEST_SKIP() << "oclgrind not installed";
  unsetenv("OCL_ICD_VENDORS");  // the wrapper brings its own runtime
  std::vector<std::string> argv = Args("Oclgrind");
  argv.insert(argv.begin(), "oclgrind");
  ExpectCopied(RunTool(argv, dir_.string()));
}

TEST_F(OpenClRunImages, ABadImageArgumentIsExitTwo) {
  if (!fs::exists("/etc/OpenCL/vendors/pocl.icd"))
    GTEST_SKIP() << "PoCL not installed";
  setenv("OCL_ICD_VENDORS", "/etc/OpenCL/vendors/pocl.icd", 1);
  std::vector<std::string> argv = Args("Portable");
  argv[6] = "image:arg0.bin:2d:RGBA:NoSuchType:4x2x1x1";
  const oracles::ChildResult run = RunTool(argv, dir_.string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.stderr_text, HasSubstr("unknown name 'NoSuchType'"));
}

}  // namespace
}  // namespace l0spv::fuzzers::cli
