#!/usr/bin/env bash
# Sets up everything agc needs on Debian 12 and builds it. Idempotent: a second run checks
# and does nothing slow.
#
#   1. Debian packages (LLVM/MLIR/clang 22, tree-sitter, doctest, meson, ninja, ...),
#      installed only when one is missing.
#   2. A virtualenv in .venv/ (outside version control), whose pip fetches the rest.
#   3. The tree-sitter-python grammar sdist from PyPI, checked against tools/grammar.lock,
#      unpacked into .deps/ (outside version control).
#   4. The test oracle in that virtualenv: TensorFlow from tools/requirements-oracle.txt
#      (pinned, hash-checked), and NVIDIA's cuobjdump wheel for the GPU object tests. Skipped with AGC_NO_ORACLE=1. With AGC_BENCH=1 (tools/dev.sh
#      bench) also the benchmark peers: JAX and matplotlib from tools/requirements-bench.txt.
#   5. meson configured in build/ against LLVM 22 (not the LLVM 14 llvm-config on PATH),
#      then ninja.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
say() { printf '[setup] %s\n' "$*" >&2; }

# --- 1. Debian packages --------------------------------------------------------------
packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
          libomp-22-dev libtree-sitter-dev doctest-dev meson ninja-build pkg-config
          g++ python3 python3-venv ca-certificates valgrind lld zlib1g-dev libzstd-dev
          graphviz gdb cmake libffi-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- 2. the virtualenv -----------------------------------------------------------------
if [ ! -x .venv/bin/python ]; then
  say "creating the virtualenv .venv"
  /usr/bin/python3 -m venv .venv
fi
pip=(.venv/bin/python -m pip --disable-pip-version-check)

# --- 3. tree-sitter-python grammar ---------------------------------------------------
lock_get() { sed -n "s/^$1=//p" tools/grammar.lock; }
gname=$(lock_get name); gver=$(lock_get version); gsha=$(lock_get sha256)
gdir=".deps/${gname}-${gver}"
if [ ! -f "$gdir/.verified" ]; then
  say "fetching ${gname}==${gver} (sdist) from PyPI"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  "${pip[@]}" download --quiet --no-binary :all: --no-deps -d "$tmp" "${gname}==${gver}"
  tarball=$(ls "$tmp"/*.tar.gz)
  got=$(sha256sum "$tarball" | cut -d' ' -f1)
  if [ "$got" != "$gsha" ]; then
    say "error: sha256 of $(basename "$tarball") is $got, tools/grammar.lock pins $gsha"
    exit 1
  fi
  rm -rf "$gdir"
  mkdir -p "$gdir"
  tar -xzf "$tarball" -C "$gdir" --strip-components=1 --wildcards '*/src/*' '*/LICENSE'
  touch "$gdir/.verified"
fi

# --- 4. the TensorFlow oracle --------------------------------------------------------
if [ "${AGC_NO_ORACLE:-0}" != 1 ]; then
  req=tools/requirements-oracle.txt
  stamp=.venv/.agc-requirements.sha256
  want=$(sha256sum "$req" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing the oracle into .venv (TensorFlow, pinned and hash-checked)"
    "${pip[@]}" install --quiet --require-hashes --no-deps -r "$req"
    echo "$want" > "$stamp"
  fi
  if [ "${AGC_BENCH:-0}" = 1 ]; then
    req=tools/requirements-bench.txt
    stamp=.venv/.agc-bench-requirements.sha256
    want=$(sha256sum "$req" | cut -d' ' -f1)
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
      say "installing the benchmark peers into .venv (JAX, matplotlib; pinned and hash-checked)"
      "${pip[@]}" install --quiet --require-hashes --no-deps -r "$req"
      echo "$want" > "$stamp"
    fi
  fi
fi

# --- 5. configure and build ----------------------------------------------------------
if [ ! -f build/build.ninja ]; then
  say "configuring meson in build/"
  meson setup build --native-file tools/llvm22.ini \
    -Dgrammar_dir="$root/$gdir/src" >build-setup.log 2>&1 || { cat build-setup.log >&2; rm -rf build; exit 1; }
  rm -f build-setup.log
fi
say "building"
ninja -C build >&2
