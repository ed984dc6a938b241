"""Tuples, lists, dicts and namedtuples carried through staged control flow. TensorFlow
flattens such a structure (tf.nest) and carries each leaf through tf.cond or
tf.while_loop; the structure must be the same on both branches and from one iteration to
the next, and each leaf keeps its dtype (and its shape, unless set_loop_options relaxes it)."""
import collections
import typing

import tensorflow as tf

Pair = collections.namedtuple("Pair", ["lo", "hi"])


class Stats(typing.NamedTuple):
    total: tf.Tensor
    count: tf.Tensor


@tf.function
def tuple_from_staged_if(x):
    if x > 0:
        p = (x, x * 2.0)
    else:
        p = (-x, 1.0)
    return p[0] + p[1]


@tf.function
def dict_from_staged_if(x):
    if tf.reduce_sum(x) > 0:
        d = {"scale": x * 2.0, "shift": 1.0}
    else:
        d = {"shift": -1.0, "scale": -x}
    return d["scale"] + d["shift"]


@tf.function
def nested_from_staged_if(x):
    if x > 1.0:
        r = {"pair": (x, x + 1.0), "items": [x * 3.0]}
    else:
        r = {"pair": (1.0, x), "items": [x - 3.0]}
    return r["pair"][0] * r["pair"][1] + r["items"][0]


@tf.function
def namedtuple_from_staged_if(x):
    if x < 0:
        p = Pair(lo=x, hi=0.0)
    else:
        p = Pair(lo=0.0, hi=x)
    return p.hi - p.lo, p


@tf.function
def tuple_return_from_staged_if(x):
    if x > 0:
        return x, x * 2.0
    else:
        return -x, tf.constant(1.0)


@tf.function
def dict_return_from_staged_if(x):
    if tf.reduce_max(x) > 2:
        return {"max": tf.reduce_max(x), "n": tf.size(x)}
    return {"max": tf.constant(0.0), "n": tf.constant(0)}


@tf.function
def none_leaf_kept(x):
    if x > 0:
        out = (x, None)
    else:
        out = (-x, None)
    return out[0], out[1] is None


@tf.function
def list_loop_variable(n):
    v = [tf.constant(0), 1]
    i = 0
    while i < n:
        v = [v[0] + i, v[1] * 2]
        i += 1
    return v


@tf.function
def dict_loop_variable(x):
    acc = {"sum": tf.constant(0.0), "count": 0}
    for row in x:
        acc = {"sum": acc["sum"] + tf.reduce_sum(row), "count": acc["count"] + 1}
    return acc["sum"] / tf.cast(tf.maximum(acc["count"], 1), tf.float32)


@tf.function
def namedtuple_loop_variable(x):
    p = Pair(lo=x, hi=x)
    for _ in tf.range(3):
        p = Pair(lo=p.lo - 1.0, hi=p.hi + 1.0)
    return p.hi - p.lo


@tf.function
def typed_namedtuple_loop_variable(x):
    s = Stats(total=tf.constant(0.0), count=tf.constant(0))
    for v in x:
        if v > 0:
            s = Stats(total=s.total + v, count=s.count + 1)
    return s


@tf.function
def tuple_unpacked_each_iteration(n):
    state = (tf.constant(0), tf.constant(1))
    for _ in tf.range(n):
        a, b = state
        state = (b, a + b)
    return state[0]


@tf.function
def nested_structure_loop(n):
    s = {"fib": (tf.constant(0), tf.constant(1)), "steps": [tf.constant(0)]}
    for _ in tf.range(n):
        a, b = s["fib"]
        s = {"fib": (b, a + b), "steps": [s["steps"][0] + 1]}
    return s["fib"][1], s["steps"][0]


@tf.function
def structure_loop_with_break(x):
    best = {"value": tf.constant(-1.0), "index": tf.constant(-1)}
    i = tf.constant(0)
    for v in x:
        if v > 2.0:
            best = {"value": v, "index": i}
            break
        i += 1
    return best["value"], best["index"]


@tf.function
def structure_in_while_test(x):
    s = (x, tf.constant(0))
    while s[0] < 100.0:
        s = (s[0] * 2.0, s[1] + 1)
    return s


@tf.function
def alias_keeps_old_value(n):
    d = {"a": tf.constant(0)}
    first = d
    for i in tf.range(n):
        d = {"a": d["a"] + i}
    return first["a"], d["a"]


@tf.function
def list_changes_length_in_loop(n):
    v = [tf.constant(0)]
    for i in tf.range(n):
        v = [v[0], i]
    return v[0]


@tf.function
def dict_changes_keys_in_if(x):
    if x > 0:
        d = {"a": x}
    else:
        d = {"b": x}
    return x


@tf.function
def leaf_dtype_differs_in_if(x):
    if x > 0:
        p = (x, 1)
    else:
        p = (x, 1.5)
    return p[0]


@tf.function
def leaf_dtype_changes_in_loop(n):
    s = (tf.constant(0), tf.constant(0))
    for i in tf.range(n):
        s = (s[0] + i, tf.cast(i, tf.float32))
    return s[0]


@tf.function
def returns_of_different_structure(x):
    if x > 0:
        return x, x
    return x


@tf.function
def item_store_in_loop(n):
    d = {"a": tf.constant(0)}
    alias = d
    for i in tf.range(n):
        d["a"] = d["a"] + i
    return alias["a"], d["a"]


@tf.function
def rebuilt_dict_in_loop(n):
    d = {"a": tf.constant(0), "b": 1.0}
    for i in tf.range(n):
        d = {**d, "a": d["a"] + i}
    return d["a"], d["b"]


@tf.function
def python_number_in_returned_tuple(x):
    if x > 0:
        return x, 1.0
    y = x * 2.0
    return y, 2.0
