#!/usr/bin/env bash
# Proves ci/oss-fuzz/build.sh works the way OSS-Fuzz / ClusterFuzzLite call
# it, without Docker: sets $CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE
# $SANITIZER $SRC $WORK $OUT as OSS-Fuzz's address-sanitizer libFuzzer
# build does (clang-14 here), runs build.sh, checks that every fuzz target
# of ci/oss-fuzz/fuzzers.txt landed in $OUT with its .options, seed corpus
# zip (files named by their sha1) and dictionary, then runs each fuzz
# target for SECONDS (default 20) from its unpacked seeds, with its options
# and dictionary, as ClusterFuzz would, with a fixed -seed and at most RUNS
# executions (default 1000), so the run is reproducible: the differential
# fuzzers of third-party consumers keep finding those consumers' bugs, and
# a test must not flake on whichever one a faster machine reaches first
# (L0SPV_FUZZ_REPORT_ONLY=1: consumer findings are printed, not crashes;
# fuzzers/libfuzzer/consumer_finding.h).
# Exit 0 only if all of that holds.
#
#   ci/oss-fuzz/test-build.sh [WORK_DIR] [SECONDS] [RUNS]
# L0SPV_BUILD_JOBS limits build parallelism; ccache is used when installed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/../.." && pwd)
work=$(mkdir -p "${1:-$project/build/oss-fuzz-test}" && cd "${1:-$project/build/oss-fuzz-test}" && pwd)
seconds=${2:-20}
runs=${3:-1000}

export SRC="$work/src" WORK="$work/work" OUT="$work/out"
export CC=clang-14 CXX=clang++-14 SANITIZER=address
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address"
flags+=" -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CFLAGS="$flags" CXXFLAGS="$flags"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer
if command -v ccache >/dev/null; then
  export L0SPV_CMAKE_ARGS="-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
fi
rm -rf "$OUT" && mkdir -p "$SRC" "$WORK" "$OUT"

echo "== build.sh (OUT=$OUT)"
start=$(date +%s)
bash "$here/build.sh"
echo "== build.sh done in $(( $(date +%s) - start )) s"

fail() { echo "test-build: FAIL: $*" >&2; exit 1; }
fuzzers=()
while read -r line; do
  line=${line%%#*}
  line=${line//[[:space:]]/}
  [[ -z "$line" ]] && continue
  name=${line%\?}
  if [[ ! -e "$OUT/$name" && "$line" == *\? ]]; then
    echo "test-build: $name not built here (optional)"
    continue
  fi
  fuzzers+=("$name")
done < "$here/fuzzers.txt"

for name in "${fuzzers[@]}"; do
  [[ -x "$OUT/$name" ]] || fail "$OUT/$name missing or not executable"
  [[ -s "$OUT/$name.options" ]] || fail "$OUT/$name.options missing"
  grep -q '^\[libfuzzer\]' "$OUT/$name.options" || fail "$name.options has no [libfuzzer] section"
  zip="$OUT/${name}_seed_corpus.zip"
  [[ -s "$zip" ]] || fail "$zip missing"
  seeds="$WORK/test-seeds-$name"
  rm -rf "$seeds" && mkdir -p "$seeds"
  unzip -q "$zip" -d "$seeds"
  count=0
  for f in "$seeds"/*; do
    [[ "$(basename "$f")" == "$(sha1sum "$f" | cut -d' ' -f1)" ]] \
      || fail "$zip: $(basename "$f") is not named by its sha1"
    count=$((count + 1))
  done
  (( count > 0 )) || fail "$zip is empty"
  args=()
  while IFS='=' read -r key value; do
    key=${key//[[:space:]]/}; value=${value//[[:space:]]/}
    [[ -n "$key" && "$key" != \[* ]] && args+=("-$key=$value")
  done < "$OUT/$name.options"
  dict_note="no dictionary"
  if [[ -e "$OUT/$name.dict" ]]; then
    args+=("-dict=$OUT/$name.dict")
    dict_note="dictionary $(grep -c '=' "$OUT/$name.dict") entries"
  fi
  echo "== $name: $count seeds, $dict_note; fuzzing ${seconds}s"
  mkdir -p "$WORK/artifacts-$name"
  log="$WORK/$name.log"
  if ! L0SPV_FUZZ_REPORT_ONLY=1 "$OUT/$name" "${args[@]}" -seed=1 -runs="$runs" \
      -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="$WORK/artifacts-$name/" "$seeds" >"$log" 2>&1; then
    tail -40 "$log" >&2
    fail "$name found something or failed (log: $log)"
  fi
  grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$log" | tr '\n' ' '
  echo
done
echo "test-build: OK (${#fuzzers[@]} fuzz targets built, packaged and run ${seconds}s each)"
