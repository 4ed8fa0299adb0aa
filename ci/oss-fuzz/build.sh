#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script for l0spv-fuzz.
#
# Honours the variables OSS-Fuzz's builder sets: $CC $CXX $CFLAGS $CXXFLAGS
# (they carry the sanitizer and coverage instrumentation), $LIB_FUZZING_ENGINE
# (what fuzz targets link with), $OUT (where fuzz targets, seed corpora,
# dictionaries and .options go), $SRC (sources), $WORK (scratch), $SANITIZER.
# For every fuzz target listed in ci/oss-fuzz/fuzzers.txt it writes
#   $OUT/<fuzzer>                  the fuzz target
#   $OUT/<fuzzer>_seed_corpus.zip  its seeds, each file named by its sha1
#   $OUT/<fuzzer>.options          libFuzzer options ([libfuzzer] section)
#   $OUT/<fuzzer>.dict             its dictionary, when it has one
# ci/oss-fuzz/test-build.sh runs this script the way OSS-Fuzz does, with
# local paths.
#
# Dependencies: the Debian 12 packages of ci/install-deps.sh, or (in the
# OSS-Fuzz image, see Dockerfile) sources under $SRC/deps, built here first
# into $WORK/deps with the same compiler.
set -o pipefail

: "${SRC:?}" "${WORK:?}" "${OUT:?}" "${CC:?}" "${CXX:?}"
: "${CFLAGS:=}" "${CXXFLAGS:=}" "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${SANITIZER:=address}"
# The checkout: beside this script (ci/oss-fuzz/), or $SRC/l0spv-fuzz when
# the image copied the script to $SRC/build.sh.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=${L0SPV_SOURCE_DIR:-}
if [[ -z "$project" ]]; then
  if [[ -f "$here/../../fuzzers/libfuzzer/CMakeLists.txt" ]]; then
    project=$(cd "$here/../.." && pwd)
  else
    project="$SRC/l0spv-fuzz"
  fi
fi
list="$project/ci/oss-fuzz/fuzzers.txt"
build="$WORK/l0spv-build-$SANITIZER"
jobs=${L0SPV_BUILD_JOBS:-$(nproc)}

if [[ "$SANITIZER" == "memory" ]]; then
  # MSan needs every library (abseil, SPIRV-Tools, libstdc++) instrumented;
  # the project does not build them so.
  echo "build.sh: SANITIZER=memory is not supported (see ci/oss-fuzz/README.md)" >&2
  exit 1
fi

# --- Dependencies from source (OSS-Fuzz image only).
prefix_path=""
if [[ -d "$SRC/deps" ]]; then
  deps="$WORK/deps"
  dep() {  # dep NAME CMAKE_ARGS...
    local name=$1; shift
    [[ -f "$deps/.done-$name" ]] && return 0
    cmake -S "$SRC/deps/$name" -B "$WORK/deps-build/$name" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$deps" \
      -DCMAKE_PREFIX_PATH="$deps" -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
      -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
      -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" "$@"
    cmake --build "$WORK/deps-build/$name" -j "$jobs" --target install
    touch "$deps/.done-$name"
  }
  dep abseil-cpp -DABSL_PROPAGATE_CXX_STD=ON -DCMAKE_CXX_STANDARD=20 \
    -DABSL_BUILD_TESTING=OFF
  dep json -DJSON_BuildTests=OFF
  dep SPIRV-Headers
  dep SPIRV-Tools -DSPIRV-Headers_SOURCE_DIR="$SRC/deps/SPIRV-Headers" \
    -DSPIRV_SKIP_TESTS=ON -DSPIRV_WERROR=OFF
  prefix_path="$deps"
  export PATH="$deps/bin:$PATH"
fi

# --- The corpus needs clang and llvm-spirv to compile OpenCL C; without
# them the seeds are the hand-written and generated modules only.
corpus=OFF
if command -v llvm-spirv-14 >/dev/null || command -v llvm-spirv >/dev/null; then
  corpus=ON
fi

cmake -S "$project" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE= \
  -DCMAKE_PREFIX_PATH="$prefix_path" \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DL0SPV_FUZZERS=ON -DL0SPV_FUZZ_INSTRUMENT=OFF \
  -DL0SPV_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DL0SPV_SANITIZE=OFF -DL0SPV_WERROR=OFF -DL0SPV_TESTS=OFF \
  -DL0SPV_BENCHMARKS=OFF -DL0SPV_CORPUS="$corpus" \
  ${L0SPV_CMAKE_ARGS:-}

manifest="$build/fuzzers/libfuzzer/fuzzers.txt"
# Names from fuzzers.txt: required ones must be declared, optional ones
# ("name?") are skipped when this configuration does not declare them.
targets=()
while read -r line; do
  line=${line%%#*}
  line=${line//[[:space:]]/}
  [[ -z "$line" ]] && continue
  name=${line%\?}
  if ! grep -q "^$name	" "$manifest"; then
    if [[ "$line" == *\? ]]; then
      echo "build.sh: $name not configured here (optional): skipped"
      continue
    fi
    echo "build.sh: $name is listed in fuzzers.txt but not declared" >&2
    exit 1
  fi
  targets+=("$name")
done < "$list"

cmake --build "$build" -j "$jobs" --target "${targets[@]}"

mkdir -p "$OUT"
for name in "${targets[@]}"; do
  # cut, not read: IFS would merge the empty dictionary field.
  row=$(grep "^$name	" "$manifest")
  binary=$(cut -f2 <<<"$row"); seeds=$(cut -f3 <<<"$row")
  dict=$(cut -f4 <<<"$row"); options=$(cut -f5 <<<"$row")
  cp "$binary" "$OUT/$name"
  cp "$options" "$OUT/$name.options"
  if [[ -n "$dict" ]]; then cp "$dict" "$OUT/$name.dict"; fi
  staging="$WORK/seeds-$name"
  rm -rf "$staging" && mkdir -p "$staging"
  for f in "$seeds"/*; do
    [[ -f "$f" ]] || continue
    sum=$(sha1sum "$f" | cut -d' ' -f1)
    cp "$f" "$staging/$sum"
  done
  rm -f "$OUT/${name}_seed_corpus.zip"
  (cd "$staging" && zip -q -X "$OUT/${name}_seed_corpus.zip" ./*)
  echo "build.sh: $name: $(ls "$staging" | wc -l) seeds${dict:+, dictionary}"
done
