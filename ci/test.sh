#!/usr/bin/env bash
# Sets up everything and runs every test:
#   1. g++ build with warnings as errors, all CTest suites;
#   2. clang-14 build with ASan + UBSan + libFuzzer instrumentation, all CTest
#      suites again under the sanitizers, plus the fuzz smoke runs
#      (label fuzz-smoke: 30 s per fuzz target).
# The OSS-Fuzz build test (ci.oss_fuzz_build, label oss-fuzz: a third, clang
# build with OSS-Fuzz's variables, about 5 minutes here and twice that on
# CI's machine) is left out to keep CI under 45 minutes; it runs in
# `OSS_FUZZ_BUILD=1 ci/nightly ...` or by hand:
#   ctest --test-dir build/fuzz -L oss-fuzz
# Stage 1 also runs the nightly report tests (label ci: renderer, headless
# Chromium, a 30-second ci/nightly run); stage 2 leaves them out (Python and
# a browser: nothing of ours for the sanitizers to watch).
# Set L0SPV_SKIP_FUZZ=1 to skip step 2 (e.g. on a machine without clang).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc)
# Each phase says how long it took (seconds since the start), so a slower
# CI run shows where the time went.
phase() { echo "== [${SECONDS}s] $*"; }
phase "install-deps"
ci/install-deps.sh

phase "[1/2] g++ -Werror build"
cmake --preset ci >/dev/null
cmake --build build/ci -j "$jobs"
phase "[1/2] tests"
ctest --test-dir build/ci --output-on-failure -j "$jobs" -LE fuzz-smoke

if [[ "${L0SPV_SKIP_FUZZ:-0}" == "1" ]]; then
  echo "== [2/2] skipped (L0SPV_SKIP_FUZZ=1)"
  exit 0
fi
phase "[2/2] clang-14 ASan+UBSan+libFuzzer build"
cmake --preset fuzz >/dev/null
cmake --build build/fuzz -j "$jobs"
phase "[2/2] tests + fuzz smoke"
ctest --test-dir build/fuzz --output-on-failure -j "$jobs" -LE '^(oss-fuzz|ci)$'
phase "all tests passed"
