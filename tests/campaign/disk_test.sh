#!/usr/bin/env bash
# Hostile disks: a campaign whose --out fills up, or is read-only,
# stops within seconds with the path and errno, leaves no .tmp-* litter, and
# resumes once space is free; SIGINT stops it within a second with a
# stats.json; a second campaign on the same --out is refused.
# Usage: disk_test.sh L0SPV_FUZZ SCRATCH. Needs root to mount a small tmpfs;
# exits 77 (CTest: skipped) where it cannot.
set -uo pipefail
L=$1
scratch=$2
mnt=$scratch/small
fail() { echo "FAIL: $*"; umount "$mnt" 2>/dev/null; exit 1; }
rm -rf "$scratch"
mkdir -p "$mnt"
if ! mount -t tmpfs -o size=2m tmpfs "$mnt" 2>/dev/null; then
  echo "skipped: cannot mount a tmpfs here (needs root / CAP_SYS_ADMIN)"
  exit 77
fi
trap 'umount "$mnt" 2>/dev/null' EXIT
args=(--target=spirv-opt --jobs=2 --no_reduce --allow_known_bugs)

# 1. Full disk: fill all but ~100 KiB, run for up to 60 s.
dd if=/dev/zero of="$mnt/fill" bs=1k count=1940 2>/dev/null
start=$(date +%s)
"$L" "${args[@]}" --time=60s --out="$mnt/c" >"$scratch/full.log" 2>&1
rc=$?
took=$(( $(date +%s) - start ))
[[ $rc -eq 2 ]] || fail "full disk: exit $rc, wanted 2 ($(tail -3 "$scratch/full.log"))"
[[ $took -lt 40 ]] || fail "full disk: stopped only after $took s"
grep -q "No space left on device" "$scratch/full.log" ||
  fail "full disk: no errno in the message: $(tail -3 "$scratch/full.log")"
grep -q "re-run the same command to resume" "$scratch/full.log" ||
  fail "full disk: no advice in the message"
if ls -a "$mnt/c/findings" | grep -q '^\.tmp-'; then fail "full disk: .tmp-* left"; fi
echo "full disk: exit 2 after $took s: $(grep -m1 'No space' "$scratch/full.log")"

# 2. Free the space and resume: the campaign goes on and finishes.
rm -f "$mnt/fill"
"$L" "${args[@]}" --iterations=300 --out="$mnt/c" >"$scratch/resume.log" 2>&1
rc=$?
[[ $rc -le 1 ]] || fail "resume: exit $rc ($(tail -3 "$scratch/resume.log"))"
cases=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['cases'])" "$mnt/c/stats.json")
[[ $cases -ge 300 ]] || fail "resume: stats.json counts $cases cases, wanted >= 300"
echo "resume: $cases cases in total"

# 3. Read-only --out: refused at once.
mount -o remount,ro "$mnt"
start=$(date +%s)
"$L" "${args[@]}" --time=60s --out="$mnt/c" >"$scratch/ro.log" 2>&1
rc=$?
mount -o remount,rw "$mnt"
took=$(( $(date +%s) - start ))
[[ $rc -eq 2 && $took -lt 10 ]] || fail "read-only: exit $rc after $took s"
grep -q "Read-only file system" "$scratch/ro.log" || fail "read-only: no errno: $(cat "$scratch/ro.log")"
echo "read-only: exit 2 after $took s"

# 4. SIGINT: stops within a second, writes stats.json; a second campaign on
#    the same --out meanwhile is refused.
rm -rf "$mnt/c"
"$L" "${args[@]}" --time=60s --out="$mnt/c" >"$scratch/int.log" 2>&1 &
pid=$!
sleep 3
"$L" "${args[@]}" --time=5s --out="$mnt/c" >"$scratch/second.log" 2>&1
rc=$?
[[ $rc -eq 2 ]] && grep -q "another campaign is running" "$scratch/second.log" ||
  fail "second campaign on one --out: exit $rc ($(cat "$scratch/second.log"))"
kill -INT $pid
t0=$(date +%s%N)
wait $pid
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
[[ $ms -lt 3000 ]] || fail "SIGINT: took $ms ms to stop"
[[ -f "$mnt/c/stats.json" ]] || fail "SIGINT: no stats.json"
grep -q "interrupted" "$scratch/int.log" || fail "SIGINT: not reported"
echo "SIGINT: stopped in $ms ms with stats.json"
echo "PASS"
