"""Python lists and dicts while tracing: literals, methods, aliasing, **kwargs, dict
comprehensions. tf.function runs them as Python (AutoGraph leaves them alone), so a list
or dict is one object that every name bound to it sees change."""
import collections
import enum
import typing

import tensorflow as tf

CONFIG = {"scale": 2.0, "shift": -1.0, "layers": [3, 4]}
DEFAULTS = dict(alpha=0.5, beta=1.5)


@tf.function
def config_dict(x):
    return x * CONFIG["scale"] + CONFIG["shift"]


@tf.function
def dict_of_tensors(x):
    parts = {"double": x * 2, "square": x * x}
    parts["sum"] = parts["double"] + parts["square"]
    return parts["sum"]


@tf.function
def dict_get_and_default(x):
    opts = {"eps": 0.1}
    return x + opts.get("eps", 1.0) + opts.get("missing", 10.0) + len(opts)


@tf.function
def items_loop(x):
    total = tf.zeros_like(x)
    for name, weight in DEFAULTS.items():
        if name == "alpha":
            total += x * weight
        else:
            total -= weight
    return total


@tf.function
def keys_and_values(x):
    d = {"a": 1, "b": 2, "c": 3}
    keys = sorted(d.keys(), reverse=True)
    return x * sum(d.values()) + len(keys) * 100 + (keys[0] == "c")


@tf.function
def update_and_setdefault(x):
    d = {"a": x}
    d.update(b=x * 2)
    d.update({"c": x * 3})
    d.setdefault("a", x * 100)
    d.setdefault("e", x * 5)
    return tf.stack([d[k] for k in d])


@tf.function
def pop_and_delete(x):
    d = {"a": x, "b": x + 1, "c": x + 2}
    b = d.pop("b")
    del d["a"]
    missing = d.pop("zzz", -1)
    return b + d["c"] + missing + len(d)


@tf.function
def dict_comprehension(x):
    powers = {k: x ** k for k in range(1, 4)}
    return powers[1] + powers[2] + powers[3]


@tf.function
def dict_comprehension_over_items(x):
    scaled = {name: w * 10 for name, w in DEFAULTS.items() if w > 1}
    return x + scaled["beta"] + len(scaled)


@tf.function
def dict_in_and_equality(x):
    d = {"a": 1, 2: "two", (1, 2): 3.0}
    same = {"a": 1, 2: "two", (1, 2): 3.0} == d
    return x + ("a" in d) + (2 in d) + ((1, 2) in d) + ("b" not in d) + same


@tf.function
def int_keys_equal_float_keys(x):
    d = {1: "one"}
    d[1.0] = "uno"
    d[True] = "si"
    return x + len(d) + (d[1] == "si")


def scaled(x, **kwargs):
    return x * kwargs.get("scale", 1.0) + kwargs.get("bias", 0.0)


@tf.function
def kwargs_helper(x):
    return scaled(x) + scaled(x, scale=3.0) + scaled(x, bias=1.0, scale=2.0)


def dense(x, units, activation=None, **unused):
    y = x * units
    return activation(y) if activation else y


@tf.function
def double_star_call(x):
    options = {"units": 3, "activation": tf.nn.relu, "name": "ignored"}
    return dense(x, **options) + dense(x, **{"units": 2})


def describe(*args, **kwargs):
    return len(args) * 10 + len(kwargs)


@tf.function
def star_args_and_kwargs(x):
    return x + describe(1, 2, 3, a=1, b=2)


@tf.function
def dict_display_unpacking(x):
    base = {"a": 1.0, "b": 2.0}
    merged = {**base, "b": 20.0, "c": 30.0}
    return x + merged["a"] + merged["b"] + merged["c"] + len(merged)


@tf.function
def list_alias(x):
    a = []
    b = a
    b.append(x)
    b.append(x * 2)
    return tf.stack(a)


def add_to(acc, value):
    acc.append(value)


@tf.function
def helper_mutates_argument(x):
    outputs = []
    for k in range(3):
        add_to(outputs, x + k)
    return tf.stack(outputs)


@tf.function
def nested_list_mutation(x):
    rows = [[x], [x * 2]]
    rows[0].append(x * 3)
    return tf.stack(rows[0]) + len(rows[1])


@tf.function
def item_assignment(x):
    values = [x, x, x]
    values[0] = x + 1
    values[-1] = x - 1
    return tf.stack(values)


@tf.function
def list_methods(x):
    xs = [3, 1, 2]
    xs.extend([5, 4])
    xs.insert(0, 9)
    xs.remove(1)
    last = xs.pop()
    first = xs.pop(0)
    xs.sort()
    xs.reverse()
    return x + last * 100 + first * 10 + xs.index(3) + xs.count(2) + xs[0]


@tf.function
def list_plus_equals_is_in_place(x):
    a = [x]
    b = a
    b += [x * 2]
    return tf.stack(a)


@tf.function
def list_copy_is_not_alias(x):
    a = [x]
    b = a.copy()
    c = a[:]
    b.append(x * 2)
    c.append(x * 3)
    return tf.stack(a) + len(b) + len(c)


@tf.function
def list_equality(x):
    same = [1, 2, (3, "a")] == [1, 2, (3, "a")]
    different = [1, 2] == [1, 2, 3]
    return x + same * 10 + different + ([1] != [2])


@tf.function
def round_builtin(x):
    return x + round(2.5) + round(3.5) + round(-0.5) + round(2.675, 2) + round(7)


@tf.function
def dict_in_staged_branch(x):
    weights = {"pos": 2.0, "neg": -3.0}
    if x > 0:
        y = x * weights["pos"]
    else:
        y = x * weights["neg"]
    return y


@tf.function
def dict_local_to_staged_loop(x):
    i = tf.constant(0)
    while i < 3:
        d = {"step": tf.cast(i, tf.float32)}
        d["step"] += 1.0
        x = x + d["step"]
        i += 1
    return x


@tf.function
def returns_dict(x):
    return {"double": x * 2, "half": x / 2}


@tf.function
def list_in_staged_branch_mutated(x):
    acc = [x]
    if x > 0:
        acc.append(x * 2)
    return acc[-1]


@tf.function
def key_error(x):
    d = {"a": x}
    return d["b"]


@tf.function
def tensor_as_dict_key(x):
    d = {x: 1}
    return x


@tf.function
def list_changed_after_staged_return(x):
    seen = []
    if x > 0:
        return x
    seen.append(x)
    return x + len(seen)


@tf.function
def add_n_of_python_list(x):
    parts = [x * k for k in range(4)]
    return tf.add_n(parts)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def add_n_of_unknown_lengths(a, b):
    return tf.add_n([a, b, a * 2])


Pair = collections.namedtuple("Pair", ["left", "right"])
Options = collections.namedtuple("Options", "rate steps clip", defaults=[3, None])


class Span(typing.NamedTuple):
    start: float
    stop: float = 10.0

    def width(self):
        return self.stop - self.start


@tf.function
def namedtuples(x):
    p = Pair(x, right=x * 2)
    opts = Options(0.5)
    left, right = p
    q = p._replace(right=x * 10)
    s = Span(1.0)
    extra = opts._asdict()["steps"] + len(p._fields)
    return (p.left + p[1] + left * right + q.right + opts.rate * opts.steps + s.width() +
            isinstance(p, Pair) + isinstance(p, tuple) + extra + (opts.clip is None))


@tf.function
def namedtuple_of_tensors_returned(x):
    return Pair(tf.reduce_sum(x), tf.reduce_max(x))


class Mode(enum.Enum):
    TRAIN = "train"
    EVAL = 2


@tf.function
def enum_members(x, training=True):
    mode = Mode.TRAIN if training else Mode.EVAL
    tf.print(f"{mode}", mode.name, mode.value)
    if mode == Mode.TRAIN:
        return x * 2 + len(mode.value)
    return x * mode.value + (mode is Mode.EVAL)
