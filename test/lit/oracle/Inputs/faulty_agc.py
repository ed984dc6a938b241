"""An agc that misbehaves on purpose, to show that the conformance harness notices.

usage: faulty_agc.py REAL_AGC ARGS...   (the fault is chosen by AGC_FAULT)

Every command other than `agc run` goes to the real agc unchanged. `agc run` goes to the
real agc too, and then, by AGC_FAULT:
  wrong      every number in the result is off by one and every bool flipped
  hang       the run never ends (sleeps for an hour)
  unlocated  a refusal's diagnostic loses its file:line:col
"""
import json
import os
import re
import subprocess
import sys
import time


def perturb(v):
    if isinstance(v, bool):
        return not v
    if isinstance(v, (int, float)):
        return v + 1
    if isinstance(v, list):
        return [perturb(x) for x in v]
    if isinstance(v, dict):
        return {k: (perturb(x) if k == "value" or k not in ("dtype", "shape") else x)
                for k, x in v.items()}
    return v


def main():
    real, args = sys.argv[1], sys.argv[2:]
    fault = os.environ.get("AGC_FAULT", "")
    if not args or args[0] != "run":
        os.execv(real, [real] + args)
    if fault == "hang":
        time.sleep(3600)
    proc = subprocess.run([real] + args, capture_output=True, text=True)
    out, err = proc.stdout, proc.stderr
    if fault == "wrong" and proc.returncode == 0:
        out = json.dumps({"result": perturb(json.loads(out)["result"])}) + "\n"
    if fault == "unlocated":
        err = re.sub(r"^\S+:\d+:\d+: ", "", err, flags=re.M)
    sys.stdout.write(out)
    sys.stderr.write(err)
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
