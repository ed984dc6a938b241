"""A small deterministic fuzzer: runs agc on every prefix of a file and on seeded random
byte mutations of it, and fails if any run crashes, hangs, exits with a status other than
0 or 1, or exits 1 without a located `FILE:LINE:COL: error:` diagnostic.

usage: mutate.py AGC FILE MUTATIONS WORKDIR
"""
import os
import random
import re
import subprocess
import sys

agc, path, mutations, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
os.makedirs(work, exist_ok=True)
data = open(path, "rb").read()
rng = random.Random(42)
cases = [("prefix%d" % n, data[:n]) for n in range(0, len(data) + 1, 7)]
alphabet = b"()[]{}:,.=+-*/%<>!@#'\"\\\n\t 0123456789abcdefxyz_\x00\xff\xc3"
for m in range(mutations):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(3)
        at = rng.randrange(len(b) + 1)
        if op == 0 and len(b) > 0 and at < len(b):
            del b[at]
        elif op == 1:
            b.insert(at, rng.choice(alphabet))
        elif at < len(b):
            b[at] = rng.choice(alphabet)
    cases.append(("mutation%d" % m, bytes(b)))

located = re.compile(rb"^[^\n]+\.py:\d+:\d+: error: ", re.M)
failures = 0
for name, content in cases:
    file = os.path.join(work, name + ".py")
    with open(file, "wb") as f:
        f.write(content)
    try:
        proc = subprocess.run([agc, "--emit=ast", file, "-o", os.devnull],
                              capture_output=True, timeout=20)
    except subprocess.TimeoutExpired:
        print("HANG", file)
        failures += 1
        continue
    if proc.returncode == 0:
        continue
    if proc.returncode != 1 or not located.search(proc.stderr):
        print("FAIL", file, "exit", proc.returncode, proc.stderr[-500:])
        failures += 1
print("%d cases, %d failures" % (len(cases), failures))
sys.exit(1 if failures else 0)
