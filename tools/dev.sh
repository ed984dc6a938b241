#!/usr/bin/env bash
# The README's two quick-start commands. Both run tools/setup.sh first (install, fetch,
# configure, build; idempotent), then:
#   tools/dev.sh example   a seed example (examples/tanh_loop.py): its to-code conversion,
#                          then compiled to an object and a C header, and run (agc run)
#   tools/dev.sh test      run every test (meson test: doctest unit tests, lit + FileCheck)
#   tools/dev.sh bench     install the benchmark peers (JAX, matplotlib) too, and run
#                          test/bench/bench.py: agc against TensorFlow, XLA, JAX, NumPy, C
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

case "${1:-}" in
  example)
    bash tools/setup.sh
    echo "== examples/tanh_loop.py"
    cat examples/tanh_loop.py
    echo "== agc to-code examples/tanh_loop.py"
    build/tools/agc to-code examples/tanh_loop.py
    echo "== agc compile examples/tanh_loop.py -o build/example/tanh_loop.o"
    mkdir -p build/example
    build/tools/agc compile examples/tanh_loop.py -o build/example/tanh_loop.o
    ls -l build/example/tanh_loop.o build/example/tanh_loop.h
    grep -A1 '^/\* squash' build/example/tanh_loop.h
    echo "== agc run examples/tanh_loop.py:squash --args '[{\"dtype\": \"float32\", \"value\": [1, 2, 3, 4, 5]}]'"
    echo "   (tf.print writes each pass of the loop to stderr; the result is the JSON line)"
    build/tools/agc run examples/tanh_loop.py:squash \
      --args '[{"dtype": "float32", "value": [1, 2, 3, 4, 5]}]'
    ;;
  test)
    bash tools/setup.sh
    status=0
    rm -f build/test/lit/conformance-summary.txt
    meson test -C build --print-errorlogs || status=$?
    # One closing line over both runners: doctest's test cases and lit's tests.
    log=build/meson-logs/testlog.txt
    passed=0 failed=0
    read -r up uf < <(sed -n 's/.*test cases: *[0-9]* | *\([0-9]*\) passed | *\([0-9]*\) failed.*/\1 \2/p' "$log" | tail -n1) || true
    # lit pads its labels to the longest one present ("Passed     :" beside "Unsupported:").
    lp=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
    lf=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
    lu=$(sed -n 's/^ *Unsupported *: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
    passed=$(( ${up:-0} + ${lp:-0} ))
    failed=$(( ${uf:-0} + ${lf:-0} ))
    [ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
    # The conformance suite's table (oracle/conformance.test writes it).
    if [ -f build/test/lit/conformance-summary.txt ]; then
      echo "== conformance against TensorFlow (test/conformance)"
      cat build/test/lit/conformance-summary.txt
    fi
    if [ -n "${lu:-}" ]; then
      # meson prints a passing runner's output only to its log: lit's reasons, from there.
      echo "(lit: ${lu} tests unsupported here; lit's reasons:)"
      sed -n 's/^lit: .*note: \(.*UNSUPPORTED.*\)$/  \1/p' "$log"
    fi
    echo "tests: ${passed} passed, ${failed} failed"
    exit "$status"
    ;;
  bench)
    AGC_BENCH=1 bash tools/setup.sh
    shift
    exec .venv/bin/python test/bench/bench.py "$@"
    ;;
  *)
    echo "usage: tools/dev.sh example|test|bench" >&2
    exit 2
    ;;
esac
