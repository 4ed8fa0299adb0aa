#!/usr/bin/env bash
# Sets up everything and runs every test:
#   1. g++ build with warnings as errors, all CTest suites;
#   2. clang-14 build with ASan + UBSan + libFuzzer instrumentation, all CTest
#      suites again under the sanitizers, plus the 60-second fuzz smoke runs
#      (label fuzz-smoke: reader, interpreter, generator, spirv-opt fuzzers)
#      and the OSS-Fuzz build test (ci.oss_fuzz_build: ci/oss-fuzz/build.sh
#      with OSS-Fuzz's variables, its own clang build, 20 s per fuzz target).
# Both stages also run the nightly report tests (label ci: renderer, headless
# Chromium, a 30-second ci/nightly run).
# Set L0SPV_SKIP_FUZZ=1 to skip step 2 (e.g. on a machine without clang).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc)
ci/install-deps.sh

echo "== [1/2] g++ -Werror build + tests"
cmake --preset ci >/dev/null
cmake --build build/ci -j "$jobs"
ctest --test-dir build/ci --output-on-failure -j "$jobs" -LE fuzz-smoke

if [[ "${L0SPV_SKIP_FUZZ:-0}" == "1" ]]; then
  echo "== [2/2] skipped (L0SPV_SKIP_FUZZ=1)"
  exit 0
fi
echo "== [2/2] clang-14 ASan+UBSan+libFuzzer build + tests + fuzz smoke"
cmake --preset fuzz >/dev/null
cmake --build build/fuzz -j "$jobs"
ctest --test-dir build/fuzz --output-on-failure -j "$jobs"
echo "== all tests passed"
