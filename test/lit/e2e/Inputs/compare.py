"""Runs functions under real TensorFlow and through `agc run`, and compares them.

usage: compare.py AGC CASES.jsonl

Each line of CASES is {"file": F, "func": NAME, "args": [...], "kwargs": {...}} with
paths relative to the CASES file; an argument {"dtype": D, "value": V} is a tensor, any
other JSON value a Python argument. For each case the module is imported afresh (its
tf.Variables start anew, as in a new `agc run`), the function is called under
tf.function, and `agc run` is called with the same arguments. The results must have the
same structure, dtypes and shapes, equal integers and bools, floats within 1e-5 relative
(1e-6 absolute), and tf.print must write the same lines (numbers in them within the same
tolerance: agc's tanh is libm's, not Eigen's). Python print() runs while tracing, in
TensorFlow as in agc's compiler, so the trace-time lines TensorFlow writes on stdout are
not compared. Prints one line per case and a summary; exits 1 on any difference.
"""
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

agc, cases_path = sys.argv[1], sys.argv[2]
base = os.path.dirname(os.path.abspath(cases_path))


def to_tf(arg):
    if isinstance(arg, dict) and "dtype" in arg and "value" in arg:
        return tf.constant(arg["value"], dtype=getattr(tf, arg["dtype"]))
    return arg


def from_tf(value):
    """A TensorFlow result as agc run prints it."""
    if isinstance(value, (tuple, list)):
        return [from_tf(v) for v in value]
    if value is None:
        return None
    t = tf.convert_to_tensor(value)
    return {"dtype": t.dtype.name, "shape": list(t.shape), "value": t.numpy().tolist()}


def close(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, float) or isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b or abs(a - b) <= 1e-6 + 1e-5 * abs(b)
    return a == b


def same(x, y, where="result"):
    """None when x (agc) and y (TensorFlow) agree, else what differs."""
    if isinstance(y, dict) or isinstance(x, dict):
        if not (isinstance(x, dict) and isinstance(y, dict)):
            return f"{where}: {x!r} vs {y!r}"
        for key in ("dtype", "shape"):
            if x[key] != y[key]:
                return f"{where}: {key} {x[key]} vs {y[key]}"
        flat_x = np.array(x["value"], dtype=object).ravel().tolist()
        flat_y = np.array(y["value"], dtype=object).ravel().tolist()
        for i, (a, b) in enumerate(zip(flat_x, flat_y)):
            if not close(a, b):
                return f"{where}: element {i}: {a} vs {b}"
        return None
    if isinstance(y, list):
        if not isinstance(x, list) or len(x) != len(y):
            return f"{where}: {x!r} vs {y!r}"
        for i, (a, b) in enumerate(zip(x, y)):
            d = same(a, b, f"{where}[{i}]")
            if d:
                return d
        return None
    return None if x == y else f"{where}: {x!r} vs {y!r}"


def same_line(a, b):
    """Two printed lines are the same, numbers within the tolerance."""
    ta, tb = a.replace("[", " [ ").replace("]", " ] ").split(), b.replace("[", " [ ").replace("]", " ] ").split()
    if len(ta) != len(tb):
        return False
    for x, y in zip(ta, tb):
        if x == y:
            continue
        try:
            if not close(float(x), float(y)):
                return False
        except ValueError:
            return False
    return True


def run_tf(path, func, args, kwargs):
    """The result, and what tf.print wrote (to stderr and stdout)."""
    spec = importlib.util.spec_from_file_location("case", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, func)
    captured = []
    saved = [os.dup(1), os.dup(2)]
    files = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
    sys.stdout.flush()
    os.dup2(files[0].fileno(), 1)
    os.dup2(files[1].fileno(), 2)
    try:
        result = fn(*[to_tf(a) for a in args], **{k: to_tf(v) for k, v in kwargs.items()})
        error = None
    except Exception as e:  # noqa: BLE001 - TensorFlow's refusal is a result too
        result, error = None, f"{type(e).__name__}: {e}"
    finally:
        sys.stdout.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for f in files:
            f.seek(0)
            captured.append(f.read().decode())
    return result, error, captured


failures = 0
cases = [json.loads(line) for line in open(cases_path) if line.strip()]
for case in cases:
    path = os.path.join(base, case["file"])
    args, kwargs = case.get("args", []), case.get("kwargs", {})
    label = f"{case['func']}({json.dumps(args)[1:-1]})"
    tf_result, tf_error, (tf_out, tf_err) = run_tf(path, case["func"], args, kwargs)
    proc = subprocess.run([agc, "run", f"{path}:{case['func']}", "--args", json.dumps(args),
                           "--kwargs", json.dumps(kwargs)], capture_output=True, text=True,
                          timeout=120)
    if tf_error:
        problem = None if proc.returncode in (1, 3) else f"TensorFlow raised {tf_error}, agc exited {proc.returncode}"
    elif proc.returncode != 0:
        problem = f"agc exited {proc.returncode}: {proc.stderr.strip()[-300:]}"
    else:
        problem = same(json.loads(proc.stdout)["result"], from_tf(tf_result))
        # tf.print: the lines TensorFlow wrote to stderr (its log lines aside).
        tf_lines = [l for l in tf_err.splitlines() if not l.startswith(("WARNING", "I0000", "E0000", "W0000"))]
        agc_lines = proc.stderr.splitlines()
        if not problem and (len(tf_lines) != len(agc_lines) or
                            not all(same_line(a, b) for a, b in zip(agc_lines, tf_lines))):
            problem = f"tf.print: {agc_lines[:8]} vs {tf_lines[:8]}"
        if not problem and len(proc.stdout.splitlines()) != 1:
            problem = "agc's stdout is not one JSON document"
    if problem:
        failures += 1
        print(f"FAIL {label}: {problem}")
    else:
        print(f"ok {label}")
print(f"{len(cases)} cases, {failures} failed")
sys.exit(1 if failures else 0)
