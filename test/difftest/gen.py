"""Random, valid TensorFlow programs for agc's differential tester (run.py beside this file).

usage: gen.py SEED [--exclude F,F,...] [--zero-ties] [--list-features]

From a seed it writes one Python module: `import tensorflow as tf` and one
`@tf.function(input_signature=[tf.TensorSpec(...), ...])` function `f`, with the JSON
arguments for `agc run` on its first line (`# repro: agc run prog.py:f --args '[...]'`).
The same seed and features always give the same program. --zero-ties gives the same
program with the zeros that max and min choose made +0.0 (Gen.tie).

The generator keeps a typed scope: every name has a dtype, a concrete shape (the
arguments are fixed, so every shape is known) and TensorFlow's static shape (None where
the input_signature leaves a dimension dynamic). Expressions are built top-down for a
wanted type, so programs are valid by construction: no implicit promotion between
tensors, broadcasting only where NumPy allows it, loop variables and branch outputs
keep their dtype and static shape, staged loops end (a counter against a small bound),
`break`/`continue` only in staged loops, `return` only under ifs outside loops, indices
inside the dimension, integer divisors never zero. Features (see FEATURES) switch
constructs on and off; the ones that reach agc's known bugs can be excluded by name.
"""
import json
import math
import random
import sys
from collections import namedtuple

FEATURES = {
    # control flow
    "staged-if": "if/elif/else on tensor tests",
    "static-if": "if on Python values (only the taken branch is traced)",
    "while": "staged while loops on a counter (and an optional tensor test)",
    "for-range": "for over tf.range(...) and range(tensor)",
    "for-tensor": "for over the rows of a tensor",
    "for-python": "for over range(3) / a list: unrolled",
    "break": "break under staged conditions in staged loops",
    "continue": "continue under staged conditions in staged loops",
    "return": "return under staged (and static) ifs, every path returning",
    "ifexp": "conditional expressions a if c else b",
    "logic": "and / or / not on scalar tensors",
    "tensorarray": "tf.TensorArray written in a staged loop, then stacked",
    "print": "tf.print",
    # ops
    "math": "tf.math unary ops (exp, tanh, sqrt, log, ...)",
    "divide": "/ // % on tensors",
    "reduce": "reductions with and without axis",
    "where": "tf.where(c, a, b)",
    "cast": "tf.cast between dtypes",
    "matmul": "tf.matmul",
    "reshape": "reshape, transpose, expand_dims, squeeze",
    "concat": "tf.concat and tf.stack",
    "slice": "indexing and slicing with static indices",
    "create": "tf.zeros/ones/fill/constant/range with static shapes",
    "argmax": "tf.argmax/argmin",
    # data
    "float64": "float64 arguments",
    "int64": "int64 arguments",
    "bool": "bool arguments",
    "dynamic-shapes": "None dimensions in the input_signature",
    "dynamic-broadcast": "broadcasting a dimension that is 1 only at run time (static None)",
    "edge-values": "NaN, inf, -0.0, 1e30, 1e-30, +-1000 in the arguments",
    "int-overflow": "integer arguments near the top of their range (2**31 - 1, 2**40)",
    "empty": "empty tensor arguments whose nested value gives the shape ([], [[], []])",
    "empty-shape": "empty tensor arguments that need \"shape\" ([0, 3]: a 0 before other dims)",
    # constructs that reach agc bugs known when this was written
    "int-div-zero": "integer // and % whose divisor may be zero (TF raises)",
    "oob-index": "static indices past a dynamic dimension (TF raises)",
    "dyn-create": "tf.zeros/ones/fill with tensor dimensions",
    "negative-bound": "loop bounds and TensorArray sizes that may be negative",
    "join-mismatch": "tf.concat/tf.stack of tensors whose dynamic sizes may differ (TF raises)",
}

FLOATS = ("float32", "float64")
INTS = ("int32", "int64")

T = namedtuple("T", "dtype shape static")  # concrete shape, static shape (None: dynamic)


class GenFail(Exception):
    """This attempt at a construct does not fit the scope; the caller tries another."""


class Var:
    __slots__ = ("name", "t", "writable")

    def __init__(self, name, t, writable=True):
        self.name, self.t, self.writable = name, t, writable


class Ctx:
    """What a block sees: names in scope and where it is (loops, nesting)."""

    def __init__(self, parent=None, loop=None):
        self.vars = dict(parent.vars) if parent else {}
        self.pyints = list(parent.pyints) if parent else []
        self.index = dict(parent.index) if parent else {}  # tensor name -> safe index names
        self.loop = loop or (parent.loop if parent else None)  # innermost: staged | python
        self.in_loop = bool(loop) or (parent.in_loop if parent else False)
        self.python_loop = loop == "python" or (parent.python_loop if parent else False)
        self.loops = (parent.loops if parent else 0) + (1 if loop else 0)
        self.depth = parent.depth + 1 if parent else 0
        self.ret_types = parent.ret_types if parent else None
        # break/continue may end this block (not in a branch that defines a joined name)
        self.exits_ok = True if loop or not parent else parent.exits_ok


# --- types --------------------------------------------------------------------------------

def is_float(d):
    return d in FLOATS


def is_int(d):
    return d in INTS


def numel(shape):
    return math.prod(shape)


def bcast_dim(a, b):
    """TensorFlow's static broadcast of two dimensions (None: unknown); GenFail if unsure."""
    if a is None or b is None:
        known = a if a is not None else b
        if known is None:
            return None
        if known > 1:
            return known
        if known == 1:
            return None
        raise GenFail("0 against an unknown dimension")
    if a == 1:
        return b
    if b == 1:
        return a
    if a == b:
        return a
    raise GenFail("incompatible")


def bcast(t, u):
    """The type of t op u (dtype of t), or GenFail."""
    rank = max(len(t.shape), len(u.shape))
    pad = lambda s, fill: (fill,) * (rank - len(s)) + tuple(s)  # noqa: E731
    ts, us, tst, ust = pad(t.shape, 1), pad(u.shape, 1), pad(t.static, 1), pad(u.static, 1)
    shape, static = [], []
    for a, b, sa, sb in zip(ts, us, tst, ust):
        if a != b and a != 1 and b != 1:
            raise GenFail("incompatible")
        shape.append(max(a, b) if min(a, b) != 0 else 0)
        static.append(bcast_dim(sa, sb))
    return T(t.dtype, tuple(shape), tuple(static))


def fits(t, u):
    """u broadcasts into t without changing t's type."""
    try:
        return bcast(t, u) == t
    except GenFail:
        return False


def dynamic_ones(t, u):
    """u broadcasts a dimension of t from a size 1 known only at run time."""
    pairs = zip(reversed(t.shape), reversed(u.shape), reversed(u.static))
    return any(du == 1 and su is None and dt != 1 for dt, du, su in pairs)


def scalar(dtype):
    return T(dtype, (), ())


def spec_shape(static):
    return "[" + ", ".join("None" if d is None else str(d) for d in static) + "]"


# --- literals and values ------------------------------------------------------------------

def fmt_float(x):
    if math.isnan(x):
        return 'float("nan")'
    if math.isinf(x):
        return 'float("inf")' if x > 0 else '-float("inf")'
    return repr(float(x))


def nested(flat, shape):
    if not shape:
        return flat[0]
    step = numel(shape[1:])
    return [nested(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


class Gen:
    """One program from one seed."""

    def __init__(self, seed, features, zero_ties=False):
        self.rng = random.Random(str(seed))
        self.features = set(features)
        self.zero_ties = zero_ties
        self.counter = 0
        self.ctx = None
        self.derivation_cache = {}
        self.in_ifexp = False  # TF 2.21 does not convert a conditional expression in another

    def on(self, feature):
        return feature in self.features

    def tie(self, code, dtype):
        """code, or with zero_ties (the variant run.py compares where a program disagrees)
        code with -0.0 made +0.0, for the ops whose choice between equal operands
        TensorFlow leaves to its vector width: max and min of +0.0 and -0.0 give the first
        operand in some lanes and the second in others (tf.maximum of two [9] vectors
        gives 8 of one and 1 of the other on an AVX2 CPU), so the zero's sign is not
        TensorFlow's semantics. No random draw here: the variant is the same program."""
        if not (self.zero_ties and is_float(dtype)):
            return code
        return f"tf.where({code} == 0.0, tf.zeros_like({code}), {code})"

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def pick(self, weighted):
        """One item of [(weight, item)], items with weight 0 left out."""
        weighted = [(w, x) for w, x in weighted if w > 0]
        if not weighted:
            raise GenFail("nothing to pick")
        total = sum(w for w, _ in weighted)
        r = self.rng.random() * total
        for w, x in weighted:
            r -= w
            if r < 0:
                return x
        return weighted[-1][1]

    def chance(self, p):
        return self.rng.random() < p

    # --- argument values ----------------------------------------------------------------

    def value(self, dtype):
        r = self.rng
        edges = self.on("edge-values") and r.random() < 0.12
        if dtype == "bool":
            return r.random() < 0.5
        if is_int(dtype):
            if edges:
                big = [2**31 - 1 if dtype == "int32" else 2**40] if self.on("int-overflow") else []
                return r.choice([0, -1, 1000, -1000] + big)
            return r.randint(-5, 5)
        if edges:
            return r.choice([0.0, -0.0, float("nan"), float("inf"), -float("inf"), 1e30, 1e-30])
        return r.randint(-8, 8) / 2

    def arg_json(self, t):
        flat = [self.value(t.dtype) for _ in range(numel(t.shape))]
        arg = {"dtype": t.dtype, "value": nested(flat, t.shape) if t.shape else flat[0]}
        if 0 in t.shape:
            arg["value"] = nested_empty(t.shape)
            arg["shape"] = list(t.shape)
        return arg

    def arg_type(self):
        r = self.rng
        dtypes = ["float32", "int32"] + [d for d in ("float64", "int64", "bool") if self.on(d)]
        dtype = r.choice(dtypes)
        rank = r.choice([0, 1, 1, 2, 2, 3]) if self.chance(0.9) else 0
        shape = [0 if self.on("empty") and self.chance(0.07) else r.randint(1, 4)
                 for _ in range(rank)]
        if not self.on("empty-shape") and 0 in shape[:-1]:
            shape[shape.index(0) + 1:] = [1] * (rank - shape.index(0) - 1)
            shape[shape.index(0)] = 1
        shape = tuple(shape)
        static = tuple(None if self.on("dynamic-shapes") and self.chance(0.4) else d
                       for d in shape)
        return T(dtype, shape, static)

    # --- expressions ----------------------------------------------------------------------

    def tensors(self, pred=lambda v: True):
        return [v for v in self.ctx.vars.values() if pred(v)]

    def literal(self, dtype, nonzero=False):
        if is_float(dtype):
            choices = [0.5, 1.0, 2.0, -1.5, 3.0, 0.25, -2.0] + ([] if nonzero else [0.0])
            return fmt_float(self.rng.choice(choices))
        choices = [1, 2, 3, -1, -2, 5] + ([] if nonzero else [0])
        if self.ctx.pyints and not nonzero and self.chance(0.3):
            return self.rng.choice(self.ctx.pyints)
        return str(self.rng.choice(choices))

    def constant(self, t):
        """tf.constant of a fully static type."""
        if t.dtype == "bool":
            flat = [self.rng.random() < 0.5 for _ in range(numel(t.shape))]
        elif is_int(t.dtype):
            flat = [self.rng.randint(-4, 4) for _ in range(numel(t.shape))]
        else:
            flat = [self.rng.randint(-6, 6) / 2 for _ in range(numel(t.shape))]
        if 0 in t.shape:
            return f"tf.zeros({list(t.shape)}, dtype=tf.{t.dtype})"
        value = nested(flat, t.shape) if t.shape else flat[0]
        text = json.dumps(value).replace("true", "True").replace("false", "False")
        if t.dtype in ("bool", "int32", "float32"):  # tf.constant's own choice
            return f"tf.constant({text})"
        return f"tf.constant({text}, dtype=tf.{t.dtype})"

    def convert(self, code, src, dst, simple):
        """code (dtype src) as dtype dst, or None."""
        if src == dst:
            return code
        if dst == "bool":
            if is_int(src) and self.chance(0.3):
                return f"tf.cast({code}, tf.bool)"
            return f"({code} > {self.literal(src)})"
        if src == "bool" or is_int(src) or is_float(dst):
            return f"tf.cast({code}, tf.{dst})"
        if simple:  # float -> int: NaN and inf made finite first (their cast is undefined)
            zero = "0.0"
            return (f"tf.cast(tf.clip_by_value(tf.where({code} == {code}, {code}, {zero}), "
                    f"-1000.0, 1000.0), tf.{dst})")
        return None

    def leaf(self, t):
        cands = []
        for v in self.ctx.vars.values():
            if v.t == t:
                cands += [(6, v.name)]
            elif v.t.shape == t.shape and v.t.static == t.static and self.on("cast"):
                code = self.convert(v.name, v.t.dtype, t.dtype, True)
                if code:
                    cands.append((1, code))
        if self.chance(0.3):
            for v in list(self.ctx.vars.values()):
                for code, u in self.derivations(v.name, v.t):
                    if u == t:
                        cands.append((0.5, code))
        if None not in t.static and numel(t.shape) <= 6 and self.on("create"):
            cands.append((1 if t.shape else 0.5, self.constant(t)))
        if not t.shape and not cands:
            cands.append((1, self.constant(t)))
        if not cands:
            return None
        return self.pick(cands)

    def expr(self, t, depth):
        if depth <= 0 or self.chance(0.2):
            code = self.leaf(t)
            if code is not None:
                return code
            if depth < 0:
                raise GenFail(f"no leaf of type {t}")
        makers = self.makers(t)
        for _ in range(6):
            code = self.pick(makers)(t, depth - 1)
            if code is not None:
                return code
        code = self.leaf(t)
        if code is None:
            raise GenFail(f"no expression of type {t}")
        return code

    def makers(self, t):
        if t.dtype == "bool":
            return [(4, self.m_compare), (2 if self.on("logic") else 0, self.m_logical),
                    (1 if self.on("where") else 0, self.m_where),
                    (1 if self.on("ifexp") else 0, self.m_ifexp),
                    (2 if self.on("logic") and not t.shape else 0, self.m_pylogic)]
        return [(6, self.m_binop), (3 if self.on("math") else 0, self.m_unary),
                (1, self.m_minmax), (1 if self.on("where") else 0, self.m_where),
                (1 if self.on("ifexp") else 0, self.m_ifexp),
                (1 if self.on("cast") else 0, self.m_cast),
                (1 if t.dtype == "float64" and self.on("divide") else 0, self.m_int_truediv),
                (1, self.m_clip)]

    def operand_type(self, t):
        """A type that broadcasts into t: t itself, a scalar, or a shape from the scope."""
        options = [(4, t), (3, scalar(t.dtype))]
        for v in self.ctx.vars.values():
            u = T(t.dtype, v.t.shape, v.t.static)
            if u != t and fits(t, u) and (self.on("dynamic-broadcast") or not dynamic_ones(t, u)):
                options.append((1, u))
        if None not in t.static and len(t.shape) >= 1:
            options.append((1, T(t.dtype, t.shape[1:], t.static[1:])))
        return self.pick(options)

    def operand(self, t, depth, nonzero=False):
        """An operand of an elementwise op whose result has type t."""
        u = self.operand_type(t)
        if not u.shape and t.dtype != "bool" and (self.chance(0.4) or nonzero):
            return self.literal(t.dtype, nonzero)
        code = self.expr(u, depth)
        if nonzero:  # an integer divisor that is never zero
            code = f"tf.maximum(tf.abs({code}), 1)"
        return code

    def m_binop(self, t, d):
        ops = ["+", "-", "*"]
        if self.on("divide"):
            ops += ["//", "%"] + (["/"] if is_float(t.dtype) else [])
        op = self.rng.choice(ops)
        a = self.expr(t, d)
        if op in ("//", "%") and is_int(t.dtype):
            risky = self.on("int-div-zero") and self.chance(0.3)
            b = self.operand(t, d, nonzero=not risky)
        else:
            b = self.operand(t, d)
        if op == "*" and self.chance(0.1):
            return f"({a} ** 2)"
        if self.chance(0.3) and not (op in ("//", "%") and is_int(t.dtype)):
            a, b = b, a
        return f"({a} {op} {b})"

    def m_unary(self, t, d):
        a = self.expr(t, d)
        ops = ["-", "tf.abs", "tf.square"]
        if is_float(t.dtype):
            ops += ["tf.exp", "tf.tanh", "tf.sin", "tf.cos", "tf.sqrt", "tf.math.log",
                    "tf.sigmoid", "tf.floor", "tf.math.ceil", "tf.round", "tf.nn.relu"]
        op = self.rng.choice(ops)
        if op == "-":
            return f"(-{a})"
        if op == "tf.nn.relu":
            return self.tie(f"{op}({a})", t.dtype)
        if op == "tf.math.log" and self.chance(0.5):
            return f"tf.math.log(tf.abs({a}) + 1.0)"
        if op in ("tf.sin", "tf.cos"):
            # Beyond a few thousand a float32 holds too few digits for its sine to mean
            # anything, and implementations differ: cos of 6.2e27 (exp(64)) is -0.7137
            # correctly rounded (libm, agc) and 0.0395 in TensorFlow's Eigen kernel.
            return f"{op}(tf.clip_by_value({a}, -1000.0, 1000.0))"
        if op == "tf.tanh" and t.dtype == "float32":
            # TensorFlow's float32 tanh (Eigen's rational approximation) is exactly 1.0 from
            # |x| ~ 7.905 on, where the correctly rounded value (agc's, NumPy's) is still
            # below it by 2 to 5 ulp: x // tanh(8.0) is x there and x - 1 here.
            return f"tf.tanh(tf.clip_by_value({a}, -7.5, 7.5))"
        return f"{op}({a})"

    def m_minmax(self, t, d):
        op = self.rng.choice(["tf.maximum", "tf.minimum"])
        a, b = self.expr(t, d), self.operand(t, d)
        if self.python_number(b):  # tf.maximum(2, x) would make 2 an int32 first
            return self.tie(f"{op}({a}, {b})", t.dtype)
        return self.tie(f"{op}({a}, {b})" if self.chance(0.5) else f"{op}({b}, {a})", t.dtype)

    def python_number(self, code):
        return code in self.ctx.pyints or code.lstrip("-")[:1].isdigit()

    def m_clip(self, t, d):
        if t.dtype == "bool":
            return None
        lo, hi = sorted(self.rng.sample([-3, -1, 0, 1, 2, 4], 2))
        if is_float(t.dtype):
            lo, hi = float(lo), float(hi)
        return self.tie(f"tf.clip_by_value({self.expr(t, d)}, {lo}, {hi})", t.dtype)

    def m_where(self, t, d):
        c = self.expr(T("bool", t.shape, t.static), d)
        return f"tf.where({c}, {self.expr(t, d)}, {self.expr(t, d)})"

    def m_ifexp(self, t, d):
        if self.in_ifexp:
            return None
        self.in_ifexp = True
        try:
            return f"({self.expr(t, d)} if {self.cond(d)} else {self.expr(t, d)})"
        finally:
            self.in_ifexp = False

    def m_cast(self, t, d):
        src = self.rng.choice([x for x in FLOATS + INTS + ("bool",) if x != t.dtype])
        if is_float(src) and is_int(t.dtype):
            return None
        return self.convert(self.expr(T(src, t.shape, t.static), d), src, t.dtype, False)

    def m_int_truediv(self, t, d):
        src = self.rng.choice(INTS)
        u = T(src, t.shape, t.static)
        return f"({self.expr(u, d)} / {self.operand(u, d)})"

    def m_compare(self, t, d):
        dtypes = ["float32", "int32"] + [x for x in ("float64", "int64") if self.on(x)]
        u = T(self.rng.choice(dtypes), t.shape, t.static)
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        if self.chance(0.15):
            fn = {"<": "less", "<=": "less_equal", ">": "greater", ">=": "greater_equal",
                  "==": "equal", "!=": "not_equal"}[op]
            return f"tf.math.{fn}({self.expr(u, d)}, {self.operand(u, d)})"
        return f"({self.expr(u, d)} {op} {self.operand(u, d)})"

    def m_logical(self, t, d):
        op = self.rng.choice(["tf.logical_and", "tf.logical_or", "tf.logical_not"])
        if op == "tf.logical_not":
            return f"tf.logical_not({self.expr(t, d)})"
        return f"{op}({self.expr(t, d)}, {self.operand(t, d)})"

    def m_pylogic(self, t, d):
        op = self.rng.choice(["and", "or", "not"])
        if op == "not":
            return f"(not {self.cond(d)})"
        return f"({self.cond(d)} {op} {self.cond(d)})"

    def cond(self, depth=2):
        """A scalar bool tensor: a staged test."""
        t = scalar("bool")
        if self.chance(0.35) and self.on("reduce"):
            vs = self.tensors(lambda v: v.t.shape)
            if vs:
                v = self.rng.choice(vs)
                if v.t.dtype == "bool":
                    return f"tf.reduce_{self.rng.choice(['any', 'all'])}({v.name})"
                op = self.rng.choice(["sum", "max", "min"])
                return f"(tf.reduce_{op}({v.name}) {self.rng.choice(['>', '<', '>='])} {self.literal(v.t.dtype)})"
        return self.expr(t, depth)

    # --- ops that change shapes: derivations of a tensor ------------------------------------

    def derivations(self, code, t):
        """[(code, type)] of shape-changing ops on one tensor (deterministic, cached)."""
        return [d for group in self.derivation_groups(code, t).values() for d in group]

    def derivation_groups(self, code, t):
        """{op family: [(code, type)]}: the derivations of code, by family."""
        key = (code, t, tuple(sorted(self.ctx.index.get(code, []))))
        if key not in self.derivation_cache:
            groups = {}
            if self.on("reduce"):
                groups["reduce"] = [(self.tie(c, r.dtype) if "_max(" in c or "_min(" in c else c, r)
                                    for c, r in reductions(code, t)]
            if self.on("slice"):
                groups["slice"] = slices(code, t, self.on("oob-index")) + [
                    (f"{code}[{i}]", T(t.dtype, t.shape[1:], t.static[1:]))
                    for i in self.ctx.index.get(code, []) if t.shape]
            if self.on("reshape"):
                groups["reshape"] = reshapes(code, t)
            if self.on("concat"):
                groups["concat"] = concats(code, t, self.on("join-mismatch"))
            if self.on("argmax"):
                groups["argmax"] = argmaxes(code, t)
            if self.on("create"):
                groups["like"] = [(f"tf.size({code})", scalar("int32")),
                                  (f"tf.shape({code})", T("int32", (len(t.shape),), (len(t.shape),))),
                                  (f"tf.zeros_like({code})", t)] + (
                    [(f"tf.ones_like({code})", t)] if t.dtype != "bool" else [])
            if self.on("matmul"):
                groups["matmul"] = matmuls(code, t)
            self.derivation_cache[key] = {k: v for k, v in groups.items() if v}
        return self.derivation_cache[key]

    def creations(self):
        """[(code, type)] of tensors made from nothing (or from a loop bound)."""
        r = self.rng
        out = []
        dims = tuple(r.randint(0 if self.on("empty") else 1, 3) for _ in range(r.randint(0, 2)))
        dtype = r.choice(["float32", "int32", "float64", "int64", "bool"])
        st = T(dtype, dims, dims)
        out.append((f"tf.zeros({list(dims)}, dtype=tf.{dtype})", st))
        if dtype != "bool":
            out.append((f"tf.ones({list(dims)}, dtype=tf.{dtype})", st))
            lit = r.choice(["7.5", "-2.0", "3", "-1"])
            out.append((f"tf.fill({list(dims)}, {lit})",
                        T("float32" if "." in lit else "int32", dims, dims)))
        out.append((self.constant(st), st))
        a, s = r.randint(-2, 2), r.choice([1, 2, 3])
        b = a + r.randint(0, 6)
        n = len(range(a, b, s))
        out.append((f"tf.range({a}, {b}, {s})", T("int32", (n,), (n,))))
        out.append((f"tf.range({n})", T("int32", (n,), (n,))))
        out.append(("tf.range(0.0, 2.0, 0.5)", T("float32", (4,), (4,))))
        for name, value in self.bounds.items():
            if name in self.ctx.vars:
                out.append((f"tf.range({name})", T("int32", (max(value, 0),), (None,))))
                if self.on("dyn-create") and (value >= 0 or self.on("negative-bound")):
                    k = max(value, 0)
                    out.append((f"tf.zeros([{name}], dtype=tf.{dtype})", T(dtype, (k,), (None,))))
                    out.append((f"tf.ones([{name}, 2])", T("float32", (k, 2), (None, 2))))
                    out.append((f"tf.fill([{name}], 2)", T("int32", (k,), (None,))))
        if self.on("dyn-create"):
            for v in self.ctx.vars.values():
                if v.t.shape and None in v.t.static and dtype != "bool":
                    out.append((f"tf.ones(tf.shape({v.name}), dtype=tf.{dtype})",
                                T(dtype, v.t.shape, v.t.static)))
                    out.append((f"tf.fill(tf.shape({v.name}), 1.5)",
                                T("float32", v.t.shape, v.t.static)))
        return out

    # --- statements -----------------------------------------------------------------------

    def block(self, ctx, n):
        saved, self.ctx = self.ctx, ctx
        lines = []
        try:
            for _ in range(n):
                lines += self.statement()
        finally:
            self.ctx = saved
        return lines or ["pass"]

    def statement(self):
        ctx = self.ctx
        nest_ok = ctx.depth < 3
        loop_ok = nest_ok and ctx.loops < 2
        kinds = [
            (8, self.s_assign_new), (5 if self.writable() else 0, self.s_assign_existing),
            (3 if nest_ok and self.on("staged-if") else 0, self.s_staged_if),
            (1 if nest_ok and self.on("static-if") else 0, self.s_static_if),
            (1.5 if loop_ok and self.on("while") else 0, self.s_while),
            (1.5 if loop_ok and self.on("for-range") else 0, self.s_for_range),
            (1 if loop_ok and self.on("for-tensor") else 0, self.s_for_tensor),
            (0.7 if loop_ok and not ctx.python_loop and self.on("for-python") else 0,
             self.s_for_python),
            (0.8 if loop_ok and self.on("tensorarray") else 0, self.s_tensorarray),
            (1.5 if ctx.loop == "staged" and ctx.exits_ok and self.on("break") else 0, self.s_break),
            (1 if ctx.loop == "staged" and ctx.exits_ok and self.on("continue") else 0,
             self.s_continue),
            (0.4 if self.on("print") else 0, self.s_print),
        ]
        for _ in range(8):
            kind = self.pick(kinds)
            mark = (dict(ctx.vars), list(ctx.pyints), self.counter)
            try:
                return kind()
            except GenFail:
                ctx.vars, ctx.pyints, self.counter = mark[0], mark[1], mark[2]
        return []

    def writable(self):
        return [v for v in self.ctx.vars.values() if v.writable]

    def scope_type(self):
        """A type to make: one in scope, perhaps with another dtype."""
        v = self.rng.choice(list(self.ctx.vars.values()))
        t = v.t
        if self.chance(0.3) and self.on("cast"):
            dtypes = [d for d in FLOATS + INTS + ("bool",) if d == "float32" or d == "int32"
                      or d == "bool" or self.on(d)]
            t = T(self.rng.choice(dtypes), t.shape, t.static)
        return t

    def s_assign_new(self):
        r = self.rng.random()
        if r < 0.55:
            t = self.scope_type()
            code = self.expr(t, self.rng.randint(1, 2))
        elif r < 0.85:
            v = self.rng.choice(list(self.ctx.vars.values()))
            groups = self.derivation_groups("X", v.t)
            square = [w for w in self.ctx.vars.values() if matmuls("X", w.t)]
            if square and self.on("matmul") and self.chance(0.2):  # else rare: rank 2 only
                v = self.rng.choice(square)
                groups = {"matmul": matmuls("X", v.t)}
            if not groups:
                raise GenFail("no derivation")
            template, t = self.rng.choice(groups[self.rng.choice(sorted(groups))])
            src = v.name if self.chance(0.6) else self.expr(v.t, 1)
            code = template.replace("X", src)
        else:
            if not self.on("create"):
                raise GenFail("create is off")
            code, t = self.rng.choice(self.creations())
        name = self.fresh("v")
        self.ctx.vars[name] = Var(name, t)
        return [f"{name} = {code}"]

    def s_assign_existing(self, var=None):
        v = var or self.rng.choice(self.writable())
        t = v.t
        if t.dtype != "bool" and self.chance(0.4):
            op = self.rng.choice(["+", "-", "*"] + (["//", "%"] if self.on("divide") else []))
            if op in ("//", "%") and is_int(t.dtype):
                b = self.operand(t, 1, nonzero=not (self.on("int-div-zero") and self.chance(0.3)))
            else:
                b = self.operand(t, 1)
            return [f"{v.name} {op}= {b}"]
        return [f"{v.name} = {self.expr(t, self.rng.randint(1, 2))}"]

    def branch(self, ctx, n, join=None, top=False):
        """A branch of an if: statements, an assignment to an outer name, the joined name,
        and (in an if of the function's own block) perhaps a return, last: TensorFlow's
        AutoGraph needs every path through a staged if that returns to return."""
        if join:
            ctx.exits_ok = False
        lines = self.block(ctx, n)
        carried = [v for v in self.writable() if v.name in ctx.vars]
        if carried and self.chance(0.6):
            lines += self.in_ctx(ctx, lambda: self.s_assign_existing(self.rng.choice(carried)))
        if join:
            name, t = join
            lines += self.in_ctx(ctx, lambda: [f"{name} = {self.expr(t, 2)}"])
        if top and ctx.ret_types and self.chance(0.4):
            lines += self.in_ctx(ctx, lambda: [self.return_line()])
        return [line for line in lines if line != "pass"] or ["pass"]

    def in_ctx(self, ctx, fn):
        saved, self.ctx = self.ctx, ctx
        try:
            return fn()
        finally:
            self.ctx = saved

    def s_staged_if(self):
        test = self.cond()
        join = (self.fresh("v"), self.scope_type()) if self.chance(0.3) else None
        top = self.ctx.depth == 0
        then = self.branch(Ctx(self.ctx), self.rng.randint(1, 2), join, top)
        lines = [f"if {test}:"] + indent(then)
        if join or self.chance(0.6):
            if not join and self.chance(0.25) and self.ctx.depth < 2:
                inner = self.in_ctx(Ctx(self.ctx), self.s_staged_if)
                lines += ["el" + inner[0]] + inner[1:]
            else:
                lines += ["else:"] + indent(self.branch(Ctx(self.ctx), self.rng.randint(1, 2), join, top))
        if join:
            # TF 2.21 fails ("cannot access free variable") when a name joined by a staged
            # if in a staged loop's body is assigned again in that body: keep it read-only
            self.ctx.vars[join[0]] = Var(join[0], join[1], writable=not self.ctx.in_loop)
        return lines

    def static_test(self):
        r = self.rng
        if not self.ctx.pyints or self.chance(0.2):
            name = self.fresh("k")
            self.ctx.pyints.append(name)
            return [f"{name} = {r.randint(0, 4)}"], f"{name} {r.choice(['>', '<', '==', '!='])} {r.randint(0, 3)}"
        k = r.choice(self.ctx.pyints)
        return [], r.choice([f"{k} % 2 == 0", f"{k} > 1", f"{k} == 1", f"{k} < 2"])

    def s_static_if(self):
        pre, test = self.static_test()
        top = self.ctx.depth == 0
        lines = pre + [f"if {test}:"] + indent(self.branch(Ctx(self.ctx), self.rng.randint(1, 2), top=top))
        if self.chance(0.5):
            lines += ["else:"] + indent(self.branch(Ctx(self.ctx), self.rng.randint(1, 2), top=top))
        return lines

    def bound(self):
        """A small loop bound: a Python int or a bound argument (int32 scalar)."""
        names = [n for n in self.bounds if n in self.ctx.vars]
        if names and self.chance(0.6):
            name = self.rng.choice(names)
            return name, max(self.bounds[name], 0), True
        k = self.rng.randint(0, 4)
        return str(k), k, False

    def loop_body(self, ctx, n):
        lines = self.block(ctx, n)
        carried = [v for v in self.writable() if v.name in ctx.vars]
        if carried and self.chance(0.8):
            lines += self.in_ctx(ctx, lambda: self.s_assign_existing(self.rng.choice(carried)))
        return lines

    def s_while(self):
        i = self.fresh("i")
        tensor_counter = self.chance(0.6)
        bound, _, tensor_bound = self.bound()
        test = f"{i} < {bound}"
        extra = self.on("logic") and self.chance(0.35)
        staged = tensor_counter or tensor_bound or extra
        if extra:
            test += f" and {self.cond(1)}"
        body_ctx = Ctx(self.ctx, "staged" if staged else "python")
        if staged:
            body_ctx.vars[i] = Var(i, scalar("int32"), writable=False)
        body = [f"{i} += 1"] + self.loop_body(body_ctx, self.rng.randint(1, 2))
        init = "tf.constant(0)" if tensor_counter else "0"
        if staged:
            self.ctx.vars[i] = Var(i, scalar("int32"), writable=False)
        return [f"{i} = {init}", f"while {test}:"] + indent(body)

    def s_for_range(self):
        i = self.fresh("i")
        r = self.rng
        body_ctx = Ctx(self.ctx, "staged")
        body_ctx.vars[i] = Var(i, scalar("int32"), writable=False)
        choice = r.random()
        rows = [v for v in self.ctx.vars.values() if v.t.shape]
        if choice < 0.25 and rows and self.on("slice"):
            v = r.choice(rows)
            header = f"for {i} in tf.range(tf.shape({v.name})[0]):"
            body_ctx.index[v.name] = body_ctx.index.get(v.name, []) + [i]
        elif choice < 0.4:
            a, s = r.randint(-1, 2), r.choice([1, 2])
            b = a + r.randint(0, 4)
            header = f"for {i} in tf.range({a}, {b}, {s}):"
        else:
            bound, value, tensor_bound = self.bound()
            header = (f"for {i} in range({bound}):" if tensor_bound and self.chance(0.3)
                      else f"for {i} in tf.range({bound}):")
            if self.on("oob-index") and tensor_bound:
                for v in rows:
                    if v.t.static[0] is None:
                        body_ctx.index[v.name] = body_ctx.index.get(v.name, []) + [i]
        return [header] + indent(self.loop_body(body_ctx, r.randint(1, 2)))

    def s_for_tensor(self):
        rows = [v for v in self.ctx.vars.values() if v.t.shape]
        if not rows:
            raise GenFail("no tensor to iterate")
        v = self.rng.choice(rows)
        e = self.fresh("e")
        body_ctx = Ctx(self.ctx, "staged")
        body_ctx.vars[e] = Var(e, T(v.t.dtype, v.t.shape[1:], v.t.static[1:]), writable=False)
        return [f"for {e} in {v.name}:"] + indent(self.loop_body(body_ctx, self.rng.randint(1, 2)))

    def s_for_python(self):
        k = self.fresh("k")
        body_ctx = Ctx(self.ctx, "python")
        body_ctx.pyints.append(k)
        header = (f"for {k} in range({self.rng.randint(1, 3)}):" if self.chance(0.7)
                  else f"for {k} in {self.rng.sample([0, 1, 2, 3, -1], 2)}:")
        return [header] + indent(self.loop_body(body_ctx, self.rng.randint(1, 2)))

    def s_tensorarray(self):
        ta, i, name = self.fresh("ta"), self.fresh("i"), self.fresh("v")
        elem = self.rng.choice(list(self.ctx.vars.values())).t
        bound, value, tensor_bound = self.bound()
        dynamic = self.chance(0.3)
        size = "0, dynamic_size=True" if dynamic else bound
        body_ctx = Ctx(self.ctx, "ta")  # staged, but no break/continue: every index written
        body_ctx.vars[i] = Var(i, scalar("int32"), writable=False)
        body = self.loop_body(body_ctx, self.rng.randint(0, 2)) if self.chance(0.5) else []
        body += self.in_ctx(body_ctx, lambda: [f"{ta} = {ta}.write({i}, {self.expr(elem, 2)})"])
        first = value if not (dynamic or tensor_bound) else None
        self.ctx.vars[name] = Var(name, T(elem.dtype, (value,) + elem.shape, (first,) + elem.static))
        return ([f"{ta} = tf.TensorArray(tf.{elem.dtype}, size={size})",
                 f"for {i} in tf.range({bound}):"] + indent(body) + [f"{name} = {ta}.stack()"])

    def exit_branch(self, word):
        pre = self.block(Ctx(self.ctx), self.rng.randint(0, 1)) if self.chance(0.3) else []
        pre = [] if pre == ["pass"] else pre
        return [f"if {self.cond()}:"] + indent(pre + [word])

    def s_break(self):
        return self.exit_branch("break")

    def s_continue(self):
        return self.exit_branch("continue")

    def return_line(self):
        values = [self.expr(t, 2) for t in self.ctx.ret_types]
        return "return " + ", ".join(values)

    def s_print(self):
        names = [v.name for v in self.ctx.vars.values()]
        chosen = self.rng.sample(names, min(len(names), self.rng.randint(1, 2)))
        label = [f'"{self.fresh("p")}:"'] if self.chance(0.5) else []
        return [f"tf.print({', '.join(label + chosen)})"]

    # --- the program ----------------------------------------------------------------------

    def program(self):
        """(source, args): the module text and the JSON arguments of f."""
        r = self.rng
        ctx = Ctx()
        self.ctx = ctx
        params, specs, args = [], [], []
        for _ in range(r.randint(1, 3)):
            t = self.arg_type()
            name = self.fresh("x")
            params.append(name)
            specs.append(f"tf.TensorSpec(shape={spec_shape(t.static)}, dtype=tf.{t.dtype})")
            args.append(self.arg_json(t))
            ctx.vars[name] = Var(name, t)
        self.bounds = {}
        for _ in range(r.choice([0, 1, 1, 2])):
            name = self.fresh("n")
            low = -1 if self.on("negative-bound") else 0
            self.bounds[name] = r.randint(low, 5)
            params.append(name)
            specs.append("tf.TensorSpec(shape=[], dtype=tf.int32)")
            args.append({"dtype": "int32", "value": self.bounds[name]})
            ctx.vars[name] = Var(name, scalar("int32"), writable=False)
        if self.on("return") and self.on("staged-if") and r.random() < 0.3:
            tensor_args = [v.t for v in ctx.vars.values()]
            ctx.ret_types = r.sample(tensor_args, min(len(tensor_args), r.randint(1, 2)))
        body = self.block(ctx, r.randint(3, 7))
        self.ctx = ctx
        body = [line for line in body if line != "pass"]
        body.append(self.final_return(ctx, params))
        source = ["import tensorflow as tf", "", "",
                  f"@tf.function(input_signature=[{', '.join(specs)}])",
                  f"def f({', '.join(params)}):"] + indent(body)
        return "\n".join(source) + "\n", args

    def final_return(self, ctx, params):
        if ctx.ret_types:
            return self.return_line()
        made = [n for n, v in ctx.vars.items() if n not in params and not n.startswith("i")]
        chosen = made[-8:]  # every value made at the top: little dead code
        if not chosen or self.chance(0.2):
            chosen.append(self.rng.choice([p for p in params if not p.startswith("n")]))
        return "return " + ", ".join(chosen)


# --- derivation tables (pure functions of a tensor's type) --------------------------------

def nested_empty(shape):
    if not shape or shape[0] == 0:
        return []
    return [nested_empty(shape[1:]) for _ in range(shape[0])]


def reduce_type(t, axes, keep):
    shape, static = [], []
    for k, (d, s) in enumerate(zip(t.shape, t.static)):
        if k in axes:
            if keep:
                shape.append(1)
                static.append(1)
        else:
            shape.append(d)
            static.append(s)
    return tuple(shape), tuple(static)


def reductions(code, t):
    rank = len(t.shape)
    if t.dtype == "bool":
        ops = ["reduce_any", "reduce_all"]
    else:
        ops = ["reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_mean"]
    out = []
    axis_sets = [None] + [(a,) for a in range(rank)]
    if rank >= 2:
        axis_sets.append((0, rank - 1))
    for op in ops:
        for axes in axis_sets:
            for keep in (False, True):
                if axes is None:
                    shape, static = reduce_type(t, range(rank), keep)
                    arg = ", keepdims=True" if keep else ""
                else:
                    shape, static = reduce_type(t, axes, keep)
                    ax = axes[0] - rank if len(axes) == 1 and axes[0] % 2 else axes[0]
                    axis = str(ax) if len(axes) == 1 else str(list(axes))
                    arg = f", axis={axis}" + (", keepdims=True" if keep else "")
                out.append((f"tf.{op}({code}{arg})", T(t.dtype, shape, static)))
    return out


def slice_len(d, s):
    return None if d is None else len(range(d)[s])


def slices(code, t, oob):
    if not t.shape:
        return []
    out = []
    d, sd = t.shape[0], t.static[0]
    rest = T(t.dtype, t.shape[1:], t.static[1:])
    for i in (0, 1, -1, 2):
        if -d <= i < d:
            out.append((f"{code}[{i}]", rest))
    if oob and sd is None:
        out.append((f"{code}[{d}]", rest))
    for s, text in ((slice(1, None), "1:"), (slice(None, 2), ":2"), (slice(None, None, 2), "::2"),
                    (slice(-2, None), "-2:"), (slice(1, -1), "1:-1")):
        n = len(range(d)[s])
        out.append((f"{code}[{text}]", T(t.dtype, (n,) + t.shape[1:],
                                          (slice_len(sd, s),) + t.static[1:])))
    if len(t.shape) >= 2:
        d1 = t.shape[1]
        drop = T(t.dtype, (d,) + t.shape[2:], (sd,) + t.static[2:])
        for j in (0, 1, -1):
            if -d1 <= j < d1:
                out.append((f"{code}[:, {j}]", drop))
        if oob and t.static[1] is None:
            out.append((f"{code}[:, {d1}]", drop))
        n = len(range(d1)[1:])
        out.append((f"{code}[:, 1:]", T(t.dtype, (d, n) + t.shape[2:],
                                        (sd, slice_len(t.static[1], slice(1, None))) + t.static[2:])))
        if d > 0 and d1 > 0:
            out.append((f"{code}[-1, 0]", T(t.dtype, t.shape[2:], t.static[2:])))
    return out


def reshapes(code, t):
    out = []
    n = numel(t.shape)
    static_n = n if None not in t.static else None
    out.append((f"tf.reshape({code}, [-1])", T(t.dtype, (n,), (static_n,))))
    for k in (2, 3):
        if n % k == 0:
            rows = n // k
            out.append((f"tf.reshape({code}, [-1, {k}])",
                        T(t.dtype, (rows, k), (rows if static_n is not None else None, k))))
            if static_n is not None and n > 0:
                out.append((f"tf.reshape({code}, [{k}, {rows}])", T(t.dtype, (k, rows), (k, rows))))
    rank = len(t.shape)
    if rank >= 2:
        out.append((f"tf.transpose({code})", T(t.dtype, t.shape[::-1], t.static[::-1])))
    for axis in (0, -1):
        pos = 0 if axis == 0 else rank
        out.append((f"tf.expand_dims({code}, {axis})",
                    T(t.dtype, t.shape[:pos] + (1,) + t.shape[pos:], t.static[:pos] + (1,) + t.static[pos:])))
    for a, s in enumerate(t.static):
        if s == 1:
            out.append((f"tf.squeeze({code}, axis={a})",
                        T(t.dtype, t.shape[:a] + t.shape[a + 1:], t.static[:a] + t.static[a + 1:])))
    return out


def concats(code, t, mismatch=False):
    """Joins of code with itself; with mismatch, also with code[..., :1, ...] along a
    dynamic dimension b, which agrees only where that size is 0 or 1 at run time."""
    out = []
    rank = len(t.shape)
    for b in range(rank) if mismatch else ():
        if t.static[b] is not None:
            continue
        cut = f"{code}[{', '.join([':'] * b + [':1'])}]"
        for a in range(rank):
            if a != b:
                d, s = t.shape[a], t.static[a]
                out.append((f"tf.concat([{code}, {cut}], axis={a})",
                            T(t.dtype, t.shape[:a] + (2 * d,) + t.shape[a + 1:],
                              t.static[:a] + (None if s is None else 2 * s,) + t.static[a + 1:])))
        out.append((f"tf.stack([{cut}, {code}], axis=0)",
                    T(t.dtype, (2,) + t.shape, (2,) + t.static)))
    for a in range(rank):
        d, s = t.shape[a], t.static[a]
        out.append((f"tf.concat([{code}, {code}], axis={a})",
                    T(t.dtype, t.shape[:a] + (2 * d,) + t.shape[a + 1:],
                      t.static[:a] + (None if s is None else 2 * s,) + t.static[a + 1:])))
    for a in (0, rank):
        out.append((f"tf.stack([{code}, {code}], axis={a})",
                    T(t.dtype, t.shape[:a] + (2,) + t.shape[a:], t.static[:a] + (2,) + t.static[a:])))
    return out


def argmaxes(code, t):
    if not is_int(t.dtype) or not t.shape:
        return []
    out = []
    for a in range(len(t.shape)):
        if t.shape[a] > 0:
            shape, static = reduce_type(t, (a,), False)
            for op in ("argmax", "argmin"):
                out.append((f"tf.{op}({code}, axis={a})", T("int64", shape, static)))
    return out


def matmuls(code, t):
    if len(t.shape) != 2 or t.dtype not in ("float32", "float64", "int32"):
        return []
    m, k = t.shape
    sm, sk = t.static
    return [(f"tf.matmul({code}, {code}, transpose_b=True)", T(t.dtype, (m, m), (sm, sm))),
            (f"tf.matmul({code}, {code}, transpose_a=True)", T(t.dtype, (k, k), (sk, sk))),
            (f"tf.matmul(tf.transpose({code}), {code})", T(t.dtype, (k, k), (sk, sk)))]


def indent(lines):
    return ["    " + line for line in lines]


# --- entry points -------------------------------------------------------------------------

def generate(seed, features=None, attempt=0, zero_ties=False):
    """(source, args) of program `seed` (attempt > 0: a regeneration after a TF refusal;
    zero_ties: the same program with the zeros of max and min made +0.0, Gen.tie)."""
    features = FEATURES.keys() if features is None else features
    for retry in range(50):
        gen = Gen(f"{seed}/{attempt}/{retry}", features, zero_ties)
        try:
            return gen.program()
        except GenFail:
            continue
    raise RuntimeError(f"seed {seed}: no program after 50 tries")


def parse_features(exclude):
    """The feature set without the comma-separated names in exclude (checked)."""
    names = [x for x in (exclude or "").split(",") if x]
    unknown = [x for x in names if x not in FEATURES]
    if unknown:
        raise SystemExit(f"unknown feature(s): {', '.join(unknown)}; see --list-features")
    return [f for f in FEATURES if f not in names]


def repro_header(name, args):
    return f"# repro: agc run {name}:f --args '{json.dumps(args)}'"


def main():
    argv = sys.argv[1:]
    if "--list-features" in argv:
        for name, text in FEATURES.items():
            print(f"{name:<16} {text}")
        return
    exclude = None
    if "--exclude" in argv:
        k = argv.index("--exclude")
        exclude = argv[k + 1]
        del argv[k:k + 2]
    zero_ties = "--zero-ties" in argv
    argv = [a for a in argv if a != "--zero-ties"]
    if len(argv) != 1:
        raise SystemExit(__doc__.split("\n\n")[1])
    source, args = generate(int(argv[0]), parse_features(exclude), zero_ties=zero_ties)
    print(repro_header(f"prog{argv[0]}.py", args))
    print(source, end="")


if __name__ == "__main__":
    main()
