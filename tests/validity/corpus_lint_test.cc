// False-positive guard: every corpus kernel that passes spirv-val (built
// into ${L0SPV_BINARY_DIR}/corpora by corpora/CMakeLists.txt from OpenCL C
// with clang-14 + llvm-spirv-14) must have no Level Zero finding under the
// 'full' profile. Skipped when the corpus has not been built.
#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "oracles/validity/lint.h"
#include "spirv/binary.h"

namespace l0spv::oracles {
namespace {

TEST(CorpusLintTest, ValidCorpusKernelsPassOnFull) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(L0SPV_BINARY_DIR) / "corpora";
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_directory(root, ec)) {
    for (auto it = fs::recursive_directory_iterator(root, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (it->path().extension() == ".spv") files.push_back(it->path());
    }
  }
  if (files.empty()) GTEST_SKIP() << "no corpus modules under " << root;
  auto full = FindDeviceProfile("full");
  ASSERT_TRUE(full.ok());
  size_t checked = 0;
  for (const fs::path& file : files) {
    auto bytes = spirv::ReadFileBytes(file.string());
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    auto report = LintBinary(*bytes, *full);
    if (!report.ok() || !report->spirv_val_error.empty()) continue;
    ++checked;
    EXPECT_TRUE(report->findings.empty())
        << file << " is a valid kernel but lints with findings:\n"
        << report->ToText();
  }
  RecordProperty("checked", static_cast<int>(checked));
}

}  // namespace
}  // namespace l0spv::oracles
