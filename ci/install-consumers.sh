#!/usr/bin/env bash
# Installs the current consumer releases from PyPI into the project's cache,
# side by side with Debian's, so `l0spv-fuzz targets` lists both:
#
#   ci/install-consumers.sh                    the pinned set (ci/consumers.lock)
#   ci/install-consumers.sh --release intel-opencl-rt==2024.2.1
#                                              one further release, for bisection
#   ci/install-consumers.sh --list PACKAGE     the releases PyPI has
#
# Where: ${L0SPV_CONSUMERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/l0spv-fuzz/consumers}
#   venv/                     a virtual environment holding the pinned set
#   releases/PKG-VERSION/     further releases, each its own pip --prefix
#   */l0spv/vendors/*.icd     an OpenCL ICD file naming the release's
#                             libintelocl.so by absolute path (the wheel's own
#                             .icd holds a conda placeholder path)
#
# Idempotent: the pinned set is re-installed only when ci/consumers.lock
# changed (venv/l0spv/lock holds the copy it was installed from). Nothing is
# needed at run time from the network. Exit 2 on bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${L0SPV_CONSUMERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/l0spv-fuzz/consumers}
lock=ci/consumers.lock
python=${PYTHON:-python3}

usage() {
  echo "usage: ci/install-consumers.sh [--release PKG==VERSION | --list PKG]" >&2
  exit 2
}

# The companion packages a release needs (installed at the same version).
companions() {
  case "$1" in
    intel-opencl-rt) echo "intel-cmplr-lib-rt" ;;
    *) ;;
  esac
}

# Writes PREFIX/l0spv/vendors/intel-cpu.icd when PREFIX holds the runtime.
write_icd() {
  local prefix=$1
  if [[ -f "$prefix/lib/libintelocl.so" ]]; then
    mkdir -p "$prefix/l0spv/vendors"
    printf '%s\n' "$(cd "$prefix/lib" && pwd)/libintelocl.so" \
      >"$prefix/l0spv/vendors/intel-cpu.icd.tmp"
    mv "$prefix/l0spv/vendors/intel-cpu.icd.tmp" "$prefix/l0spv/vendors/intel-cpu.icd"
  fi
}

make_venv() {
  if [[ ! -x "$dir/venv/bin/pip" ]]; then
    mkdir -p "$dir"
    if ! "$python" -m venv "$dir/venv"; then
      echo "install-consumers: '$python -m venv' failed; on Debian: apt-get install python3-venv" >&2
      exit 1
    fi
  fi
}

case "${1:-}" in
  "")
    make_venv
    if [[ -f "$dir/venv/l0spv/lock" ]] && cmp -s "$lock" "$dir/venv/l0spv/lock"; then
      echo "install-consumers: the pinned set is installed ($dir/venv)"
      write_icd "$dir/venv"
      exit 0
    fi
    echo "install-consumers: installing ci/consumers.lock into $dir/venv"
    "$dir/venv/bin/pip" install -q --no-cache-dir --disable-pip-version-check -r "$lock"
    write_icd "$dir/venv"
    mkdir -p "$dir/venv/l0spv"
    cp "$lock" "$dir/venv/l0spv/lock"
    ;;
  --release)
    [[ $# -eq 2 && "$2" == *==* ]] || usage
    pkg=${2%%==*}
    version=${2#*==}
    [[ -n "$pkg" && -n "$version" && "$pkg$version" =~ ^[A-Za-z0-9._-]+$ ]] || usage
    make_venv
    prefix="$dir/releases/$pkg-$version"
    if [[ -f "$prefix/l0spv/installed" ]]; then
      echo "install-consumers: $pkg $version is installed ($prefix)"
      exit 0
    fi
    reqs=("$pkg==$version")
    for c in $(companions "$pkg"); do reqs+=("$c==$version"); done
    echo "install-consumers: installing ${reqs[*]} into $prefix"
    rm -rf "$prefix.tmp"
    "$dir/venv/bin/pip" install -q --no-cache-dir --disable-pip-version-check \
      --ignore-installed --prefix "$prefix.tmp" "${reqs[@]}"
    rm -rf "$prefix"
    mv "$prefix.tmp" "$prefix"
    # pip --prefix records absolute paths nowhere we read; the .icd is ours.
    write_icd "$prefix"
    mkdir -p "$prefix/l0spv"
    echo "${reqs[*]}" >"$prefix/l0spv/installed"
    ;;
  --list)
    [[ $# -eq 2 ]] || usage
    make_venv
    "$dir/venv/bin/pip" index versions --disable-pip-version-check "$2" 2>/dev/null ||
      { echo "install-consumers: PyPI has no package '$2' (or PyPI is unreachable)" >&2; exit 1; }
    ;;
  *) usage ;;
esac
