"""agc side by side with TensorFlow (eager, graph, XLA), JAX, NumPy and hand-written C.

usage: .venv/bin/python test/bench/bench.py [--out DIR] [--reps N] [--only NAME,...]
       (tools/dev.sh bench runs it after installing the peers)

The workloads are test/bench/peers/programs.py (what agc compiles and TensorFlow runs),
jax_programs.py, numpy_programs.py and native.c (the same algorithms written by hand for
JAX, NumPy and C). For each workload and system: warm-up runs for at least 0.3 s (a
thread team reaches its speed only some 100 ms after it starts), then --reps timed runs
(default 5); the median is reported, and every system's result is checked against the
hand-written C's (integers exactly, floats within a tolerance), so that no figure comes
from a wrong answer.

- agc: `agc compile --mcpu=native programs.py` (this machine's CPU, -O2; --agc-arg
  replaces the option), called from a C driver (driver.c)
  through the generated entry points, output freed each call, as a C user calls it.
- C: native.c, `clang -O2 -march=native` (agc too compiles for this machine's CPU;
  agc's default, --mcpu=x86-64-v3, is for objects that run on any AVX2 machine).
- TensorFlow eager: the same functions with tf.config.run_functions_eagerly(True);
  graph: the tf.functions; XLA: tf.function(jit_compile=True) of the same Python.
- JAX: jax.jit, with lax loops written by hand; NumPy: where the program is natural in it.

A peer that would take minutes at the full size (TensorFlow eager and graph mode on the
scalar loops) runs a reduced input, and its time is scaled by the ratio of the inner-loop
iterations of the full and the reduced input (counted by native.c); such cells are marked
as extrapolated, with the size they ran.

Also measured: compile latency (`agc compile` of the tanh loop to an object, vs the first
call of the same tf.function, trace included, and XLA's and JAX's first calls), the cost
of one call of a scalar function (through its tensor entry point and its scalar one), and
the machine's memory bandwidth (STREAM's kernels in native.c, over arrays of at least four
times the last-level cache), so that large-tensor figures can be given as a fraction of it;
where a workload's data fits the last-level cache, the table says so beside the fraction.

Writes DIR/bench.md (the table), DIR/bench.json (every time) and DIR/bench.png (a chart);
DIR defaults to build/bench. Prints the table.

--gpu: the GPU benchmark (issue 18). agc compiles programs.py with --target=nvptx (the
host code for this CPU), and the driver calls it twice over: with host inputs (each call
copies them to the GPU) and with inputs copied to the GPU once, before the timed calls
(the column "agc (inputs on the GPU)"). agc's outputs are managed memory, left on the
GPU, as JAX's results are (timed to block_until_ready, copied to the host once
afterwards). The large-tensor workloads and the staged loops of small kernels run;
TensorFlow, XLA and JAX run on the devices they see (their CPU-only wheels see none: the
table says which). Bandwidth is given as a fraction of the device's peak (memory clock x
bus width, from the CUDA driver), from agc's time with inputs on the GPU. Where no GPU
is usable (no libcuda.so.1, no device), it prints why and exits 0 having run nothing.
DIR defaults to build/bench-gpu.
"""
import argparse
import glob
import json
import os
import platform
import statistics
import subprocess
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEERS = os.path.join(ROOT, "test", "bench", "peers")
sys.path.insert(0, PEERS)

SYSTEMS = ["agc", "c", "c_omp", "tf_eager", "tf_graph", "xla", "jax", "numpy"]
TITLES = {"agc": "agc", "agc_dev": "agc (inputs on the GPU)", "c": "C (clang -O2 -march=native)",
          "c_omp": "C + OpenMP", "tf_eager": "TF eager", "tf_graph": "TF graph",
          "xla": "TF + XLA", "jax": "JAX jit", "numpy": "NumPy"}
DTYPE_CODES = {np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3,
               np.dtype(np.int64): 4, np.dtype(np.bool_): 5}
CODE_DTYPES = {v: k for k, v in DTYPE_CODES.items()}


# --- workloads ----------------------------------------------------------------------------

def rng():
    return np.random.default_rng(20261123)


def scalar(dtype):
    return lambda n: [np.array(n, dtype)]


def gcd_inputs(n):
    r = rng()
    return [r.integers(1, 1 << 30, n, dtype=np.int32), r.integers(1, 1 << 30, n, dtype=np.int32)]


def rnn_inputs(_):
    r = rng()
    return [r.standard_normal((1000, 16), np.float32), (r.standard_normal((16, 32), np.float32) * 0.3),
            (r.standard_normal((32, 32), np.float32) * 0.2), r.standard_normal(32, np.float32) * 0.1]


def floats(*shape, low=-1.0, high=1.0):
    return lambda _: [rng().uniform(low, high, shape).astype(np.float32)]


def two_floats(n):
    def make(_):
        r = rng()
        return [r.uniform(-1.0, 1.0, n).astype(np.float32) for _ in range(2)]
    return make


class Workload:
    def __init__(self, name, group, size, inputs, tol=0.0, reduced=None, bytes_moved=None,
                 flops=None, batch=1, note="", systems=None):
        self.name, self.group, self.size, self.inputs = name, group, size, inputs
        self.tol = tol                    # relative tolerance of float results against C
        self.reduced = reduced or {}      # system -> reduced size (extrapolated)
        self.bytes_moved = bytes_moved    # minimal memory traffic of one run
        self.flops = flops
        self.batch = batch                # calls per timed run (the cost of one call)
        self.note = note
        self.systems = systems            # the systems it is run on beside C (None: all)


WORKLOADS = [
    Workload("collatz_total", "scalar loops", 100_000, scalar(np.int64),
             reduced={"tf_eager": 300, "tf_graph": 3000},
             note="sum of Collatz stopping times, n = 1..100000"),
    Workload("count_primes", "scalar loops", 200_000, scalar(np.int32),
             reduced={"tf_eager": 2000, "tf_graph": 20000},
             note="primes below 200000 by trial division"),
    Workload("gcd_total", "scalar loops", 100_000, gcd_inputs,
             reduced={"tf_eager": 100, "tf_graph": 2000},
             note="gcd of 100000 random int32 pairs, summed"),
    Workload("tanh_loop", "small tensors in loops", None,
             lambda _: [np.array([1, 2, 3, 4, 5], np.float32)], tol=1e-5,
             note="the guide's tanh loop on 5 elements"),
    Workload("rnn", "small tensors in loops", None, rnn_inputs, tol=1e-3,
             note="RNN cell, 1000 steps, TensorArray"),
    Workload("newton_sqrt", "small tensors in loops", None, floats(1000, low=0.5, high=100.0),
             tol=1e-5, note="50 Newton steps on 1000 floats"),
    Workload("elementwise_chain", "large tensors", None, floats(10_000_000), tol=1e-6,
             bytes_moved=8 * 10_000_000, note="relu(2x+1)*0.5+x, 10^7 float32"),
    Workload("binary_chain", "large tensors", None,
             two_floats(10_000_000), tol=1e-6,
             bytes_moved=12 * 10_000_000, note="(xy+x-y)*0.5 over two 10^7 float32"),
    Workload("reduce_total", "large tensors", None, floats(10_000_000), tol=1e-3,
             bytes_moved=4 * 10_000_000, note="reduce_sum, 10^7 float32"),
    Workload("matmul", "large tensors", None,
             lambda _: [rng().standard_normal((1024, 1024), np.float32),
                        rng().standard_normal((1024, 1024), np.float32)], tol=1e-3,
             flops=2 * 1024 ** 3, note="1024x1024 float32"),
    Workload("softmax", "large tensors", None, floats(4096, 1024, low=-5.0, high=5.0), tol=1e-4,
             bytes_moved=8 * 4096 * 1024, note="rows of 4096x1024 float32"),
    Workload("elementwise_chain_dyn", "large tensors, shapes known only at run time", None,
             floats(10_000_000), tol=1e-6, bytes_moved=8 * 10_000_000,
             note="elementwise_chain of a [None] signature"),
    Workload("binary_chain_dyn", "large tensors, shapes known only at run time", None,
             two_floats(10_000_000), tol=1e-6,
             bytes_moved=12 * 10_000_000, note="binary_chain of two [None] signatures"),
    Workload("reduce_total_dyn", "large tensors, shapes known only at run time", None,
             floats(10_000_000), tol=1e-3, bytes_moved=4 * 10_000_000,
             note="reduce_total of a [None] signature"),
    Workload("matmul_dyn", "large tensors, shapes known only at run time", None,
             lambda _: [rng().standard_normal((1024, 1024), np.float32),
                        rng().standard_normal((1024, 1024), np.float32)], tol=1e-3,
             flops=2 * 1024 ** 3, note="matmul of [None, None] signatures"),
    Workload("matmul_odd_dyn", "large tensors, shapes known only at run time", None,
             lambda _: [rng().standard_normal((1000, 1000), np.float32),
                        rng().standard_normal((1000, 1000), np.float32)], tol=1e-3,
             flops=2 * 1000 ** 3, note="matmul_dyn on 1000x1000: no size a multiple of a block"),
    Workload("softmax_dyn", "large tensors, shapes known only at run time", None,
             floats(4096, 1024, low=-5.0, high=5.0), tol=1e-4, bytes_moved=8 * 4096 * 1024,
             note="softmax of a [None, None] signature"),
    Workload("double", "one call", None, lambda _: [np.array(21, np.int32)], batch=20000,
             note="a + a on an int32 scalar, per call"),
    Workload("double_scalar", "one call", None, lambda _: [np.array(21, np.int32)], batch=20000,
             note="double through its scalar entry point, programs_double_scalar: the "
                  "values in and out, no agc_tensor", systems=("agc",)),
]


# --- tensor files -------------------------------------------------------------------------

def write_tensors(path, arrays):
    with open(path, "wb") as f:
        for a in arrays:
            a = np.array(a, order="C")  # (ascontiguousarray makes a scalar 1-d)
            f.write(np.array([DTYPE_CODES[a.dtype], a.ndim], np.int32).tobytes())
            f.write(np.array(a.shape, np.int64).tobytes())
            f.write(a.tobytes())


def read_tensor(path):
    with open(path, "rb") as f:
        code, rank = np.frombuffer(f.read(8), np.int32)
        shape = tuple(np.frombuffer(f.read(8 * rank), np.int64)) if rank else ()
        return np.frombuffer(f.read(), CODE_DTYPES[int(code)]).reshape(shape)


def agree(got, want, tol):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"{got.dtype}{list(got.shape)} instead of {want.dtype}{list(want.shape)}"
    if tol == 0.0:
        return None if np.array_equal(got, want) else f"{got.ravel()[:4]} instead of {want.ravel()[:4]}"
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    err = float(np.max(np.abs(got.astype(np.float64) - want))) / scale if want.size else 0.0
    return None if err <= tol else f"differs by {err:.3g} (relative to the largest value)"


# --- the systems --------------------------------------------------------------------------

def run_native(exe, w, work, reps, omp=False, env=None):
    out = subprocess.run([exe, ("omp:" if omp else "") + w.name, work, "1", str(reps), str(w.batch)],
                         check=True, capture_output=True, text=True,
                         env=dict(os.environ, **env) if env else None).stdout
    return json.loads(out)["times"]


WARMUP_SECONDS = 0.3  # bench_io.h's BENCH_WARMUP_SECONDS


def time_python(fn, args, reps, batch, finish, sync=None):
    """Times `fn`; `sync` waits for a result (default: `finish`, which also makes it a
    NumPy array), `finish` then makes the last one an array, untimed."""
    sync = sync or finish
    # Warm-up (for TF graph, XLA and JAX: the trace and compile too), for as long as
    # driver.c's (bench_io.h's BENCH_WARMUP_SECONDS).
    warm_until = time.perf_counter() + WARMUP_SECONDS
    finish(fn(*args))
    while time.perf_counter() < warm_until:
        sync(fn(*args))
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(batch):
            r = fn(*args)
        sync(r)
        times.append((time.perf_counter() - start) / batch)
    return times, finish(r)


def run_reduced(native, peers, system, fn, w, work, full, reps):
    """A slow peer on w's reduced input, checked against C's result on it, its times
    scaled by the ratio of inner-loop iterations (full / reduced, counted by native.c)."""
    size = w.reduced[system]
    small = os.path.join(work, f"{w.name}-{size}")
    os.makedirs(small, exist_ok=True)
    arrays = w.inputs(size)
    write_tensors(os.path.join(small, w.name + ".in"), arrays)

    def iterations(folder):
        return int(subprocess.run([native, "work", w.name, folder], check=True,
                                  capture_output=True, text=True).stdout)
    full_work, small_work = iterations(full), iterations(small)
    subprocess.run([native, w.name, small, "0", "1"], check=True, capture_output=True)
    times, got = time_python(fn, peers.args(system, arrays), reps, 1, peers.finish(system),
                             peers.sync(system))
    problem = agree(got, read_tensor(os.path.join(small, w.name + ".c.out")), w.tol)
    if problem:
        raise RuntimeError(f"wrong result on the reduced input: {problem}")
    times = [t * full_work / small_work for t in times]
    return {"times": times, "median": statistics.median(times),
            "extrapolated_from": {"size": size, "work": small_work, "full_work": full_work}}


class Peers:
    """The Python peers, imported once."""

    def __init__(self):
        # Each peer where it is installed (a lent GPU machine has JAX, not TensorFlow):
        # one that is missing runs nothing, and its column says so.
        self.tf = self.jax = self.programs = self.jax_programs = None
        try:
            import tensorflow as tf
            import programs
            self.tf, self.programs = tf, programs
        except ImportError:
            pass
        try:
            import jax
            import jax_programs
            self.jax, self.jax_programs = jax, jax_programs
        except ImportError:
            pass
        import numpy_programs
        self.numpy_programs = numpy_programs
        self.xla = {}

    def function(self, system, name):
        """`name` for `system`, or None. Sets TensorFlow's eager mode for the system: on
        for tf_eager, off for every other (set once here, not around each call: toggling
        it costs more than a small call)."""
        tf = self.tf
        if (tf is None and system in ("tf_eager", "tf_graph", "xla")) or (
                self.jax is None and system == "jax"):
            return None
        if tf is not None:
            tf.config.run_functions_eagerly(system == "tf_eager")
        if system in ("tf_eager", "tf_graph"):
            return getattr(self.programs, name)
        if system == "xla":
            if name not in self.xla:
                f = getattr(self.programs, name)
                self.xla[name] = tf.function(f.python_function, jit_compile=True,
                                             input_signature=f.input_signature)
            return self.xla[name]
        if system == "jax":
            return getattr(self.jax_programs, name, None)
        if system == "numpy":
            return getattr(self.numpy_programs, name, None)
        raise ValueError(system)

    def args(self, system, arrays):
        if system in ("tf_eager", "tf_graph", "xla"):
            return [self.tf.constant(a) for a in arrays]
        if system == "jax":
            return [self.jax.device_put(a) for a in arrays]
        return [np.array(a) for a in arrays]

    def sync(self, system):
        """Waits for a result where it is: JAX's stays on its device (on a GPU, as agc's
        outputs stay in GPU memory), copied to the host only by finish, untimed."""
        if system == "jax":
            return self.jax.block_until_ready
        return self.finish(system)

    def finish(self, system):
        if system == "jax":
            return lambda r: np.asarray(r.block_until_ready())
        if system == "numpy":
            return np.asarray
        # TF eager may return a Python number where the graph has a tensor
        return lambda r: self.tf.convert_to_tensor(r).numpy()


# --- compile latency ----------------------------------------------------------------------

LATENCY_SOURCE = '''import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([5], tf.float32)])
def squash(x):
    while tf.reduce_sum(x) > 1:
        x = tf.tanh(x)
    return x
'''


COLD_TF = """
import os, sys, time
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import importlib.util
import numpy as np
import tensorflow as tf
spec = importlib.util.spec_from_file_location("latency", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
module.squash(tf.constant(np.array([1, 2, 3, 4, 5], np.float32))).numpy()
"""


def compile_latency(agc, peers, work, reps):
    """Seconds per system to get the tanh loop compiled (and, for the peers, run once).

    agc: the whole `agc compile` process, to an object file. tf_cold: a whole Python
    process that imports TensorFlow and calls the tf.function once: what a script pays
    before its first result, as `agc compile` is a whole process. tf_graph, xla, jax: the
    first call of a newly defined function in a process where the library is already
    loaded and warm (trace, graph optimization or XLA compilation, and the run)."""
    path = os.path.join(work, "latency.py")
    with open(path, "w") as f:
        f.write(LATENCY_SOURCE)

    def process(cmd):
        times = []
        for _ in range(reps + 1):
            start = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - start)
        return times[1:]

    out = {"agc": process([agc, "compile", path, "-o", os.path.join(work, "latency.o")]),
           "tf_cold": process([sys.executable, "-c", COLD_TF, path])}
    tf, x = peers.tf, np.array([1, 2, 3, 4, 5], np.float32)
    tf.config.run_functions_eagerly(False)
    tf.get_logger().setLevel("ERROR")  # retracing warnings: each module is new on purpose
    import importlib.util
    import jax
    from jax import lax
    for system in ("tf_graph", "xla", "jax"):
        out[system] = []
        for i in range(reps + 1):
            spec = importlib.util.spec_from_file_location(f"latency_{system}_{i}", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            if system == "tf_graph":
                fn, arg, finish = module.squash, tf.constant(x), lambda r: r.numpy()
            elif system == "xla":
                fn = tf.function(module.squash.python_function, jit_compile=True,
                                 input_signature=module.squash.input_signature)
                arg, finish = tf.constant(x), lambda r: r.numpy()
            else:
                fn = jax.jit(lambda x: lax.while_loop(lambda x: x.sum() > 1, jax.numpy.tanh, x))
                arg, finish = jax.device_put(x), lambda r: np.asarray(r)
            start = time.perf_counter()
            finish(fn(arg))
            out[system].append(time.perf_counter() - start)
        out[system] = out[system][1:]  # the first also pays for one-time initialization
    return out


# --- report -------------------------------------------------------------------------------

def fmt_time(s):
    if s is None:
        return "—"
    for unit, f in (("s", 1), ("ms", 1e3), ("µs", 1e6), ("ns", 1e9)):
        if s * f >= 1 or unit == "ns":
            v = s * f
            return f"{v:.3g} {unit}" if v < 1000 else f"{v:.0f} {unit}"
    return str(s)


def machine():
    cpu = platform.processor()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "isa": isa_level(), "cores": os.cpu_count(), "llc_bytes": llc_bytes(),
            "system": platform.platform(), "date": time.strftime("%Y-%m-%d")}


def llc_bytes():
    """The size of CPU 0's last-level cache, from sysfs; 0 where it is not said."""
    best = 0
    for index in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*"):
        try:
            size = open(os.path.join(index, "size")).read().strip()
            kind = open(os.path.join(index, "type")).read().strip()
        except OSError:
            continue
        units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
        n = int(size[:-1]) * units[size[-1]] if size[-1] in units else int(size)
        if kind != "Instruction":
            best = max(best, n)
    return best


# The workloads of --gpu: tensor work that becomes kernels, and staged loops around them.
GPU_WORKLOADS = {"elementwise_chain", "binary_chain", "reduce_total", "matmul", "softmax",
                 "elementwise_chain_dyn", "binary_chain_dyn", "reduce_total_dyn", "matmul_dyn",
                 "softmax_dyn",
                 "tanh_loop", "newton_sqrt"}


def gpu_device():
    """Device 0 as the CUDA driver sees it: {"name", "peak_bytes_per_s"}; or (None, why)."""
    import ctypes
    path = os.environ.get("AGC_CUDA_DRIVER") or "libcuda.so.1"
    try:
        cuda = ctypes.CDLL(path)
    except OSError as e:
        return None, f"no CUDA driver ({e})"
    count, device = ctypes.c_int(0), ctypes.c_int(0)
    if cuda.cuInit(0) != 0 or cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or not count.value:
        return None, "the CUDA driver finds no device"
    if cuda.cuDeviceGet(ctypes.byref(device), 0) != 0:
        return None, "device 0 cannot be used"
    name = ctypes.create_string_buffer(256)
    clock_khz, bus_bits = ctypes.c_int(0), ctypes.c_int(0)
    try:
        cuda.cuDeviceGetName(name, 256, device)
        cuda.cuDeviceGetAttribute(ctypes.byref(clock_khz), 36, device)  # MEMORY_CLOCK_RATE
        cuda.cuDeviceGetAttribute(ctypes.byref(bus_bits), 37, device)  # GLOBAL_MEMORY_BUS_WIDTH
    except AttributeError as e:
        return None, f"the CUDA driver ({path}) lacks {e}"
    if clock_khz.value <= 0 or bus_bits.value <= 0:
        return None, "the CUDA driver does not say the device's memory clock and bus width"
    # Double data rate: two transfers a clock.
    return {"name": name.value.decode(errors="replace"),
            "peak_bytes_per_s": 2.0 * clock_khz.value * 1e3 * bus_bits.value / 8}, None


def peer_devices(peers):
    """Which devices TensorFlow and JAX compute on here, in words."""
    said = []
    try:
        if peers.tf is None:
            said.append("TensorFlow not installed")
        else:
            gpus = peers.tf.config.list_physical_devices("GPU")
            said.append(f"TensorFlow on {'GPU' if gpus else 'CPU (it sees no GPU)'}")
    except Exception as e:  # noqa: BLE001
        said.append(f"TensorFlow: {type(e).__name__}")
    try:
        said.append("JAX not installed" if peers.jax is None else
                    f"JAX on {peers.jax.devices()[0].platform.upper()}")
    except Exception as e:  # noqa: BLE001
        said.append(f"JAX: {type(e).__name__}")
    return "; ".join(said)


def isa_level():
    """The x86-64 micro-architecture level of this CPU (v2: SSE4.2, v3: AVX2 and FMA,
    v4: AVX-512), from /proc/cpuinfo's flags."""
    try:
        flags = next(set(line.split(":", 1)[1].split()) for line in open("/proc/cpuinfo")
                     if line.startswith("flags"))
    except (OSError, StopIteration):
        return "unknown"
    levels = [("x86-64-v4", {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"}),
              ("x86-64-v3", {"avx2", "fma", "bmi1", "bmi2", "movbe", "f16c"}),
              ("x86-64-v2", {"sse4_2", "popcnt", "ssse3", "cx16"})]
    best = "x86-64"
    for name, need in reversed(levels):
        if need <= flags:
            best = name
    return best


def thread_counts(agc_threads, cores):
    """What each system runs on, as configured for this run."""
    return {"agc": f"{agc_threads} (libomp; AGC_NUM_THREADS)", "agc_dev": "the GPU", "c": "1",
            "c_omp": f"{cores} (libomp)", "tf_eager": f"{cores} (intra-op pool)",
            "tf_graph": f"{cores} (intra-op pool)", "xla": f"{cores} (Eigen pool)",
            "jax": f"{cores} (Eigen pool)", "numpy": "1 (BLAS threads in matmul)"}


def table(results, latency, stream, mach):
    one = max(stream["one"][k] for k in ("copy", "scale", "add", "triad"))
    bw = max(stream["all"][k] for k in ("copy", "scale", "add", "triad"))
    gpu = mach.get("gpu")
    limit_bw, limit_name = (gpu["peak_bytes_per_s"], "the GPU's peak") if gpu else (
        bw, "all-core STREAM")
    threads = mach["threads"]
    llc = mach.get("llc_bytes", 0)
    lines = [f"Machine: {mach['cpu']} ({mach['isa']}), {mach['cores']} cores; {mach['date']}. "
             f"Memory bandwidth (STREAM in C, best kernel): {one / 1e9:.1f} GB/s on one core, "
             f"{bw / 1e9:.1f} GB/s on all (OpenMP), over arrays of "
             f"{stream['all'].get('array_bytes', 0) / 2 ** 20:.0f} MiB"
             + (f"; last-level cache {llc / 2 ** 20:.0f} MiB" if llc else "") + ".", ""]
    if gpu:
        lines += [f"GPU: {gpu['name']}, peak memory bandwidth {gpu['peak_bytes_per_s'] / 1e9:.0f} "
                  f"GB/s. agc: --target=nvptx, called with host inputs (each call copies them "
                  f"to the GPU) and with inputs on the GPU (copied once, before the timed "
                  f"calls); the last column from the latter; peers: {gpu['peers']}.",
                  ""]
    lines += ["Threads: " + "; ".join(f"{TITLES[s]} {threads[s]}" for s in SYSTEMS) + ".", "",
              "Median time of one run; in parentheses, that time ÷ agc's (above 1: agc is "
              "faster; with --gpu, ÷ agc's with inputs on the GPU). † extrapolated from a "
              "reduced input (see bench.py). — : not run (not natural there).", "",
              "| workload | " + " | ".join(TITLES[s] for s in SYSTEMS) + " | agc vs limit |",
              "|---|" + "---|" * (len(SYSTEMS) + 1)]
    group = None
    for w in WORKLOADS:
        r = results.get(w.name)
        if not r:
            continue
        if w.group != group:
            group = w.group
            lines.append(f"| **{group}** |" + " |" * (len(SYSTEMS) + 1))
        agc_t = r.get("agc", {}).get("median")
        # The time the ratios and the limit column use: agc's with inputs on the GPU, where
        # it ran so (--gpu).
        ref_t = r.get("agc_dev", {}).get("median") or agc_t
        cells = []
        for s in SYSTEMS:
            e = r.get(s)
            if not e or e.get("median") is None:
                cells.append("—" if not e or "error" not in e else "error")
                continue
            cell = fmt_time(e["median"]) + ("†" if e.get("extrapolated_from") else "")
            base = "agc_dev" if r.get("agc_dev", {}).get("median") else "agc"
            if s != base and ref_t:
                cell += f" ({e['median'] / ref_t:.3g})"
            cells.append(cell)
        limit = ""
        if ref_t and w.bytes_moved:
            limit = (f"{w.bytes_moved / ref_t / 1e9:.1f} GB/s = "
                     f"{100 * w.bytes_moved / ref_t / limit_bw:.0f}% of {limit_name}")
            if not gpu and llc and w.bytes_moved <= llc:
                # Inputs and result fit in the cache, and stay there from one run to the
                # next: a fraction of a bandwidth from memory does not measure it.
                limit += f" (in cache: {w.bytes_moved / 2 ** 20:.0f} MiB fit the last level)"
        elif ref_t and w.flops:
            limit = f"{w.flops / ref_t / 1e9:.1f} GFLOP/s"
        elif ref_t and "c" in r and r["c"].get("median"):
            limit = f"{ref_t / r['c']['median']:.2f}× C's time"
        lines.append(f"| {w.name} ({w.note}) | " + " | ".join(cells) + f" | {limit} |")
    if latency:
        a = statistics.median(latency["agc"])

        def row(title, columns):
            cells = []
            for s in SYSTEMS:
                key = columns.get(s)
                if key in latency:
                    m = statistics.median(latency[key])
                    cells.append(fmt_time(m) + ("" if s == "agc" else f" ({m / a:.3g})"))
                else:
                    cells.append("—")
            lines.append(f"| {title} | " + " | ".join(cells) + " | |")
        lines.append("| **compile latency** (tanh loop) |" + " |" * (len(SYSTEMS) + 1))
        row("a whole process: `agc compile` to an object; TF: `python` importing TensorFlow, "
            "first call", {"agc": "agc", "tf_graph": "tf_cold"})
        row("first call in a warm process (trace and compile included); agc as above",
            {"agc": "agc", "tf_graph": "tf_graph", "xla": "xla", "jax": "jax"})
    return "\n".join(lines) + "\n"


def chart(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [w.name for w in WORKLOADS if results.get(w.name, {}).get("agc", {}).get("median")]
    peers = [s for s in SYSTEMS if s != "agc"]
    fig, ax = plt.subplots(figsize=(12, 5))
    width = 0.8 / len(peers)
    for i, s in enumerate(peers):
        ys = []
        for n in names:
            e = results[n].get(s)
            ys.append(e["median"] / results[n]["agc"]["median"] if e and e.get("median") else np.nan)
        ax.bar(np.arange(len(names)) + (i - len(peers) / 2 + 0.5) * width, ys, width, label=TITLES[s])
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(np.arange(len(names)), names, rotation=30, ha="right")
    ax.set_ylabel("peer's time ÷ agc's time (log; above 1: agc faster)")
    ax.set_title("agc against its peers")
    ax.legend(ncol=3, fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


# --- main ---------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated workloads")
    ap.add_argument("--systems", default=",".join(SYSTEMS))
    ap.add_argument("--no-latency", action="store_true")
    ap.add_argument("--agc-arg", action="append", default=None,
                    help="an option of agc compile for programs.py (repeatable; default "
                         "--mcpu=native, as C is compiled with -march=native)")
    ap.add_argument("--gpu", action="store_true",
                    help="the GPU benchmark: agc --target=nvptx (skipped, exit 0, without a GPU)")
    opts = ap.parse_args()
    only = set(filter(None, opts.only.split(",")))
    systems = [s for s in SYSTEMS if s in opts.systems.split(",")]
    gpu = None
    if opts.gpu:
        gpu, why = gpu_device()
        if not gpu:
            print(f"bench --gpu: SKIPPED: no usable GPU here ({why}); nothing was run")
            return 0
        only = (only & GPU_WORKLOADS) if only else set(GPU_WORKLOADS)
        if opts.out == ap.get_default("out"):
            opts.out = os.path.join(ROOT, "build", "bench-gpu")
        if opts.agc_arg is None:
            opts.agc_arg = ["--target=nvptx", "--mcpu=native"]
        # agc twice: inputs in host memory (each call copies them to the GPU), and
        # inputs already on the GPU (the kernels' own time, as JAX's device arrays).
        if "agc" in systems or "agc_dev" in opts.systems.split(","):
            systems.insert(1 if "agc" in systems else 0, "agc_dev")
        SYSTEMS.insert(1, "agc_dev")
    work = os.path.abspath(opts.out)
    os.makedirs(work, exist_ok=True)
    agc = os.path.join(ROOT, "build", "tools", "agc")
    rt_inc = os.path.join(ROOT, "runtime", "include")
    rt_lib = os.path.join(ROOT, "build", "runtime", "libagc-runtime.a")
    cc = os.environ.get("CC", "clang-22")
    TITLES["c"] = f"C ({os.path.basename(cc)} -O2 -march=native)"

    agc_args = opts.agc_arg if opts.agc_arg is not None else ["--mcpu=native"]
    print("building: agc compile programs.py", " ".join(agc_args) + "; driver.c and native.c with",
          cc, flush=True)
    subprocess.run([agc, "compile", os.path.join(PEERS, "programs.py"), "-o",
                    os.path.join(work, "programs.o")] + agc_args, check=True)
    driver, native = os.path.join(work, "driver"), os.path.join(work, "native")
    subprocess.run([cc, "-O2", "-I", rt_inc, "-I", work, os.path.join(PEERS, "driver.c"),
                    os.path.join(work, "programs.o"), rt_lib, "-lomp", "-lm", "-o", driver],
                   check=True)
    subprocess.run([cc, "-O2", "-march=native", "-fopenmp", "-I", rt_inc,
                    os.path.join(PEERS, "native.c"), rt_lib, "-lm", "-o", native], check=True)

    print("memory bandwidth (STREAM kernels, one core and all)...", flush=True)
    stream = {k: json.loads(subprocess.run([native, arg], check=True, capture_output=True,
                                           text=True).stdout)
              for k, arg in (("one", "stream"), ("all", "stream-all"))}
    peers = Peers() if any(s not in ("agc", "agc_dev", "c") for s in systems) else None

    results = {}
    for w in WORKLOADS:
        if only and w.name not in only:
            continue
        full = os.path.join(work, "full")
        os.makedirs(full, exist_ok=True)
        arrays = w.inputs(w.size)
        write_tensors(os.path.join(full, w.name + ".in"), arrays)
        r = results[w.name] = {}
        # the reference: hand-written C
        r["c"] = {"times": run_native(native, w, full, opts.reps)}
        want = read_tensor(os.path.join(full, w.name + ".c.out"))
        for s in systems:
            if s == "c" or (s == "c_omp" and not (w.bytes_moved or w.flops)) or (
                    w.systems and s not in w.systems):
                continue
            print(f"  {w.name}: {TITLES[s]}...", flush=True)
            try:
                if s == "c_omp":
                    r[s] = {"times": run_native(native, w, full, opts.reps, omp=True)}
                    got = read_tensor(os.path.join(full, w.name + ".c_omp.out"))
                elif s in ("agc", "agc_dev"):
                    env = {"BENCH_INPUTS": "cuda"} if s == "agc_dev" else None
                    r[s] = {"times": run_native(driver, w, full, opts.reps, env=env)}
                    got = read_tensor(os.path.join(full, w.name + ".agc.out"))
                else:
                    fn = peers.function(s, w.name)
                    if fn is None:
                        continue
                    if s in w.reduced:
                        r[s] = run_reduced(native, peers, s, fn, w, work, full, min(opts.reps, 3))
                        continue
                    times, got = time_python(fn, peers.args(s, arrays), opts.reps, w.batch,
                                             peers.finish(s), peers.sync(s))
                    r[s] = {"times": times}
                problem = agree(got, want, w.tol)
                if problem:
                    raise RuntimeError(f"wrong result: {problem}")
                r[s]["median"] = statistics.median(r[s]["times"])
            except Exception as e:  # noqa: BLE001 - a peer that fails is reported, not fatal
                r[s] = {"error": f"{type(e).__name__}: {str(e)[:300]}"}
                print(f"    {TITLES[s]} failed: {r[s]['error']}", flush=True)
        r["c"]["median"] = statistics.median(r["c"]["times"])

    latency = None
    if not opts.no_latency and peers and not only:
        print("compile latency...", flush=True)
        latency = compile_latency(agc, peers, work, opts.reps)
    mach = machine()
    if gpu:
        gpu["peers"] = peer_devices(peers) if peers else "none run"
        mach["gpu"] = gpu
    agc_threads = int(os.environ.get("AGC_NUM_THREADS", "0") or 0)
    mach["threads"] = thread_counts(agc_threads if agc_threads > 0 else mach["cores"],
                                    mach["cores"])
    md = table(results, latency, stream, mach)
    with open(os.path.join(work, "bench.md"), "w") as f:
        f.write(md)
    with open(os.path.join(work, "bench.json"), "w") as f:
        json.dump({"machine": mach, "stream_bytes_per_s": stream, "reps": opts.reps,
                   "workloads": results, "compile_latency": latency}, f, indent=1)
    try:
        chart(results, os.path.join(work, "bench.png"))
    except ImportError:
        print("(no chart: matplotlib is missing; tools/dev.sh bench installs it)")
    print()
    print(md)
    print(f"written: {work}/bench.md, bench.json, bench.png")


if __name__ == "__main__":
    sys.exit(main())
