"""An agc that misbehaves on purpose, to show that the differential tester notices.

usage: fault_agc.py REAL_AGC ARGS...   (the fault is chosen by DIFFTEST_FAULT)

Every command other than `agc run` goes to the real agc unchanged; `agc run` goes to it
too, and then, by DIFFTEST_FAULT:
  plus1    the first number of the result is 1 larger (the first bool flipped when the
           result holds no number); nothing else changes
  segv     the run ends with SIGSEGV after agc's output (a crash)
  hang     the run never ends (sleeps for an hour)
  exit3    a successful run reports a run-time error instead (exit 3)
  refuse   every program is refused (exit 1, with a located diagnostic)
"""
import json
import os
import signal
import subprocess
import sys
import time


def perturb_first(value, done):
    """value with its first number + 1 (done[0] set once changed)."""
    if done[0]:
        return value
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        done[0] = True
        return value + 1
    if isinstance(value, list):
        return [perturb_first(v, done) for v in value]
    if isinstance(value, dict):
        return {k: perturb_first(v, done) if k == "value" else v for k, v in value.items()}
    return value


def flip_first_bool(value, done):
    if done[0]:
        return value
    if isinstance(value, bool):
        done[0] = True
        return not value
    if isinstance(value, list):
        return [flip_first_bool(v, done) for v in value]
    if isinstance(value, dict):
        return {k: flip_first_bool(v, done) if k == "value" else v for k, v in value.items()}
    return value


def plus1(stdout):
    result = json.loads(stdout)["result"]
    done = [False]
    result = perturb_first(result, done)
    if not done[0]:
        result = flip_first_bool(result, done)
    return json.dumps({"result": result}) + "\n"


def main():
    real, args = sys.argv[1], sys.argv[2:]
    fault = os.environ.get("DIFFTEST_FAULT", "")
    if not args or args[0] != "run":
        os.execv(real, [real] + args)
    if fault == "hang":
        time.sleep(3600)
    if fault == "refuse":
        path = args[1].rsplit(":", 1)[0]
        sys.stderr.write(f"{path}:1:1: error: refused on purpose (DIFFTEST_FAULT=refuse)\n")
        sys.exit(1)
    proc = subprocess.run([real] + args, capture_output=True, text=True)
    out, err, code = proc.stdout, proc.stderr, proc.returncode
    if code == 0 and fault == "plus1":
        out = plus1(out)
    if code == 0 and fault == "exit3":
        out, err, code = "", err + "agc: run-time error: injected (DIFFTEST_FAULT=exit3)\n", 3
    sys.stdout.write(out)
    sys.stderr.write(err)
    sys.stdout.flush()
    sys.stderr.flush()
    if fault == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    sys.exit(code)


if __name__ == "__main__":
    main()
