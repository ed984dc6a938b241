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
import json
import os
import subprocess
import sys

# The comparison rules are the conformance suite's (test/conformance/oracle.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "conformance"))
from oracle import LOG_PREFIXES, Captured, from_tf, import_fresh, same, same_line, to_tf  # noqa: E402

agc, cases_path = sys.argv[1], sys.argv[2]
base = os.path.dirname(os.path.abspath(cases_path))


def run_tf(path, func, args, kwargs):
    """The result, and what tf.print wrote (to stdout and stderr)."""
    fn = getattr(import_fresh(path, "case"), func)
    with Captured() as c:
        try:
            result = fn(*[to_tf(a) for a in args], **{k: to_tf(v) for k, v in kwargs.items()})
            error = None
        except Exception as e:  # noqa: BLE001 - TensorFlow's refusal is a result too
            result, error = None, f"{type(e).__name__}: {e}"
    return result, error, c.out


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
        tf_lines = [l for l in tf_err.splitlines() if not l.startswith(LOG_PREFIXES)]
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
