#!/usr/bin/env bash
# Installs every Debian 12 package l0spv-fuzz builds, tests or fuzzes with.
# Idempotent: packages already present are left alone; safe to re-run.
# libclc-* is deliberately absent: it conflicts with mesa-opencl-icd and we do
# not need it (PoCL ships its own kernel library).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build g++ clang-14 libclang-rt-14-dev clang-format
  spirv-tools spirv-headers
  libabsl-dev libbenchmark-dev libgtest-dev libgmock-dev nlohmann-json3-dev
  libze-dev libze1
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd intel-opencl-icd oclgrind
  llvm-spirv-14
  libllvmspirvlib-14-dev llvm-14-dev   # l0spv_llvm_spirv_fuzzer (the translator as a library)
  zip unzip                            # ci/oss-fuzz/build.sh seed corpora
  chromium                             # the nightly report's headless-browser test
  python3-venv                         # ci/install-consumers.sh's virtual environment
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
else
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  echo "install-deps: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The current consumer releases from PyPI (pinned in ci/consumers.lock), into
# the project's cache beside Debian's. L0SPV_SKIP_CONSUMERS=1 leaves them out
# (the targets then say `unsupported` with the command that installs them).
if [[ "${L0SPV_SKIP_CONSUMERS:-0}" != "1" ]]; then
  ci/install-consumers.sh
fi
