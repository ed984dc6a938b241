"""agc's conformance suite: every corpus function under real TensorFlow and through agc.

usage: run.py AGC [--jobs N] [--only THEME] [--timeout S] [--verbose] [--summary FILE]
                 [--agc-arg ARG]... [--oracle FILE] [--slow S] [--scalar-entry]
       run.py --record FILE [--only THEME]

The corpus is test/conformance/<theme>.py, each with <theme>.cases beside it: one case a
line, `FUNC ARGS` or `FUNC ARGS KWARGS`, ARGS a JSON list (an element {"dtype": D,
"value": V} is a tensor, any other JSON value a Python argument) and KWARGS a JSON object;
a line starting with `#` is a comment. For every case:

- TensorFlow: the theme module is imported afresh (new tf.Variables) and FUNC is traced
  with the arguments (get_concrete_function), then called; tf.print's output (stderr) is
  captured.
- agc: `agc run THEME.py:FUNC --args ARGS --kwargs KWARGS` (and each --agc-arg: e.g.
  `--agc-arg=--target=nvptx --agc-arg=--gpu-emulate` runs the nvptx pipeline with its
  kernels on the CPU); a run that takes more than
  --timeout seconds (default 60; every case takes well under 5) fails as a timeout, so
  that a miscompiled loop that never ends fails the suite instead of hanging it.
- Compared: where TensorFlow refuses while tracing, agc must refuse at compile time (exit
  1, with a `file:line:col: error:` diagnostic); where it raises when called, agc must exit
  3; otherwise the results must have the same structure, dtypes and shapes, equal integers
  and bools, floats within 1e-5 relative (1e-6 absolute, NaNs equal), and tf.print the same
  lines (numbers in them within the same tolerance).
- to-code: for the first case of each function that TensorFlow accepts, `agc to-code`
  (with the case's types and Python values) runs under TensorFlow with autograph=False and
  must give the original's result; and agc must compile that output itself (appended to
  the theme's module as FUNC__to_code) and give the same result with `agc run`.

--scalar-entry: the cases whose tensors are all 0-d, through `agc run --entry=scalar`:
the function's scalar entry point (PREFIX_f_scalar, values in and out, called through
libffi as C calls it) where it has one; the summary says in how many cases it was called,
and a run where none was fails. to-code is not checked, nor are gaps listed as stale.

On a machine without TensorFlow (a GPU machine lent for a while, tools/gpu-check.sh):
`--record FILE` runs TensorFlow alone on every case, where it is installed, and writes its
results (one JSON object a line); `--oracle FILE` then compares agc with those instead of
running TensorFlow, and skips the to-code checks (they run the converted code under
TensorFlow), which the summary says.

A failure listed in known_gaps.txt (`THEME FUNC reason`) is a known gap: counted and
printed with its reason, not a failure; a listed gap that passes is a failure (the list
must stay true). The summary gives cases per theme, passed, failed and gaps (and goes to
FILE too with --summary); the exit status is 1 when anything failed.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

import numpy as np
from oracle import LOG_PREFIXES, Captured, from_tf, import_fresh, same, same_line, to_tf

HERE = os.path.dirname(os.path.abspath(__file__))
LOCATED = re.compile(r"^[^\n]+:\d+:\d+: error: ", re.M)


# --- the corpus ---------------------------------------------------------------------------

def load_cases(theme):
    cases = []
    with open(os.path.join(HERE, theme + ".cases")) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            func, _, rest = line.partition(" ")
            decoder = json.JSONDecoder()
            rest = rest.strip() or "[]"
            args, end = decoder.raw_decode(rest)
            rest = rest[end:].strip()
            kwargs = decoder.raw_decode(rest)[0] if rest else {}
            cases.append({"theme": theme, "func": func, "args": args, "kwargs": kwargs,
                          "line": number})
    return cases


def scalar_case(case):
    """Whether every tensor argument of CASE is 0-d (--scalar-entry runs those cases)."""
    def scalar(a):
        return not isinstance(a.get("value"), list) and not a.get("shape")
    return all(scalar(a) for a in list(case["args"]) + list(case["kwargs"].values())
               if isinstance(a, dict) and "dtype" in a and "value" in a)


def load_gaps():
    gaps = {}
    path = os.path.join(HERE, "known_gaps.txt")
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#"):
            theme, func, reason = line.split(None, 2)
            gaps[(theme, func)] = reason
    return gaps


# --- TensorFlow ---------------------------------------------------------------------------

def run_tf(case):
    """{"trace_error" | "call_error" | "result", "printed"}."""
    path = os.path.join(HERE, case["theme"] + ".py")
    args = [to_tf(a) for a in case["args"]]
    kwargs = {k: to_tf(v) for k, v in case["kwargs"].items()}
    out = {}
    with Captured() as c:
        try:
            module = import_fresh(path, "conformance_" + case["theme"])
            fn = resolve(module, case["func"])
            try:
                fn.get_concrete_function(*args, **kwargs)
            except Exception as e:  # noqa: BLE001 - a refusal while tracing is a result
                out["trace_error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            if "trace_error" not in out:
                try:
                    out["result"] = from_tf(fn(*args, **kwargs))
                except Exception as e:  # noqa: BLE001
                    out["call_error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        except Exception as e:  # noqa: BLE001 - the module itself fails: report it
            out["trace_error"] = f"{type(e).__name__}: {e}"
    out["printed"] = [l for l in c.out[1].splitlines()
                      if not l.startswith(LOG_PREFIXES)]
    return out


# --- agc ----------------------------------------------------------------------------------

AGC_ARGS = []  # --agc-arg: added to every `agc run`

def run_agc(agc, case, timeout, slow=None):
    """agc's exit status and output for CASE; a run that took longer than `slow` seconds
    (--slow) is said as it ends."""
    path = os.path.join(HERE, case["theme"] + ".py")
    cmd = [agc, "run", f"{path}:{case['func']}", "--args", json.dumps(case["args"]),
           "--kwargs", json.dumps(case["kwargs"])] + AGC_ARGS
    start = time.time()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        out = {"code": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr}
    except subprocess.TimeoutExpired:
        out = {"code": "timeout", "stdout": "", "stderr": ""}
    took = time.time() - start
    if slow is not None and took > slow:
        print(f"slow: {case['theme']}.{case['func']} (line {case['line']}): {took:.1f} s, "
              f"exit {out['code']}", flush=True)
    return out


def to_code_options(case, with_signature):
    """--signature and -D options that give to-code the case's types and Python values."""
    path = os.path.join(HERE, case["theme"] + ".py")
    entries, options = [], []
    params = {}
    for name, value in zip(param_names(path, case["func"]), case["args"]):
        params[name] = value
    params.update(case["kwargs"])
    for name, value in params.items():
        if isinstance(value, dict) and "dtype" in value:
            shape = list(np.array(value["value"]).shape)
            if value["dtype"].startswith("complex") and shape and shape[-1] == 2:
                shape = shape[:-1]  # [real, imaginary] pairs are the elements
            entries.append(f"{name}: {value['dtype']}[{','.join(map(str, shape))}]")
        else:
            options += ["-D", f"{name}={python_literal(value)}"]
    if entries and with_signature:
        options += ["--signature", f"{case['func']}({', '.join(entries)})"]
    return options


def resolve(module, func):
    """What FUNC names: a function, or a method of a module-level instance (`model.method`;
    `model` alone is its __call__)."""
    obj = module
    for part in func.split("."):
        obj = getattr(obj, part)
    if "." not in func and not hasattr(obj, "get_concrete_function") and hasattr(obj, "__call__"):
        obj = obj.__call__
    return obj


def method_def(path, func):
    """The ast of FUNC: a top-level def, or (for `obj.method`, `obj`) a def in a class."""
    import ast
    tree = ast.parse(open(path).read())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == func:
            return node, False
    method = func.split(".")[1] if "." in func else "__call__"
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == method:
                    return item, True
    return None, False


def param_names(path, func):
    node, is_method = method_def(path, func)
    if node is None:
        return []
    return [a.arg for a in node.args.args][1 if is_method else 0:]


def python_literal(value):
    return repr(value)


def check_to_code(agc, case, want):
    path = os.path.join(HERE, case["theme"] + ".py")
    # A source input_signature types the tensors itself.
    options = to_code_options(case, "input_signature" not in decorator_text(path, case["func"]))
    proc = subprocess.run([agc, "to-code", f"{path}:{case['func']}"] + options,
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        return f"to-code exited {proc.returncode}: {proc.stderr.strip()[-300:]}"
    with Captured():
        try:
            target = import_fresh(path, "to_code_" + case["theme"])
            exec(compile(proc.stdout, f"<agc to-code {case['func']}>", "exec"), target.__dict__)
            got = from_tf(resolve(target, case["func"])(
                *[to_tf(a) for a in case["args"]], **{k: to_tf(v) for k, v in case["kwargs"].items()}))
        except Exception as e:  # noqa: BLE001
            return f"to-code output fails under TensorFlow: {type(e).__name__}: {str(e)[:200]}"
    problem = same(got, want, "to-code result")
    if problem or method_def(path, case["func"])[1]:
        return problem
    return check_to_code_with_agc(agc, case, want, proc.stdout)


def check_to_code_with_agc(agc, case, want, converted):
    """agc compiles its own to-code output: the theme's module with the converted function
    appended under a new name (FUNC__to_code), run with the case's arguments, must give
    TensorFlow's result. (A method's or an instance's to-code is a class: not checked.)"""
    import tempfile
    path = os.path.join(HERE, case["theme"] + ".py")
    name = case["func"] + "__to_code"
    code = re.sub(r"^def %s\(" % re.escape(case["func"]), f"def {name}(", converted, flags=re.M)
    with tempfile.TemporaryDirectory() as tmp:
        combined = os.path.join(tmp, case["theme"] + ".py")
        with open(combined, "w") as f:
            f.write(open(path).read() + "\n\n" + code)
        cmd = [agc, "run", f"{combined}:{name}", "-I", HERE, "--args", json.dumps(case["args"]),
               "--kwargs", json.dumps(case["kwargs"])] + AGC_ARGS
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        return f"agc on its own to-code output exited {proc.returncode}: {proc.stderr.strip()[-300:]}"
    lines = proc.stdout.splitlines()
    if len(lines) != 1:
        return "agc on its own to-code output: stdout is not one JSON document"
    return same(json.loads(lines[0])["result"], want, "agc on its to-code output")


def decorator_text(path, func):
    import ast
    node, _ = method_def(path, func)
    return " ".join(ast.unparse(d) for d in node.decorator_list) if node else ""


# --- comparison ---------------------------------------------------------------------------

def judge(case, tf_out, agc_out):
    """None when agc behaves as TensorFlow does, else the difference."""
    code = agc_out["code"]
    if code == "timeout":
        return "agc timed out"
    if "trace_error" in tf_out:
        if code != 1:
            return f"TensorFlow refuses while tracing ({tf_out['trace_error'][:120]}), agc exited {code}"
        if not LOCATED.search(agc_out["stderr"]):
            return "agc refused without a located diagnostic"
        return None
    if "call_error" in tf_out:
        if code != 3:
            return f"TensorFlow raises when called ({tf_out['call_error'][:120]}), agc exited {code}"
        return None
    if code != 0:
        return f"agc exited {code}: {agc_out['stderr'].strip()[-400:]}"
    lines = agc_out["stdout"].splitlines()
    if len(lines) != 1:
        return "agc's stdout is not one JSON document"
    d = same(json.loads(lines[0])["result"], tf_out["result"])
    if d:
        return d
    printed = agc_out["stderr"].splitlines()
    if len(printed) != len(tf_out["printed"]) or not all(
            same_line(a, b) for a, b in zip(printed, tf_out["printed"])):
        return f"tf.print: agc {printed[:6]}, TensorFlow {tf_out['printed'][:6]}"
    return None


# --- main ---------------------------------------------------------------------------------

def case_key(case):
    return f"{case['theme']}:{case['line']}:{case['func']}"


def record(path, cases):
    """TensorFlow's result for every case, one JSON object a line, for --oracle."""
    with open(path, "w") as f:
        for case in cases:
            f.write(json.dumps({"case": case_key(case), "tf": run_tf(case)}) + "\n")
    print(f"recorded TensorFlow's results for {len(cases)} cases in {path}")


def recorded(path, cases):
    """--oracle FILE: {case key: TensorFlow's result}, every case of this run there."""
    with open(path) as f:
        found = {d["case"]: d["tf"] for d in map(json.loads, f)}
    missing = [case_key(c) for c in cases if case_key(c) not in found]
    if missing:
        sys.exit(f"run.py: {path} has no result for {len(missing)} cases (first: "
                 f"{missing[0]}): record it again with --record")
    return found


def main():
    argv = sys.argv[1:]
    agc = argv.pop(0) if argv and not argv[0].startswith("--") else None
    jobs, only, verbose, summary_path, timeout = 2, None, False, None, 60.0
    record_path = oracle_path = slow = None
    scalar_entry = False
    while argv:
        a = argv.pop(0)
        if a == "--record":
            record_path = argv.pop(0)
        elif a == "--oracle":
            oracle_path = argv.pop(0)
        elif a == "--jobs":
            jobs = int(argv.pop(0))
        elif a == "--only":
            only = argv.pop(0)
        elif a == "--timeout":
            timeout = float(argv.pop(0))
        elif a == "--verbose":
            verbose = True
        elif a == "--slow":
            slow = float(argv.pop(0))
        elif a == "--scalar-entry":
            scalar_entry = True
            AGC_ARGS.append("--entry=scalar")
        elif a == "--summary":
            summary_path = argv.pop(0)
        elif a == "--agc-arg":
            AGC_ARGS.append(argv.pop(0))
        elif a.startswith("--agc-arg="):
            AGC_ARGS.append(a[len("--agc-arg="):])
    themes = sorted(f[:-3] for f in os.listdir(HERE)
                    if f.endswith(".py") and f != "run.py" and os.path.exists(os.path.join(HERE, f[:-3] + ".cases")))
    if only:
        themes = [t for t in themes if t == only]
    gaps = load_gaps()
    cases = [c for t in themes for c in load_cases(t)]
    if scalar_entry:
        cases = [c for c in cases if scalar_case(c)]
    functions = {(c["theme"], c["func"]) for c in cases}
    if record_path:
        record(record_path, cases)
        return
    if agc is None:
        sys.exit(__doc__.split("\n\n")[1])
    oracle = recorded(oracle_path, cases) if oracle_path else None
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        agc_results = list(pool.map(lambda c: run_agc(agc, c, timeout, slow), cases))
    agc_time = time.time() - start
    failed_functions = {}
    stats = {t: {"cases": 0, "passed": 0, "failed": 0, "gaps": 0} for t in themes}
    first_accepted = {}
    for case, agc_out in zip(cases, agc_results):
        key = (case["theme"], case["func"])
        tf_out = oracle[case_key(case)] if oracle else run_tf(case)
        problem = judge(case, tf_out, agc_out)
        if not problem and "result" in tf_out and key not in first_accepted:
            first_accepted[key] = (case, tf_out["result"])
        case["problem"] = problem
        if problem:
            failed_functions.setdefault(key, []).append(case)
    # to-code, once per function that TensorFlow accepts (under TensorFlow: not with --oracle)
    for key, (case, want) in sorted(first_accepted.items()) if not (oracle or scalar_entry) else []:
        problem = check_to_code(agc, case, want)
        if problem:
            case["problem"] = "to-code: " + problem
            failed_functions.setdefault(key, []).append(case)
    # report
    failures = 0
    for case in cases:
        key = (case["theme"], case["func"])
        s = stats[case["theme"]]
        s["cases"] += 1
        label = f"{case['theme']}.{case['func']}({json.dumps(case['args'])[1:-1][:80]})"
        if case["problem"] and key in gaps:
            s["gaps"] += 1
            if verbose:
                print(f"GAP  {label}: {case['problem']}")
        elif case["problem"]:
            s["failed"] += 1
            failures += 1
            print(f"FAIL {label}: {case['problem']}")
        else:
            s["passed"] += 1
            if verbose:
                print(f"ok   {label}")
    # (With --oracle a gap of to-code's cannot show: none is called stale.)
    stale = [] if oracle or scalar_entry else sorted(k for k in gaps if k in functions and k not in failed_functions)
    for theme, func in stale:
        failures += 1
        print(f"FAIL {theme}.{func}: listed in known_gaps.txt but passes: remove it from the list")
    lines = [f"{'theme':<22}{'functions':>10}{'cases':>8}{'passed':>8}{'failed':>8}{'gaps':>6}"]
    totals = {"cases": 0, "passed": 0, "failed": 0, "gaps": 0}
    for t in themes:
        s = stats[t]
        nfun = len({f for (th, f) in functions if th == t})
        lines.append(f"{t:<22}{nfun:>10}{s['cases']:>8}{s['passed']:>8}{s['failed']:>8}{s['gaps']:>6}")
        for k in totals:
            totals[k] += s[k]
    lines.append(f"{'total':<22}{len(functions):>10}{totals['cases']:>8}{totals['passed']:>8}"
                 f"{totals['failed']:>8}{totals['gaps']:>6}")
    listed = [(k, r) for k, r in sorted(gaps.items()) if k in functions]
    if listed:
        lines.append("known gaps (known_gaps.txt):")
        for (theme, func), reason in listed:
            lines.append(f"  {theme}.{func}: {reason}")
    rate = 100.0 * totals["passed"] / max(1, totals["cases"])
    lines.append(f"conformance: {len(functions)} functions, {totals['cases']} cases, "
                 f"{totals['passed']} passed ({rate:.1f}%), {totals['failed'] + len(stale)} failed, "
                 f"{totals['gaps']} known gaps; agc runs took {agc_time:.0f} s")
    if oracle:
        lines.append(f"(TensorFlow's results recorded in {oracle_path}; to-code not checked)")
    if scalar_entry:
        called = sum(1 for out in agc_results if out["code"] == 0 and
                     json.loads(out["stdout"].splitlines()[0]).get("entry", "").endswith("_scalar"))
        lines.append(f"scalar entry point: called in {called} of the {len(cases)} cases "
                     f"(those whose tensors are all 0-d; to-code and stale gaps not checked)")
        if not called:
            failures += 1
            lines.append("FAIL no case called a scalar entry point")
    text = "\n".join(lines) + "\n"
    print()
    print(text, end="")
    if summary_path:
        with open(summary_path, "w") as f:
            f.write(text)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
