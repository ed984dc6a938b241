"""What agc's TensorFlow comparisons share: arguments to TensorFlow, results as `agc run`
prints them, the comparison rules, and capturing what tf.print writes.

Used by the conformance harness (run.py, beside this file) and by the end-to-end seed
test (test/lit/e2e/Inputs/compare.py). The rules: the same structure, dtypes and shapes;
integers and bools equal; floats within 1e-5 relative (1e-6 absolute), NaNs equal,
infinities exact; printed lines the same, numbers in them within the same tolerance
(agc's tanh is libm's, not Eigen's).
"""
import importlib.util
import math
import os
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402

try:
    import tensorflow as tf  # noqa: E402
    from tensorflow.python.util import deprecation  # noqa: E402
except ImportError:
    # A machine without TensorFlow (a lent GPU machine) still compares with its recorded
    # results (run.py --oracle): the comparison rules below need no TensorFlow.
    tf = None
else:
    # Deprecation notices (back_prop=False, map_fn's dtype=, the take_while a break in a
    # tf.data loop uses) go to stderr beside tf.print's lines, over several lines; they
    # are TensorFlow's, not the program's.
    deprecation._PRINT_DEPRECATION_WARNINGS = False

# Lines TensorFlow's own logging writes to stderr; they are not tf.print's.
# TensorFlow's log lines on stderr, which tf.print shares: absl's, and the two lines that
# follow AutoGraph's "could not transform ... will run it as-is" warning.
LOG_PREFIXES = ("WARNING", "I0000", "E0000", "W0000", "Cause: ",
                "To silence this warning, decorate the function with")


def to_tf(arg):
    if isinstance(arg, dict) and "dtype" in arg and "value" in arg:
        value = arg["value"]
        if arg["dtype"] == "string":  # str elements are UTF-8 (surrogateescape: other bytes)
            value = _encoded(value)
        if arg["dtype"].startswith("complex"):  # [real, imaginary] pairs
            pairs = np.array(value, dtype=np.float64)
            value = pairs[..., 0] + 1j * pairs[..., 1] if pairs.size else pairs
        t = tf.constant(value, dtype=getattr(tf, arg["dtype"]))
        # "shape" gives an empty tensor's shape, which its nested lists cannot.
        return tf.reshape(t, arg["shape"]) if "shape" in arg else t
    return arg


def _encoded(v):
    if isinstance(v, list):
        return [_encoded(e) for e in v]
    return v.encode("utf-8", "surrogateescape")


def from_tf(value):
    """A TensorFlow result as `agc run` prints it."""
    if isinstance(value, (tuple, list)):
        return [from_tf(v) for v in value]
    if isinstance(value, dict):  # agc prints a dict as a JSON object, its keys as str()
        return {str(k): from_tf(v) for k, v in value.items()}
    if value is None:
        return None
    t = tf.convert_to_tensor(value)
    v = t.numpy()
    if t.dtype.is_complex:  # as agc run prints them: [real, imaginary] pairs
        v = np.stack([np.real(v), np.imag(v)], axis=-1)
    v = v.tolist() if hasattr(v, "tolist") else v  # a string scalar is bytes
    if t.dtype == tf.string:  # bytes, as agc run prints them: UTF-8, other bytes escaped
        v = _decoded(v)
    return {"dtype": t.dtype.name, "shape": list(t.shape), "value": v}


def _decoded(v):
    if isinstance(v, list):
        return [_decoded(e) for e in v]
    return v.decode("utf-8", "surrogateescape")


def import_fresh(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Captured:
    """Captures what file descriptors 1 and 2 receive (tf.print writes there from C++)."""

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self.saved = [os.dup(1), os.dup(2)]
        self.files = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
        os.dup2(self.files[0].fileno(), 1)
        os.dup2(self.files[1].fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(self.saved[0], 1)
        os.dup2(self.saved[1], 2)
        for fd in self.saved:
            os.close(fd)
        self.out = []
        for f in self.files:
            f.seek(0)
            self.out.append(f.read().decode(errors="replace"))
            f.close()
        return False


def close(a, b):
    """Two scalars agree: exactly, or for floats within the tolerance."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, float) or isinstance(b, float):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= 1e-6 + 1e-5 * abs(b)
    return a == b


def same(x, y, where="result"):
    """None when x (agc) and y (TensorFlow) agree, else what differs."""
    is_tensor = lambda v: isinstance(v, dict) and set(v) == {"dtype", "shape", "value"}  # noqa: E731
    if isinstance(y, dict) and not is_tensor(y):  # a Python dict
        if not isinstance(x, dict) or is_tensor(x) or set(x) != set(y):
            return f"{where}: agc {x!r}, TensorFlow {y!r}"
        for key in y:
            d = same(x[key], y[key], f"{where}[{key!r}]")
            if d:
                return d
        return None
    if isinstance(y, dict) or isinstance(x, dict):
        if not (isinstance(x, dict) and isinstance(y, dict)):
            return f"{where}: agc {x!r}, TensorFlow {y!r}"
        for key in ("dtype", "shape"):
            if x[key] != y[key]:
                return f"{where}: {key} {x[key]} (agc) vs {y[key]} (TensorFlow)"
        fx = np.array(x["value"], dtype=object).ravel().tolist()
        fy = np.array(y["value"], dtype=object).ravel().tolist()
        for i, (a, b) in enumerate(zip(fx, fy)):
            if not close(a, b):
                return f"{where}: element {i}: {a} (agc) vs {b} (TensorFlow)"
        return None
    if isinstance(y, list):
        if not isinstance(x, list) or len(x) != len(y):
            return f"{where}: agc {x!r}, TensorFlow {y!r}"
        for i, (a, b) in enumerate(zip(x, y)):
            d = same(a, b, f"{where}[{i}]")
            if d:
                return d
        return None
    return None if x == y else f"{where}: agc {x!r}, TensorFlow {y!r}"


def same_line(a, b):
    """Two printed lines are the same, numbers within the tolerance."""
    split = lambda s: s.replace("[", " [ ").replace("]", " ] ").split()  # noqa: E731
    ta, tb = split(a), split(b)
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
