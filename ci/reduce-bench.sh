#!/bin/sh
# ci/reduce-bench.sh [COUNT] [BUILD_DIR] — the reducer's figures.
#
# For each injected fault of tests/reducer/reduce_fault_target.h (a
# miscompiled OpIMul on 16-bit vectors, a crash on OpenCL.std rotate), takes
# COUNT (default 20) generated cases of >= 300 function-body instructions
# that trigger it, reduces each (budget 120 s, spirv-reduce included) and
# prints the median function-body instruction count of the reduced cases
# (goal <= 25), how many still contain the faulty operation (goal: all) and
# the per-reduction time (goal <= 120 s on a 2-core machine).
# Runs at nice 10; needs the build's l0spv_reduce_fault_tool.
set -eu
COUNT=${1:-20}
BUILD=${2:-build/default}
TOOL=$(cd "$BUILD" && pwd)/l0spv_reduce_fault_tool
[ -x "$TOOL" ] || { echo "missing $TOOL: cmake --build $BUILD --target l0spv_reduce_fault_tool" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

status=0
for fault in fault-imul16v fault-crash-rotate; do
  "$TOOL" make-findings --fault=$fault --count="$COUNT" --min_instructions=300 \
    --out="$WORK/$fault" > "$WORK/$fault.list"
  : > "$WORK/$fault.jsonl"
  while read -r dir; do
    nice -n 10 "$TOOL" reduce "$dir" --reduce_time=120 >> "$WORK/$fault.jsonl"
  done < "$WORK/$fault.list"
  n=$(wc -l < "$WORK/$fault.jsonl")
  before=$(sed 's/.*"instructions_before":\([0-9]*\).*/\1/' "$WORK/$fault.jsonl" | median)
  after=$(sed 's/.*"instructions_after":\([0-9]*\).*/\1/' "$WORK/$fault.jsonl" | median)
  maxafter=$(sed 's/.*"instructions_after":\([0-9]*\).*/\1/' "$WORK/$fault.jsonl" | sort -n | tail -1)
  present=$(grep -c '"fault_present":true' "$WORK/$fault.jsonl" || true)
  secs=$(sed 's/.*"seconds":\([0-9.]*\).*/\1/' "$WORK/$fault.jsonl")
  tmed=$(echo "$secs" | median)
  tmax=$(echo "$secs" | sort -n | tail -1)
  runs=$(sed 's/.*"interestingness_runs":\([0-9]*\).*/\1/' "$WORK/$fault.jsonl" | median)
  echo "$fault: $n cases; function-body instructions median $before -> $after (max $maxafter);" \
       "fault present in $present/$n; seconds per reduction median $tmed, max $tmax;" \
       "interestingness runs median $runs"
  awk -v a="$after" -v t="$tmax" -v p="$present" -v n="$n" 'BEGIN {exit !(a <= 25 && t <= 120 && p == n)}' || status=1
done
exit $status
