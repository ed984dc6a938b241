"""Times `agc compile` of the tanh-loop example end to end (parse, analyses, MLIRGen, the
CPU pipeline, LLVM optimization and object emission, header), as a user runs it.

usage: python3 test/bench/compile_bench.py [RUNS]   (from the repository root, after a build)
Prints the median and the minimum wall time of RUNS runs (default 15) after a warm-up,
and the target (300 ms).
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
agc = os.path.join(root, "build", "tools", "agc")
source = os.path.join(root, "examples", "tanh_loop.py")
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
with tempfile.TemporaryDirectory() as work:
    out = os.path.join(work, "tanh_loop.o")
    cmd = [agc, "compile", source, "-o", out]
    subprocess.run(cmd, check=True)  # warm-up: page cache, dynamic loader
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True)
        times.append((time.perf_counter() - start) * 1000)
    phases = subprocess.run(cmd + ["--time-phases"], check=True, capture_output=True, text=True)
print(f"agc compile examples/tanh_loop.py: median {statistics.median(times):.1f} ms, "
      f"min {min(times):.1f} ms over {runs} runs (target: under 300 ms)")
print(phases.stderr.strip())
