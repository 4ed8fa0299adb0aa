#!/usr/bin/env bash
# Builds the `spirv-fuzz` command-line tool (SPIRV-Tools' transformation-based
# fuzzer and shrinker) from Debian's OWN spirv-tools source package, at exactly
# the version of the installed spirv-tools package, and installs it into a
# per-user cache directory. Debian ships spirv-tools without spirv-fuzz (it
# needs protobuf, which Debian's build leaves off), so this is the only way to
# get one that matches the spirv-as/spirv-val/spirv-opt on the machine.
#
# Usage:
#   ci/install-spirv-fuzz.sh [--dir DIR] [--force]
#     --dir DIR   install (and keep source/build trees) under DIR
#     --force     rebuild even if a matching spirv-fuzz is already installed
#
# Environment:
#   L0SPV_SPIRV_FUZZ_DIR  install directory (default:
#                         ${XDG_CACHE_HOME:-$HOME/.cache}/l0spv-fuzz/spirv-fuzz);
#                         --dir overrides it
#   L0SPV_BUILD_JOBS      parallel build jobs (default: nproc)
#
# Layout of DIR:
#   DIR/bin/spirv-fuzz    the tool
#   DIR/VERSION           the Debian source package version it was built from
#   DIR/src/              apt-get source tree (+ .dsc/.orig tarballs)
#   DIR/build/            CMake/Ninja build tree
# Nothing is written inside the repository.
#
# What it changes on the machine (with sudo when not root):
#   - adds /etc/apt/sources.list.d/l0spv-deb-src.sources (and/or .list): deb-src
#     twins of the machine's existing `deb` entries, only if spirv-tools'
#     source is not already available; then `apt-get update`
#   - apt-get installs the build dependencies (cmake, ninja-build, g++,
#     python3, dpkg-dev, spirv-headers, spirv-tools, protobuf-compiler,
#     libprotobuf-dev). The binary links libprotobuf.so.32 (libprotobuf32)
#     dynamically, so keep that package installed.
#
# Nobody has to run this: the default build, CI (.ci/run / ci/test.sh) and
# ci/quickstart.sh never need spirv-fuzz. It is an opt-in extra for the
# spirv-fuzz-based mutator/shrinker integration.
#
# How long: about 15 minutes on 2 cores the first time (measured: 14 min for
# the 433 build steps of the spirv-fuzz target and the libraries it links;
# tests are skipped), plus a minute of apt work.
# Later runs print "already installed" and exit 0 in well under a second as
# long as DIR/bin/spirv-fuzz runs and DIR/VERSION equals the installed
# spirv-tools version; after a spirv-tools upgrade it rebuilds.
#
# How l0spv-fuzz finds it: the environment variable L0SPV_SPIRV_FUZZ (full path
# of the binary) if set, otherwise the default path
#   ${XDG_CACHE_HOME:-$HOME/.cache}/l0spv-fuzz/spirv-fuzz/bin/spirv-fuzz
# (if you install with --dir/L0SPV_SPIRV_FUZZ_DIR elsewhere, export
# L0SPV_SPIRV_FUZZ=DIR/bin/spirv-fuzz).
#
# The script ends with a smoke check: it assembles a tiny OpenCL kernel module
# with spirv-as, fuzzes it with `spirv-fuzz in.spv -o out.spv --seed=1
# --donors=EMPTY_FILE`, checks that out.spv, out.transformations and
# out.transformations_json exist (and says whether spirv-val accepts out.spv:
# spirv-fuzz can emit invalid Kernel modules, e.g. NoContraction decorations),
# that `spirv-fuzz --help` offers --shrink, and that shrinking with an
# always-interesting test removes every transformation.
set -Eeuo pipefail

readonly prog=install-spirv-fuzz
readonly pkg=spirv-tools
readonly srclist_base=/etc/apt/sources.list.d/l0spv-deb-src

die() {
  echo "$prog: ERROR: $*" >&2
  exit 1
}

usage() {
  sed -n '/^# Usage:/,/^#   L0SPV_BUILD_JOBS/p' "$0" | sed 's/^# \{0,1\}//'
}

dir=${L0SPV_SPIRV_FUZZ_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/l0spv-fuzz/spirv-fuzz}
force=0
while (($# > 0)); do
  case $1 in
    --dir)
      (($# >= 2)) || die "--dir needs an argument"
      dir=$2
      shift 2
      ;;
    --dir=*)
      dir=${1#--dir=}
      shift
      ;;
    --force)
      force=1
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage >&2
      die "unknown argument '$1'"
      ;;
  esac
done
[[ -n $dir ]] || die "empty install directory"
[[ ${L0SPV_BUILD_JOBS:-1} =~ ^[1-9][0-9]*$ ]] ||
  die "L0SPV_BUILD_JOBS must be a positive integer, not '$L0SPV_BUILD_JOBS'"
mkdir -p "$dir" || die "cannot create $dir"
dir=$(cd "$dir" && pwd)
bin=$dir/bin/spirv-fuzz

# What a failure means and what to do, per step (printed by the ERR trap).
step="start"
hint=""
on_err() {
  local rc=$?
  echo "$prog: FAILED (exit $rc) during: $step" >&2
  [[ -n $hint ]] && echo "$prog: what to do: $hint" >&2
  exit "$rc"
}
trap on_err ERR

installed_version() {
  dpkg-query -W -f='${Status} ${Version}\n' "$pkg" 2>/dev/null |
    awk '$1 == "install" && $3 == "installed" { print $4 }'
}

# --- 1. Already installed? ---------------------------------------------------
step="checking for an existing install"
ver=$(installed_version || true)
if ((force == 0)) && [[ -n $ver && -x $bin && -f $dir/VERSION ]] &&
  [[ $(<"$dir/VERSION") == "$ver" ]] && "$bin" --version >/dev/null 2>&1; then
  echo "spirv-fuzz: already installed at $bin (spirv-tools $ver)"
  exit 0
fi
if ((force == 0)) && [[ -e $bin ]]; then
  echo "$prog: $bin is from spirv-tools '$(cat "$dir/VERSION" 2>/dev/null || true)', installed is '${ver:-none}' (or it does not run): rebuilding"
fi

# Only one build per directory at a time.
exec 9>"$dir/.lock"
flock -n 9 || die "another $prog run holds $dir/.lock; wait for it to finish"

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
apt_get() { DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get "$@"; }

# --- 2. Make the source package reachable ------------------------------------
# True if apt knows the spirv-tools source package (at version $1, if given).
source_available() {
  local out
  out=$(apt-cache showsrc --only-source "$pkg" 2>/dev/null) || return 1
  if [[ -n ${1:-} ]]; then
    grep -qxF "Version: $1" <<<"$out"
  else
    grep -q '^Version: ' <<<"$out"
  fi
}

# Writes $2 (content) to $1 with root rights, only when it changed.
# Returns 0 when the file was (re)written.
write_root_file() {
  local path=$1 content=$2
  if [[ -f $path ]] && [[ $(<"$path") == "$content" ]]; then return 1; fi
  printf '%s\n' "$content" | "${sudo_cmd[@]}" tee "$path" >/dev/null
  echo "$prog: wrote $path"
}

# deb-src twins of every enabled `Types: deb` stanza of the deb822 files.
derive_deb822_sources() {
  local files=()
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f $f && $f != "$srclist_base.sources" ]] && files+=("$f")
  done
  ((${#files[@]} > 0)) || return 0
  awk '
    function flush(   i) {
      if (n > 0 && is_deb && enabled) {
        if (printed++) print ""
        for (i = 1; i <= n; i++) print lines[i]
      }
      n = 0; is_deb = 0; enabled = 1
    }
    BEGIN { n = 0; is_deb = 0; enabled = 1; printed = 0 }
    FNR == 1 { flush() }
    /^[ \t]*#/ { next }
    /^[ \t]*$/ { flush(); next }
    {
      low = tolower($0)
      if (low ~ /^types:/) {
        v = $0; sub(/^[^:]*:/, "", v)
        if ((" " v " ") ~ /[ \t]deb[ \t]/) is_deb = 1
        lines[++n] = "Types: deb-src"
        next
      }
      if (low ~ /^enabled:[ \t]*no/) enabled = 0
      lines[++n] = $0
    }
    END { flush() }
  ' "${files[@]}"
}

# deb-src twins of the one-line `deb ...` entries (sources.list and *.list).
derive_oneline_sources() {
  local files=()
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f $f && $f != "$srclist_base.list" ]] && files+=("$f")
  done
  ((${#files[@]} > 0)) || return 0
  sed -n -E 's/^[[:space:]]*deb[[:space:]]+/deb-src /p' "${files[@]}"
}

need_update=0
step="enabling deb-src entries"
hint="check /etc/apt/sources.list.d/ (this script writes $srclist_base.sources/.list), or add a deb-src line for Debian's main archive by hand"
if ! source_available "$ver"; then
  deb822=$(derive_deb822_sources)
  oneline=$(derive_oneline_sources)
  [[ -n $deb822 || -n $oneline ]] ||
    die "no 'deb' entries found in /etc/apt/sources.list or /etc/apt/sources.list.d/ to derive deb-src entries from; add a deb-src entry for Debian by hand"
  header="# Written by l0spv-fuzz ci/install-spirv-fuzz.sh: deb-src twins of the
# machine's deb entries, so that 'apt-get source spirv-tools' works. Safe to delete."
  if [[ -n $deb822 ]]; then
    write_root_file "$srclist_base.sources" "$header"$'\n'"$deb822" || true
  fi
  if [[ -n $oneline ]]; then
    write_root_file "$srclist_base.list" "$header"$'\n'"$oneline" || true
  fi
  need_update=1
fi

# --- 3. Build dependencies ---------------------------------------------------
deps=(cmake ninja-build g++ python3 dpkg-dev spirv-headers spirv-tools
  protobuf-compiler libprotobuf-dev)
missing=()
for p in "${deps[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
((${#missing[@]} == 0)) || need_update=1

if ((need_update)); then
  step="apt-get update"
  hint="check the network and the apt sources (including $srclist_base.*), then re-run"
  apt_get update -q
fi
if ((${#missing[@]} > 0)); then
  step="installing build dependencies: ${missing[*]}"
  hint="run: apt-get install --no-install-recommends ${missing[*]} and look at its error"
  echo "$prog: installing ${missing[*]}"
  apt_get install -y -q --no-install-recommends "${missing[@]}"
fi

ver=$(installed_version)
[[ -n $ver ]] || die "$pkg is not installed (apt-get install $pkg)"
source_available "$ver" ||
  die "apt has no source package $pkg=$ver (the mirror may have moved on: upgrade spirv-tools with apt-get install --only-upgrade spirv-tools and re-run, or add a deb-src entry that carries $ver)"

# --- 4. Fetch and unpack the source -------------------------------------------
src_root=$dir/src
build_dir=$dir/build
step="fetching the source: apt-get source $pkg=$ver"
hint="run it by hand in $src_root to see apt's error; remove $src_root to start clean"
stamp=$src_root/.l0spv-source-version
if [[ ! -f $stamp || $(<"$stamp") != "$ver" ]]; then
  rm -rf "$src_root" "$build_dir"
  mkdir -p "$src_root"
  # apt-get source unpacks with dpkg-source, applying Debian's patches.
  (cd "$src_root" && apt-get source -q "$pkg=$ver")
  printf '%s\n' "$ver" >"$stamp"
fi
src=$(find "$src_root" -mindepth 1 -maxdepth 1 -type d -name "$pkg-*" | head -n 1)
[[ -n $src && -f $src/CMakeLists.txt && -f $src/debian/rules ]] ||
  die "no unpacked $pkg source under $src_root (remove it and re-run)"
echo "$prog: source $pkg $ver in $src"

# --- 5. Configure --------------------------------------------------------------
# SPIRV-Tools 2023.1's external/CMakeLists.txt uses the vendored protobuf under
# external/protobuf (not shipped in the tarball: "protobuf not found - please
# checkout a copy under external/") UNLESS the targets protobuf::libprotobuf and
# protobuf::protoc already exist when it is processed; the tree never calls
# find_package(Protobuf) itself. So instead of patching the source we inject
# find_package(Protobuf) right after project(spirv-tools) through CMake's
# CMAKE_PROJECT_spirv-tools_INCLUDE hook: CMake's FindProtobuf module defines
# both imported targets from Debian's protobuf-compiler/libprotobuf-dev 3.21
# (Debian ships no protobuf CMake config). The generated .pb.cc comes from the
# same protoc as the library, so the versions always agree.
proto_hook=$src_root/use-debian-protobuf.cmake
cat >"$proto_hook" <<'EOF'
# Injected by ci/install-spirv-fuzz.sh via CMAKE_PROJECT_spirv-tools_INCLUDE.
find_package(Protobuf REQUIRED)
if(NOT TARGET protobuf::libprotobuf OR NOT TARGET protobuf::protoc)
  message(FATAL_ERROR "FindProtobuf did not define protobuf::libprotobuf and protobuf::protoc")
endif()
message(STATUS "l0spv: using Debian's protobuf ${Protobuf_VERSION} (${Protobuf_PROTOC_EXECUTABLE})")
EOF

step="configuring SPIRV-Tools with CMake"
hint="see the CMake error above; $build_dir/CMakeFiles/CMakeOutput.log and CMakeError.log have details; remove $build_dir to start clean"
# The same options as Debian's debian/rules (static libraries, headers from the
# spirv-headers package via SPIRV-Headers_SOURCE_DIR=/usr), plus the fuzzer on,
# tests off, and warnings not fatal (a third-party build must not fail on a
# new compiler warning).
cmake -S "$src" -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DSPIRV-Headers_SOURCE_DIR=/usr \
  -DBUILD_SHARED_LIBS=OFF \
  -DSPIRV_TOOLS_BUILD_STATIC=ON \
  -DSPIRV_TOOLS_LIBRARY_TYPE=STATIC \
  -DSPIRV_BUILD_FUZZER=ON \
  -DSPIRV_SKIP_TESTS=ON \
  -DSPIRV_WERROR=OFF \
  -DPYTHON_EXECUTABLE=/usr/bin/python3 \
  "-DCMAKE_PROJECT_spirv-tools_INCLUDE=$proto_hook"

# --- 6. Build only spirv-fuzz ---------------------------------------------------
jobs=${L0SPV_BUILD_JOBS:-$(nproc)}
step="building the spirv-fuzz target"
hint="see the compiler error above; re-run to resume the build (L0SPV_BUILD_JOBS=1 if the machine ran out of memory), or remove $build_dir to start clean"
start=$SECONDS
cmake --build "$build_dir" --target spirv-fuzz -j"$jobs"
echo "$prog: build took $((SECONDS - start)) s"

# --- 7. Install ----------------------------------------------------------------
step="installing into $dir"
hint="check that $dir is writable"
built=$build_dir/tools/spirv-fuzz
[[ -x $built ]] || die "the build did not produce $built"
mkdir -p "$dir/bin"
install -m 0755 "$built" "$bin.tmp"
mv -f "$bin.tmp" "$bin"
printf '%s\n' "$ver" >"$dir/VERSION"

# --- 8. Smoke check -------------------------------------------------------------
step="smoke check"
hint="the tool was built but does not work: run the commands above by hand in a temporary directory"
"$bin" --version >/dev/null 2>&1 # (it prints its version on stderr)
help=$("$bin" --help)
grep -q -- '--shrink=' <<<"$help" || die "spirv-fuzz --help does not list --shrink"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A tiny OpenCL kernel: no parameters, returns void; the body has a Function
# variable and an OpIAdd so that the fuzzer has something to transform (on an
# empty body seed 1 applies no transformation at all).
cat >"$tmp/in.spvasm" <<'EOF'
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %main "main"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
%ptr_fn_uint = OpTypePointer Function %uint
     %fnvoid = OpTypeFunction %void
       %main = OpFunction %void None %fnvoid
      %entry = OpLabel
          %x = OpVariable %ptr_fn_uint Function
        %sum = OpIAdd %uint %uint_1 %uint_2
               OpStore %x %sum
               OpReturn
               OpFunctionEnd
EOF
: >"$tmp/donors.txt"
printf '#!/bin/sh\nexit 0\n' >"$tmp/always-interesting.sh"
chmod +x "$tmp/always-interesting.sh"
count_transformations() {
  /usr/bin/python3 -c 'import json, sys
print(len(json.load(open(sys.argv[1])).get("transformation", [])))' "$1"
}
spirv-as --target-env spv1.2 "$tmp/in.spvasm" -o "$tmp/in.spv"
# Fuzzing writes out.spv plus out.transformations (binary protobuf
# TransformationSequence) and out.transformations_json (the same as JSON).
"$bin" "$tmp/in.spv" -o "$tmp/out.spv" --seed=1 --donors="$tmp/donors.txt"
[[ -s $tmp/out.spv && -f $tmp/out.transformations && -f $tmp/out.transformations_json ]] ||
  die "spirv-fuzz exited 0 but did not write out.spv, out.transformations and out.transformations_json"
nfuzz=$(count_transformations "$tmp/out.transformations_json")
valid="valid"
spirv-val --target-env spv1.3 "$tmp/out.spv" >/dev/null 2>&1 || valid="NOT valid (a spirv-fuzz weakness, not an install problem)"
# Shrinking with an always-interesting test must drop every transformation.
(cd "$tmp" && "$bin" in.spv -o shrunk.spv --shrink=out.transformations \
  --shrinker-step-limit=100 --shrinker-temp-file-prefix="$tmp/shrink-" \
  -- ./always-interesting.sh >/dev/null)
nshrunk=$(count_transformations "$tmp/shrunk.transformations_json")
echo "spirv-fuzz: installed $bin (spirv-tools $ver)"
echo "spirv-fuzz: smoke check OK: seed 1 applied $nfuzz transformations to a $(stat -c %s "$tmp/in.spv")-byte OpenCL kernel -> $(stat -c %s "$tmp/out.spv") bytes, $valid; --shrink took them to $nshrunk"
