#!/usr/bin/env bash
# Sets up everything (Debian packages, build) and runs the default job:
# probe every target on this machine, lint the bundled corpus against the
# Level Zero environment, run three corpus kernels on the reference, then a
# short campaign (generated kernels on every available target, 60 s).
# Safe to re-run; later runs only rebuild (the campaign resumes).
set -euo pipefail
cd "$(dirname "$0")/.."

ci/install-deps.sh
cmake --preset default >/dev/null
cmake --build build/default --target l0spv-fuzz l0spv_corpus

echo "== l0spv-fuzz targets"
build/default/l0spv-fuzz targets
echo
echo "== l0spv-fuzz lint build/default/corpora (profile: full)"
build/default/l0spv-fuzz lint --profile=full build/default/corpora
echo
echo "== l0spv-fuzz run: corpus kernels on the reference interpreter"
for k in vector_add reduce_sum_local printf_formats; do
  build/default/l0spv-fuzz run "build/default/corpora/$k.spv" \
    --sidecar="corpora/opencl/$k.json" --target=ref
done
echo
echo "== l0spv-fuzz: a 60-second campaign on every available target"
# Exit 1 means the campaign kept findings: that is a result, not a failure.
# Each finding is then reduced for at most 30 s (campaigns default to 5 min).
build/default/l0spv-fuzz --time=60s --jobs=2 --reduce_time=30s \
  --out=build/quickstart-campaign || [ $? -eq 1 ]
echo "findings (if any): build/quickstart-campaign/findings/*/README.md"
