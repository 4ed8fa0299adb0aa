// The process's scratch root: made once, swept when its process is gone.
#include "oracles/process/scratch_root.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace l0spv::oracles {
namespace {

namespace fs = std::filesystem;

TEST(ScratchRoot, SweepsRootsOfProcessesThatAreGoneAndNothingElse) {
  const fs::path base = fs::path(::testing::TempDir()) /
                        ("l0spv_scratch_root_" + std::to_string(getpid()));
  fs::remove_all(base);
  fs::create_directories(base);
  // A root whose process is gone (no pid 4194304+ exists: above pid_max's
  // ceiling), one of a running process with the wrong start time (a reused
  // pid), and directories that are not roots.
  fs::create_directories(base / "l0spv-4194999-12" / "l0spv-opt-abc");
  fs::create_directories(base / ("l0spv-" + std::to_string(getppid()) + "-1"));
  fs::create_directories(base / "l0spv-reduce-XYZ123");
  fs::create_directories(base / "unrelated");
  SweepStaleScratchRoots(base.string());
  EXPECT_FALSE(fs::exists(base / "l0spv-4194999-12"));
  EXPECT_FALSE(
      fs::exists(base / ("l0spv-" + std::to_string(getppid()) + "-1")));
  EXPECT_TRUE(fs::exists(base / "l0spv-reduce-XYZ123"));
  EXPECT_TRUE(fs::exists(base / "unrelated"));

  // This process's own root is made under TMPDIR and survives a sweep.
  setenv("TMPDIR", base.c_str(), 1);
  auto root = ProcessScratchRoot();
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(fs::path(*root).parent_path(), base);
  EXPECT_EQ(*ProcessScratchRoot(), *root);  // once per process
  SweepStaleScratchRoots(base.string());
  EXPECT_TRUE(fs::is_directory(*root));
  fs::remove_all(base);
}

}  // namespace
}  // namespace l0spv::oracles
