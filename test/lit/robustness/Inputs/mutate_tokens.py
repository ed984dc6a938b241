"""A deterministic token-level fuzzer for the analyses, the tracer and to-code.

usage: mutate_tokens.py [--stages=S,...] AGC SEED CASES WORKDIR FILE...

Each case takes one of the FILEs and replaces a few short spans with Python and TensorFlow
tokens (names, literals, operators, tf calls, break/return), so that most cases still parse
and reach the tracer. Runs each stage on each case (by default `agc --emit=analysis` and `agc to-code`; a stage
is an --emit value or `to-code`) and fails if any run crashes, hangs, exits other than 0
or 1, or exits 1 without a located diagnostic.
"""
import os
import random
import re
import subprocess
import sys

args = sys.argv[1:]
stages = ["analysis", "to-code"]
if args[0].startswith("--stages="):
    stages = args.pop(0)[len("--stages="):].split(",")
agc, seed, count, work = args[0], int(args[1]), int(args[2]), args[3]
files = args[4:]
os.makedirs(work, exist_ok=True)
rng = random.Random(seed)
tokens = [b"x", b"tf", b"1", b"0", b"-1", b"(", b")", b"[", b"]", b":", b",", b"+", b"*",
          b"/", b"//", b"%", b"==", b"<", b"and", b"not", b"None", b"True", b"break",
          b"return", b"1.5", b"tf.range(3)", b"tf.zeros([2])", b"range(3)", b"x.shape",
          b"tf.constant([1, 2])", b"'s'", b"i", b"n", b"len(x)", b"tf.cast(x, tf.float32)",
          b"x[0]", b"x[1:]", b"tf.reduce_sum(x)", b"[1, 2]", b"(1, 2)"]
located = re.compile(rb"^[^\n]+:\d+:\d+: error: ", re.M)
failures = runs = accepted = 0
for k in range(count):
    data = bytearray(open(rng.choice(files), "rb").read())
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(data))
        end = min(len(data), at + rng.randint(0, 6))
        if b"\n" not in data[at:end]:
            data[at:end] = rng.choice(tokens)
    path = os.path.join(work, "case%d.py" % k)
    with open(path, "wb") as f:
        f.write(data)
    for stage in stages:
        cmd = ([agc, "to-code", path] if stage == "to-code" else [agc, "--emit=" + stage, path])
        cmd += ["-D", "x=5", "-D", "n=3"]
        runs += 1
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            print("HANG", " ".join(cmd))
            failures += 1
            continue
        if proc.returncode == 0:
            accepted += 1
            continue
        if proc.returncode != 1 or not located.search(proc.stderr):
            print("FAIL", proc.returncode, " ".join(cmd), proc.stderr[-400:])
            failures += 1
print("%d runs, %d failures (%d accepted)" % (runs, failures, accepted))
sys.exit(1 if failures else 0)
