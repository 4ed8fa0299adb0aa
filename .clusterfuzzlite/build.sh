#!/bin/bash -eu
# ClusterFuzzLite build: the OSS-Fuzz build script (same variables, same $OUT).
exec bash "$SRC/l0spv-fuzz/ci/oss-fuzz/build.sh"
