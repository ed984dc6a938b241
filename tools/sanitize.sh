#!/usr/bin/env bash
# The whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   tools/sanitize.sh          set up (tools/setup.sh), configure build-asan/ with
#                              -Db_sanitize=address,undefined, build, run every test
#
# agc, its runtime and the test programs are built with both sanitizers; any report
# fails the run (halt_on_error, and UBSan's -fno-sanitize-recover). LeakSanitizer is on
# for agc itself. Warnings are not errors here: GCC 12 warns falsely inside std::regex
# (maybe-uninitialized) once ASan instruments it. Takes a full second build (about 10 minutes on 2 cores) and a slower
# test run; CI does not run it: run it before a change that touches memory handling.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
bash tools/setup.sh
gdir=$(ls -d .deps/tree-sitter-python-*/ | head -n1)
if [ ! -f build-asan/build.ninja ]; then
  # The shared LLVM and MLIR (-Dstatic_llvm=false): reports need agc's line tables.
  meson setup build-asan --native-file tools/llvm22.ini -Dgrammar_dir="$root/${gdir%/}/src" \
    -Db_sanitize=address,undefined -Db_lundef=false -Dcpp_args=-fno-sanitize-recover=undefined \
    -Dwerror=false -Dstatic_llvm=false \
    -Dc_args=-fno-sanitize-recover=undefined
fi
ninja -C build-asan
# agc run loads compiled code into agc itself, which then runs sanitized too. MLIR's
# and LLVM's own allocations are not agc's leaks: suppressions name them.
export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$root/tools/lsan.supp:print_suppressions=0
# ASan's frames are larger: the parser's 1000 levels of nesting need a larger stack.
ulimit -s 262144 2>/dev/null || ulimit -s unlimited 2>/dev/null || true
meson test -C build-asan --print-errorlogs
echo "sanitize: every test passed under ASan and UBSan"
