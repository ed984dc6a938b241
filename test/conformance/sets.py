"""Python sets while tracing: displays, set(), comprehensions, methods and operators.
tf.function runs them as Python; where a result depends on the order Python iterates a set
in, agc follows it when certain (small ints) and refuses otherwise (sorted() fixes it)."""
import tensorflow as tf

ALLOWED = {"relu", "tanh", "sigmoid"}


@tf.function
def membership(x):
    names = {"relu", "tanh"}
    names.add("sigmoid")
    names.discard("softmax")
    if "tanh" in names and "gelu" not in names:
        x = tf.tanh(x)
    return x, len(names)


@tf.function
def set_algebra(x):
    a = {1, 2, 3, 4}
    b = set([3, 4, 5])
    return (x * len(a | b), x + len(a & b), x - len(a - b), len(a ^ b),
            a >= {1, 2}, {1, 2} < a, a.isdisjoint({9}), b.issubset(range(10)))


@tf.function
def dedup_then_sorted(x):
    axes = sorted({2, 0, 2, 1, 0})
    return tf.reduce_sum(x, axis=axes[-1]), len(axes)


@tf.function
def small_ints_in_order(x):
    acc = []
    for i in {5, 3, 1, 3}:
        acc.append(x * i)
    return tf.stack(acc)


@tf.function
def set_comprehension(x):
    squares = {i * i % 7 for i in range(10)}
    total = sum(squares)
    return x + total, len(squares), max(squares), min(squares)


@tf.function
def update_and_remove(x):
    s = set()
    s.update([1, 2], (3,))
    s.remove(2)
    s |= {7}
    s -= {1}
    t = s.copy()
    t.clear()
    return x * len(s), len(t), 7 in s, s == {3, 7}


@tf.function
def module_set_config(x, activation):
    if activation not in ALLOWED:
        raise ValueError("unknown activation " + activation)
    return getattr(tf.nn, activation)(x)


@tf.function
def string_set_iterated(x):
    for name in {"a", "b"}:
        x = x + len(name)
    return x


@tf.function
def tensor_in_set(x):
    return {x, 1}


@tf.function
def remove_missing(x):
    s = {1}
    s.remove(2)
    return x
