#!/usr/bin/env bash
# Consumer check for a built corpus: for every module in a corpus manifest
# (name<TAB>spv<TAB>json), run
#   spirv-val --target-env <env>   (env from the source's l0spv-val-env line,
#                                   default opencl2.2)
#   ocloc compile -spirv_input -device tgllp   (skl if the module declares
#                                   Float64: Gen12LP has no fp64)
#   llvm-spirv-14 -r               (reverse translation to LLVM bitcode)
# and print one line per module plus a closing "N passed, N failed" line.
#
# usage: corpora/tools/verify_corpus.sh <build>/corpora/corpus_manifest.txt
#        [--no-ocloc] [--keep <dir>]
# Exit status: 0 if every module passed every available check.
set -uo pipefail

manifest=""
use_ocloc=1
keep=""
while (($#)); do
  case "$1" in
    --no-ocloc) use_ocloc=0 ;;
    --keep) keep="$2"; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) manifest="$1" ;;
  esac
  shift
done
if [[ -z "$manifest" || ! -f "$manifest" ]]; then
  echo "usage: $0 <corpus_manifest.txt> [--no-ocloc] [--keep <dir>]" >&2
  exit 2
fi

need() { command -v "$1" >/dev/null 2>&1; }
for t in spirv-val spirv-dis; do
  need "$t" || { echo "verify_corpus: $t not found (run ci/install-deps.sh)" >&2; exit 2; }
done
llvm_spirv=$(command -v llvm-spirv-14 || command -v llvm-spirv || true)
[[ -n "$llvm_spirv" ]] || { echo "verify_corpus: llvm-spirv-14 not found (run ci/install-deps.sh)" >&2; exit 2; }
if ((use_ocloc)) && ! need ocloc; then
  echo "verify_corpus: ocloc not found; skipping the IGC check" >&2
  use_ocloc=0
fi

work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[[ -n "$keep" ]] || trap 'rm -rf "$work"' EXIT

passed=0
failed=0
while IFS=$'\t' read -r name spv json; do
  [[ -n "$name" ]] || continue
  src="${json%.json}.cl"
  [[ -f "$src" ]] || src="${json%.json}.spvasm"
  env=$(grep -m1 -oE '^(//|;) l0spv-val-env: [a-z0-9.]+' "$src" 2>/dev/null | awk '{print $3}')
  env=${env:-opencl2.2}
  problems=()

  if ! out=$(spirv-val --target-env "$env" "$spv" 2>&1); then
    problems+=("spirv-val($env): $(echo "$out" | head -2 | tr '\n' ' ')")
  fi

  if ((use_ocloc)); then
    device=tgllp
    spirv-dis "$spv" | grep -q 'OpCapability Float64' && device=skl
    mkdir -p "$work/$name"
    cp "$spv" "$work/$name/$name.spv"
    out=$(cd "$work/$name" && ocloc compile -spirv_input -file "$name.spv" \
            -device "$device" 2>&1)
    rc=$?
    if ((rc != 0)); then
      msg=$(echo "$out" | grep -iE 'error' | grep -v 'Build failed' | sort -u |
            head -2 | tr '\n' ' ')
      problems+=("ocloc($device) exit $rc: ${msg:-no message}")
    fi
  fi

  out=$("$llvm_spirv" -r "$spv" -o "$work/$name.rev.bc" 2>&1)
  rc=$?
  if ((rc != 0)); then
    msg=$(echo "$out" | grep -m1 -iE 'error|assert' | cut -c1-160)
    ((rc == 139)) && msg="segmentation fault ${msg}"
    problems+=("llvm-spirv -r exit $rc: ${msg:-no message}")
  fi

  if ((${#problems[@]} == 0)); then
    passed=$((passed + 1))
    echo "ok   $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name"
    for p in "${problems[@]}"; do echo "       $p"; done
  fi
done <"$manifest"

echo "${passed} passed, ${failed} failed"
((failed == 0))
