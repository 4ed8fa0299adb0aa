// main() of the Level Zero suites: CTest sets ZE_ENABLE_ALT_DRIVERS (see
// CMakeLists.txt); a binary run by hand gets the driver of its own build.
#include <cstdlib>

#include "gtest/gtest.h"

int main(int argc, char** argv) {
  setenv("ZE_ENABLE_ALT_DRIVERS", L0SPV_REFERENCE_DRIVER, /*overwrite=*/0);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
