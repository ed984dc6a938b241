"""Benchmark (not a test): the analyses and tracing of one long function.

Generates a @tf.function of about 1,000 lines holding 200 control-flow statements (if,
while, for; staged and static; nested ten deep in twenty groups), runs
`agc --emit=analysis --time-phases` on it several times, and prints the median and the
minimum of agc's own "analysis" phase (CFG, activity, reaching definitions, liveness,
carried names, and the trace that decides staging). The target is under 50 ms. Run from
the repository root after tools/setup.sh:

    python3 test/bench/analysis_bench.py [--runs N] [--agc build/tools/agc]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile


def generate(path, groups=20, depth=10, target_lines=1000):
    lines = ["import tensorflow as tf", "", "",
             "@tf.function(input_signature=[tf.TensorSpec(shape=[8], dtype=tf.float32)])",
             "def long_function(x):",
             "    s = tf.zeros([8])",
             "    n = 0"]
    blocks = 0
    # Each block has a header, its filler, `n += 1`, and a quarter of them one line more.
    filler_per_block = max(1, round((target_lines - 10) / (groups * depth) - 2.25))
    for g in range(groups):
        indent = "    "
        for d in range(depth):
            kind = (g + d) % 4
            if kind == 0:
                lines.append(f"{indent}if tf.reduce_sum(x) > {d}.0:")
            elif kind == 1:
                lines.append(f"{indent}for i{g}_{d} in tf.range(3):")
            elif kind == 2:
                lines.append(f"{indent}if n < {d + 100}:")
            else:
                lines.append(f"{indent}while tf.reduce_max(s) < {d}.0:")
            blocks += 1
            indent += "    "
            for k in range(filler_per_block):
                lines.append(f"{indent}s = s + x * {k + 1}.0")
            if kind == 3:
                lines.append(f"{indent}s = s + 1.0")
            lines.append(f"{indent}n += 1")
    lines.append("    return s")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines), blocks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agc", default="build/tools/agc")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "long.py")
        lines, blocks = generate(path)
        cmd = [args.agc, "--emit=analysis", "--time-phases", path, "-o", os.devnull]
        subprocess.run(cmd, check=True, capture_output=True)
        times = []
        for _ in range(args.runs):
            proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
            times.append(float(re.search(r"agc: time: analysis: ([0-9.]+) ms", proc.stderr).group(1)))
    print(f"function: {lines} lines, {blocks} control-flow statements, {args.runs} runs")
    print(f"analysis (CFG, dataflow, carried names, tracing): {statistics.median(times):.1f} ms "
          f"median, {min(times):.1f} ms min (target < 50 ms)")


if __name__ == "__main__":
    main()
