"""Runs Inputs/kernel_math.py through the nvptx pipeline with its kernels emulated (the
arithmetic a GPU runs, on the CPU) and measures each function's error against float64
references rounded to float32, in units in the last place of the result, over 800,000
inputs log-spaced across every float magnitude of both signs; special values (zeros,
infinities, NaN, subnormals read as zeros, the edges of exp's and log1p's domains) must
match exactly. sin and cos are measured over the kernels' range (magnitudes up to 105615), and beyond
it, where the loop reruns on the host, at large and special values. Prints one line per
function and exits 1 where one exceeds its bound. With --on-gpu (third argument) the
kernels run on the GPU itself instead (tools/gpu-check.sh, on a lent GPU machine): the
same bounds hold there, as its fused multiply-adds are the emulation's."""
import json
import math
import subprocess
import sys

import numpy as np

AGC, SOURCE = sys.argv[1], sys.argv[2]
WHERE = [] if sys.argv[3:] == ["--on-gpu"] else ["--gpu-emulate"]
NAMES = ["erf", "expm1", "log1p", "rsqrt", "exp", "log", "tanh"]
TRIG = ["sin", "cos"]
# The bounds this test holds the kernels to (a little above what was measured).
BOUND = {"erf": 4, "expm1": 4, "log1p": 2.5, "rsqrt": 2, "exp": 4, "log": 1.5, "tanh": 5,
         "sin": 2, "cos": 2}
# sin and cos: a kernel's range (-ag-gpu-kernel-checks reruns the loop on the host
# beyond it, with libm).
TRIG_RANGE = 105615.0


def run(function, args):
    out = subprocess.run([AGC, "run", "--target=nvptx"] + WHERE +
                         [f"{SOURCE}:{function}", "--args", json.dumps(args)],
                         capture_output=True, text=True, check=True).stdout
    arrays = [np.array(r["value"], dtype=np.float64) for r in json.loads(out)["result"]]
    # The printed values round-trip float32: the inputs as the kernels saw them.
    return arrays[0].astype(np.float32).astype(np.float64), arrays[1:]


def references(x):
    # A subnormal input is read as a zero of its sign, on the GPU (flushed) as by
    # TensorFlow's CPU kernels.
    x = np.where(np.abs(x) < 2.0 ** -126, np.copysign(0.0, x), x)
    with np.errstate(all="ignore"):
        return {
            "erf": np.array([math.erf(t) if not math.isnan(t) else math.nan for t in x]),
            "expm1": np.expm1(x),
            "log1p": np.where(x == -1, -np.inf, np.log1p(np.where(x >= -1, x, np.nan))),
            "rsqrt": np.where(x == 0, np.copysign(np.inf, x), 1 / np.sqrt(x)),
            "exp": np.exp(x),
            "log": np.where(x == 0, -np.inf, np.log(np.where(x >= 0, x, np.nan))),
            "tanh": np.tanh(x),
            "sin": np.sin(x),
            "cos": np.cos(x),
        }


def ulps(got, ref):
    """Errors in units in the last place, where the float32 reference is normal and both
    are finite (a subnormal result is flushed to zero on the GPU, as by TensorFlow's CPU
    kernels); elsewhere whether the two are the same value (NaN matching NaN)."""
    with np.errstate(all="ignore"):
        ref32 = ref.astype(np.float32).astype(np.float64)
    normal = np.isfinite(ref32) & np.isfinite(got) & (np.abs(ref32) >= 2.0 ** -126)
    unit = np.spacing(np.abs(ref32).astype(np.float32)).astype(np.float64)
    with np.errstate(all="ignore"):
        err = np.where(normal, np.abs(got - ref) / np.where(normal, unit, 1), 0.0)
    subnormal = np.abs(ref32) < 2.0 ** -126
    same = (got == ref32) | (np.isnan(got) & np.isnan(ref32)) | (subnormal & (np.abs(got) < 2.0 ** -126))
    return err, ~normal & ~same


worst = {name: (0.0, None) for name in NAMES + TRIG}
wrong = {name: [] for name in NAMES + TRIG}


def sweep(function, names, largest):
    """Runs `function` over 400,000 inputs of each sign log-spaced from 1e-37 to
    `largest`, keeping each function's worst error and its first wrong special values."""
    lo, hi, n = math.log(1e-37), math.log(largest), 400000
    for sign in (1.0, -1.0):
        x, got = run(function, [lo, (hi - lo) / n, n, sign])
        assert np.abs(x).max() <= largest
        expected = references(x)
        for name, values in zip(names, got):
            err, bad = ulps(values, expected[name])
            i = int(np.argmax(err))
            if err[i] > worst[name][0]:
                worst[name] = (float(err[i]), float(x[i]))
            wrong[name] += [float(v) for v in x[bad][:3]]


sweep("sweep", NAMES, 3.3e38)
specials = [0.0, -0.0, math.inf, -math.inf, math.nan, -1.0, -1.5, 1e-45, -1e-45, 1e-40,
            88.0, 89.0, -88.0, -104.0, 1e-30, -1e-30, 3.4e38, -3.4e38]
x, got = run("special", [{"dtype": "float32", "value": specials}])
expected = references(x)
for name, values in zip(NAMES, got):
    _, bad = ulps(values, expected[name])
    wrong[name] += [float(v) for v in x[bad]]
# sin and cos over the kernels' range, then beyond it and special values (the host's).
sweep("trig_sweep", TRIG, TRIG_RANGE)
beyond = [0.0, -0.0, math.inf, -math.inf, math.nan, 1e-45, -1e-40, 105615.0, -105615.0,
          105616.0, 1e6, -3e7, 1e20, 3.4e38, -3.4e38]
x, got = run("trig_special", [{"dtype": "float32", "value": beyond}])
expected = references(x)
for name, values in zip(TRIG, got):
    err, bad = ulps(values, expected[name])
    wrong[name] += [float(v) for v in x[bad | (err > BOUND[name])]]
status = 0
for name in NAMES + TRIG:
    error, at = worst[name]
    ok = error <= BOUND[name] and not wrong[name]
    status |= not ok
    print(f"{name}: {'ok' if ok else 'FAIL'}: {error:.2f} ulp at most (x = {at!r}), "
          f"bound {BOUND[name]}; special values wrong at {wrong[name]}")
sys.exit(status)
