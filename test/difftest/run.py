"""agc's differential tester: random programs (gen.py) under TensorFlow and through agc.

usage: run.py --seed S --count N [--jobs J] [--keep DIR] [--agc PATH] [--exclude F,...]
              [--timeout SEC] [--minimize-time SEC] [--no-minimize] [--verbose]
       run.py --regressions PATH... [--agc PATH] [--timeout SEC]

Programs S, S+1, ..., S+N-1 (gen.py's seeds; --exclude leaves gen.py features out). For
each: the module runs under real tf.function in this process (or in --jobs worker
processes), through oracle.py beside the conformance suite, while `agc run FILE:f --args
JSON` runs as a subprocess (killed after --timeout seconds, default 30). Outcomes:

  agree        the same result (oracle.py's rules: structure, dtypes, shapes, equal
               integers and bools, floats within 1e-5 relative / 1e-6 absolute, NaN equal,
               tf.print's lines the same); or both failed at run time (TensorFlow raised,
               agc exited 3)
  DISAGREE     different results; one failed at run time and the other did not; agc
               killed by a signal, exited other than 0-3, wrote no JSON, or timed out; agc
               exited 2 (a usage error, on arguments that are valid)
  agc-refused  agc exited 1 on a program TensorFlow traces: a gap, not a wrong answer;
               listed with its diagnostic ("[internal]" when MLIR's verifier speaks)
  tf-refused   TensorFlow refused the program while tracing: a generator bug; the program
               is generated again (up to 10 times) and the refusal counted
  tester-error the tester itself failed on a program (exit status 2 when nothing else)

TensorFlow is checked against itself too: a result whose dtype or shape contradicts the
signature TensorFlow traced (a Grappler bug) is counted as tf-inconsistent, and the program
is compared with TensorFlow's result with Grappler off instead. A program that disagrees
is run once more by TensorFlow with Grappler off: if that result is agc's (or both fail
at run time), the program is counted as tf-grappler (TensorFlow's optimizer changed the
result, typically by folding a constant and pruning an op that would raise), listed, not a
failure; so is a program where TensorFlow raises and agc returns while Grappler reported that
one of its own optimizers failed on the graph (a TensorFlow bug that leaves unpruned what its
rules prune, which agc follows).

Where the sign of a zero that max or min chose is what differs, TensorFlow is not a
reference: of +0.0 and -0.0 its kernels return the first operand in some vector lanes and
the second in others (gen.py's Gen.tie), agc's IEEE 754-2019's -0.0 < +0.0. A program that
still disagrees is run once more as gen.py's --zero-ties variant, the same program with
those zeros made +0.0: if that one agrees, the program is counted as tf-zero-tie, listed,
not a failure.

Every DISAGREE is minimized (minimize.py: delta debugging while it disagrees the same
way: the same kind of difference, and for a run-time error of agc's, the same message) and,
with --keep DIR, written to DIR/diff-SEED.py: a standalone module whose first line is the
`agc run` command with its arguments (the original beside it as diff-SEED.orig.py). Two
probes annotate it: "[dead code: ...]" when agc raises where TensorFlow pruned the failing
op (TensorFlow raises too once every value is returned), and "[TensorFlow with Grappler
... off agrees with agc]". A summary line per outcome follows; the exit status is 1 on any
DISAGREE.

--regressions runs every .py file named (or in a folder named): each holds its `agc run`
line first, as the kept files do; anything but agree fails the run.
"""
import argparse
import concurrent.futures
import json
import multiprocessing
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "conformance")]
# Errors only: Grappler's reports of its own failures (grappler_failure) are read from them.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.dont_write_bytecode = True  # a module rewritten in the same second must not load stale

import gen  # noqa: E402
import minimize  # noqa: E402

DEFAULT_AGC = os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "tools", "agc")
ARGS_LINE = re.compile(r"--args '(.*)'\s*$")
DIAG = re.compile(r"^(\S+?):(\d+):(\d+): error: (.*)$", re.M)
BATCH = 150  # programs per worker process before a fresh one (--jobs > 1)
_oracle = None


def oracle():
    """oracle.py, imported on first use (it imports TensorFlow)."""
    global _oracle
    if _oracle is None:
        import oracle as module
        _oracle = module
    return _oracle


# --- TensorFlow ---------------------------------------------------------------------------

def to_tf(arg):
    """A JSON argument as a tensor; "shape" (empty tensors) honoured."""
    o = oracle()
    if isinstance(arg, dict) and "shape" in arg:
        value = o.np.array(arg["value"], dtype=arg["dtype"]).reshape(arg["shape"])
        return o.tf.constant(value, dtype=getattr(o.tf, arg["dtype"]))
    return o.to_tf(arg)


def first_line(e):
    """The error's message; for AutoGraph's "in user code:" wrapping, its last line."""
    lines = [line.strip() for line in str(e).strip().splitlines() if line.strip()]
    if lines and lines[0].startswith("Graph execution error"):  # the op's own message
        lines = [line for line in lines if not line.startswith(("[[", "File ", "Detected at"))]
        text = lines[-1]
    else:
        text = lines[-1] if lines and lines[0].startswith("in user code") else (lines or [""])[0]
    return f"{type(e).__name__}: {text}"[:300]


_modules = 0


def run_tf(path, args, grappler=True):
    """{"trace_error" | "call_error" | "result": ..., "printed": [lines]}; with
    "tf_inconsistent" when TensorFlow's result contradicted its own traced signature (a
    Grappler bug): then the result is that of a second run with Grappler off."""
    out = run_tf_once(path, args) if grappler else without_grappler(path, args)
    if out.get("inconsistent") and grappler:
        again = without_grappler(path, args)
        again["tf_inconsistent"] = out["inconsistent"]
        return again
    return out


def without_grappler(path, args):
    options = oracle().tf.config.optimizer
    options.set_experimental_options({"disable_meta_optimizer": True})
    try:
        return run_tf_once(path, args)
    finally:
        options.set_experimental_options({"disable_meta_optimizer": False})


def run_tf_once(path, args):
    global _modules
    o = oracle()
    _modules += 1
    out = {}
    with o.Captured() as c:
        try:
            module = o.import_fresh(path, f"difftest_{os.getpid()}_{_modules}")
            tensors = [to_tf(a) for a in args]
            concrete = module.f.get_concrete_function(*tensors)
        except Exception as e:  # noqa: BLE001 - a refusal while tracing is an outcome
            out["trace_error"] = first_line(e)
        else:
            try:
                value = module.f(*tensors)
                out["result"] = o.from_tf(value)
                out["inconsistent"] = contradiction(concrete.structured_outputs, value)
            except Exception as e:  # noqa: BLE001
                out["call_error"] = first_line(e)
                out["op_error"] = isinstance(e, o.tf.errors.OpError)  # raised by an op
    out["printed"] = [line for line in c.out[1].splitlines()
                      if not line.startswith(o.LOG_PREFIXES)]
    out["grappler_failed"] = grappler_failure(c.out[1])
    return out


GRAPPLER_FAILED = re.compile(r"^E\d+ .*\] (\w+ failed: .*|.*topological sort failed.*)$", re.M)


def grappler_failure(stderr):
    """Grappler's report that one of its own optimizers failed on this graph (a TensorFlow
    bug: "common_subgraph_elimination failed: INVALID_ARGUMENT: The graph couldn't be
    sorted in topological order"), or "". Then TensorFlow runs the graph without that
    optimizer's pruning, and raises errors of ops its rules would have removed."""
    m = GRAPPLER_FAILED.search(stderr)
    return m.group(1)[:200] if m else ""


def contradiction(traced, value):
    """How a result differs from the dtypes and shapes TensorFlow traced for it, or ""."""
    tf = oracle().tf
    want, got = tf.nest.flatten(traced), tf.nest.flatten(value)
    if len(want) != len(got):
        return f"{len(got)} results, {len(want)} traced"
    for k, (w, g) in enumerate(zip(want, got)):
        if not hasattr(w, "dtype") or not hasattr(g, "dtype"):
            continue
        if w.dtype != g.dtype or not w.shape.is_compatible_with(g.shape):
            return (f"result {k} is {g.dtype.name}{list(g.shape)}, "
                    f"traced as {w.dtype.name}{w.shape.as_list() if w.shape.rank is not None else '?'}")
    return ""


# --- agc ----------------------------------------------------------------------------------

def start_agc(agc, path, args):
    cmd = [agc, "run", f"{path}:f", "--args", json.dumps(args)]
    for attempt in range(5):  # agc may be relinked under us: retry a missing binary
        try:
            return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, start_new_session=True)
        except OSError:
            if attempt == 4:
                raise
            time.sleep(2)


def finish_agc(proc, timeout):
    """{"code": exit status (negative: signal) or "timeout", "stdout", "stderr"}."""
    try:
        out, err = proc.communicate(timeout=timeout)
        return {"code": proc.returncode, "stdout": out, "stderr": err}
    except subprocess.TimeoutExpired:
        stop(proc)
        return {"code": "timeout", "stdout": "", "stderr": ""}


def stop(proc):
    """Kills the agc this tester started (its own process group) and reaps it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.communicate()


# --- comparison ---------------------------------------------------------------------------

def classify(tf_out, agc_out):
    """(outcome, signature, detail); the signature is what minimizing keeps."""
    code = agc_out["code"]
    if "trace_error" in tf_out:
        return "tf-refused", ("tf-refused",), tf_out["trace_error"]
    if code == "timeout":
        return "DISAGREE", ("timeout",), "agc timed out"
    if code < 0:
        return "DISAGREE", ("signal", -code), f"agc killed by signal {-code} ({signal.Signals(-code).name})"
    if code not in (0, 1, 2, 3):
        return "DISAGREE", ("exit", code), f"agc exited {code}: {tail(agc_out['stderr'])}"
    if code == 1:
        return "agc-refused", ("refused",), refusal(agc_out["stderr"])
    if code == 2:
        return "DISAGREE", ("usage",), f"agc exited 2 (usage) on valid arguments: {tail(agc_out['stderr'])}"
    if "call_error" in tf_out:
        if code == 3:
            return "agree", ("both-error",), "both failed at run time"
        return "DISAGREE", ("tf-raises",), f"TensorFlow raises ({tf_out['call_error']}), agc exits 0"
    if code == 3:
        return ("DISAGREE", ("agc-raises", gist(agc_out["stderr"])),
                f"agc exits 3 ({tail(agc_out['stderr'])}), TensorFlow returns")
    return compare_results(tf_out, agc_out)


def compare_results(tf_out, agc_out):
    o = oracle()
    lines = agc_out["stdout"].splitlines()
    try:
        if len(lines) != 1:
            raise ValueError("not one line")
        got = json.loads(lines[0])["result"]
    except (ValueError, KeyError, TypeError):
        return "DISAGREE", ("bad-output",), f"agc's stdout is not one JSON document: {agc_out['stdout'][:200]!r}"
    d = o.same(got, tf_out["result"])
    if d:
        kind = "dtype" if ": dtype " in d else "shape" if ": shape " in d else \
            "value" if ": element " in d else "structure"
        return "DISAGREE", ("mismatch", kind), d
    printed = agc_out["stderr"].splitlines()
    want = tf_out["printed"]
    if len(printed) != len(want) or not all(o.same_line(a, b) for a, b in zip(printed, want)):
        return "DISAGREE", ("printed",), f"tf.print: agc {printed[:4]}, TensorFlow {want[:4]}"
    return "agree", ("agree",), ""


def gist(stderr):
    """agc's run-time error without places and numbers: what minimizing must keep."""
    lines = [line for line in stderr.splitlines() if "run-time error" in line] or [""]
    text = re.sub(r"\S+\.py:\d+:\d+: ", "", lines[-1])
    return re.sub(r"-?\d+", "N", text)


def tail(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return " | ".join(lines[-2:])[:300]


def refusal(stderr):
    """The first diagnostic; marked when it is MLIR's verifier speaking (an agc bug)."""
    m = DIAG.search(stderr)
    text = m.group(4) if m else tail(stderr)
    return ("[internal] " if "see current operation" in stderr else "") + text


# --- one program --------------------------------------------------------------------------

def check(source, args, cfg, tag, agc_first=False):
    """Runs one module both ways: {"outcome", "signature", "detail"}.

    agc_first (for the candidates of minimizing, which may never end): agc runs to the
    end first, and a candidate it does not finish within the timeout is not run under
    TensorFlow, which runs in this process and cannot be stopped (outcome "timeout")."""
    path = os.path.join(cfg["workdir"], f"{tag}.py")
    with open(path, "w") as f:
        f.write(source)
    proc = start_agc(cfg["agc"], path, args)
    if agc_first:
        agc_out = finish_agc(proc, cfg["timeout"])
        if agc_out["code"] == "timeout":
            os.unlink(path)
            return {"outcome": "timeout", "signature": ("candidate-timeout",),
                    "detail": "agc did not finish", "tf_inconsistent": ""}
    try:
        tf_out = run_tf(path, args, cfg.get("grappler", True))
    except BaseException:
        stop(proc)
        raise
    if "trace_error" in tf_out:
        if not agc_first:
            stop(proc)
        agc_out = {"code": None}
    elif not agc_first:
        agc_out = finish_agc(proc, cfg["timeout"])
    os.unlink(path)
    outcome, signature, detail = classify(tf_out, agc_out)
    detail = detail.replace(cfg["workdir"] + os.sep, "")
    return {"outcome": outcome, "signature": signature, "detail": detail,
            "tf_inconsistent": tf_out.get("tf_inconsistent", ""),
            "grappler_failed": tf_out.get("grappler_failed", "")}


def test_seed(seed, cfg):
    """Program `seed`, generated again while TensorFlow refuses it; a failure of the
    tester itself is an outcome too (tester-error), not the end of the run."""
    try:
        return try_seed(seed, cfg)
    except Exception as e:  # noqa: BLE001
        return {"outcome": "tester-error", "seed": seed, "refusals": [], "signature": (),
                "detail": f"{type(e).__name__}: {e}"}


def try_seed(seed, cfg):
    refusals = []
    for attempt in range(10):
        source, args = gen.generate(seed, cfg["features"], attempt)
        res = check(source, args, cfg, f"p{seed}_{attempt}")
        if res["outcome"] == "DISAGREE" and cfg.get("grappler", True):
            # Where TensorFlow's graph optimizer is what disagrees, TensorFlow without it
            # is the reference (tf.function's semantics are the unoptimized graph's).
            # (Grappler also prunes what its constant folding leaves unused, such as the
            # untaken side of tf.where(tf.constant(True), a, b), and with it an error.)
            plain = check(source, args, dict(cfg, grappler=False), f"p{seed}_{attempt}ng")
            if plain["signature"] in (("agree",), ("both-error",)):
                res["outcome"] = "tf-grappler"
            elif res.get("grappler_failed") and res["signature"] == ("tf-raises",):
                # Grappler broke down on this graph and left unpruned what its rules
                # prune (agc follows those rules): TensorFlow's failure, not agc's.
                res["outcome"] = "tf-grappler"
                res["detail"] += f" [Grappler failed: {res['grappler_failed']}]"
        if res["outcome"] == "DISAGREE":
            variant, _ = gen.generate(seed, cfg["features"], attempt, zero_ties=True)
            if variant != source and check(variant, args, cfg, f"p{seed}_{attempt}zt")[
                    "signature"] in (("agree",), ("both-error",)):
                res["outcome"] = "tf-zero-tie"
        if res["outcome"] != "tf-refused":
            res.update(seed=seed, source=source, args=args, refusals=refusals)
            return res
        refusals.append(res["detail"])
    return {"outcome": "tf-refused", "seed": seed, "refusals": refusals, "detail": refusals[-1],
            "signature": ("tf-refused",), "source": source, "args": args}


# --- minimizing and keeping -----------------------------------------------------------------

def minimized(res, cfg):
    """(source, args, tries) of the smallest program that disagrees the same way."""
    calls = [0]

    def still_fails(source, args):
        calls[0] += 1
        r = check(source, args, cfg, f"m{res['seed']}_{calls[0]}", agc_first=True)
        return r["outcome"] == "DISAGREE" and r["signature"] == res["signature"]

    deadline = time.time() + cfg["minimize_time"]
    return minimize.shrink(res["source"], res["args"], still_fails, deadline)


def dead_code_note(source, args, cfg):
    """When agc raises and TensorFlow does not: does TensorFlow raise too once every value
    is returned? Then TensorFlow pruned the failing op as dead code."""
    probe = minimize.returning_everything(source)
    if not probe:
        return ""
    path = os.path.join(cfg["workdir"], "probe.py")
    with open(path, "w") as f:
        f.write(probe)
    out = run_tf(path, args)
    os.unlink(path)
    if not out.get("op_error"):
        return ""
    return f" [dead code: TensorFlow raises too once every value is returned ({out['call_error'][:120]})]"


def grappler_note(source, args, cfg):
    """Does TensorFlow with Grappler (its graph optimizer) off agree with agc?"""
    r = check(source, args, dict(cfg, grappler=False), "nograppler")
    if r["signature"] == ("agree",):  # the same result (not: both raise, maybe differently)
        return " [TensorFlow with Grappler (its graph optimizer) off agrees with agc]"
    return ""


def repro_text(name, source, args, detail):
    return (f"# repro: agc run {name}:f --args '{json.dumps(args)}'\n"
            f"# difftest: {detail}\n{source}")


def keep(res, source, args, cfg):
    name = f"diff-{res['seed']}.py"
    os.makedirs(cfg["keep"], exist_ok=True)
    with open(os.path.join(cfg["keep"], name), "w") as f:
        f.write(repro_text(name, source, args, res["detail"]))
    orig = f"diff-{res['seed']}.orig.py"
    with open(os.path.join(cfg["keep"], orig), "w") as f:
        f.write(repro_text(orig, res["source"], res["args"], res["detail"]))
    return os.path.join(cfg["keep"], name)


def report_disagreement(res, cfg):
    print(f"seed {res['seed']}: {res['detail']}", flush=True)
    if cfg["minimize_time"] <= 0:
        source, args, tries = res["source"], res["args"], 0
    else:
        t0 = time.time()
        source, args, tries = minimized(res, cfg)
        print(f"  minimized in {tries} tries, {time.time() - t0:.0f} s: "
              f"{len(source.splitlines())} lines (from {len(res['source'].splitlines())})")
    if tries:  # the detail of the minimized program, not of the original
        res["detail"] = check(source, args, cfg, f"final{res['seed']}")["detail"] or res["detail"]
        print(f"  now: {res['detail']}")
    note = dead_code_note(source, args, cfg) if res["signature"][0] == "agc-raises" else ""
    note += grappler_note(source, args, cfg)
    if note:
        res["detail"] += note
        print(" " + note)
    if cfg["keep"]:
        print(f"  kept: {keep(res, source, args, cfg)}")
    else:
        print("  " + repro_text("prog.py", source, args, res["detail"]).replace("\n", "\n  "))


# --- the runs -----------------------------------------------------------------------------

def run_all(seeds, cfg):
    """The results, in seed order (jobs > 1: worker processes, each with TensorFlow, new
    ones every BATCH programs each: what TensorFlow keeps of old functions stays bounded.
    Not max_tasks_per_child: Python 3.11's pool can hang replacing its workers)."""
    if cfg["jobs"] <= 1:
        for seed in seeds:
            yield test_seed(seed, cfg)
        return
    ctx = multiprocessing.get_context("spawn")
    step = BATCH * cfg["jobs"]
    for start in range(0, len(seeds), step):
        batch = seeds[start:start + step]
        with concurrent.futures.ProcessPoolExecutor(cfg["jobs"], mp_context=ctx) as pool:
            yield from pool.map(test_seed, batch, [cfg] * len(batch))


def random_run(opts, cfg):
    seeds = list(range(opts.seed, opts.seed + opts.count))
    counts = {k: 0 for k in ("agree", "both-error", "DISAGREE", "agc-refused", "tf-refused",
                             "tf-grappler", "tf-zero-tie", "tester-error")}
    refused, disagreements, tf_refusals, tf_bugs, grappler = {}, [], [], [], []
    start = time.time()
    for res in run_all(seeds, cfg):
        tf_refusals += [(res["seed"], r) for r in res["refusals"]]
        if res.get("tf_inconsistent"):
            tf_bugs.append((res["seed"], res["tf_inconsistent"]))
        outcome = res["outcome"]
        if outcome == "agree" and res["signature"] == ("both-error",):
            counts["both-error"] += 1
        if outcome == "tf-refused":
            continue  # ten refusals in a row: counted below with the others
        counts[outcome] += 1
        if outcome == "DISAGREE":
            print(f"DISAGREE seed {res['seed']}: {res['detail']}", flush=True)
            disagreements.append(res)
        elif outcome == "agc-refused":
            refused.setdefault(res["detail"], []).append(res["seed"])
            if opts.verbose:
                print(f"agc-refused seed {res['seed']}: {res['detail']}", flush=True)
        elif outcome == "tf-grappler":
            grappler.append((res["seed"], res["detail"]))
        elif outcome == "tf-zero-tie":
            print(f"tf-zero-tie seed {res['seed']}: {res['detail']}", flush=True)
        elif outcome == "tester-error":
            print(f"tester-error seed {res['seed']}: {res['detail']}", flush=True)
        elif opts.verbose:
            print(f"{outcome} seed {res['seed']}", flush=True)
    elapsed = time.time() - start
    counts["tf-refused"] = len(tf_refusals)
    if disagreements:
        print(f"\nminimizing {len(disagreements)} disagreement(s):")
        for res in disagreements:
            report_disagreement(res, cfg)
    summary(opts, counts, refused, tf_refusals, tf_bugs + grappler, elapsed)
    return 1 if counts["DISAGREE"] else 2 if counts["tester-error"] else 0


def summary(opts, counts, refused, tf_refusals, tf_bugs, elapsed):
    if refused:
        print("\nagc-refused (gaps; seeds):")
        for message, seeds in sorted(refused.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(seeds):4} {message[:150]}  [{' '.join(map(str, seeds[:5]))}]")
    if tf_refusals and opts.verbose:
        print("\ntf-refused (generator bugs; seed: error):")
        for seed, message in tf_refusals:
            print(f"  {seed}: {message[:200]}")
    if tf_bugs:
        print("\nTensorFlow's graph optimizer (Grappler) at fault: its result contradicts the "
              "traced signature, or differs from TensorFlow's own with Grappler off, which "
              "agc's agrees with (seed: how):")
        for seed, how in tf_bugs:
            print(f"  {seed}: {how}")
    n = opts.count
    print(f"\ndifftest: seeds {opts.seed}..{opts.seed + n - 1}")
    print(f"difftest: agree {counts['agree']} (both failed at run time: {counts['both-error']})")
    print(f"difftest: DISAGREE {counts['DISAGREE']}")
    print(f"difftest: agc-refused {counts['agc-refused']}")
    print(f"difftest: tf-refused {counts['tf-refused']} (generator bugs, generated again)")
    print(f"difftest: tf-inconsistent {len(tf_bugs) - counts['tf-grappler']} (TensorFlow bugs, "
          "re-run without Grappler)")
    print(f"difftest: tf-grappler {counts['tf-grappler']} (TensorFlow with Grappler off agrees "
          "with agc, or fails as agc does; with it on, it does not; or Grappler failed)")
    print(f"difftest: tf-zero-tie {counts['tf-zero-tie']} (only the sign of a zero that max or "
          "min chose differs: TensorFlow's depends on its vector lanes)")
    if counts["tester-error"]:
        print(f"difftest: tester-error {counts['tester-error']} (bugs of the tester itself)")
    print(f"difftest: {n} programs in {elapsed:.1f} s ({n / max(elapsed, 1e-9):.2f} programs/s)")


def regression_files(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p)
                            if f.endswith(".py") and not f.endswith(".orig.py"))
        else:
            files.append(p)
    return files


def regression_run(opts, cfg):
    files = regression_files(opts.regressions)
    bad = 0
    for path in files:
        text = open(path).read()
        m = ARGS_LINE.search(text.splitlines()[0]) if text else None
        args = json.loads(m.group(1)) if m else []
        res = check(text, args, cfg, "r_" + os.path.basename(path)[:-3].replace("-", "_"))
        ok = res["outcome"] == "agree"
        bad += not ok
        label = "ok  " if ok else res["outcome"]
        print(f"{label} {os.path.basename(path)}{'' if ok else ': ' + res['detail']}", flush=True)
    print(f"difftest regressions: {len(files)} files, {len(files) - bad} agree, {bad} failed")
    return 1 if bad else 0


def parse_options(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--keep", default=None)
    p.add_argument("--agc", default=DEFAULT_AGC)
    p.add_argument("--exclude", default="", help="gen.py features to leave out, comma-separated")
    p.add_argument("--timeout", type=float, default=30.0)
    p.add_argument("--minimize-time", type=float, default=180.0)
    p.add_argument("--no-minimize", action="store_true")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--regressions", nargs="+", default=None)
    return p.parse_args(argv)


def main(argv):
    opts = parse_options(argv)
    cfg = {"agc": os.path.abspath(opts.agc), "timeout": opts.timeout, "jobs": opts.jobs,
           "features": gen.parse_features(opts.exclude), "keep": opts.keep,
           "minimize_time": 0 if opts.no_minimize else opts.minimize_time,
           "workdir": tempfile.mkdtemp(prefix="difftest-")}
    try:
        if opts.regressions:
            return regression_run(opts, cfg)
        return random_run(opts, cfg)
    finally:
        shutil.rmtree(cfg["workdir"], ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
