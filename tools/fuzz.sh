#!/usr/bin/env bash
# Fuzzes agc's three fuzz targets (test/fuzz) with libFuzzer, under ASan and UBSan.
#
#   tools/fuzz.sh [SECONDS] [TARGET...]
#       each target (default: all three) for SECONDS (default 1800), one after another;
#       on 2 cores, run two at once from two shells, e.g.
#       tools/fuzz.sh 1800 fuzz-analysis & tools/fuzz.sh 1800 fuzz-pipeline
#       (the build is shared: start the second once the first has built)
#
# Installs clang-22's fuzzer runtime (libclang-rt-22-dev), configures build-fuzz/ with
# clang-22 and -Dfuzz=true, and runs fuzz-parse, fuzz-analysis and fuzz-pipeline on a
# corpus seeded from the examples, the conformance programs and the test inputs
# (kept in build-fuzz/corpus-TARGET between runs). A crash leaves its input in
# build-fuzz/crash-* and fails the script; turn it into a test before fixing it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
seconds=${1:-1800}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz-parse fuzz-analysis fuzz-pipeline)
for target in "${targets[@]}"; do
  case "$target" in
    fuzz-parse|fuzz-analysis|fuzz-pipeline) ;;
    *) echo "tools/fuzz.sh: unknown target '$target' (fuzz-parse, fuzz-analysis, fuzz-pipeline)" >&2; exit 2 ;;
  esac
done
bash tools/setup.sh
if ! dpkg -s libclang-rt-22-dev >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -q libclang-rt-22-dev >/dev/null
fi
gdir=$(ls -d .deps/tree-sitter-python-*/ | head -n1)
if [ ! -f build-fuzz/build.ninja ]; then
  # The shared LLVM and MLIR (-Dstatic_llvm=false): reports need agc's line tables.
  CC=clang-22 CXX=clang++-22 meson setup build-fuzz --native-file tools/llvm22.ini \
    -Dgrammar_dir="$root/${gdir%/}/src" -Dfuzz=true -Db_sanitize=address,undefined \
    -Db_lundef=false -Dwerror=false -Dstatic_llvm=false
fi
ninja -C build-fuzz test/fuzz/fuzz-parse test/fuzz/fuzz-analysis test/fuzz/fuzz-pipeline
export ASAN_OPTIONS=detect_leaks=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0
for target in "${targets[@]}"; do
  corpus=build-fuzz/corpus-$target
  python3 test/fuzz/seed_corpus.py "$root" "$corpus"
  echo "== $target: ${seconds} s"
  (cd build-fuzz && ./test/fuzz/$target -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
     -max_len=16384 -print_final_stats=1 "corpus-$target") || status=1
done
exit "$status"
