#!/usr/bin/env bash
# Runs N generated kernels (default 1000) on Oclgrind with its data-race,
# invalid-memory and API-usage checks (OCLGRIND_DATA_RACES=1,
# OCLGRIND_CHECK_API=1), next to the reference interpreter, and reports how
# many runs Oclgrind flagged. The generator's guarantee: generated
# kernels are free of undefined behaviour, so every Oclgrind error report
# (verdict `target-ub`) is either an Oclgrind false positive or a generator
# bug worth reducing. Oclgrind's --uninitialized plugin is not enabled: in
# Oclgrind 21.10 it segfaults on vector kernels and reports vec3 padding
# (oracles/targets/README.md).
#
#   ci/oclgrind-check.sh [N] [OUT_DIR]
# Exit 0: no Oclgrind report; 1: reports (see OUT_DIR/findings); 2: setup.
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-1000}"
OUT="${2:-build/oclgrind-check}"
L=build/default/l0spv-fuzz
[ -x "$L" ] || { echo "build first: cmake --preset default && cmake --build build/default" >&2; exit 2; }
rc=0
"$L" --target=oclgrind --iterations="$N" --jobs="${JOBS:-2}" --out="$OUT" || rc=$?
[ "$rc" -le 1 ] || exit 2
python3 - "$OUT/stats.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
v = s["targets"].get("oclgrind", {}).get("verdicts", {})
print(f"oclgrind on {s['cases']} generated kernels: " +
      ", ".join(f"{k} {n}" for k, n in sorted(v.items())))
reports = v.get("target-ub", 0)
print(f"Oclgrind error reports (data races, invalid accesses): {reports}")
sys.exit(1 if reports else 0)
PY
