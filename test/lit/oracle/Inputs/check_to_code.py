"""Runs functions and their `agc to-code` conversions under real TensorFlow and compares.

usage: check_to_code.py AGC SRC_ROOT CASES [STYLE]

CASES is a file of JSON lines, one case each: {"file": path under SRC_ROOT, "func": name,
"args": [...], "agc": [extra agc options], "styles": [...]}. STYLE (default tensorflow) is
passed as `--style=STYLE`; a case runs only if it lists that style (or lists none). In "args" an element {"dtype": D, "value": V}
is a tensor, anything else a Python value. All cases run in one process (one TensorFlow
import). The file is imported twice, so that the original and the converted function
each get their own module state (tf.Variables); the converted function (from
`agc to-code FILE:FUNC`) replaces FUNC in the second copy, where it finds the module's
imports, constants and helpers. Compared: the results (dtype, shape, values within 1e-6)
and the final values of the module's tf.Variables. Prints `FUNC: same result ...` or what
differs per case, then `N cases, M different`, and exits 1 if any differ.
"""
import importlib.util
import json
import os
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def to_args(items):
    return [tf.constant(a["value"], dtype=a["dtype"]) if isinstance(a, dict) else a for a in items]


def as_numpy(value):
    if isinstance(value, (tuple, list)):
        return [as_numpy(v) for v in value]
    if value is None:
        return None
    return np.asarray(value)


def same(a, b):
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(
            same(x, y) for x, y in zip(a, b))
    if a is None or b is None:
        return a is None and b is None
    return a.dtype == b.dtype and a.shape == b.shape and np.allclose(a, b, atol=1e-6, equal_nan=True)


def check(agc, path, func, args, options, style):
    converted = subprocess.run([agc, "to-code", f"--style={style}", f"{path}:{func}"] + options,
                               check=True,
                               capture_output=True, text=True).stdout
    original = load(path, "original")
    target = load(path, "target")
    exec(compile(converted, f"<agc to-code {func}>", "exec"), target.__dict__)
    want = as_numpy(getattr(original, func)(*to_args(args)))
    got = as_numpy(getattr(target, func)(*to_args(args)))
    if not same(want, got):
        print(f"{func}: DIFFERENT: tf.function gives {want!r}, to-code gives {got!r}")
        return False
    for name, value in vars(original).items():
        if isinstance(value, tf.Variable):
            a, b = value.numpy(), getattr(target, name).numpy()
            if not np.array_equal(a, b):
                print(f"{func}: DIFFERENT: tf.Variable {name} ends as {a} and {b}")
                return False
    print(f"{func}: same result {want!r}".replace("\n", " "))
    return True


def main():
    agc, root, cases = sys.argv[1:4]
    style = sys.argv[4] if len(sys.argv) > 4 else "tensorflow"
    total = different = 0
    for line in open(cases):
        if not line.strip() or line.startswith("#"):
            continue
        case = json.loads(line)
        if style not in case.get("styles", [style]):
            continue
        total += 1
        try:
            ok = check(agc, os.path.join(root, case["file"]), case["func"], case["args"],
                       case.get("agc", []), style)
        except subprocess.CalledProcessError as e:
            print(f"{case['func']}: agc to-code failed: {e.stderr}")
            ok = False
        different += not ok
    print(f"{total} cases, {different} different")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
