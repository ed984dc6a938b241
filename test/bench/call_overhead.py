"""Builds test/bench/call_overhead.c against control_deps.py compiled by agc and runs it:
the per-call overhead of a compiled scalar function through its C entry point (target:
under 100 ns).

usage: python3 test/bench/call_overhead.py   (from the repository root, after a build)
"""
import os
import subprocess
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
agc = os.path.join(root, "build", "tools", "agc")
with tempfile.TemporaryDirectory() as work:
    subprocess.run([agc, "compile", os.path.join(root, "examples", "control_deps.py"),
                    "-o", os.path.join(work, "control_deps.o"),
                    "--signature", "my_function(x: float32[])", "--signature", "double(a: int32[])",
                    "-D", "x=1.0", "-D", "y=2.0"], check=True)
    exe = os.path.join(work, "call_overhead")
    subprocess.run(["cc", "-O2", "-I", os.path.join(root, "runtime", "include"), "-I", work,
                    os.path.join(root, "test", "bench", "call_overhead.c"),
                    os.path.join(work, "control_deps.o"),
                    os.path.join(root, "build", "runtime", "libagc-runtime.a"), "-lomp", "-lm", "-o", exe],
                   check=True)
    print(subprocess.run([exe], check=True, capture_output=True, text=True).stdout.strip(),
          "(target: under 100 ns)")
