"""Builds test/bench/call_overhead.c against control_deps.py compiled by agc and runs it:
the per-call overhead of a compiled scalar function through its C entry point, with the
runtime linked statically and as a shared library, through the tensor entry point and the
scalar one (target: under 20 ns).

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
    # Linked both ways: the static archive (CMake's agc_compile with STATIC_RUNTIME), and
    # the shared library, which agc_compile and pkg-config's agc-runtime link by default
    # (its thread-local state costs a __tls_get_addr call at each access).
    runtime = os.path.join(root, "build", "runtime")
    for kind, link in (("static runtime", [os.path.join(runtime, "libagc-runtime.a")]),
                       ("shared runtime", ["-L", runtime, "-lagc-runtime",
                                           "-Wl,-rpath," + runtime])):
        exe = os.path.join(work, "call_overhead")
        subprocess.run(["cc", "-O2", "-I", os.path.join(root, "runtime", "include"), "-I", work,
                        os.path.join(root, "test", "bench", "call_overhead.c"),
                        os.path.join(work, "control_deps.o"), *link, "-lomp", "-lm",
                        "-o", exe],
                       check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
        for line in out.strip().splitlines():
            print(f"{kind}:", line, "(target: under 20 ns)")
