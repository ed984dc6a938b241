#!/bin/bash
# agc's GPU checks on a machine lent for a short while (the device tool of agc's
# workplace): one with an NVIDIA GPU, its driver, a CUDA toolkit and Python with NumPy and
# JAX, but no LLVM 22, no TensorFlow and no network. CI never runs this; the GPU suite
# (test/lit/gpu/conformance-gpu.test) runs under `tools/dev.sh test` wherever a GPU is.
#
#   tools/gpu-check.sh prepare   here, after tools/setup.sh and a build: writes .gpu-check/
#                                (git ignores it, about 20 MB): agc (stripped, xz), the two
#                                shared libraries it needs beyond glibc's, TensorFlow's
#                                results for every conformance case (run.py --record), and
#                                the C programs of the GPU lit tests (agc's objects for
#                                x86-64-v3, its default), in about 2 minutes.
#   tools/gpu-check.sh run [--no-bench]
#                                there, in the repository's root (with .gpu-check carried):
#                                writes its log and results into $OUT (or .gpu-check/out);
#                                on an H200 (2026-11-27) about 5 minutes, 4.5 of them the
#                                conformance suite (~1.2 s a case, 8 at a time), the
#                                benchmark 30 s more: a 15-minute lease holds the
#                                machine's start, one run and one rerun.
#
# What `run` checks on the GPU itself, each step under its own time limit:
#   1. the conformance suite through `agc run --target=nvptx` (kernels by the toolkit's
#      ptxas there, loaded by the driver), compared with the recorded TensorFlow results;
#   2. the kernels' math (Inputs/check_kernel_math.py --on-gpu): the ulp bounds of the
#      emulated kernels hold on the GPU's own arithmetic;
#   3. the C programs of gpu/nvptx-object, cpu-nvptx-object and device-memory against
#      the real driver (there only against a recording stand-in): device inputs, the
#      caller's stream, a cpu,nvptx object choosing its GPU version;
#   4. a staged loop of 100,000 launches, and what the driver says of managed memory
#      there, with the rates of copies to and from it (test/bench/gpu_memory.py);
#   5. the GPU benchmark (test/bench/bench.py --gpu) with agc (host inputs, and inputs
#      on the GPU), C and JAX.
set -u
cd "$(dirname "$0")/.."
D=.gpu-check

prepare() {
    set -e
    test -x build/tools/agc || { echo "gpu-check: build agc first (tools/dev.sh build)" >&2; exit 2; }
    rm -rf "$D" && mkdir -p "$D/bin" "$D/lib" "$D/c"
    echo "gpu-check: agc, stripped and compressed"
    strip -o "$D/bin/agc" build/tools/agc && xz -T2 -6 "$D/bin/agc"
    for lib in libtree-sitter.so.0 libomp.so.5; do
        cp -L "$(ldd build/tools/agc | awk -v l="$lib" '$1 == l {print $3}')" "$D/lib/$lib"
    done
    ln -s libomp.so.5 "$D/lib/libomp.so"
    cp build/runtime/libagc-runtime.a "$D/lib/"
    echo "gpu-check: TensorFlow's results for the conformance cases"
    .venv/bin/python test/conformance/run.py --record "$D/oracle.jsonl" && xz -T2 "$D/oracle.jsonl"
    echo "gpu-check: the C programs of the GPU lit tests"
    local in=test/lit/gpu/Inputs cc="${CC:-clang-22}" agc=build/tools/agc
    local link=(-Iruntime/include -I"$D/c" build/runtime/libagc-runtime.a -lomp -lpthread -lm -ldl)
    "$agc" compile --target=nvptx --cuda-toolkit=none "$in/kernels.py" --function chain \
        --function collatz -o "$D/c/kernels.o" --header "$D/c/kernels.h"
    "$agc" compile --target=cpu,nvptx --cuda-toolkit=none "$in/kernels.py" --function chain \
        --prefix both -o "$D/c/both.o" --header "$D/c/both.h"
    "$cc" -O1 "$in/nvptx_object.c" "$D/c/kernels.o" "${link[@]}" -o "$D/c/nvptx_object"
    "$cc" -O1 "$in/device_memory.c" "$D/c/kernels.o" "$D/c/both.o" "${link[@]}" -o "$D/c/device_memory"
    # cpu_nvptx_object.c includes a kernels.h of its own: a cpu,nvptx object's.
    mkdir -p "$D/c/cpu_nvptx"
    "$agc" compile --target=cpu,nvptx --cuda-toolkit=none "$in/kernels.py" --function chain \
        -o "$D/c/cpu_nvptx/kernels.o" --header "$D/c/cpu_nvptx/kernels.h"
    "$cc" -O1 -I"$D/c/cpu_nvptx" "$in/cpu_nvptx_object.c" "$D/c/cpu_nvptx/kernels.o" \
        "${link[@]}" -o "$D/c/cpu_nvptx_object"  # the first -I's kernels.h wins
    rm -f "$D/c/"*.o "$D/c/cpu_nvptx/"*.o
    du -sh "$D"
    echo "gpu-check: ready; on the GPU machine, carry .gpu-check and run: tools/gpu-check.sh run"
}

step() {  # step NAME SECONDS COMMAND...: one check, its output in the log, its status said
    local name=$1 limit=$2 start rc
    shift 2
    echo "=== $name (limit ${limit}s)"
    start=$(date +%s)
    timeout "$limit" "$@"
    rc=$?
    echo "=== $name: exit $rc in $(( $(date +%s) - start )) s"
}

run() {
    local out="${OUT:-$D/out}" agc="$D/bin/agc" py
    mkdir -p "$out"
    exec > >(tee "$out/gpu-check.log") 2>&1
    py=$(command -v python3)
    echo "gpu-check on $(hostname), $(date -u)"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
    grep -m1 'model name' /proc/cpuinfo; nproc
    ls -d /usr/local/cuda/bin/ptxas /usr/local/cuda/bin/fatbinary 2>&1
    "$py" -c 'import numpy, sys; print("python", sys.version.split()[0], "numpy", numpy.__version__)'
    for f in "$agc" "$D/oracle.jsonl"; do  # Python's lzma: xz may not be installed there
        "$py" -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1] + ".xz"), open(sys.argv[1], "wb"))' "$f"
    done
    chmod +x "$agc"
    export LD_LIBRARY_PATH="$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export LIBRARY_PATH="$PWD/$D/lib"
    "$agc" --version | head -3
    step "a kernel" 60 "$agc" run --target=nvptx test/lit/gpu/Inputs/kernels.py:chain --args '[[1, 2, 3]]'
    step "a run-time error" 60 "$agc" run --target=nvptx test/lit/gpu/Inputs/kernels.py:divide \
        --args '[[1, 2], [1, 0]]'
    step "a staged loop of kernels" 60 "$agc" run --target=nvptx test/lit/gpu/Inputs/kernels.py:squash \
        --args '[[1, 2, 3, 4, 5]]'
    # 100,000 launches, each one's argument arrays given back to the stack (the result
    # is 2, 2: x -> x / 2 + 1 converges there).
    step "a staged loop of 100,000 launches" 120 "$agc" run --target=nvptx \
        test/lit/gpu/Inputs/long_loop.py:many_steps --args '[[1, 2], 100000]'
    step "managed memory" 60 "$py" test/bench/gpu_memory.py

    # Each case a process of its own on the one GPU: 8 at a time, a slow one said as it ends.
    step "conformance on the GPU" 300 env PYTHONUNBUFFERED=1 "$py" test/conformance/run.py \
        "$agc" --jobs 8 --timeout 30 --slow 5 --oracle "$D/oracle.jsonl" --agc-arg=--target=nvptx \
        --summary "$out/conformance-gpu-summary.txt"

    step "kernel math on the GPU" 60 "$py" test/lit/gpu/Inputs/check_kernel_math.py "$agc" \
        test/lit/gpu/Inputs/kernel_math.py --on-gpu

    step "nvptx object" 30 "$D/c/nvptx_object"
    step "cpu,nvptx object" 30 "$D/c/cpu_nvptx_object"
    step "device memory and streams" 30 "$D/c/device_memory"

    if [ "${1:-}" = --no-bench ]; then echo "gpu-check: done (no benchmark)"; return; fi
    # The benchmark builds with agc here and this machine's C compiler.
    mkdir -p build/tools build/runtime
    cp "$agc" build/tools/agc && cp "$D/lib/libagc-runtime.a" build/runtime/
    step "GPU benchmark" 150 env PYTHONUNBUFFERED=1 CC="$(command -v clang-22 || command -v gcc || command -v cc)" \
        "$py" test/bench/bench.py --gpu --systems agc,agc_dev,c,jax --reps 5 --out /tmp/bench-gpu
    cp /tmp/bench-gpu/bench.md /tmp/bench-gpu/bench.json "$out/" 2>/dev/null
    echo "gpu-check: done"
}

case "${1:-}" in
    prepare) prepare ;;
    run) run "${2:-}" ;;
    *) echo "usage: tools/gpu-check.sh prepare|run" >&2; exit 2 ;;
esac
