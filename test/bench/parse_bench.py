"""Benchmark (not a test): parse + AST construction of a generated 10,000-line Python file.

Runs `agc --emit=ast --time-phases FILE -o /dev/null` several times and reports the
median of agc's own "parse+ast" phase (tree-sitter parse, syntax-error walk, AST
construction), plus the whole command's wall time for context (process start-up and
loading libLLVM included). The target for parse+ast is under 100 ms. Run from the repository root after tools/setup.sh:

    python3 test/bench/parse_bench.py [--runs N] [--agc build/tools/agc]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

FUNCTION = '''@tf.function
def step_{i}(x, n=3):
    # a typical loop body
    total = tf.zeros_like(x)
    while tf.reduce_sum(x) > 1.0:
        x = tf.tanh(x) * 0.5
        total += x[1:2, ::3]
    for i in tf.range(n):
        if i % 2 == 0 and x is not None:
            total = total + tf.cast(i, tf.float32)
        elif i > 7:
            break
    return total, {{'a': [1, 2.5, 'str']}}

'''


def generate(path, lines):
    with open(path, "w") as f:
        f.write("import tensorflow as tf\n\n")
        written, i = 2, 0
        while written < lines:
            text = FUNCTION.format(i=i)
            f.write(text)
            written += text.count("\n")
            i += 1
    return written


def measure(cmd, runs):
    """Median wall seconds of `cmd` and median of each phase agc reports, in ms."""
    walls, phases = [], {}
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        walls.append(time.perf_counter() - start)
        for m in re.finditer(r"agc: time: (\S+): ([0-9.]+) ms", proc.stderr):
            phases.setdefault(m.group(1), []).append(float(m.group(2)))
    return statistics.median(walls), {k: (statistics.median(v), min(v)) for k, v in phases.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agc", default="build/tools/agc")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--lines", type=int, default=10000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "big.py")
        lines = generate(big, args.lines)
        cmd = [args.agc, "--emit=ast", "--time-phases", big, "-o", os.devnull]
        subprocess.run(cmd, check=True, capture_output=True)  # warm the page cache
        wall, phases = measure(cmd, args.runs)
    print(f"file: {lines} lines, median of {args.runs} runs")
    print(f"  {'phase':10s} {'median':>8s} {'min':>8s}")
    for phase, (median, least) in phases.items():
        print(f"  {phase:10s} {median:8.1f} {least:8.1f} ms")
    print(f"  {'command':10s} {wall * 1000:8.1f} ms (whole process, median)")
    median, least = phases["parse+ast"]
    print(f"parse + AST of {lines} lines: {median:.1f} ms median, {least:.1f} ms min "
          f"(target < 100 ms)")


if __name__ == "__main__":
    main()
