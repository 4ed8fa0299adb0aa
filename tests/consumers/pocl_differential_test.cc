// The PoCL differential test: every corpus kernel runs on the
// reference interpreter (`ref`) and on PoCL through the SPIR path
// (`opencl:Portable Computing Language`); buffers and printf output must
// agree — integers exactly, floats within the sidecar's "tolerance".
// Kernels PoCL cannot run are listed in kSkipped with the reason.
// Set L0SPV_OPENCL_PLATFORM to compare against another platform, and
// L0SPV_DIFF_DUMP=DIR to write both sides' buffers (DIR/<kernel>.<side>.argN)
// and printf output for investigation.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "gtest/gtest.h"
#include "oracles/compare/compare.h"
#include "oracles/reference/interpreter.h"
#include "oracles/targets/consumer_probe.h"
#include "oracles/targets/opencl_target.h"
#include "spirv/launch_spec.h"
#include "tests/consumers/sidecar_tolerance.h"

namespace l0spv::spirv {
// Test names and failure messages show the kernel, not the struct's bytes.
void PrintTo(const CorpusEntry& entry, std::ostream* os) { *os << entry.name; }
}  // namespace l0spv::spirv

namespace l0spv::consumers_test {
namespace {

using namespace std::chrono_literals;

// Corpus kernels PoCL 3.1 (Debian, SPIR path) cannot run, with the reason.
const std::map<std::string, std::string>& Skipped() {
  static const auto* skipped = new std::map<std::string, std::string>{
      {"atomics_c11",
       "kernel library lacks generic-pointer atomics "
       "(_Z10atomic_addPU3AS4Vii)"},
      {"generic_addrspace",
       "kernel library lacks generic-pointer built-ins and to_global/to_local"},
      {"workgroup_collectives", "no work_group_* built-ins in the library"},
      {"conformance_float",
       "kernel library lacks generic-pointer built-ins (_Z5frexpfPU3AS4i)"},
      {"conformance_types",
       "kernel library lacks generic-pointer built-ins (_Z6vload4mPU3AS4Ki)"},
      {"groups", "no work_group_* built-ins (OpGroup* become them)"},
      {"fp16_half", "no cl_khr_fp16 (half built-ins missing from the library)"},
      {"conformance_half",
       "no cl_khr_fp16 (half built-ins missing from the library)"},
      {"half_convert", "no cl_khr_fp16 (convert_half_rt* missing)"},
      {"float_native_half",
       "half_recip/half_rsqrt/half_divide missing from the library"},
      {"reduce_nonuniform",
       "non-uniform work-groups refused (CL_INVALID_WORK_GROUP_SIZE); the "
       "results depend on the local size"},
      {"workitem_2d",
       "non-uniform work-groups refused (CL_INVALID_WORK_GROUP_SIZE); the "
       "results record local ids and sizes"},
      {"image_literal_samplers",
       "PoCL bug: the border colour of an R image is (0,0,0,0), OpenCL 1.2 "
       "§8.2 says (0,0,0,1) for orders without alpha"},
      {"image_3d_2darray",
       "PoCL bug: the border colour of an R image is (0,0,0,0), not "
       "(0,0,0,1)"},
      {"conformance_images",
       "PoCL bugs: R HalfFloat images read garbage and are not written, "
       "read_imagei of an R SignedInt32 image gives alpha 0 (not 1), R "
       "border colour (0,0,0,0) (checks 15-17, 25, 27, 32, 33 fail)"},
      {"image_channel_orders",
       "no RG, Intensity or Luminance images (clGetSupportedImageFormats)"},
      {"image_unorm_short_565", "no UnormShort565 images"},
      {"printf_formats",
       "PoCL bug: float arguments of %f/%e/%g print as 0 (SPIR passes float "
       "unpromoted when cl_khr_fp64 is off, PoCL's printf reads a double)"},
  };
  return *skipped;
}

// Corpus kernels with non-uniform work-groups whose results do not depend
// on the work-group size: both sides run them with the local size left to
// the implementation (PoCL refuses non-uniform groups).
bool RuntimeLocalSize(const std::string& name) {
  return name == "vector_add" || name == "int_div_rem";
}

std::string Manifest() {
  return std::string(L0SPV_BINARY_DIR) + "/corpora/corpus_manifest.txt";
}

std::vector<spirv::CorpusEntry> Entries() {
  auto entries = spirv::ReadCorpusManifest(Manifest());
  if (!entries.ok()) return {};
  return *entries;
}

std::string Platform() {
  const char* p = std::getenv("L0SPV_OPENCL_PLATFORM");
  return p ? p : "Portable Computing Language";
}

// Whether the platform exists with a device (probed once, in a worker).
bool HavePlatform() {
  static const bool have = [] {
    for (const oracles::OpenClPlatform& p : oracles::ProbeOpenCl().platforms)
      if (!p.devices.empty() && p.name.find(Platform()) != std::string::npos)
        return true;
    return false;
  }();
  return have;
}

void Dump(const std::string& prefix, const oracles::Execution& e) {
  for (size_t i = 0; i < e.buffers.size(); ++i) {
    if (e.buffers[i].empty()) continue;
    std::ofstream(prefix + ".arg" + std::to_string(i), std::ios::binary)
        .write(reinterpret_cast<const char*>(e.buffers[i].data()),
               static_cast<std::streamsize>(e.buffers[i].size()));
  }
  std::ofstream(prefix + ".printf", std::ios::binary) << e.printf_output;
}

class PoclDifferential : public testing::TestWithParam<spirv::CorpusEntry> {};

TEST_P(PoclDifferential, ReferenceAndPoclAgree) {
  const spirv::CorpusEntry& entry = GetParam();
  if (auto it = Skipped().find(entry.name); it != Skipped().end())
    GTEST_SKIP() << "known PoCL limitation: " << it->second;
  if (!HavePlatform())
    GTEST_SKIP() << "no OpenCL platform \"" << Platform()
                 << "\" with a device (install pocl-opencl-icd)";
  if (!std::filesystem::exists(entry.spv_path))
    GTEST_SKIP() << entry.spv_path << " not built (target l0spv_corpus)";

  auto tc = spirv::LoadSidecarCase(entry.spv_path, entry.json_path);
  ASSERT_TRUE(tc.ok()) << tc.status();
  if (RuntimeLocalSize(entry.name)) tc->nd_range.local.reset();
  std::ifstream in(entry.json_path);
  const auto sidecar = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(sidecar.is_discarded()) << entry.json_path;
  auto options = ToleranceFromSidecar(sidecar, entry.json_path);
  ASSERT_TRUE(options.ok()) << options.status();

  const oracles::Execution ref = oracles::reference::RunReference(*tc, {});
  ASSERT_EQ(ref.status, oracles::ExecutionStatus::kOk)
      << "ref: " << oracles::ExecutionStatusName(ref.status) << ": "
      << ref.message;

  oracles::OpenClTargetOptions cl_options;
  cl_options.platform = Platform();
  cl_options.time_limit = 120s;
  auto pocl = oracles::RunOnOpenCl(*tc, cl_options);
  ASSERT_TRUE(pocl.ok()) << pocl.status();
  ASSERT_EQ(pocl->status, oracles::ExecutionStatus::kOk)
      << "PoCL: " << oracles::ExecutionStatusName(pocl->status) << ": "
      << pocl->message << "\n"
      << pocl->log;

  if (const char* dump = std::getenv("L0SPV_DIFF_DUMP")) {
    Dump(std::string(dump) + "/" + entry.name + ".ref", ref);
    Dump(std::string(dump) + "/" + entry.name + ".pocl", *pocl);
  }
  const oracles::CompareResult r =
      oracles::CompareExecutions(*tc, ref, *pocl, *options);
  EXPECT_TRUE(r.equal) << entry.name << " [" << r.signature_kind
                       << "]: " << r.explanation;
}

std::string Name(const testing::TestParamInfo<spirv::CorpusEntry>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, PoclDifferential, testing::ValuesIn(Entries()),
                         Name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PoclDifferential);

TEST(PoclDifferentialSidecars, InexactSidecarsCarryAParsableTolerance) {
  const auto entries = Entries();
  if (entries.empty())
    GTEST_SKIP() << "corpus not built (" << Manifest() << ")";
  for (const auto& e : entries) {
    std::ifstream in(e.json_path);
    const auto sidecar = nlohmann::json::parse(in, nullptr, false);
    ASSERT_FALSE(sidecar.is_discarded()) << e.json_path;
    auto options = ToleranceFromSidecar(sidecar, e.json_path);
    EXPECT_TRUE(options.ok()) << options.status();
    if (!sidecar.value("exact", true)) {
      EXPECT_TRUE(sidecar.contains("tolerance") ||
                  sidecar.contains("tolerances"))
          << e.json_path << ": \"exact\": false needs \"tolerance\"";
    }
  }
}

TEST(PoclDifferentialSkipTable, NamesOnlyCorpusKernels) {
  const auto entries = Entries();
  if (entries.empty())
    GTEST_SKIP() << "corpus not built (" << Manifest() << ")";
  size_t found = 0;
  for (const auto& [name, reason] : Skipped()) {
    bool known = false;
    for (const auto& e : entries) known |= e.name == name;
    EXPECT_TRUE(known) << "skip table names unknown kernel " << name;
    found += known;
  }
  std::cout << "[pocl-differential] " << found << " of " << entries.size()
            << " corpus kernels skipped (known PoCL limitations)\n";
}

}  // namespace
}  // namespace l0spv::consumers_test
