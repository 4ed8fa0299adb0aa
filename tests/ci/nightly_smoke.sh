#!/usr/bin/env bash
# ci/nightly for 30 s into OUT, then checks what it left: the report files,
# a cases/s chart with data, the findings table, coverage, the yield history;
# then the report of a copy of that night dated a day later, rendered against
# the first as "previous", must chart two nights.
#   nightly_smoke.sh SOURCE_DIR OUT   (L0SPV_FUZZ, TARGETS, JOBS from the environment)
set -euo pipefail
src=$1
out=$2
rm -rf "$out"
"$src/ci/nightly" 30s "$out/night1"
fail() { echo "nightly_smoke: FAIL: $*" >&2; exit 1; }
for f in report.html report.md signatures.txt coverage.json nightly.json \
         yield-history.jsonl campaigns/plain/stats.json \
         campaigns/plain/stats-history.jsonl; do
  [[ -s "$out/night1/$f" ]] || fail "night1/$f missing or empty"
done
grep -q 'id="chart-cases-per-second"' "$out/night1/report.html" || fail "no cases/s chart"
grep -q '<polyline\|<circle' "$out/night1/report.html" || fail "the cases/s chart has no data"
grep -q 'id="findings"' "$out/night1/report.html" || fail "no findings table"
grep -q 'distinct core opcodes' "$out/night1/report.html" || fail "no coverage"
grep -q 'spirv-opt' "$out/night1/report.html" || fail "no spirv-opt target row"
echo "nightly_smoke: night1 OK ($(wc -l < "$out/night1/signatures.txt") finding signatures)"
grep -q 'id="chart-yield-cases"' "$out/night1/report.html" || fail "no yield chart"
[[ $(wc -l < "$out/night1/yield-history.jsonl") -eq 1 ]] || fail "night1: not one night of yield"
cp -r "$out/night1" "$out/night2"
rm "$out/night2/yield-history.jsonl"
python3 - "$out/night2/nightly.json" <<'PY'
import json, sys
meta = json.load(open(sys.argv[1]))
meta["started_unix"] += 86400
json.dump(meta, open(sys.argv[1], "w"))
PY
python3 "$src/ci/nightly_report.py" "$out/night2" --previous "$out/night1" >/dev/null
[[ $(wc -l < "$out/night2/yield-history.jsonl") -eq 2 ]] || fail "night2: not two nights of yield"
grep -q 'data-series="spirv-opt"' "$out/night2/report.html" || fail "no spirv-opt yield series"
echo "nightly_smoke: night2 OK (yield of 2 nights charted)"
