#!/usr/bin/env bash
# ci/nightly for 30 s into OUT, then checks what it left: the report files,
# a cases/s chart with data, the findings table, coverage, and a second run
# against the first as "previous".
#   nightly_smoke.sh SOURCE_DIR OUT   (L0SPV_FUZZ, TARGETS, JOBS from the environment)
set -euo pipefail
src=$1
out=$2
rm -rf "$out"
"$src/ci/nightly" 30s "$out/night1"
fail() { echo "nightly_smoke: FAIL: $*" >&2; exit 1; }
for f in report.html report.md signatures.txt coverage.json nightly.json \
         campaigns/plain/stats.json campaigns/plain/stats-history.jsonl; do
  [[ -s "$out/night1/$f" ]] || fail "night1/$f missing or empty"
done
grep -q 'id="chart-cases-per-second"' "$out/night1/report.html" || fail "no cases/s chart"
grep -q '<polyline\|<circle' "$out/night1/report.html" || fail "the cases/s chart has no data"
grep -q 'id="findings"' "$out/night1/report.html" || fail "no findings table"
grep -q 'distinct core opcodes' "$out/night1/report.html" || fail "no coverage"
grep -q 'spirv-opt' "$out/night1/report.html" || fail "no spirv-opt target row"
echo "nightly_smoke: night1 OK ($(wc -l < "$out/night1/signatures.txt") finding signatures)"
