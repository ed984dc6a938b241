"""Writes a generated input for agc's robustness tests.

usage: make_input.py KIND OUT
  garbage     64 KiB of seeded random bytes
  parens N    x = ((((...1...)))) nested N deep
  binop N     x = 1 + 1 + ... with N operands (a left-deep tree N deep)
  ifs N       N nested if statements
  big         about 10 MB of valid functions
  chain N     one tf.function of N statements `x = x + 1.0`
"""
import random
import sys

kind, out = sys.argv[1], sys.argv[-1]
n = int(sys.argv[2]) if len(sys.argv) > 3 else 0
with open(out, "wb") as f:
    if kind == "garbage":
        rng = random.Random(1234)
        f.write(bytes(rng.getrandbits(8) for _ in range(64 * 1024)))
    elif kind == "parens":
        f.write(b"x = " + b"(" * n + b"1" + b")" * n + b"\n")
    elif kind == "binop":
        f.write(b"x = " + b" + ".join([b"1"] * n) + b"\n")
    elif kind == "ifs":
        for depth in range(n):
            f.write(b" " * depth + b"if x:\n")
        f.write(b" " * n + b"pass\n")
    elif kind == "big":
        chunk = (b"@tf.function\n"
                 b"def f%d(x, n=3):\n"
                 b"    while tf.reduce_sum(x) > 1.0:\n"
                 b"        x = tf.tanh(x) * 0.5 + x[1:2, ::3]\n"
                 b"    for i in tf.range(n):\n"
                 b"        if i %% 2 == 0 and x is not None:\n"
                 b"            x += 1\n"
                 b"    return x, {'a': [1, 2.5, 'str']}\n\n")
        f.write(b"import tensorflow as tf\n")
        i = 0
        while f.tell() < 10 * 1024 * 1024:
            f.write(chunk % i)
            i += 1
    elif kind == "chain":
        f.write(b"import tensorflow as tf\n\n\n"
                b"@tf.function(input_signature=[tf.TensorSpec(shape=[2], dtype=tf.float32)])\n"
                b"def f(x):\n")
        f.write(b"    x = x + 1.0\n" * n)
        f.write(b"    return x\n")
    else:
        sys.exit("unknown kind " + kind)
